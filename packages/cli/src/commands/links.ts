/**
 * `urikit links check`: a one-off run of the resolver's link checker over
 * a store (every location of every active name, on the schedule, the
 * health kept in the store) or over a list of URLs; HEAD then GET,
 * redirects followed, 429/503 and timeouts as "retry later", never inside
 * the operator's network unless allowed.
 */
import { readFileSync } from 'node:fs';
import type { LinkCheckerOptions, LinkCheckSummary, LinkHealth, LinkSchedule, ProbeOptions } from '@urikit/resolver';
import { COMMON, EXIT_INVALID, EXIT_OK, UsageError, intOption, type Args, type Command, type OptionSpec } from '../command.js';
import { writeOut } from '../inputs.js';

/** The names a command gives the checker's options (`links check` plain, `serve` under `links-`). */
interface LinkOptionNames {
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

/**
 * The probe, politeness and schedule options a command line sets; the
 * schedule only if one of its options was given (EZID's intervals
 * otherwise: DEFAULT_SCHEDULE).
 */
function checkerOptions(args: Args, n: LinkOptionNames): { probe: Partial<ProbeOptions>; politeness: Record<string, number>; schedule?: LinkSchedule } {
  const probe: Partial<ProbeOptions> = {};
  if (args.values[n.allowPrivate] === true) probe.allowAddresses = 'all';
  if (args.values[n.timeoutMs] !== undefined) probe.timeoutMs = intOption(args, n.timeoutMs, 30_000, 1, 600_000);
  if (typeof args.values[n.contact] === 'string') probe.userAgent = `urikit-link-checker/0.1 (+${args.values[n.contact] as string})`;
  const politeness: Record<string, number> = {};
  if (args.values[n.hostDelayMs] !== undefined) politeness.perHostDelayMs = intOption(args, n.hostDelayMs, 1000, 0, 600_000);
  if (args.values[n.rate] !== undefined) politeness.globalRate = intOption(args, n.rate, 20, 0, 10_000);
  const names = [n.okDays, n.failingHours, ...(n.brokenAfter !== undefined ? [n.brokenAfter] : [])];
  if (names.every((x) => args.values[x] === undefined)) return { probe, politeness };
  // EZID's: 30 days after a good answer, 52 hours after a bad one, 7 failures in a row before a report
  const schedule: LinkSchedule = {
    okIntervalMs: intOption(args, n.okDays, 30, 1, 3650) * 24 * HOUR,
    failingIntervalMs: intOption(args, n.failingHours, 52, 1, 24 * 3650) * HOUR,
    retryIntervalMs: HOUR,
    reportAfterFailures: n.brokenAfter !== undefined ? intOption(args, n.brokenAfter, 7, 1, 1000) : 7,
  };
  return { probe, politeness, schedule };
}

const LINKS_CHECK_NAMES: LinkOptionNames = { allowPrivate: 'allow-private', timeoutMs: 'timeout-ms', contact: 'contact', hostDelayMs: 'host-delay-ms', rate: 'rate', okDays: 'ok-days', failingHours: 'failing-hours' };
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
  'check-links': { type: 'boolean', help: 'check the locations of the active names in the background (EZID\'s schedule: 30 days when healthy, 52 hours when failing)' },
  'link-checker-contact': { type: 'string', arg: 'URL', help: 'where a site owner can ask about the link checker (mailto: or a page), sent in its User-Agent' },
  'links-allow-private': { type: 'boolean', help: 'let the link checker reach private, loopback and link-local addresses (default: public only)' },
  'links-exclude-host': { type: 'string', multiple: true, arg: 'HOST', help: 'never probe this host or its subdomains; repeatable' },
  'links-pause': { type: 'string', multiple: true, arg: 'PREFIX', help: 'do not check the names under this authority prefix for now; repeatable' },
  'links-ok-days': { type: 'string', arg: 'DAYS', help: 'recheck a healthy location after DAYS days (default 30)' },
  'links-failing-hours': { type: 'string', arg: 'HOURS', help: 'recheck a failing location after HOURS hours (default 52)' },
  'links-broken-after': { type: 'string', arg: 'N', help: 'report a location broken (/admin/links?state=broken) after N failures in a row (default 7)' },
  'links-host-delay-ms': { type: 'string', arg: 'MS', help: 'least time between two requests to one host (default 1000)' },
  'links-rate': { type: 'string', arg: 'N', help: 'requests started per second over all hosts (default 20; 0: no limit)' },
  'links-timeout-ms': { type: 'string', arg: 'MS', help: 'time for each request of the link checker to answer (default 30000)' },
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

/** One result line: state, failures, status or error, URL (and the name, over a store). */
function line(h: LinkHealth, urn?: string): string {
  const why = h.error ?? (h.status !== undefined ? String(h.status) : '');
  return `${h.state}\t${h.consecutiveFailures}\t${why}\t${h.url}${urn !== undefined ? `\t${urn}` : ''}\n`;
}

function summaryText(s: LinkCheckSummary): string {
  return `checked ${s.checked}: ${s.ok} ok, ${s.broken} broken, ${s.retry} retry later, ${s.blocked} blocked; ${s.notDue} not due, ${s.excluded} excluded, ${s.paused} paused\n`;
}

/**
 * The `urikit links` command: its options, help text and what it runs.
 *
 * @example
 * ```ts
 * import { parseCommandLine } from '../command.js';
 * // A location on 127.0.0.1 is not fetched unless --allow-private: it is "blocked" (exit status 0: nothing broken).
 * await linksCommand.run(parseCommandLine(linksCommand, ['check', 'http://127.0.0.1:1/x'])) // 0
 * await linksCommand.run(parseCommandLine(linksCommand, ['check', '--allow-private', '--timeout-ms', '2000', 'http://127.0.0.1:1/x'])) // 1 (refused: broken)
 * await linksCommand.run(parseCommandLine(linksCommand, ['verify'])) // throws UsageError
 * ```
 */
export const linksCommand: Command = {
  name: 'links',
  summary: 'check the locations of the names in a store, or a list of URLs (HEAD then GET, redirects, politely)',
  usage: ['links check --db URL [options]', 'links check [options] URL...', 'links check [options] --input FILE'],
  details: 'Over a store (--db): every location of every active name that is due on the schedule (30 days when\nhealthy, 52 hours when failing; --force: all), its health kept in the store where the resolver orders\nlocations by it and /admin/links reports it. Over URLs: each one now, nothing kept.\nHEAD first, then GET (reading only the head of the body) when HEAD is refused; up to 10 redirects;\n429, 503 and timeouts are "retry later", not broken. One request at a time per host, a second apart,\n20 a second in all. Private, loopback and link-local addresses are never probed unless --allow-private.\nPrints one line per location not healthy (state, failures in a row, status or error, URL, name) and a\nsummary on standard error; --json prints {summary, lines}.',
  options: {
    ...COMMON,
    json: { type: 'boolean', help: 'print {summary, lines} as JSON' },
    db: { type: 'string', arg: 'URL', help: 'the store whose names to check (a SQLite file or postgres://...)' },
    input: { type: 'string', short: 'i', arg: 'FILE', help: 'a file of URLs, one per line ("-" is standard input)' },
    prefix: { type: 'string', arg: 'PREFIX', help: 'with --db: only the names under this prefix' },
    force: { type: 'boolean', help: 'with --db: check every location now, whatever the schedule says' },
    all: { type: 'boolean', help: 'print a line for every location, healthy ones too' },
    'allow-private': { type: 'boolean', help: 'let the checker reach private, loopback and link-local addresses (an intranet\'s resolver)' },
    'exclude-host': { type: 'string', multiple: true, arg: 'HOST', help: 'never probe this host or its subdomains; repeatable' },
    pause: { type: 'string', multiple: true, arg: 'PREFIX', help: 'with --db: skip the names under this authority prefix for now; repeatable' },
    'timeout-ms': { type: 'string', arg: 'MS', help: 'time for each request to answer (default 30000)' },
    'host-delay-ms': { type: 'string', arg: 'MS', help: 'least time between two requests to one host (default 1000)' },
    'ok-days': { type: 'string', arg: 'DAYS', help: 'with --db: the next check of a healthy location, DAYS days on (default 30)' },
    'failing-hours': { type: 'string', arg: 'HOURS', help: 'with --db: the next check of a failing location, HOURS hours on (default 52)' },
    rate: { type: 'string', arg: 'N', help: 'requests started per second over all hosts (default 20; 0: no limit)' },
    contact: { type: 'string', arg: 'URL', help: 'where a site owner can ask about the checker (mailto: or a page), sent in the User-Agent' },
  },
  examples: [
    'urikit links check --db names.sqlite --contact mailto:urn-admin@library.example   # nightly, from cron',
    'urikit links check --db postgres://user@db/urikit --prefix urn:nbn:de:101- --force --json',
    'urikit links check https://www.rfc-editor.org/rfc/rfc8141 https://example.org/gone',
  ],
  exitStatus: '0 nothing broken, 1 some location broken, 2 usage error, 3 the store could not be opened.',
  run: async (args) => {
    const [action, ...urls] = args.positionals;
    if (action !== 'check') throw new UsageError(action === undefined ? 'missing action: check' : `unknown action "${action}": check`, 'links');
    const db = args.values.db as string | undefined;
    const input = args.values.input as string | undefined;
    if (db !== undefined && (urls.length > 0 || input !== undefined)) throw new UsageError('check either a store (--db) or URLs, not both', 'links');
    if (db === undefined && urls.length === 0 && input === undefined) throw new UsageError('nothing to check: --db URL, URLs or --input FILE', 'links');
    const { probe, politeness, schedule } = checkerOptions(args, LINKS_CHECK_NAMES);
    const excludeHosts = (args.values['exclude-host'] as string[] | undefined) ?? [];
    const service = await import('@urikit/resolver');
    let summary: LinkCheckSummary;
    const lines: Array<{ urn?: string; health: LinkHealth }> = [];
    const shown = (h: LinkHealth) => args.values.all === true || h.state !== 'ok';
    if (db !== undefined) {
      const store = await service.openStore(db);
      try {
        const paused = ((args.values.pause as string[] | undefined) ?? []).map(service.authorityPrefix);
        summary = await service.checkStoreLinks(store, { probe, politeness, excludeHosts, pausedPrefixes: paused, force: args.values.force === true, ...(schedule !== undefined ? { schedule } : {}), ...(typeof args.values.prefix === 'string' ? { prefix: args.values.prefix } : {}) });
        const states = args.values.all === true ? undefined : new Set(['failing', 'retry', 'blocked'] as const);
        let after: string | undefined;
        for (;;) {
          const page = await store.linkHealth.report({ prefix: typeof args.values.prefix === 'string' ? args.values.prefix : '', ...(states !== undefined ? { states } : {}), ...(after !== undefined ? { after } : {}) });
          for (const l of page.lines) lines.push({ urn: l.key, health: l.health });
          if (page.next === undefined) break;
          after = page.next;
        }
      } finally {
        await store.close();
      }
    } else {
      const list = input === undefined ? urls : readFileSync(input === '-' ? 0 : input, 'utf8').split(/\r?\n/).map((s) => s.trim()).filter((s) => s !== '' && !s.startsWith('#'));
      const health = new service.MemoryLinkHealthStore();
      summary = await service.checkLinks(list.map((url) => ({ url })), health, { probe, politeness, excludeHosts, force: true });
      for (const url of list) {
        const h = await health.get(url);
        if (h !== undefined && shown(h)) lines.push({ health: h });
      }
    }
    if (args.values.json === true) await writeOut(`${JSON.stringify({ summary, lines: lines.map((l) => ({ ...(l.urn !== undefined ? { urn: l.urn } : {}), ...l.health })) })}\n`);
    else {
      for (const l of lines) await writeOut(line(l.health, l.urn));
      process.stderr.write(summaryText(summary));
    }
    return lines.some((l) => l.health.state === 'failing') ? EXIT_INVALID : EXIT_OK;
  },
};
