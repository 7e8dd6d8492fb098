/**
 * Fetching one OAI-PMH response under the link checker's network rules
 * (links/guard.ts, links/probe.ts): only the address classes allowed
 * (public ones by default; the check is on the number the socket
 * connects to), a User-Agent that names the harvester and whom to ask
 * about it, a timeout, redirects followed up to a bound and a loop
 * detected (RFC 9110 §15.4), and the body streamed to the XML scanner a
 * chunk at a time, never more than `maxBytes` of it (a 2 GB answer is cut
 * off, not held). 503 with Retry-After (RFC 9110 §10.2.3, OAI-PMH §3.1.2.1)
 * is returned to the caller, which waits and asks again.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { HostClass } from 'urikit';
import { addressClass, guardedLookup, isAllowedAddress, PUBLIC_ONLY } from '../links/guard.js';
import { probeError } from '../links/probe.js';

/**
 * How a response is fetched.
 *
 * @example
 * ```ts
 * const o: HarvestFetchOptions = { ...DEFAULT_HARVEST_FETCH, allowAddresses: 'all' };
 * o.maxBytes; // 16777216
 * ```
 */
export interface HarvestFetchOptions {
  timeoutMs: number;
  /** The most bytes of one response read; past them the response is refused. */
  maxBytes: number;
  maxRedirects: number;
  userAgent: string;
  allowAddresses: ReadonlySet<HostClass> | 'all';
}

/**
 * The User-Agent the harvester sends without a contact.
 *
 * @example
 * ```ts
 * HARVEST_USER_AGENT.startsWith('urikit-harvester/'); // true
 * ```
 */
export const HARVEST_USER_AGENT = 'urikit-harvester/0.1 (harvests URN-URL pairs over OAI-PMH for a URN resolver; set --contact)';

/**
 * 60 s, 16 MiB a response (a page of OAI-PMH records is rarely more than
 * a few), 10 redirects, public addresses only.
 *
 * @example
 * ```ts
 * DEFAULT_HARVEST_FETCH.maxRedirects; // 10
 * ```
 */
export const DEFAULT_HARVEST_FETCH: HarvestFetchOptions = Object.freeze({
  timeoutMs: 60_000,
  maxBytes: 16 * 1024 * 1024,
  maxRedirects: 10,
  userAgent: HARVEST_USER_AGENT,
  allowAddresses: PUBLIC_ONLY,
});

/**
 * A response that could not be read: a network error (the link
 * checker's codes: `refused`, `dns`, `timeout`, `blocked-address (...)`),
 * `http-<status>`, `redirect-loop`, `too-many-redirects`,
 * `response-too-large`, `bad-encoding`.
 *
 * @example
 * ```ts
 * new FetchError('response-too-large', 'more than 64 MiB').code; // 'response-too-large'
 * ```
 */
export class FetchError extends Error {
  override readonly name = 'FetchError';
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

/** RFC 9110 §10.2.3 Retry-After: delay-seconds or an HTTP-date, in ms. */
function retryAfterMs(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : Math.max(0, t - Date.now());
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** One GET: the response, its body not read yet. */
function get(url: URL, o: HarvestFetchOptions): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal) !== 0 && !isAllowedAddress(literal, o.allowAddresses)) {
      return reject(new FetchError(`blocked-address (${addressClass(literal)})`, `${url.host} is a ${addressClass(literal)} address, which the harvester does not reach unless allowed`));
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return reject(new FetchError('unsupported-scheme', `${url.protocol} is not http or https`));
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      method: 'GET',
      lookup: guardedLookup(o.allowAddresses) as never,
      headers: { 'user-agent': o.userAgent, accept: 'text/xml, application/xml;q=0.9', 'accept-encoding': 'identity' },
      agent: false,
      timeout: o.timeoutMs,
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
    req.on('error', (e: NodeJS.ErrnoException) => {
      const { error } = probeError(e);
      reject(new FetchError(error, `${url.host}: ${error}${e.message ? ` (${e.message})` : ''}`));
    });
    req.on('response', resolve);
    req.end();
  });
}

/**
 * GETs `url`, following redirects; a 2xx body goes to `onText` a chunk at
 * a time (UTF-8, OAI-PMH §3.2); a 503 resolves with its Retry-After
 * (nothing read); anything else throws {@link FetchError}, as does a
 * throw of `onText` (the connection is dropped at once).
 *
 * @example
 * ```ts
 * await fetchOai(new URL('http://127.0.0.1:1/oai?verb=Identify'), () => {}).catch((e: FetchError) => e.code); // 'blocked-address (loopback)'
 * ```
 */
export async function fetchOai(url: URL, onText: (text: string) => void, opts: HarvestFetchOptions = DEFAULT_HARVEST_FETCH): Promise<{ status: number; retryAfterMs?: number; finalUrl: string }> {
  const seen = new Set<string>();
  let current = url;
  for (let redirects = 0; ; redirects++) {
    seen.add(current.href);
    const res = await get(current, opts);
    const status = res.statusCode ?? 0;
    if (REDIRECTS.has(status) && res.headers.location !== undefined) {
      res.resume();
      let next: URL;
      try { next = new URL(res.headers.location, current); } catch { throw new FetchError('bad-redirect', `${current.href} redirects to "${res.headers.location}", which is not a URL`); }
      if (seen.has(next.href)) throw new FetchError('redirect-loop', `${next.href} redirects back to itself through ${seen.size} URLs`);
      if (redirects >= opts.maxRedirects) throw new FetchError('too-many-redirects', `more than ${opts.maxRedirects} redirects from ${url.href}`);
      current = next;
      continue;
    }
    if (status === 503) {
      res.resume();
      const ra = retryAfterMs(res.headers['retry-after']);
      return { status, ...(ra !== undefined ? { retryAfterMs: ra } : {}), finalUrl: current.href };
    }
    if (status < 200 || status >= 300) {
      res.resume();
      throw new FetchError(`http-${status}`, `${current.href} answered ${status}`);
    }
    await readBody(res, onText, opts);
    return { status, finalUrl: current.href };
  }
}

/** Streams the body to `onText` within the byte bound. */
function readBody(res: IncomingMessage, onText: (text: string) => void, o: HarvestFetchOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    const decoder = new TextDecoder('utf-8', { fatal: true });
    let bytes = 0;
    let done = false;
    const fail = (e: unknown) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      res.destroy();
      reject(e);
    };
    const timer = setTimeout(() => fail(new FetchError('timeout', `the response took longer than ${o.timeoutMs} ms`)), o.timeoutMs);
    res.on('data', (chunk: Buffer) => {
      if (done) return;
      bytes += chunk.length;
      if (bytes > o.maxBytes) return fail(new FetchError('response-too-large', `the response is longer than ${o.maxBytes} bytes`));
      let text: string;
      try { text = decoder.decode(chunk, { stream: true }); } catch { return fail(new FetchError('bad-encoding', 'the response is not UTF-8 (OAI-PMH §3.2)')); }
      try { onText(text); } catch (e) { fail(e); }
    });
    res.on('end', () => {
      clearTimeout(timer);
      if (done) return;
      try { onText(decoder.decode()); } catch (e) { return fail(e instanceof TypeError ? new FetchError('bad-encoding', 'the response is not UTF-8 (OAI-PMH §3.2)') : e); }
      done = true;
      resolve();
    });
    res.on('error', (e) => { clearTimeout(timer); fail(new FetchError('network', `the response broke off: ${e.message}`)); });
    res.on('close', () => { clearTimeout(timer); if (!done) fail(new FetchError('network', 'the response broke off')); });
  });
}
