/**
 * `urikit harvest`: harvests a repository's names over OAI-PMH 2.0 into a
 * store (xepicur, oai_dc or urikit's urn_locations), incrementally from
 * where the last harvest began, under the authority prefix the repository
 * may write; the link checker's network rules (public addresses only
 * unless allowed, a pause between requests, a User-Agent with a contact).
 */
import type { HarvestJob, HarvestSource, MirrorSource } from '@urikit/resolver';
import { DEFAULT_HARVEST_EVERY_MS } from '@urikit/resolver/defaults';
import { COMMON, EXIT_FAILURE, EXIT_INVALID, EXIT_OK, UsageError, intOption, type Args, type Command, type OptionSpec } from '../command.js';
import { writeOut } from '../inputs.js';
import { closeStore, dbOf, dbOpt } from './store-options.js';

const FORMATS = ['epicur', 'oai_dc', 'urn_locations'] as const;

/** The harvester's User-Agent with the operator's contact (RFC 9110 §10.1.5: a product and a comment). */
const userAgentWith = (contact: string): string => `urikit-harvester/0.1 (+${contact})`;

/**
 * The `urikit harvest` command: its options, help text and what it runs.
 *
 * @example
 * ```ts
 * import { parseCommandLine } from '../command.js';
 * // A repository on the loopback address is not reached without --allow-private: the harvest fails (exit 3).
 * await harvestCommand.run(parseCommandLine(harvestCommand, ['http://127.0.0.1:1/oai', '--authority', 'urn:nbn:de:101-', '--db', ':memory:'])) // 3
 * await harvestCommand.run(parseCommandLine(harvestCommand, ['http://127.0.0.1:1/oai'])) // throws UsageError
 * ```
 */
/** The first words of the summary line, by the harvest's outcome. */
const HARVEST_OUTCOME = { ok: 'harvested', failed: 'harvest failed', busy: 'not harvested' } as const;

export const harvestCommand: Command = {
  name: 'harvest',
  summary: 'harvest the names of an OAI-PMH repository into a store (epicur, oai_dc, urn_locations), incrementally',
  usage: ['harvest BASE-URL --authority PREFIX [--format epicur|oai_dc|urn_locations] [--set SPEC] [options]'],
  details: [
    'Asks the repository (its OAI-PMH base URL) for the records changed since the last harvest of it began',
    '(the first time: all), follows resumption tokens, and applies each record through the lifecycle: a new',
    'name is created, a known one gets the delivered URLs as its locations (URLs no longer delivered are',
    'removed), a deleted record withdraws the name with a reason (never erases it). A record for a name',
    'outside --authority, with an invalid URN or wrong NBN check digit, or too many or bad URLs is refused',
    'and reported; the others go on. Each page is written with the harvest\'s position: an interrupted',
    'harvest resumes where it stopped. One request at a time, a second apart (--delay-ms); private,',
    'loopback and link-local addresses only with --allow-private. The state and refusals are kept in',
    'the store (GET /admin/harvests of a server on it). Prints a summary and each refusal (--json: the report).',
  ].join('\n'),
  options: {
    ...COMMON,
    json: { type: 'boolean', help: 'print the report as JSON' },
    db: dbOpt,
    authority: { type: 'string', short: 'a', arg: 'PREFIX', help: 'the names this repository may write, e.g. urn:nbn:de:101- or urn:example:' },
    format: { type: 'string', short: 'f', arg: 'PREFIX', choices: FORMATS, default: 'epicur', help: 'the metadataPrefix to harvest (default epicur)' },
    set: { type: 'string', arg: 'SPEC', help: 'harvest only this set (OAI-PMH setSpec)' },
    from: { type: 'string', arg: 'DATE', help: 'start at this datestamp (YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ) instead of where the last harvest began' },
    'allow-private': { type: 'boolean', help: 'let the harvester reach private, loopback and link-local addresses' },
    contact: { type: 'string', arg: 'URL', help: 'where a repository\'s operator can ask about the harvester (mailto: or a page), sent in the User-Agent' },
    'delay-ms': { type: 'string', arg: 'MS', help: 'least time between two requests to the repository (default 1000)' },
    'timeout-ms': { type: 'string', arg: 'MS', help: 'time for each response (default 60000)' },
    'max-bytes': { type: 'string', arg: 'N', help: 'the most bytes of one response (default 16777216)' },
    'max-pages': { type: 'string', arg: 'N', help: 'the most pages of one harvest (default 100000)' },
  },
  examples: [
    'urikit harvest https://repo.example/oai --authority urn:nbn:de:101- --db names.sqlite --contact mailto:urn-admin@library.example',
    'urikit harvest https://opus.example/oai --format oai_dc --set doc-type:article --authority urn:nbn:de:bsz:93- --db postgres://user@db/urikit',
    'urikit harvest http://127.0.0.1:4500/oai --format urn_locations --authority urn:example: --allow-private --delay-ms 0',
  ],
  exitStatus: '0 harvested, nothing refused; 1 harvested, some records refused; 2 usage error; 3 the harvest failed (see the report), another process is harvesting the repository now (one at a time per store: its lease), or the store could not be opened.',
  run: async (args) => {
    const [baseUrl, ...extra] = args.positionals;
    if (baseUrl === undefined) throw new UsageError('missing the repository\'s OAI-PMH base URL', 'harvest');
    if (extra.length > 0) throw new UsageError('harvest takes one base URL', 'harvest');
    if (!/^https?:\/\/[^?#]+$/i.test(baseUrl)) throw new UsageError(`"${baseUrl}" is not an http or https base URL without a query (OAI-PMH §4.2 baseURL)`, 'harvest');
    const authority = args.values.authority;
    if (typeof authority !== 'string' || authority === '') throw new UsageError('missing --authority PREFIX: the names this repository may write', 'harvest');
    const fetch: Record<string, unknown> = {};
    if (args.values['allow-private'] === true) fetch.allowAddresses = 'all';
    if (typeof args.values.contact === 'string') fetch.userAgent = userAgentWith(args.values.contact as string);
    if (args.values['timeout-ms'] !== undefined) fetch.timeoutMs = intOption(args, 'timeout-ms', 60_000, 1, 3_600_000);
    if (args.values['max-bytes'] !== undefined) fetch.maxBytes = intOption(args, 'max-bytes', 16 * 1024 * 1024, 1024, 2 ** 40);
    const service = await import('@urikit/resolver');
    const store = await service.openStore(dbOf(args.values));
    try {
      const report = await service.harvestRepository(store, {
        baseUrl, metadataPrefix: args.values.format as (typeof FORMATS)[number], authority,
        ...(typeof args.values.set === 'string' ? { set: args.values.set } : {}),
      }, {
        fetch,
        ...(args.values['delay-ms'] !== undefined ? { pageDelayMs: intOption(args, 'delay-ms', 1000, 0, 600_000) } : {}),
        ...(args.values['max-pages'] !== undefined ? { maxPages: intOption(args, 'max-pages', 100_000, 1, 10_000_000) } : {}),
        ...(typeof args.values.from === 'string' ? { from: args.values.from } : {}),
      });
      if (args.values.json === true) await writeOut(`${JSON.stringify(report)}\n`);
      else {
        for (const r of report.refusals) await writeOut(`refused\t${r.code}\t${r.identifier ?? ''}\t${r.urn ?? ''}\t${r.reason}\n`);
        process.stderr.write(`${HARVEST_OUTCOME[report.status]}: ${report.pages} pages, ${report.applied} applied, ${report.unchanged} unchanged, ${report.refused} refused${report.from !== undefined ? ` (from ${report.from})` : ''}${report.error !== undefined ? `; ${report.error.code}: ${report.error.message}` : ''}\n`);
      }
      return report.status !== 'ok' ? EXIT_FAILURE : report.refused > 0 ? EXIT_INVALID : EXIT_OK;
    } finally {
      await closeStore(store);
    }
  },
};

/**
 * `serve`'s harvest options: repositories harvested in the background,
 * each as `BASE-URL,PREFIX[,FORMAT[,SET]]`, a round every
 * `--harvest-every` hours, under the same network rules as `urikit harvest`.
 *
 * @example
 * ```ts
 * SERVE_HARVEST_OPTIONS['harvest-every'].arg // 'HOURS'
 * ```
 */
export const SERVE_HARVEST_OPTIONS: Record<string, OptionSpec> = {
  harvest: { type: 'string', multiple: true, arg: 'BASE-URL,PREFIX[,FORMAT[,SET]]', help: `harvest this OAI-PMH repository in the background (repeatable): the names under PREFIX, in FORMAT (${FORMATS.join(', ')}; default epicur), of SET; as urikit harvest does, one repository at a time` },
  'harvest-every': { type: 'string', arg: 'HOURS', help: `hours from the end of one round of harvests to the start of the next (default ${DEFAULT_HARVEST_EVERY_MS / 3_600_000})` },
  'harvest-allow-private': { type: 'boolean', help: 'let the harvester reach private, loopback and link-local addresses' },
  'harvest-contact': { type: 'string', arg: 'URL', help: 'where a repository\'s operator can ask about the harvester (mailto: or a page), sent in the User-Agent' },
  mirror: { type: 'string', multiple: true, arg: 'BASE-URL,PREFIX[,every SECONDS]', help: 'mirror the names under PREFIX of the urikit resolver at BASE-URL (its /oai in urn_locations, every SECONDS, default 60): answered as it answers them, writes to them refused (repeatable)' },
  mirrors: { type: 'string', arg: 'URL,...', help: 'the base URLs of the resolvers that mirror this one, named by urn+m' },
};

/**
 * The mirrors `serve`'s `--mirror` options ask for, or undefined without one.
 *
 * @example
 * ```ts
 * import { parseCommandLine } from '../command.js';
 * import { serveCommand } from './service.js';
 * serveMirrors(parseCommandLine(serveCommand, ['--mirror', 'https://a.example,urn:nbn:de:101-,every 5']))?.sources;
 * // [{ source: 'https://a.example', authority: 'urn:nbn:de:101-', everyMs: 5000 }]
 * ```
 */
export function serveMirrors(args: Args): { sources: MirrorSource[]; harvest: NonNullable<HarvestJob['harvest']> } | undefined {
  const specs = args.values.mirror as string[] | undefined;
  if (specs === undefined || specs.length === 0) return undefined;
  const sources = specs.map((spec): MirrorSource => {
    const [source = '', authority = '', every, ...extra] = spec.split(',');
    if (!/^https?:\/\/[^?#]+$/i.test(source)) throw new UsageError(`--mirror "${spec}": "${source}" is not an http or https base URL of a urikit resolver`, 'serve');
    if (authority === '') throw new UsageError(`--mirror "${spec}": missing the PREFIX of the names mirrored`, 'serve');
    const m = every === undefined ? undefined : /^\s*(?:every\s+)?(\d{1,6})\s*$/.exec(every);
    if ((every !== undefined && (m === null || m === undefined || Number(m[1]) < 1)) || extra.length > 0) throw new UsageError(`--mirror "${spec}": BASE-URL,PREFIX[,every SECONDS] (SECONDS from 1)`, 'serve');
    return { source: source.replace(/\/+$/, ''), authority, ...(m ? { everyMs: Number(m[1]) * 1000 } : {}) };
  });
  const fetch: Record<string, unknown> = {};
  if (args.values['harvest-allow-private'] === true) fetch.allowAddresses = 'all';
  if (typeof args.values['harvest-contact'] === 'string') fetch.userAgent = userAgentWith(args.values['harvest-contact'] as string);
  return { sources, harvest: { fetch } };
}

/**
 * The harvest job `serve`'s options ask for, or undefined without `--harvest`.
 *
 * @example
 * ```ts
 * import { parseCommandLine } from '../command.js';
 * import { serveCommand } from './service.js';
 * serveHarvestJob(parseCommandLine(serveCommand, ['--harvest', 'https://repo.example/oai,urn:nbn:de:101-,oai_dc']))?.sources;
 * // [{ baseUrl: 'https://repo.example/oai', authority: 'urn:nbn:de:101-', metadataPrefix: 'oai_dc' }]
 * ```
 */
export function serveHarvestJob(args: Args): HarvestJob | undefined {
  const specs = args.values.harvest as string[] | undefined;
  if (specs === undefined || specs.length === 0) return undefined;
  const sources = specs.map((spec): HarvestSource => {
    const [baseUrl = '', authority = '', format = 'epicur', set, ...extra] = spec.split(',');
    if (!/^https?:\/\/[^?#]+$/i.test(baseUrl)) throw new UsageError(`--harvest "${spec}": "${baseUrl}" is not an http or https base URL without a query (OAI-PMH §4.2 baseURL)`, 'serve');
    if (authority === '') throw new UsageError(`--harvest "${spec}": missing the PREFIX of the names this repository may write`, 'serve');
    if (!(FORMATS as readonly string[]).includes(format)) throw new UsageError(`--harvest "${spec}": the format is one of ${FORMATS.join(', ')}`, 'serve');
    if (extra.length > 0) throw new UsageError(`--harvest "${spec}": BASE-URL,PREFIX[,FORMAT[,SET]]`, 'serve');
    return { baseUrl, authority, metadataPrefix: format as (typeof FORMATS)[number], ...(set !== undefined && set !== '' ? { set } : {}) };
  });
  const fetch: Record<string, unknown> = {};
  if (args.values['harvest-allow-private'] === true) fetch.allowAddresses = 'all';
  if (typeof args.values['harvest-contact'] === 'string') fetch.userAgent = userAgentWith(args.values['harvest-contact'] as string);
  return { sources, everyMs: intOption(args, 'harvest-every', DEFAULT_HARVEST_EVERY_MS / 3_600_000, 1, 8760) * 3_600_000, harvest: { fetch } };
}
