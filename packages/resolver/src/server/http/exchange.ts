/**
 * What every request of `urikit serve` goes through besides its route,
 * on node's own request and response, in one place for the two ways a
 * request is answered: fastify's hooks (pipeline.ts, every route) and the
 * resolution front (server/route.ts), which answers a GET or HEAD of a
 * name before fastify routes it. The headers every answer carries, the
 * in-flight gauge, the client's address, its rate limit, the answers to a
 * store's fault and to a limit, and the metrics and access log of a
 * finished request.
 */
import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SECURITY_HEADERS } from '../../web/headers.js';
import type { StoreFault } from '../../store/store-fault.js';
import type { Metrics } from '../metrics.js';
import { problemAnswer, type Answer } from '../render/answer.js';
import type { ClientAddresses } from './client-address.js';
import type { RateLimiter } from './ratelimit.js';

/**
 * Headers on every answer, redirects and errors included: any origin may
 * read a resolution (CORS), and no answer is sniffed into another type or
 * runs scripts (the page at `/` and the gateway's pages need no more).
 *
 * @example
 * ```ts
 * COMMON_HEADERS['access-control-allow-origin']; // '*'
 * COMMON_HEADERS['x-content-type-options']; // 'nosniff'
 * ```
 */
export const COMMON_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'Location, Link, ETag, Last-Modified, Retry-After, Content-Type, RateLimit, RateLimit-Policy, Accept-Patch',
  ...SECURITY_HEADERS,
};

/** {@link COMMON_HEADERS} while the server drains: every answer closes its connection (RFC 9112 §9.6). */
const CLOSING_HEADERS: Readonly<Record<string, string>> = { ...COMMON_HEADERS, connection: 'close' };

/**
 * Where a finished request is logged (fastify's logger, pino's shape).
 *
 * @example
 * ```ts
 * const lines: string[] = [];
 * const log: ExchangeLog = { info: (_fields, message) => { lines.push(message); }, warn: (_fields, message) => { lines.push(message); } };
 * log.info({ status: 200 }, 'admin');
 * lines; // ['admin']
 * ```
 */
export interface ExchangeLog { info(fields: object, message: string): void; warn(fields: object, message: string): void }

/**
 * What the work of {@link Exchanges} depends on.
 *
 * @example
 * ```ts
 * import { Metrics } from '../metrics.js';
 * const opts: ExchangeOptions = { metrics: new Metrics(), accessLog: false, lifecycle: { draining: false } };
 * opts.accessLog; // false
 * ```
 */
export interface ExchangeOptions {
  metrics: Metrics;
  /** Limits per client; none when absent. */
  limiter?: RateLimiter | undefined;
  /** Log every request, resolutions included (else only admin requests and errors). */
  accessLog: boolean;
  /** The reverse proxies whose `Forwarded` / `X-Forwarded-For` is believed (none: the peer is the client). */
  proxies?: ClientAddresses | undefined;
  /** While `draining` is set (the server is stopping) every answer closes its connection (RFC 9112 §9.6). */
  lifecycle?: { readonly draining: boolean };
}

/** Operational endpoints a monitor polls: never limited, never counted. */
export function isOperational(url: string): boolean {
  return url.startsWith('/healthz') || url.startsWith('/metrics');
}

/**
 * The answer 429 Too Many Requests (RFC 6585 §4) in
 * `application/problem+json`, with `Retry-After` and the `RateLimit-Policy`
 * and `RateLimit` fields of draft-ietf-httpapi-ratelimit-headers (`t`,
 * the reset, is the same moment as `Retry-After`, as the draft asks).
 *
 * @example
 * ```ts
 * import { RateLimiter } from './ratelimit.js';
 * const a = rateLimitedAnswer(new RateLimiter(1, 1), 3, 'client');
 * [a.status, a.headers['retry-after'], a.headers['ratelimit'], a.headers['ratelimit-policy']]; // [429, '3', 'client;r=0;t=3', 'client;q=1;w=1']
 * ```
 */
export function rateLimitedAnswer(limiter: RateLimiter, wait: number, policy: string): Answer {
  const a = problemAnswer(429, 'Too Many Requests', { detail: `slow down: at most ${limiter.perSecond} requests a second, ${limiter.burst} at once`, code: 'rate-limited' }, 'limited');
  a.headers['retry-after'] = String(wait);
  a.headers['ratelimit-policy'] = limiter.policy(policy);
  a.headers['ratelimit'] = `${policy};r=0;t=${wait}`;
  return a;
}

/**
 * The answer to a fault of the store (store-fault.ts): its status (503,
 * or 507 Insufficient Storage, RFC 4918 §11.5, for a full disk),
 * `Retry-After` (RFC 9110 §10.2.3), and `application/problem+json` with
 * the fault's code, the part of the store that failed and, for a write,
 * whether it was made. The engine's message stays in the log.
 *
 * @example
 * ```ts
 * import { StoreFault } from '../../store/store-fault.js';
 * const a = storeFaultAnswer(new StoreFault('store-unavailable', 'primary', { outcome: 'not-committed' }));
 * [a.status, a.headers['retry-after'], JSON.parse(a.body as string).outcome]; // [503, '5', 'not-committed']
 * ```
 */
export function storeFaultAnswer(fault: StoreFault): Answer {
  const a = problemAnswer(fault.statusCode, http.STATUS_CODES[fault.statusCode] ?? 'Service Unavailable', {
    detail: fault.message,
    code: fault.code,
    part: fault.part,
    ...(fault.outcome !== undefined ? { outcome: fault.outcome } : {}),
  }, 'store-fault');
  a.headers['retry-after'] = String(fault.retryAfter);
  return a;
}

/**
 * The pipeline's work on node's request and response, shared by the
 * fastify hooks and the resolution front.
 *
 * @example
 * ```ts
 * import { Metrics } from '../metrics.js';
 * import { RateLimiter } from './ratelimit.js';
 * const metrics = new Metrics();
 * const x = new Exchanges({ metrics, limiter: new RateLimiter(1, 1), accessLog: false });
 * x.admit('192.0.2.1'); // undefined (the first request of the burst)
 * x.admit('192.0.2.1')?.status; // 429
 * metrics.rateLimited; // 1
 * x.finish(console, 'GET', '/urn:ex:a', '192.0.2.1', 'resolve', 302, 0.4);
 * metrics.render().includes('urikit_requests_total{kind="resolve",status="302"} 1'); // true
 * ```
 */
export class Exchanges {
  // One listener for every response (no closure per request); a response emits 'close' once.
  readonly #settled = (): void => { this.opts.metrics.inFlight--; };

  constructor(readonly opts: ExchangeOptions) {}

  /** The headers every answer carries now. */
  fields(): Readonly<Record<string, string>> {
    return this.opts.lifecycle?.draining === true ? CLOSING_HEADERS : COMMON_HEADERS;
  }

  /** Counts the request in flight until its response closes ('close' comes after an answer and after an aborted one alike), and gives the client's address. */
  open(req: IncomingMessage, res: ServerResponse): string {
    this.opts.metrics.inFlight++;
    res.on('close', this.#settled);
    const peer = req.socket.remoteAddress;
    return this.opts.proxies === undefined ? peer ?? '' : this.opts.proxies.of(peer, req.headers);
  }

  /** The 429 for `client` when its bucket is empty (counted), else undefined. */
  admit(client: string): Answer | undefined {
    const limiter = this.opts.limiter;
    if (limiter === undefined) return undefined;
    const wait = limiter.take(client);
    if (wait === 0) return undefined;
    this.opts.metrics.rateLimited++;
    return rateLimitedAnswer(limiter, wait, 'client');
  }

  /** Counts a store fault that a request met, and logs it (the engine's message stays there). */
  fault(log: ExchangeLog, fault: StoreFault): void {
    const faults = this.opts.metrics.storeFaults;
    faults.set(fault.code, (faults.get(fault.code) ?? 0) + 1);
    log.warn({ err: fault.cause ?? fault, code: fault.code, part: fault.part }, 'store fault');
  }

  /** Records a finished request in the metrics and, if asked (and for every admin request), the access log. */
  finish(log: ExchangeLog, method: string, url: string, client: string, kind: string, status: number, ms: number): void {
    if (isOperational(url)) return;
    this.opts.metrics.observe(kind, status, ms / 1000);
    if (this.opts.accessLog || kind === 'admin') log.info({ method, url, status, ms, remote: client }, kind);
  }
}
