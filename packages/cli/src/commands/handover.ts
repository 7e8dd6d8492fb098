/**
 * The `urikit handover` command: hands the resolution of an authority
 * over from one urikit resolver to another that mirrors it (1995 draft
 * §6A; the procedure is in docs/resolver.md, "Handing over an
 * authority"), through both admin APIs.
 */
import { COMMON, EXIT_FAILURE, EXIT_OK, UsageError, intOption, type Command } from '../command.js';
import { writeOut } from '../inputs.js';

const URL_RE = /^https?:\/\/[^\s?#]+$/i;

/**
 * The `urikit handover` command: its options, help text and what it runs.
 *
 * @example
 * ```ts
 * import { parseCommandLine } from '../command.js';
 * await handoverCommand.run(parseCommandLine(handoverCommand, ['urn:isbn', '--from', 'http://127.0.0.1:1', '--from-token', 't', '--to', 'http://127.0.0.1:1', '--to-token', 't'])) // 3 (nothing listens there)
 * await handoverCommand.run(parseCommandLine(handoverCommand, ['urn:isbn'])) // throws UsageError
 * ```
 */
export const handoverCommand: Command = {
  name: 'handover',
  summary: 'hand the resolution of an authority over from one urikit resolver to another that mirrors it (writes stop, a last harvest, then every name redirected with 301)',
  usage: ['handover AUTHORITY --from OLD-URL --from-token TOKEN --to NEW-URL --to-token TOKEN [options]'],
  details: 'NEW-URL must already mirror AUTHORITY (urikit serve --mirror OLD-URL,AUTHORITY). Steps:\n1. the old resolver stops taking writes of AUTHORITY (PUT /admin/handover, redirect false);\n2. after --settle-seconds, the new one takes a last harvest and stops mirroring: it takes the writes (POST /admin/mirror/promote);\n3. the old one redirects every name under AUTHORITY to the new one with 301, in the same request form (PUT /admin/handover, redirect true), from then on.\nNames are answered all along. Every step can be run again.',
  options: {
    ...COMMON,
    from: { type: 'string', arg: 'URL', help: 'the base URL of the old resolver' },
    'from-token': { type: 'string', arg: 'TOKEN', help: 'an admin token of the old resolver over AUTHORITY' },
    to: { type: 'string', arg: 'URL', help: 'the base URL of the new resolver (it mirrors AUTHORITY)' },
    'to-token': { type: 'string', arg: 'TOKEN', help: 'an admin token of the new resolver over AUTHORITY' },
    'settle-seconds': { type: 'string', arg: 'SECONDS', help: 'time between stopping the writes and the last harvest (default 2: every process of the old resolver sees the stop)' },
    json: { type: 'boolean', help: 'print the report as JSON' },
  },
  examples: ['urikit handover urn:nbn:de:101- --from https://a.example --from-token $TA --to https://b.example --to-token $TB'],
  exitStatus: '0 handed over, 2 usage error, 3 a step failed (the report says which; run it again).',
  run: async (args) => {
    const [authority, ...extra] = args.positionals;
    if (authority === undefined || extra.length > 0) throw new UsageError('handover takes one AUTHORITY (a URN prefix)', 'handover');
    const v = args.values;
    for (const k of ['from', 'to'] as const) if (typeof v[k] !== 'string' || !URL_RE.test(v[k] as string)) throw new UsageError(`--${k} is the http or https base URL of a urikit resolver`, 'handover');
    for (const k of ['from-token', 'to-token'] as const) if (typeof v[k] !== 'string' || v[k] === '') throw new UsageError(`missing --${k}`, 'handover');
    const settleMs = intOption(args, 'settle-seconds', 2, 0, 3600) * 1000;
    const { handOver } = await import('@urikit/resolver');
    const report = await handOver({
      authority, from: v.from as string, fromToken: v['from-token'] as string, to: v.to as string, toToken: v['to-token'] as string, settleMs,
      onStep: (step) => { if (v.json !== true) process.stderr.write(`done: ${step}\n`); },
    });
    if (v.json === true) await writeOut(JSON.stringify(report) + '\n');
    else if (report.ok) await writeOut(`${authority} handed over to ${v.to as string} (last harvest: ${report.harvest?.applied ?? 0} records in ${report.harvest?.pages ?? 0} pages)\n`);
    else process.stderr.write(`handover failed: ${report.error ?? 'unknown'}\n`);
    return report.ok ? EXIT_OK : EXIT_FAILURE;
  },
};
