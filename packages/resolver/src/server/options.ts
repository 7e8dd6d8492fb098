/**
 * The options of `urikit serve` and their defaults.
 */
import type { LinkSchedule, Politeness } from '../links/schedule.js';
import type { ProbeOptions } from '../links/probe.js';
import type { Store } from '../store/store.js';
import { MAX_NAME_LENGTH } from '../store/validate.js';
import type { HarvestJob } from './harvest-worker.js';
import type { HarvestOptions } from '../harvest/harvester.js';
import type { MirrorSource } from './mirror.js';

/**
 * The link checker of `urikit serve --check-links`: a background worker
 * that checks every location of every active name on its schedule (by
 * default EZID's: 30 days when healthy, 52 hours when failing), politely
 * (per host and globally), never inside the operator's network unless
 * allowed, and pauses `pauseMs` between passes over the store.
 *
 * @example
 * ```ts
 * const o: LinkCheckerOptions = { pauseMs: 600_000, excludeHosts: ['intranet.example'], pausedPrefixes: ['urn:nbn:de:101'] };
 * o.excludeHosts; // ['intranet.example']
 * ```
 */
export interface LinkCheckerOptions {
  /** Time between two passes over the store (default 10 minutes: a pass only probes what is due). */
  pauseMs?: number;
  schedule?: LinkSchedule;
  politeness?: Partial<Politeness>;
  /** Probe options; `allowAddresses: 'all'` lets the checker reach private and loopback addresses (default: public only). */
  probe?: Partial<ProbeOptions>;
  /** Hosts never probed (a name matches itself and its subdomains). */
  excludeHosts?: string[];
  /** Authority prefixes whose names are not checked for now. */
  pausedPrefixes?: string[];
}

/**
 * Limits that keep one client from exhausting the server: a body, a
 * request head, a URN or a slow request past them is refused (413, 431,
 * 414, 408) before it costs memory or a connection.
 *
 * @example
 * ```ts
 * const limits: Partial<ServerLimits> = { bodyBytes: 1 << 20, requestTimeoutMs: 5000 };
 * ({ ...DEFAULT_LIMITS, ...limits }).urnLength; // 4096
 * ```
 */
export interface ServerLimits {
  /** Largest JSON body of an admin request (default 1 MiB; 413 beyond). */
  bodyBytes: number;
  /** Deepest nesting of a JSON request body (default 64; 400 beyond, RFC 8259 §9). */
  jsonDepth: number;
  /** Largest bulk-import body (default 1 GiB). */
  importBytes: number;
  /** Largest request head, request line and headers (default 16 KiB; 431 beyond). */
  headerBytes: number;
  /**
   * Longest URN accepted in a resolution request (414 beyond): at least
   * the longest name the store takes (`MAX_NAME_LENGTH`, 4096, the
   * default), so that every name registered can be resolved.
   */
  urnLength: number;
  /** Time to receive a whole request, a bulk-import body included (default 30 s; 408 beyond). */
  requestTimeoutMs: number;
  /** Time to receive the request head (default 10 s). */
  headersTimeoutMs: number;
}

/**
 * The options of {@link startServer}.
 *
 * @example
 * ```ts
 * const opts: ServerOptions = { port: 0, db: ':memory:', demo: true, authority: 'urn:dns:library.bigstate.edu' };
 * const s = await startServer(opts);
 * (await fetch(`${s.url}/aj17-mcc`, { redirect: 'manual' })).status; // 302
 * await s.close();
 * ```
 */
export interface ServerOptions {
  /** TCP port; 4500 by default (1995 draft §3.2); 0 picks a free one. */
  port?: number;
  /** Interface to listen on; 127.0.0.1 by default. */
  host?: string;
  /** Database to open (see `openStore`); ignored when `store` is given. */
  db?: string;
  /**
   * PostgreSQL: a streaming replica of `db` (`postgres://...`); the
   * resolution read goes there, writes and admin reads to `db`, the
   * primary. /metrics shows the replica's lag (see `OpenStoreOptions.replica`).
   */
  dbReplica?: string;
  /** An open store to serve (left open on close). */
  store?: Store;
  /** Load the demonstration names (see `loadDemoData`). */
  demo?: boolean;
  /**
   * The naming authority `GET /<ElementID>` resolves under (1995 draft §3.3)
   * when the request's `Host` names none of those the server holds, e.g.
   * `urn:dns:library.bigstate.edu`.
   */
  authority?: string;
  /**
   * More `urn:dns:<host>` authorities this server answers the bare form
   * for when a request's `Host` is `<host>` (1995 draft §2.2.1), besides
   * `authority` and the `urn:dns:` entries of the authority registry.
   */
  authorities?: readonly string[];
  /**
   * The resolver's own URL as clients reach it (`https://urn.example.org`),
   * for absolute `Location`s (HTTP/1.0), the urn+a pointer and the
   * pointers of text/urc-0 tombstones; default the address it listens on.
   * Never taken from a request's `Host`.
   */
  publicUrl?: string;
  /** `Cache-Control` of successful answers and redirects (default `public, max-age=300`). */
  cacheControl?: string;
  /** Answer a single location to HTTP/1.1 clients with 303 instead of 302 (RFC 2169 allows either; default false). */
  seeOther?: boolean;
  /** Requests per second per client address, with a burst; `false` turns limiting off (default 100/s, burst 200). */
  rateLimit?: { perSecond: number; burst: number } | false;
  /**
   * The reverse proxies in front of the server (addresses or CIDR blocks):
   * their `Forwarded` (RFC 7239) or `X-Forwarded-For` says who the client
   * is, for rate limits and logs; nobody else's is believed (default none).
   */
  trustProxy?: readonly string[];
  /** Admin API requests per second per token, with a burst; `false` turns limiting off (default 20/s, burst 100). */
  adminRateLimit?: { perSecond: number; burst: number } | false;
  /**
   * Schemes a location, a move's target, a successor or a partial-redirect
   * target may have besides http, https, ftp and urn (`DEFAULT_LOCATION_SCHEMES`);
   * a record with any other is refused with 400.
   */
  locationSchemes?: readonly string[];
  /** Request limits. */
  limits?: Partial<ServerLimits>;
  /** About this resolver, for `urn+m` when the authority registry has no entry (1995 draft §3.5.1). */
  about?: { contact?: string; meta?: string };
  /** Longest text/urc-0 line before a URL is wrapped as `<URL:...>` (1995 draft §3.4.2; default 76). */
  urc0LineLength?: number;
  /**
   * The memory, in bytes, of the name cache of the store the server opens
   * (default 256 MiB of rows, over a million names; 0: none; a `store`
   * given here is served as it is). The server fills it from the table when
   * it starts, a page at a time while it answers; it follows every write
   * of any process (see `OpenStoreOptions.nameCacheBytes`).
   */
  nameCacheBytes?: number;
  /** Structured (JSON) logs on stdout: `true`, `false` (default), or a pino level. */
  logger?: boolean | 'fatal' | 'error' | 'warn' | 'info' | 'debug';
  /** Log every resolution request too (default false: only admin requests and errors). */
  accessLog?: boolean;
  /**
   * Resolution statistics: counted in memory per name, UTC day and service
   * (robots apart by User-Agent, the operator's patterns added to the
   * defaults), flushed to the store in bulk every `flushIntervalMs`
   * (default 5 s). On by default; `false` turns counting off.
   */
  stats?: false | { flushIntervalMs?: number; robotPatterns?: string[] };
  /** Run the link checker in the background (default off); resolution orders locations by health either way. */
  checkLinks?: boolean | LinkCheckerOptions;
  /** OAI-PMH repositories harvested in the background, each in turn, the list again after `everyMs` (default a day; harvest-worker.ts); none by default. */
  harvest?: HarvestJob;
  /**
   * Authorities this server mirrors from other urikit resolvers (their
   * `/oai` in `urn_locations`, every `everyMs`; server/mirror.ts): it
   * answers their names as the source does and refuses writes to them;
   * `harvest` the network rules and bounds of the harvests.
   */
  mirror?: { sources: readonly MirrorSource[]; harvest?: HarvestOptions };
  /** The base URLs of the resolvers that mirror this one (urn+m names them). */
  mirrors?: readonly string[];
  /** How often the link health that resolution reads is reloaded from the store in full (default 60 s: recovered locations age out); a change by any process is seen within `changePollMs`. */
  linkHealthRefreshMs?: number;
  /**
   * How often the server asks the store whether another process changed
   * link health or the authority registry (default 1 s: a `urikit links
   * check` run by cron, or another server's checker, shows within about
   * that; names, tokens and prefix rules are read from the store on every
   * request and show at once).
   */
  changePollMs?: number;
  /**
   * PostgreSQL with a name cache: how long (seconds) after the database
   * last confirmed it a cached name may still be answered, marked stale,
   * while the database is away (RFC 5861 stale-if-error; default 300; 0:
   * never). Past it, and for names not cached, resolutions answer 503.
   */
  staleIfErrorSeconds?: number;
  /**
   * How the server stops (`close()`, SIGTERM in `urikit serve`): for
   * `drainMs` it answers every request while `/healthz` says `draining`
   * (503) and each answer closes its connection, so that a load balancer
   * takes it out first (default 0; `urikit serve` 3 s); then it stops
   * accepting, finishes the requests in flight, flushes the statistics and
   * closes the store, all within `timeoutMs` from the start (default 10 s).
   */
  shutdown?: { drainMs?: number; timeoutMs?: number };
  /**
   * The OAI-PMH 2.0 endpoint at `/oai` (on by default; `false` turns it
   * off): what Identify says (default: "urikit resolver" and the `about`
   * contact), and the records per page before a resumption token (default 500).
   */
  oai?: false | { repositoryName?: string; adminEmails?: string[]; pageSize?: number };
}

/**
 * The defaults of {@link ServerLimits}.
 *
 * @example
 * ```ts
 * DEFAULT_LIMITS.urnLength // 4096
 * ```
 */
export const DEFAULT_LIMITS: ServerLimits = {
  bodyBytes: 1 << 20,
  jsonDepth: 64,
  importBytes: 1 << 30,
  headerBytes: 16 * 1024,
  urnLength: MAX_NAME_LENGTH,
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
};

// The defaults live in defaults.ts (one place, read by the command line too).
export { DEFAULT_NAME_CACHE_BYTES, DEFAULT_PORT, DEFAULT_SHUTDOWN_TIMEOUT_MS } from '../defaults/index.js';
