/**
 * The link checker's options on the command line (its probe, politeness
 * and schedule), shared by `urikit links check` and `urikit serve
 * --check-links` (which names them `--links-*`), with the defaults read
 * from the resolver (`@urikit/resolver/defaults`).
 */
import type { LinkCheckerOptions, LinkSchedule, ProbeOptions } from '@urikit/resolver';
import { DEFAULT_POLITENESS, DEFAULT_PROBE_TIMEOUT_MS, DEFAULT_SCHEDULE } from '@urikit/resolver/defaults';
import { UsageError, intOption, type Args, type OptionSpec } from '../command.js';

/**
 * The names a command gives the checker's options (`links check` plain, `serve` under `links-`).
 *
 * @example
 * ```ts
 * LINKS_CHECK_NAMES.okDays // 'ok-days'
 * ```
 */
export interface LinkOptionNames {
  allowPrivate: string;
  timeoutMs: string;
  contact: string;
  hostDelayMs: string;
  rate: string;
  okDays: string;
  failingHours: string;
  brokenAfter?: string;
}

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/**
 * The defaults of the options, in the units the command line takes them
 * (days, hours, milliseconds), from the resolver's.
 *
 * @example
 * ```ts
 * CHECKER_DEFAULTS.okDays // 30
 * CHECKER_DEFAULTS.failingHours // 52
 * ```
 */
export const CHECKER_DEFAULTS = {
  okDays: DEFAULT_SCHEDULE.okIntervalMs / DAY,
  failingHours: DEFAULT_SCHEDULE.failingIntervalMs / HOUR,
  brokenAfter: DEFAULT_SCHEDULE.reportAfterFailures,
  hostDelayMs: DEFAULT_POLITENESS.perHostDelayMs,
  rate: DEFAULT_POLITENESS.globalRate,
  timeoutMs: DEFAULT_PROBE_TIMEOUT_MS,
} as const;
const D = CHECKER_DEFAULTS;

/**
 * The probe, politeness and schedule options a command line sets; the
 * schedule only if one of its options was given (EZID's intervals
 * otherwise: DEFAULT_SCHEDULE).
 *
 * @example
 * ```ts
 * import { parseCommandLine } from '../command.js';
 * import { linksCommand } from './links.js';
 * checkerOptions(parseCommandLine(linksCommand, ['check', '--rate', '5']), LINKS_CHECK_NAMES).politeness // { globalRate: 5 }
 * ```
 */
export function checkerOptions(args: Args, n: LinkOptionNames): { probe: Partial<ProbeOptions>; politeness: Record<string, number>; schedule?: LinkSchedule } {
  const probe: Partial<ProbeOptions> = {};
  if (args.values[n.allowPrivate] === true) probe.allowAddresses = 'all';
  if (args.values[n.timeoutMs] !== undefined) probe.timeoutMs = intOption(args, n.timeoutMs, D.timeoutMs, 1, 600_000);
  if (typeof args.values[n.contact] === 'string') probe.userAgent = `urikit-link-checker/0.1 (+${args.values[n.contact] as string})`;
  const politeness: Record<string, number> = {};
  if (args.values[n.hostDelayMs] !== undefined) politeness.perHostDelayMs = intOption(args, n.hostDelayMs, D.hostDelayMs, 0, 600_000);
  if (args.values[n.rate] !== undefined) politeness.globalRate = intOption(args, n.rate, D.rate, 0, 10_000);
  const names = [n.okDays, n.failingHours, ...(n.brokenAfter !== undefined ? [n.brokenAfter] : [])];
  if (names.every((x) => args.values[x] === undefined)) return { probe, politeness };
  // The resolver's schedule (EZID's) where an option does not say otherwise
  const schedule: LinkSchedule = {
    okIntervalMs: intOption(args, n.okDays, D.okDays, 1, 3650) * DAY,
    failingIntervalMs: intOption(args, n.failingHours, D.failingHours, 1, 24 * 3650) * HOUR,
    retryIntervalMs: DEFAULT_SCHEDULE.retryIntervalMs,
    reportAfterFailures: n.brokenAfter !== undefined ? intOption(args, n.brokenAfter, D.brokenAfter, 1, 1000) : D.brokenAfter,
  };
  return { probe, politeness, schedule };
}

/**
 * The names `urikit links check` gives the checker's options.
 *
 * @example
 * ```ts
 * LINKS_CHECK_NAMES.rate // 'rate'
 * ```
 */
export const LINKS_CHECK_NAMES: LinkOptionNames = { allowPrivate: 'allow-private', timeoutMs: 'timeout-ms', contact: 'contact', hostDelayMs: 'host-delay-ms', rate: 'rate', okDays: 'ok-days', failingHours: 'failing-hours' };
const SERVE_NAMES: Required<LinkOptionNames> = {
  allowPrivate: 'links-allow-private', timeoutMs: 'links-timeout-ms', contact: 'link-checker-contact', hostDelayMs: 'links-host-delay-ms', rate: 'links-rate',
  okDays: 'links-ok-days', failingHours: 'links-failing-hours', brokenAfter: 'links-broken-after',
};

/**
 * The options of `urikit serve` for its background link checker
 * (`--check-links` and the `--link-checker-contact`, `--links-*` options
 * that go with it).
 *
 * @example
 * ```ts
 * SERVE_LINK_OPTIONS['links-ok-days']?.arg; // 'DAYS'
 * ```
 */
export const SERVE_LINK_OPTIONS: Record<string, OptionSpec> = {
  'check-links': { type: 'boolean', help: `check the locations of the active names in the background (EZID's schedule: ${D.okDays} days when healthy, ${D.failingHours} hours when failing)` },
  'link-checker-contact': { type: 'string', arg: 'URL', help: 'where a site owner can ask about the link checker (mailto: or a page), sent in its User-Agent' },
  'links-allow-private': { type: 'boolean', help: 'let the link checker reach private, loopback and link-local addresses (default: public only)' },
  'links-exclude-host': { type: 'string', multiple: true, arg: 'HOST', help: 'never probe this host or its subdomains; repeatable' },
  'links-pause': { type: 'string', multiple: true, arg: 'PREFIX', help: 'do not check the names under this authority prefix for now; repeatable' },
  'links-ok-days': { type: 'string', arg: 'DAYS', help: `recheck a healthy location after DAYS days (default ${D.okDays})` },
  'links-failing-hours': { type: 'string', arg: 'HOURS', help: `recheck a failing location after HOURS hours (default ${D.failingHours})` },
  'links-broken-after': { type: 'string', arg: 'N', help: `report a location broken (/admin/links?state=broken) after N failures in a row (default ${D.brokenAfter})` },
  'links-host-delay-ms': { type: 'string', arg: 'MS', help: `least time between two requests to one host (default ${D.hostDelayMs})` },
  'links-rate': { type: 'string', arg: 'N', help: `requests started per second over all hosts (default ${D.rate}; 0: no limit)` },
  'links-timeout-ms': { type: 'string', arg: 'MS', help: `time for each request of the link checker to answer (default ${D.timeoutMs})` },
};

/**
 * The link checker `serve` runs from its command line: undefined without
 * `--check-links`; a {@link UsageError} for a `--links-*` option without it.
 *
 * @example
 * ```ts
 * import { parseCommandLine } from '../command.js';
 * import { serveCommand } from './service.js';
 * serveLinkChecker(parseCommandLine(serveCommand, ['--check-links', '--links-ok-days', '7', '--links-broken-after', '3']))?.schedule;
 * // { okIntervalMs: 604800000, failingIntervalMs: 187200000, retryIntervalMs: 3600000, reportAfterFailures: 3 }
 * serveLinkChecker(parseCommandLine(serveCommand, [])); // undefined
 * serveLinkChecker(parseCommandLine(serveCommand, ['--links-rate', '5'])); // throws UsageError
 * ```
 */
export function serveLinkChecker(args: Args): LinkCheckerOptions | undefined {
  if (args.values['check-links'] !== true) {
    if (Object.keys(SERVE_LINK_OPTIONS).some((o) => o !== 'check-links' && args.values[o] !== undefined)) {
      throw new UsageError('the --links-* and --link-checker-contact options go with --check-links', 'serve');
    }
    return undefined;
  }
  const { probe, politeness, schedule } = checkerOptions(args, SERVE_NAMES);
  const checker: LinkCheckerOptions = {};
  if (Object.keys(probe).length > 0) checker.probe = probe;
  if (Object.keys(politeness).length > 0) checker.politeness = politeness;
  if (schedule !== undefined) checker.schedule = schedule;
  if (args.values['links-exclude-host'] !== undefined) checker.excludeHosts = args.values['links-exclude-host'] as string[];
  if (args.values['links-pause'] !== undefined) checker.pausedPrefixes = args.values['links-pause'] as string[];
  return checker;
}

