/**
 * The resolver's defaults, each in one place: the server, the store, the
 * client and the link checker read them from here, and so does the
 * command line (`@urikit/resolver/defaults`, a module that imports nothing
 * at all, so that reading a default loads no server or database code; the
 * types of the link checker's defaults are written here for that reason and
 * are those of links/schedule.ts).
 */
const HOUR = 3600_000;
const DAY = 24 * HOUR;

/**
 * The default port of the 1995 draft §3.2: "the URN-resolving HTTP server
 * must be located at TCP port 4500"; also where a client looks for a 1995
 * resolver that the urn:dns rule found.
 *
 * @example
 * ```ts
 * DEFAULT_PORT; // 4500
 * ```
 */
export const DEFAULT_PORT = 4500;

/**
 * The bound of a server's stop, from the moment it is asked to stop to
 * the store closed: 10 seconds (see `ServerOptions.shutdown`).
 *
 * @example
 * ```ts
 * DEFAULT_SHUTDOWN_TIMEOUT_MS; // 10000
 * ```
 */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;

/**
 * The memory of the name cache of `urikit serve` unless told otherwise: 256 MiB of rows outside the JavaScript heap (the million
 * names of the benchmark take 160 MiB, and 32 MiB of index besides).
 *
 * @example
 * ```ts
 * DEFAULT_NAME_CACHE_BYTES; // 268435456
 * ```
 */
export const DEFAULT_NAME_CACHE_BYTES = 256 * 1024 * 1024;

/**
 * How long a PostgreSQL store's name cache answers while the database is
 * away, unless told otherwise: five minutes, longer than a restart or a
 * failover takes, short enough that a name changed meanwhile is not
 * answered wrongly for long.
 *
 * @example
 * ```ts
 * DEFAULT_STALE_IF_ERROR_MS; // 300000
 * ```
 */
export const DEFAULT_STALE_IF_ERROR_MS = 300_000;

/**
 * The rate limit of resolution requests per client: 100 a second, bursts
 * of 200 (RFC 6585 §4: 429 beyond).
 *
 * @example
 * ```ts
 * DEFAULT_RATE_LIMIT.burst; // 200
 * ```
 */
export const DEFAULT_RATE_LIMIT: { readonly perSecond: number; readonly burst: number } = Object.freeze({ perSecond: 100, burst: 200 });

/**
 * The rate limit of the admin API per token: 20 a second, bursts of 100.
 *
 * @example
 * ```ts
 * DEFAULT_ADMIN_RATE_LIMIT.perSecond; // 20
 * ```
 */
export const DEFAULT_ADMIN_RATE_LIMIT: { readonly perSecond: number; readonly burst: number } = Object.freeze({ perSecond: 20, burst: 100 });

/**
 * The longest text/urc-0 line for a URL before it is written as `<URL:...>`
 * over several lines (1995 draft §3.4.2).
 *
 * @example
 * ```ts
 * DEFAULT_URC0_LINE_LENGTH; // 76
 * ```
 */
export const DEFAULT_URC0_LINE_LENGTH = 76;

/**
 * How many redirects the resolution client and the link checker follow.
 *
 * @example
 * ```ts
 * DEFAULT_MAX_REDIRECTS; // 10
 * ```
 */
export const DEFAULT_MAX_REDIRECTS = 10;

/**
 * The time the web page of `urikit serve` waits for the resolver of a
 * delegated child authority to answer a name of it.
 *
 * @example
 * ```ts
 * DEFAULT_DELEGATE_TIMEOUT_MS; // 10000
 * ```
 */
export const DEFAULT_DELEGATE_TIMEOUT_MS = 10_000;

/**
 * The time a link checker's request has to answer: 30 s (GMH's timeout).
 *
 * @example
 * ```ts
 * DEFAULT_PROBE_TIMEOUT_MS; // 30000
 * ```
 */
export const DEFAULT_PROBE_TIMEOUT_MS = 30_000;

/**
 * EZID's schedule: recheck a good location after 30 days, a failing one
 * after 52 hours, one that said "retry later" after an hour; report it
 * broken after 7 failures in a row.
 *
 * @example
 * ```ts
 * DEFAULT_SCHEDULE.reportAfterFailures; // 7
 * ```
 */
export const DEFAULT_SCHEDULE: Readonly<{ okIntervalMs: number; failingIntervalMs: number; retryIntervalMs: number; reportAfterFailures: number }> = Object.freeze({
  okIntervalMs: 30 * DAY,
  failingIntervalMs: 52 * HOUR,
  retryIntervalMs: 1 * HOUR,
  reportAfterFailures: 7,
});

/**
 * One request at a time per host, a second apart; 20 started a second
 * over all hosts, 16 in flight.
 *
 * @example
 * ```ts
 * DEFAULT_POLITENESS.perHostDelayMs; // 1000
 * ```
 */
export const DEFAULT_POLITENESS: Readonly<{ perHostConcurrency: number; perHostDelayMs: number; globalRate: number; concurrency: number }> = Object.freeze({
  perHostConcurrency: 1,
  perHostDelayMs: 1000,
  globalRate: 20,
  concurrency: 16,
});

/**
 * The time between two rounds of `serve`'s harvests (server/harvest-worker.ts):
 * a day, as the national URN services harvest their repositories.
 *
 * @example
 * ```ts
 * DEFAULT_HARVEST_EVERY_MS / 3_600_000; // 24
 * ```
 */
export const DEFAULT_HARVEST_EVERY_MS = 86_400_000;

/**
 * How long a harvest's lease on its repository holds without being
 * renewed (harvest-log.ts): every page renews it, and a wait for a
 * repository's Retry-After extends it; a process killed mid-harvest leaves
 * it to expire, after which another process resumes the harvest.
 *
 * @example
 * ```ts
 * DEFAULT_HARVEST_LEASE_MS / 60_000; // 10
 * ```
 */
export const DEFAULT_HARVEST_LEASE_MS = 600_000;
