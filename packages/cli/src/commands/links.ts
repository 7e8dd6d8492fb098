/**
 * `urikit links check`: a one-off run of the resolver's link checker over
 * a store (every location of every active name, on the schedule, the
 * health kept in the store) or over a list of URLs; HEAD then GET,
 * redirects followed, 429/503 and timeouts as "retry later", never inside
 * the operator's network unless allowed.
 */
import { readFileSync } from 'node:fs';
import type { LinkCheckSummary, LinkHealth } from '@urikit/resolver';
import { COMMON, EXIT_INVALID, EXIT_OK, UsageError, type Command } from '../command.js';
import { writeOut } from '../inputs.js';
import { DEFAULT_MAX_REDIRECTS } from '@urikit/resolver/defaults';
import { CHECKER_DEFAULTS, LINKS_CHECK_NAMES, checkerOptions } from './link-checker-options.js';

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
  details: `Over a store (--db): every location of every active name that is due on the schedule (${CHECKER_DEFAULTS.okDays} days when\nhealthy, ${CHECKER_DEFAULTS.failingHours} hours when failing; --force: all), its health kept in the store where the resolver orders\nlocations by it and /admin/links reports it. Over URLs: each one now, nothing kept.\nHEAD first, then GET (reading only the head of the body) when HEAD is refused; up to ${DEFAULT_MAX_REDIRECTS} redirects;\n429, 503 and timeouts are "retry later", not broken. One request at a time per host, ${CHECKER_DEFAULTS.hostDelayMs / 1000} s apart,\n${CHECKER_DEFAULTS.rate} a second in all. Private, loopback and link-local addresses are never probed unless --allow-private.\nPrints one line per location not healthy (state, failures in a row, status or error, URL, name) and a\nsummary on standard error; --json prints {summary, lines}.`,
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
    'timeout-ms': { type: 'string', arg: 'MS', help: `time for each request to answer (default ${CHECKER_DEFAULTS.timeoutMs})` },
    'host-delay-ms': { type: 'string', arg: 'MS', help: `least time between two requests to one host (default ${CHECKER_DEFAULTS.hostDelayMs})` },
    'ok-days': { type: 'string', arg: 'DAYS', help: `with --db: the next check of a healthy location, DAYS days on (default ${CHECKER_DEFAULTS.okDays})` },
    'failing-hours': { type: 'string', arg: 'HOURS', help: `with --db: the next check of a failing location, HOURS hours on (default ${CHECKER_DEFAULTS.failingHours})` },
    rate: { type: 'string', arg: 'N', help: `requests started per second over all hosts (default ${CHECKER_DEFAULTS.rate}; 0: no limit)` },
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
