/**
 * The commands of the URN resolution service and its client: serve,
 * gateway, resolve-urn and import (the 1995 draft §3–§5, RFC 2169,
 * RFC 2483); `token` is token.ts.
 */
import { createReadStream, existsSync } from 'node:fs';
import { UriError } from 'urikit';
import type { GatewayOptions, ResolveOptions, ServerOptions } from '@urikit/resolver';
import {
  DEFAULT_ADMIN_RATE_LIMIT, DEFAULT_MAX_REDIRECTS, DEFAULT_NAME_CACHE_BYTES, DEFAULT_PORT, DEFAULT_RATE_LIMIT, DEFAULT_SHUTDOWN_TIMEOUT_MS,
  DEFAULT_STALE_IF_ERROR_MS, DEFAULT_URC0_LINE_LENGTH,
} from '@urikit/resolver/defaults';
import { COMMON, EXIT_FAILURE, EXIT_INVALID, EXIT_OK, UsageError, intOption, type Command, type OptionSpec } from '../command.js';
import { writeOut } from '../inputs.js';
import { SERVE_LINK_OPTIONS, serveLinkChecker } from './link-checker-options.js';
import { SERVE_HARVEST_OPTIONS, serveHarvestJob, serveMirrors } from './harvest.js';
import { closeStore, dbOf, dbOpt } from './store-options.js';

const MIB = 1024 * 1024;
const hostOpt: OptionSpec = { type: 'string', arg: 'ADDRESS', default: '127.0.0.1', help: 'the address to listen on' };

/** The options of the resolution client that `gateway` and `resolve-urn` share: discovery and the SSRF guard. */
const CLIENT_OPTIONS: Record<string, OptionSpec> = {
  config: { type: 'string', arg: 'FILE', help: 'a JSON file {"resolvers": {"<nid or urn prefix>": ["<base URL>", ...]}}' },
  'public-only': { type: 'boolean', help: 'connect only to public addresses: never to loopback, private or link-local ones (2003 draft §7.3; for a gateway open to anyone)' },
  'dns-server': { type: 'string', multiple: true, arg: 'HOST[:PORT]', help: 'a DNS server for the 1995 urn:dns rule and NAPTR (repeatable; default the system\'s)' },
  'yaurn-port': { type: 'string', arg: 'PORT', help: `the port of a 1995 resolver found by the urn:dns rule (default ${DEFAULT_PORT}, 1995 draft §3.2)` },
};

/** ResolveOptions from the shared client options. */
function clientOptions(args: Parameters<Command['run']>[0]): Pick<ResolveOptions, 'discovery' | 'publicOnly'> {
  const out: Pick<ResolveOptions, 'discovery' | 'publicOnly'> = {};
  const discovery: NonNullable<ResolveOptions['discovery']> = {};
  if (typeof args.values.config === 'string') discovery.config = args.values.config;
  const dns = ((args.values['dns-server'] as string[] | undefined) ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
  if (dns.length > 0) discovery.dnsServers = dns;
  if (args.values['yaurn-port'] !== undefined) discovery.yaurnPort = intOption(args, 'yaurn-port', DEFAULT_PORT, 1, 65535);
  if (Object.keys(discovery).length > 0) out.discovery = discovery;
  if (args.values['public-only'] === true) out.publicOnly = true;
  return out;
}

/**
 * Resolves on the first SIGINT or SIGTERM. Called before a server starts,
 * so that a signal that comes the moment the server says it is ready is
 * never lost to the default action (which would end the process at once).
 */
function signalled(): Promise<NodeJS.Signals> {
  return new Promise<NodeJS.Signals>((resolve) => {
    const on = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      resolve(signal);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}

/**
 * The `urikit serve` command: its options, help text and what it runs.
 *
 * @example
 * ```ts
 * import { parseCommandLine } from '../command.js';
 * // `urikit serve --demo` answers until SIGINT or SIGTERM; a bad option stops it before it listens.
 * await serveCommand.run(parseCommandLine(serveCommand, ['--port', '70000'])) // throws UsageError
 * ```
 */
export const serveCommand: Command = {
  name: 'serve',
  summary: 'run the URN resolution service (1995 draft, RFC 2169 /uri-res/, RFC 2483 services)',
  usage: ['serve [options]'],
  details: 'Answers GET /<ElementID> for its naming authority, GET /urn:<nid>:<nss>, GET /uri-res/<service>?<urn>\nand ?s=<service>, the reserved requests urn+m, urn+a, urn+c and urn+p, in text/urc-0, text/plain,\ntext/html or JSON by Accept; the admin API is under /admin/ (bearer tokens: urikit token create).\nThe web page at / parses, checks, normalizes and resolves any URI a person pastes.\nThe store is SQLite (a file, created and migrated on first use) or PostgreSQL. Stops on Ctrl-C or SIGTERM,\nfinishing the requests in flight.',
  options: {
    ...COMMON,
    json: { type: 'boolean', help: 'once listening, print one JSON line {"url", "port", "demo"} (for scripts)' },
    port: { type: 'string', arg: 'PORT', default: String(DEFAULT_PORT), help: `the port (${DEFAULT_PORT} is the 1995 draft's; 0 picks a free one)` },
    host: hostOpt,
    db: dbOpt,
    demo: { type: 'boolean', help: 'load the example names of the five documents (idempotent); the authority defaults to urn:dns:library.bigstate.edu' },
    authority: { type: 'string', arg: 'AUTHORITY', help: 'the naming authority whose ElementIDs are served at /<ElementID> (1995 draft §3.3)' },
    'cache-control': { type: 'string', arg: 'VALUE', help: 'the Cache-Control of answers (default "public, max-age=300")' },
    'see-other': { type: 'boolean', help: 'answer a single location to HTTP/1.1 clients with 303 instead of 302 (RFC 2169)' },
    'no-rate-limit': { type: 'boolean', help: `turn off the rate limits (default per client ${DEFAULT_RATE_LIMIT.perSecond} requests/s, burst ${DEFAULT_RATE_LIMIT.burst}; per admin token ${DEFAULT_ADMIN_RATE_LIMIT.perSecond}/s, burst ${DEFAULT_ADMIN_RATE_LIMIT.burst})` },
    'rate-limit': { type: 'string', arg: 'N', help: `resolution requests a second per client (default ${DEFAULT_RATE_LIMIT.perSecond}); 429 with Retry-After and RateLimit fields beyond` },
    'rate-burst': { type: 'string', arg: 'N', help: 'requests at once per client before the rate applies (default twice the rate)' },
    'admin-rate-limit': { type: 'string', arg: 'N', help: `admin API requests a second per token (default ${DEFAULT_ADMIN_RATE_LIMIT.perSecond})` },
    'admin-rate-burst': { type: 'string', arg: 'N', help: `admin API requests at once per token (default ${DEFAULT_ADMIN_RATE_LIMIT.burst})` },
    'trust-proxy': { type: 'string', multiple: true, arg: 'ADDRESS[/BITS]', help: 'a reverse proxy whose Forwarded / X-Forwarded-For names the client (repeatable, or comma-separated); nobody else\'s is believed' },
    'public-url': { type: 'string', arg: 'URL', help: 'this resolver\'s URL as clients reach it (absolute Location for HTTP/1.0, urn+a); default the listening address, never a request\'s Host' },
    'host-authority': { type: 'string', multiple: true, arg: 'AUTHORITY', help: 'another urn:dns:<host> authority whose ElementIDs /<ElementID> answers when the request\'s Host is <host> (repeatable; 1995 draft §2.2.1)' },
    'location-scheme': { type: 'string', multiple: true, arg: 'SCHEME', help: 'a scheme locations may have besides http, https, ftp and urn (repeatable)' },
    'urc0-line-length': { type: 'string', arg: 'N', help: `the longest text/urc-0 line for a URL; a longer one is written as <URL:...> over several lines (1995 draft §3.4.2; default ${DEFAULT_URC0_LINE_LENGTH}, 40 gives the draft's wrapped example)` },
    'db-replica': { type: 'string', arg: 'URL', help: 'PostgreSQL: a streaming replica (postgres://...) where resolutions read; writes and admin reads go to --db, the primary; the lag is in /metrics' },
    'name-cache-mb': { type: 'string', arg: 'MB', help: `memory for names kept outside the database, filled at start and kept exact on every write of any process (default ${DEFAULT_NAME_CACHE_BYTES / MIB}, over a million names; 0: none)` },
    'stale-if-error': { type: 'string', arg: 'SECONDS', help: `PostgreSQL: while the database is away, answer names from the name cache, marked stale (Warning: 110), for this long after it last confirmed them (default ${DEFAULT_STALE_IF_ERROR_MS / 1000}; 0: never; past it, 503)` },
    'drain-seconds': { type: 'string', arg: 'SECONDS', help: 'on SIGTERM, answer /healthz 503 "draining" for this long while still answering every request, so that a load balancer takes the server out first (default 3; Ctrl-C/SIGINT stops without draining)' },
    'shutdown-timeout': { type: 'string', arg: 'SECONDS', help: `the bound of a stop: drain, requests in flight, the last statistics flush and closing the store (default ${DEFAULT_SHUTDOWN_TIMEOUT_MS / 1000})` },
    log: { type: 'boolean', help: 'structured JSON logs on standard output' },
    'no-stats': { type: 'boolean', help: 'do not count resolutions (default: counted per name, day and service in memory, written in bulk every 5 s; no address kept)' },
    'robot-pattern': { type: 'string', multiple: true, arg: 'TEXT', help: 'a User-Agent substring that marks a robot, counted apart, added to the defaults; repeatable' },
    ...SERVE_LINK_OPTIONS,
    ...SERVE_HARVEST_OPTIONS,
  },
  examples: [
    'urikit serve --demo                        # http://127.0.0.1:4500/ with the example names',
    'urikit serve --db names.sqlite --check-links --link-checker-contact mailto:urn-admin@library.example',
    'urikit serve --db names.sqlite --harvest https://repo.example/oai,urn:nbn:de:101- --harvest-contact mailto:urn-admin@library.example',
    'urikit serve --db names.sqlite --port 8080 --authority urn:dns:library.bigstate.edu',
    'urikit serve --host 0.0.0.0 --trust-proxy 10.0.0.0/8 --rate-limit 50 --public-url https://urn.example.org',
    'URIKIT_DB=postgres://user@db/urikit urikit serve --host 0.0.0.0',
    'urikit serve --db postgres://user@primary/urikit --db-replica postgres://user@replica/urikit',
    'curl -i http://127.0.0.1:4500/uri-res/I2L?urn:dns:library.bigstate.edu:aj17-mcc',
  ],
  exitStatus: '0 stopped by SIGINT or SIGTERM, 2 usage error, 3 could not start (port in use, database).',
  run: async (args) => {
    const port = intOption(args, 'port', DEFAULT_PORT, 0, 65535);
    const host = args.values.host as string;
    const opts: ServerOptions = { port, host, demo: args.values.demo === true };
    const db = dbOf(args.values);
    if (db !== undefined) opts.db = db;
    if (typeof args.values.authority === 'string') opts.authority = args.values.authority;
    if (typeof args.values['cache-control'] === 'string') opts.cacheControl = args.values['cache-control'];
    if (args.values['see-other'] === true) opts.seeOther = true;
    if (args.values['no-rate-limit'] === true) {
      opts.rateLimit = false;
      opts.adminRateLimit = false;
    } else {
      const perSecond = intOption(args, 'rate-limit', DEFAULT_RATE_LIMIT.perSecond, 1, 1e9);
      opts.rateLimit = { perSecond, burst: intOption(args, 'rate-burst', 2 * perSecond, 1, 2e9) };
      opts.adminRateLimit = { perSecond: intOption(args, 'admin-rate-limit', DEFAULT_ADMIN_RATE_LIMIT.perSecond, 1, 1e9), burst: intOption(args, 'admin-rate-burst', DEFAULT_ADMIN_RATE_LIMIT.burst, 1, 2e9) };
    }
    const list = (name: string) => ((args.values[name] as string[] | undefined) ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
    if (list('trust-proxy').length > 0) {
      const { ClientAddresses } = await import('@urikit/resolver');
      try { new ClientAddresses(list('trust-proxy')); } catch (e) { throw new UsageError(`--trust-proxy: ${(e as Error).message}`, 'serve'); }
      opts.trustProxy = list('trust-proxy');
    }
    if (list('host-authority').length > 0) opts.authorities = list('host-authority');
    if (list('location-scheme').length > 0) opts.locationSchemes = list('location-scheme');
    if (typeof args.values['public-url'] === 'string') {
      const u = args.values['public-url'];
      if (!/^https?:\/\/[^/?#\s]+\/?$/i.test(u)) throw new UsageError(`--public-url must be http(s)://host[:port] (got "${u}")`, 'serve');
      opts.publicUrl = u;
    }
    if (args.values['urc0-line-length'] !== undefined) opts.urc0LineLength = intOption(args, 'urc0-line-length', DEFAULT_URC0_LINE_LENGTH, 8, 1_000_000);
    if (typeof args.values['db-replica'] === 'string') opts.dbReplica = args.values['db-replica'];
    if (args.values['name-cache-mb'] !== undefined) opts.nameCacheBytes = intOption(args, 'name-cache-mb', DEFAULT_NAME_CACHE_BYTES / MIB, 0, 1_048_576) * MIB;
    if (args.values['stale-if-error'] !== undefined) opts.staleIfErrorSeconds = intOption(args, 'stale-if-error', DEFAULT_STALE_IF_ERROR_MS / 1000, 0, 31_536_000);
    const drainMs = intOption(args, 'drain-seconds', 3, 0, 3600) * 1000;
    opts.shutdown = { timeoutMs: intOption(args, 'shutdown-timeout', DEFAULT_SHUTDOWN_TIMEOUT_MS / 1000, 1, 3600) * 1000 };
    if (args.values.log === true) opts.logger = true;
    if (args.values['no-stats'] === true) opts.stats = false;
    else if (args.values['robot-pattern'] !== undefined) opts.stats = { robotPatterns: args.values['robot-pattern'] as string[] };
    const checker = serveLinkChecker(args);
    if (checker !== undefined) opts.checkLinks = checker;
    const harvest = serveHarvestJob(args);
    if (harvest !== undefined) opts.harvest = harvest;
    const mirror = serveMirrors(args);
    if (mirror !== undefined) opts.mirror = mirror;
    if (typeof args.values.mirrors === 'string') opts.mirrors = (args.values.mirrors as string).split(',').map((u) => u.trim()).filter((u) => u !== '');
    const stop = signalled();
    const service = await import('@urikit/resolver');
    const server = await service.startServer(opts);
    const url = server.url;
    if (args.values.json === true) {
      process.stdout.write(JSON.stringify({ url, port: server.port, demo: opts.demo }) + '\n');
    } else {
      const urn = 'urn:dns:library.bigstate.edu:aj17-mcc';
      process.stdout.write(
        `urikit resolver listening on ${url}/${opts.demo ? ' (example names loaded)' : ''}\n` +
        `  in a browser: ${url}/\n` +
        `  curl -i '${url}/uri-res/I2L?${urn}'\n` +
        `  curl -H 'Accept: text/urc-0' '${url}/uri-res/I2Ls?${urn}'\n` +
        `  curl -H 'Accept: application/json' '${url}/${urn}'\n` +
        `  curl '${url}/urn+m'\n` +
        `Ctrl-C stops it.\n`,
      );
    }
    // SIGTERM is an orchestrator's (a rolling restart): drain first; Ctrl-C is a person's: stop now.
    const signal = await stop;
    await server.close({ drainMs: signal === 'SIGTERM' ? drainMs : 0 });
    return EXIT_OK;
  },
};

/**
 * The `urikit gateway` command: its options, help text and what it runs.
 *
 * @example
 * ```ts
 * import { parseCommandLine } from '../command.js';
 * // `urikit gateway` answers until SIGINT or SIGTERM; a bad option stops it before it listens.
 * await gatewayCommand.run(parseCommandLine(gatewayCommand, ['--port', 'x'])) // throws UsageError
 * ```
 */
export const gatewayCommand: Command = {
  name: 'gateway',
  summary: 'run a gateway that resolves URNs for browsers and renders every answer as HTML (1995 draft §4)',
  usage: ['gateway [options]'],
  details: 'Serves /urn:... and /resolve?urn=..., resolving through the client (redirects followed, loops detected,\nanswers cached) and rendering the locations as links; JSON and urc-0 pass through by Accept.',
  options: {
    ...COMMON,
    json: { type: 'boolean', help: 'once listening, print one JSON line {"url", "port"} (for scripts)' },
    port: { type: 'string', arg: 'PORT', default: '8080', help: 'the port (0 picks a free one)' },
    host: hostOpt,
    resolver: { type: 'string', short: 'r', multiple: true, arg: 'URL', help: 'a resolver to ask (else: configuration, the urn:dns rule, DNS NAPTR); repeatable' },
    ...CLIENT_OPTIONS,
    'cache-dir': { type: 'string', arg: 'DIR', help: 'keep the answer cache on disk in DIR (default: in memory)' },
    'trust-max-age': { type: 'boolean', help: 'use a cached answer without asking while its max-age lasts (default: revalidate every time with If-None-Match / If-Modified-Since, 1995 draft §5)' },
  },
  examples: [
    'urikit gateway --resolver http://127.0.0.1:4500/',
    'urikit gateway --port 0 --config resolvers.json --cache-dir /var/cache/urikit',
    'urikit gateway --host 0.0.0.0 --public-only --dns-server 9.9.9.9   # open to anyone: never reaches a private address',
    'curl http://127.0.0.1:8080/urn:dns:library.bigstate.edu:aj17-mcc',
  ],
  exitStatus: '0 stopped by SIGINT or SIGTERM, 2 usage error, 3 could not start.',
  run: async (args) => {
    const port = intOption(args, 'port', 8080, 0, 65535);
    const stop = signalled();
    const service = await import('@urikit/resolver');
    const host = args.values.host as string;
    const opts: GatewayOptions = { port, host };
    if (args.values.resolver) opts.resolvers = args.values.resolver as string[];
    Object.assign(opts, clientOptions(args));
    if (typeof args.values['cache-dir'] === 'string') opts.cacheDir = args.values['cache-dir'];
    if (args.values['trust-max-age'] === true) opts.trustMaxAge = true;
    const server = await service.startGateway(opts);
    const url = server.url;
    process.stdout.write(args.values.json === true
      ? JSON.stringify({ url, port: server.port }) + '\n'
      : `urikit gateway listening on ${url}/\n  in a browser: ${url}/\n  curl '${url}/resolve?urn=urn:ietf:rfc:3986'\nCtrl-C stops it.\n`);
    await stop;
    await server.close();
    return EXIT_OK;
  },
};

/**
 * The `urikit resolve-urn` command: its options, help text and what it runs.
 *
 * @example
 * ```ts
 * import { parseCommandLine } from '../command.js';
 * import { startServer } from '@urikit/resolver';
 * const server = await startServer({ port: 0, db: ':memory:', demo: true });
 * await resolveUrnCommand.run(parseCommandLine(resolveUrnCommand, ['--resolver', server.url, 'urn:ietf:rfc:3986'])) // 0 (prints the location)
 * await resolveUrnCommand.run(parseCommandLine(resolveUrnCommand, ['--resolver', server.url, 'urn:ietf:rfc:999999'])) // 1 (unknown: 404)
 * await server.close();
 * ```
 */
export const resolveUrnCommand: Command = {
  name: 'resolve-urn',
  summary: 'resolve a URN through a resolver, following redirects (1995 draft §3–§5, RFC 2483)',
  usage: ['resolve-urn [options] URN'],
  details: 'Prints the locations, best first; --json prints {status, locations, metadata, via}. Exit status 0 when\nthe name resolved, 1 when the resolver does not know it (404) or it is withdrawn (410), 3 when no\nresolver could be reached.',
  options: {
    ...COMMON,
    json: { type: 'boolean', help: 'print the answer as JSON: {status, locations, metadata, via, ...}' },
    resolver: { type: 'string', short: 'r', multiple: true, arg: 'URL', help: 'a resolver base URL; repeatable, tried in order' },
    service: { type: 'string', short: 's', arg: 'SERVICE', help: 'the RFC 2483 service: I2L, I2Ls, I2C, I2N, I2Ns, I=I... (default: the URN\'s s= directive, else I2L)' },
    accept: { type: 'string', arg: 'TYPE', help: 'the format to ask for (text/urc-0, application/json, text/plain, text/html)' },
    'max-redirects': { type: 'string', arg: 'N', help: `the most redirects to follow (default ${DEFAULT_MAX_REDIRECTS})` },
    ...CLIENT_OPTIONS,
  },
  examples: [
    'urikit resolve-urn --resolver http://127.0.0.1:4500/ urn:dns:library.bigstate.edu:aj17-mcc',
    'urikit resolve-urn --service I2Ls --json urn:ietf:rfc:3986',
    "urikit resolve-urn 'urn:isbn:0451450523#chapter1'            # the fragment stays here, put back on the locations",
    "urikit resolve-urn 'urn:isbn:0451450523?s=I2C'               # a 2012 draft s= directive names the service",
  ],
  exitStatus: '0 resolved, 1 unknown (404), withdrawn (410) or an invalid URN, 2 usage error, 3 no resolver could be reached.',
  run: async (args) => {
    const [urn, ...extra] = args.positionals;
    if (urn === undefined) throw new UsageError('missing URN', 'resolve-urn');
    if (extra.length > 0) throw new UsageError('resolve-urn takes one URN', 'resolve-urn');
    const opts: ResolveOptions = clientOptions(args);
    if (typeof args.values.service === 'string') opts.service = args.values.service;
    if (args.values.resolver) opts.resolvers = args.values.resolver as string[];
    if (typeof args.values.accept === 'string') opts.accept = args.values.accept;
    if (args.values['max-redirects'] !== undefined) opts.maxRedirects = intOption(args, 'max-redirects', DEFAULT_MAX_REDIRECTS, 0);
    const client = await import('@urikit/resolver');
    let r: Awaited<ReturnType<typeof client.resolveUrn>>;
    try {
      r = await client.resolveUrn(urn, opts);
    } catch (e) {
      // An invalid URN (the core's UriError) is invalid input: 1.
      // A resolution that failed (the resolver's ResolutionError, with the attempts) is operational: 3.
      if (e instanceof UriError) {
        if (args.values.json === true) await writeOut(JSON.stringify({ input: urn, valid: false, error: e.toJSON() }) + '\n');
        else process.stderr.write(`urikit resolve-urn: ${JSON.stringify(urn)}: ${e.code} at offset ${e.offset}: ${e.message}\n`);
        return EXIT_INVALID;
      }
      const attempts = (e as { attempts?: Array<{ url: string; error: string }> }).attempts ?? [];
      process.stderr.write(`urikit resolve-urn: ${(e as Error).message}\n`);
      for (const a of attempts) process.stderr.write(`  tried ${a.url}: ${a.error}\n`);
      return EXIT_FAILURE;
    }
    if (args.values.json === true) {
      await writeOut(JSON.stringify(r) + '\n');
    } else {
      if (r.status >= 400) {
        const detail = (r.metadata as { detail?: unknown } | undefined)?.detail;
        process.stderr.write(`urikit resolve-urn: ${urn}: ${r.status}${typeof detail === 'string' ? ` ${detail}` : ''}\n`);
        return EXIT_INVALID;
      }
      for (const l of r.locations) await writeOut(l.url + '\n');
      if (r.locations.length === 0 && r.metadata !== undefined) await writeOut(JSON.stringify(r.metadata, null, 2) + '\n');
      if (r.via.length > 1) process.stderr.write(`via ${r.via.join(' -> ')}\n`);
    }
    return r.status >= 200 && r.status < 400 ? EXIT_OK : EXIT_INVALID;
  },
};

/**
 * The `urikit import` command: its options, help text and what it runs.
 *
 * @example
 * ```ts
 * import { parseCommandLine } from '../command.js';
 * import { writeFileSync } from 'node:fs';
 * writeFileSync('names.ndjson', '{"urn":"urn:isbn:0451450523","locations":["https://openlibrary.org/isbn/0451450523"]}\n');
 * await importCommand.run(parseCommandLine(importCommand, ['--db', ':memory:', 'names.ndjson'])) // 0 (prints "imported 1 records: 1 created, ...")
 * ```
 */
export const importCommand: Command = {
  name: 'import',
  summary: 'bulk-import names into the store from NDJSON or CSV, in one transaction (all or nothing)',
  usage: ['import [options] FILE   ("-" is standard input)'],
  details: 'Every line is checked; if any is invalid, nothing is imported and each bad line is reported with its\nnumber (exit status 1). Importing the same file again changes nothing.',
  options: {
    ...COMMON,
    json: { type: 'boolean', help: 'print the report as JSON: {ok, records, created, updated, unchanged, errors}' },
    format: { type: 'string', short: 'f', arg: 'FORMAT', choices: ['ndjson', 'csv'], help: 'the file format (default: from the file name, else ndjson)' },
    exclusive: { type: 'boolean', help: 'SQLite: hold the store alone (no server may have it open) and write each page once, with a rollback journal instead of the WAL: a first load of millions of names' },
    db: dbOpt,
  },
  examples: [
    'urikit import names.ndjson',
    'urikit import --exclusive --db names.sqlite all-names.ndjson',
    'urikit import --format csv --db postgres://user@db/urikit - < names.csv',
  ],
  exitStatus: '0 imported, 1 some line invalid (nothing imported), 2 usage error, 3 the store could not be opened.',
  run: async (args) => {
    const [file, ...extra] = args.positionals;
    if (file === undefined) throw new UsageError('missing FILE', 'import');
    if (extra.length > 0) throw new UsageError('import takes one FILE', 'import');
    if (file !== '-' && !existsSync(file)) throw new UsageError(`cannot read ${file}: no such file`, 'import');
    const format = (args.values.format as string | undefined) ?? (file.toLowerCase().endsWith('.csv') ? 'csv' : 'ndjson');
    const service = await import('@urikit/resolver');
    const store = await service.openStore(dbOf(args.values), { exclusive: args.values.exclusive === true });
    try {
      const stream = file === '-' ? process.stdin : createReadStream(file);
      const report = await service.importNames(store, stream as AsyncIterable<Uint8Array>, { format: format as 'ndjson' | 'csv' });
      if (args.values.json === true) {
        await writeOut(JSON.stringify(report) + '\n');
      } else {
        const name = file === '-' ? '-' : file;
        for (const e of report.errors) process.stderr.write(`${name}:${e.line}: ${e.code ? `${e.code}: ` : ''}${e.message}\n`);
        await writeOut(report.ok
          ? `imported ${report.records} records: ${report.created} created, ${report.updated} updated, ${report.unchanged} unchanged\n`
          : `nothing imported: ${report.errors.length} invalid line(s) of ${report.records} records\n`);
      }
      return report.ok ? EXIT_OK : EXIT_INVALID;
    } finally {
      await closeStore(store);
    }
  },
};
