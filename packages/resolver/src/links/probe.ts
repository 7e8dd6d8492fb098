/**
 * One probe of one location: HEAD first, then GET when HEAD is refused or
 * fails (many servers answer 405, 501 or a wrong 4xx to HEAD though GET
 * works: RFC 9110 §9.3.2 makes HEAD optional in practice), following up to
 * N redirects (RFC 9110 §15.4), reading no more than the head of a body.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { HostClass } from 'urikit';
import { addressClass, BlockedAddressError, guardedLookup, isAllowedAddress, PUBLIC_ONLY } from './guard.js';
import type { ProbeResult } from './health.js';
import { DEFAULT_MAX_REDIRECTS, DEFAULT_PROBE_TIMEOUT_MS } from '../defaults/index.js';

/**
 * How a probe is made.
 *
 * @example
 * ```ts
 * const o: ProbeOptions = { ...DEFAULT_PROBE, timeoutMs: 5000, allowAddresses: 'all' };
 * o.maxRedirects; // 10
 * ```
 */
export interface ProbeOptions {
  /** Redirects followed before the probe gives up as `too-many-redirects`. */
  maxRedirects: number;
  /** Time allowed for each request until its status line and headers arrive. */
  timeoutMs: number;
  /** Bytes of a GET body read before the connection is closed. */
  maxBodyBytes: number;
  /** The User-Agent: what the checker is and whom to ask about it. */
  userAgent: string;
  /** The address classes that may be connected to (default: public only), or `'all'`. */
  allowAddresses: ReadonlySet<HostClass> | 'all';
}

/**
 * The User-Agent the checker sends: it says what it is.
 *
 * @example
 * ```ts
 * DEFAULT_USER_AGENT.startsWith('urikit-link-checker/'); // true
 * ```
 */
export const DEFAULT_USER_AGENT = 'urikit-link-checker/0.1 (checks the locations of persistent names for a URN resolver; set --link-checker-contact)';

/**
 * 10 redirects, 30 s (GMH's timeout), 16 KiB of a body, public addresses only.
 *
 * @example
 * ```ts
 * DEFAULT_PROBE.maxRedirects; // 10
 * ```
 */
export const DEFAULT_PROBE: ProbeOptions = Object.freeze({
  maxRedirects: DEFAULT_MAX_REDIRECTS,
  timeoutMs: DEFAULT_PROBE_TIMEOUT_MS,
  maxBodyBytes: 16 * 1024,
  userAgent: DEFAULT_USER_AGENT,
  allowAddresses: PUBLIC_ONLY,
});

/** One answer: its status and Location, or a network error code. */
interface Hop {
  status?: number;
  location?: string;
  retryAfterMs?: number;
  error?: string;
}

/** RFC 9110 §10.2.3 Retry-After: delay-seconds or an HTTP-date. */
function retryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : Math.max(0, t - now);
}

/** Network errors that say "later", not "broken": a timeout, and a name server that did not answer. */
const LATER_ERRORS = new Set(['timeout', 'dns-temporary']);

/**
 * The error code a probe records for a failed request, and whether it is
 * conclusive (`broken`) or says "later" (`retry`). A refused connection
 * and a name that does not exist (NXDOMAIN, getaddrinfo's `ENOTFOUND`)
 * are conclusive; a name server that failed to answer (`EAI_AGAIN`:
 * SERVFAIL or a DNS timeout, RFC 2308 §7) and a timeout are not, as a 503
 * is not.
 *
 * @example
 * ```ts
 * probeError(Object.assign(new Error('x'), { code: 'ECONNREFUSED' })); // { error: 'refused', outcome: 'broken' }
 * probeError(Object.assign(new Error('x'), { code: 'ENOTFOUND' })); // { error: 'dns', outcome: 'broken' }
 * probeError(Object.assign(new Error('x'), { code: 'EAI_AGAIN' })); // { error: 'dns-temporary', outcome: 'retry' }
 * probeError(Object.assign(new Error('x'), { code: 'ETIMEDOUT' })); // { error: 'timeout', outcome: 'retry' }
 * probeError(Object.assign(new Error('x'), { code: 'ECONNRESET' })); // { error: 'network', outcome: 'broken' }
 * ```
 */
export function probeError(e: NodeJS.ErrnoException): { error: string; outcome: 'broken' | 'retry' | 'blocked' } {
  const error = errorCode(e);
  return { error, outcome: error.startsWith('blocked-address') ? 'blocked' : LATER_ERRORS.has(error) ? 'retry' : 'broken' };
}

/** The error code of a failed request. */
function errorCode(e: NodeJS.ErrnoException): string {
  if (e instanceof BlockedAddressError) return `blocked-address (${e.addressClass})`;
  if (e.code === 'ECONNREFUSED') return 'refused';
  if (e.code === 'ENOTFOUND') return 'dns';
  if (e.code === 'EAI_AGAIN') return 'dns-temporary';
  if (e.code === 'ETIMEDOUT' || e.code === 'probe-timeout') return 'timeout';
  return 'network';
}

/** One request, without following redirects; a GET body is read up to `maxBodyBytes`, then the socket is dropped. */
function requestOnce(url: URL, method: 'HEAD' | 'GET', o: ProbeOptions): Promise<Hop> {
  return new Promise((done) => {
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    let settled = false;
    const finish = (hop: Hop): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      done(hop);
    };
    const req = request(url, {
      method,
      lookup: guardedLookup(o.allowAddresses) as never,
      headers: { 'user-agent': o.userAgent, accept: '*/*' },
      agent: false,
    });
    const timer = setTimeout(() => finish({ error: 'timeout' }), o.timeoutMs);
    req.on('error', (e: NodeJS.ErrnoException) => finish({ error: errorCode(e) }));
    req.on('response', (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      const loc = res.headers.location;
      const hop: Hop = { status };
      if (loc !== undefined) hop.location = loc;
      const ra = retryAfter(res.headers['retry-after'], Date.now());
      if (ra !== undefined) hop.retryAfterMs = ra;
      if (method === 'HEAD' || status < 200 || status >= 300) return finish(hop);
      // the head of the body: it arrives, then the connection is dropped
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read >= o.maxBodyBytes) finish(hop);
      });
      res.on('end', () => finish(hop));
      res.on('error', () => finish(hop));
    });
    req.end();
  });
}

/** Is HEAD's answer one that GET might contradict? Every failure but "later" and a redirect. */
function headInconclusive(hop: Hop): boolean {
  if (hop.error !== undefined) return hop.error === 'network';
  const s = hop.status!;
  return s >= 400 && s !== 429 && s !== 503;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Probes one URL: HEAD, then GET when HEAD is refused or fails, following
 * redirects; never connects to an address `allowAddresses` does not hold.
 *
 * @example
 * ```ts
 * const r = await probeLocation('http://127.0.0.1:1/', { ...DEFAULT_PROBE, allowAddresses: 'all', timeoutMs: 2000 });
 * [r.outcome, r.error]; // ['broken', 'refused']
 * (await probeLocation('http://127.0.0.1:1/')).error; // 'blocked-address (loopback)'
 * ```
 */
export async function probeLocation(url: string, opts: ProbeOptions = DEFAULT_PROBE): Promise<ProbeResult> {
  const started = performance.now();
  const seen = new Set<string>();
  let current: URL;
  try {
    current = new URL(url);
  } catch {
    return { url, outcome: 'broken', finalUrl: url, elapsedMs: 0, method: 'HEAD', redirects: 0, error: 'bad-url' };
  }
  let redirects = 0;
  for (;;) {
    const result = (hop: Hop, method: 'HEAD' | 'GET', outcome: ProbeResult['outcome'], error?: string): ProbeResult => {
      const r: ProbeResult = { url, outcome, finalUrl: current.href, elapsedMs: Math.round(performance.now() - started), method, redirects };
      if (hop.status !== undefined) r.status = hop.status;
      const err = error ?? hop.error;
      if (err !== undefined) r.error = err;
      if (hop.retryAfterMs !== undefined) r.retryAfterMs = hop.retryAfterMs;
      return r;
    };
    // ftp: and the like are not this checker's to ask: not asked, as a refused address is not,
    // rather than reported broken (a location an HTTP checker cannot reach is no sign of a dead one)
    if (current.protocol !== 'http:' && current.protocol !== 'https:') return result({}, 'HEAD', 'blocked', 'unsupported-scheme');
    // an IP literal never reaches the lookup: its number is checked here
    const literal = current.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal) !== 0 && !isAllowedAddress(literal, opts.allowAddresses)) {
      return result({}, 'HEAD', 'blocked', `blocked-address (${addressClass(literal)})`);
    }
    seen.add(current.href);
    let method: 'HEAD' | 'GET' = 'HEAD';
    let hop = await requestOnce(current, 'HEAD', opts);
    if (headInconclusive(hop)) {
      method = 'GET';
      hop = await requestOnce(current, 'GET', opts);
    }
    if (hop.error !== undefined) return result(hop, method, hop.error.startsWith('blocked-address') ? 'blocked' : LATER_ERRORS.has(hop.error) ? 'retry' : 'broken');
    const status = hop.status!;
    if (REDIRECTS.has(status) && hop.location !== undefined) {
      let next: URL;
      try {
        next = new URL(hop.location, current);
      } catch {
        return result(hop, method, 'broken', 'bad-redirect');
      }
      if (seen.has(next.href)) return result(hop, method, 'broken', 'redirect-loop');
      if (redirects >= opts.maxRedirects) return result(hop, method, 'broken', 'too-many-redirects');
      redirects++;
      current = next;
      continue;
    }
    if (status >= 200 && status < 300) return result(hop, method, 'ok');
    // RFC 6585 §4 (429) and RFC 9110 §15.6.4 (503): the server asks to come back later
    if (status === 429 || status === 503) return result(hop, method, 'retry');
    return result(hop, method, 'broken', `http-${status}`);
  }
}
