/**
 * `resolveUrn`: the URN resolution client of the 1995 draft. It asks a
 * resolver over HTTP (§3.3, RFC 2169 §2), reads the answer in any of the
 * formats of §3.4, follows 301/302 by substituting the new URN (§4),
 * stops at a loop or after `maxRedirects`, and caches with
 * If-Modified-Since / ETag (§5).
 */
import { DEFAULT_MAX_REDIRECTS } from '../defaults/index.js';
import { getDirective, isUriError, normalizeUrn, parseUrn, type Urn } from 'urikit';
import { RESOLVER_ERROR_MESSAGES, ResolverError } from '../errors/resolver-error.js';
import { isFresh, isStorable, type Cache, type CacheEntry } from './cache.js';
import { DEFAULT_ACCEPT, mediaType, readAnswer } from './answer.js';
import { discoverySteps, requestUrl, type ResolverTarget } from './discovery.js';
import { httpGet, type HttpAnswer } from './http.js';
import type { ResolveOptions, ResolveResult, ResolverAttempt } from './types.js';
import { interpretRedirect } from './redirect.js';

/**
 * Why a resolution failed: a {@link ResolverError} (`no-resolver`,
 * `resolver-unreachable`, `redirect-loop`, `too-many-redirects`,
 * `bad-resolver-answer`) with the URNs asked and every resolver tried.
 *
 * @example
 * ```ts
 * await resolveUrn('urn:example:a', { resolvers: ['http://127.0.0.1:1'] }) // throws ResolutionError resolver-unreachable
 * ```
 */
export class ResolutionError extends ResolverError {
  override readonly name: string = 'ResolutionError';
  /** The URNs asked, in order (the last one is the one that failed). */
  readonly via: string[];
  /** Each resolver tried and why it failed. */
  readonly attempts: ResolverAttempt[];
  constructor(code: 'no-resolver' | 'resolver-unreachable' | 'redirect-loop' | 'too-many-redirects' | 'bad-resolver-answer', via: string[], attempts: ResolverAttempt[], detail: string) {
    super(code, 0, via[via.length - 1], detail);
    // The failure is the resolvers', not a character of the URN's: say what
    // failed and where it was asked, without the "at offset" suffix.
    this.message = `${RESOLVER_ERROR_MESSAGES[code]} (${detail})`;
    this.via = via;
    this.attempts = attempts;
  }
}

// 1995 draft §4 names 301 and 302; 303, 307 and 308 are the later HTTP
// statuses with the same meaning for a GET (RFC 9110 §15.4).
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
// A resolver that answers one of these is treated as down and the next is tried.
const UNAVAILABLE = new Set([500, 502, 503, 504]);
const MAX_BODY = 4 * 1024 * 1024;

/**
 * Attaches the answer's body to a result without making it part of its
 * JSON (gateways pass it through; `JSON.stringify(result)` stays the
 * `{ status, locations, metadata, via, ... }` of the contract).
 */
function withBody(result: ResolveResult, body: string): ResolveResult {
  Object.defineProperty(result, 'body', { value: body, enumerable: false, writable: true, configurable: true });
  return result;
}

/** The key under which two spellings of one URN are the same name (RFC 8141 §3.1). */
function urnKey(urn: string): string {
  try {
    return normalizeUrn(urn);
  } catch {
    return urn;
  }
}

/**
 * What a URN reference asks a resolver: the URN without its fragment
 * (2012 draft §2.4: "it will not be sent to the resolution service but be
 * interpreted by the resolution client"; RFC 3986 §3.5), the fragment to
 * put back on the answer's locations, and the service an `s=` directive
 * names (2012 draft §2.3.1; read under that draft's rules when RFC 8141's
 * refuse its query).
 *
 * @example
 * ```ts
 * splitReference('urn:isbn:0451450523#chapter1'); // { urn: 'urn:isbn:0451450523', fragment: 'chapter1' }
 * splitReference('urn:isbn:0451450523?s=I2C&c=ToC'); // { urn: 'urn:isbn:0451450523?s=I2C&c=ToC', service: 'I2C' }
 * splitReference('urn:a:x'); // throws UriError bad-nid
 * ```
 */
export function splitReference(reference: string): { urn: string; fragment?: string; service?: string } {
  let parsed: Urn;
  try {
    parsed = parseUrn(reference);
  } catch (e) {
    // A 2012 draft directive query (`?s=I2C`) is not an RFC 8141 component: read it under the draft.
    if (!isUriError(e) || e.code !== 'bad-urn-component') throw e;
    try { parsed = parseUrn(reference, { profile: 'urn-2012' }); } catch { throw e; }
  }
  const hash = reference.indexOf('#');
  const urn = hash < 0 ? reference : reference.slice(0, hash);
  const s = parsed.directives !== undefined ? getDirective(parsed.directives, 's') : undefined;
  return { urn, ...(parsed.fComponent !== undefined ? { fragment: parsed.fComponent } : {}), ...(s !== undefined ? { service: s } : {}) };
}

/** A location with a URN reference's fragment put back on it, unless it has one of its own (2012 draft §2.4: the client applies the fragment to what the resolver returns). */
function withFragment(url: string, fragment: string | undefined): string {
  return fragment === undefined || url.includes('#') ? url : `${url}#${fragment}`;
}

/** A successful exchange with one resolver. */
interface Exchange {
  answer: HttpAnswer;
  url: string;
  fromCache: boolean;
}

/** Asks one target, through the cache (1995 draft §5). */
async function ask(target: ResolverTarget, accept: string, opts: ResolveOptions): Promise<Exchange> {
  const now = opts.now ?? Date.now;
  const cache: Cache | undefined = opts.cache;
  const key = `${target.url}\n${accept}`;
  const cached = cache ? await cache.get(key) : undefined;
  const fromEntry = (e: CacheEntry): HttpAnswer => ({ status: e.status, statusText: e.statusText ?? '', headers: e.headers, body: Buffer.from(e.body, 'base64') });
  // 1995 draft §5: "Caching should only be performed using the If-Modified-Since
  // mechanism": a kept answer is asked about again every time, unless told to trust max-age.
  if (cached && opts.trustMaxAge === true && isFresh(cached, now())) return { answer: fromEntry(cached), url: target.url, fromCache: true };
  const headers: Record<string, string> = { accept, 'user-agent': 'urikit-resolver-client' };
  if (target.host) headers['host'] = target.host;
  if (cached) {
    // 1995 draft §5: revalidate with If-Modified-Since; If-None-Match is its successor (RFC 9110 §13.1.1).
    if (cached.headers['last-modified']) headers['if-modified-since'] = cached.headers['last-modified'];
    if (cached.headers['etag']) headers['if-none-match'] = cached.headers['etag'];
  }
  const answer = await httpGet(target.url, { headers, timeout: opts.timeout ?? 10_000, maxBody: MAX_BODY, publicOnly: opts.publicOnly === true });
  if (answer.status === 304 && cached) {
    // RFC 9111 §4.3.4: the stored answer is used with the new headers merged in.
    const refreshed: CacheEntry = { ...cached, headers: { ...cached.headers, ...answer.headers, 'content-type': cached.headers['content-type'] ?? '' }, storedAt: now() };
    refreshed.headers['content-length'] = String(Buffer.from(cached.body, 'base64').length);
    await cache?.set(key, refreshed);
    return { answer: fromEntry(refreshed), url: target.url, fromCache: true };
  }
  if (cache && isStorable(answer.headers) && (answer.status === 200 || REDIRECTS.has(answer.status) || answer.status === 404 || answer.status === 410)) {
    await cache.set(key, { status: answer.status, statusText: answer.statusText, headers: answer.headers, body: answer.body.toString('base64'), storedAt: now() });
  } else if (cache && cached) {
    // A new answer that may not be kept replaces the kept one: never answer from a stale entry.
    await cache.delete(key);
  }
  return { answer, url: target.url, fromCache: false };
}

/**
 * Tries the given resolvers, then each discovery method in turn, until one
 * answers with something other than a 5xx; every failure is recorded.
 */
async function askAnyResolver(urn: string, service: string, accept: string, opts: ResolveOptions, via: string[], extra: { first?: string; last?: string }): Promise<Exchange> {
  const attempts: ResolverAttempt[] = [];
  const steps: { method: string; targets: () => Promise<ResolverTarget[]> }[] = [];
  if (extra.first !== undefined) {
    // A resolver delegated the request to this URL (the same URN, RFC 2169 form); it alone is asked.
    const first = extra.first;
    steps.push({ method: 'delegation', targets: async () => [{ url: first, source: 'redirect' }] });
  } else if (opts.resolvers && opts.resolvers.length > 0) {
    const given = opts.resolvers.map((b) => ({ url: requestUrl(b, urn, service), source: 'option' }));
    steps.push({ method: 'option', targets: async () => given });
  }
  if (extra.first === undefined && (opts.discovery !== undefined || steps.length === 0)) steps.push(...discoverySteps(urn, service, opts.discovery ?? {}));
  if (extra.last !== undefined) {
    // The resolver that redirected named a resolver URL for the new URN: asked when nothing else answers.
    const last = extra.last;
    steps.push({ method: 'redirect hint', targets: async () => [{ url: last, source: 'redirect' }] });
  }
  let tried = 0;
  for (const step of steps) {
    let targets: ResolverTarget[];
    try {
      targets = await step.targets();
    } catch (e) {
      attempts.push({ url: `(${step.method} discovery)`, error: e instanceof Error ? e.message : String(e) });
      continue;
    }
    for (const target of targets) {
      tried++;
      try {
        const exchange = await ask(target, accept, opts);
        if (UNAVAILABLE.has(exchange.answer.status)) {
          attempts.push({ url: target.url, error: `HTTP ${exchange.answer.status}` });
          continue;
        }
        return exchange;
      } catch (e) {
        // The transport's messages name the URL already; the attempt records it once.
        const message = e instanceof Error ? e.message : String(e);
        attempts.push({ url: target.url, error: message.startsWith(`${target.url}: `) ? message.slice(target.url.length + 2) : message });
      }
    }
  }
  const list = attempts.map((a) => `${a.url}: ${a.error}`).join('; ');
  if (tried === 0) throw new ResolutionError('no-resolver', via, attempts, list || urn);
  throw new ResolutionError('resolver-unreachable', via, attempts, list);
}

/**
 * Resolves a URN to its locations through a resolution service over HTTP
 * (1995 draft §3; RFC 2169 §2), following 301/302 to another URN (§4) and
 * caching answers with If-Modified-Since / ETag (§5). `via` lists every URN
 * asked. Throws {@link ResolutionError} when no resolver answers, on a
 * redirect loop, or after `maxRedirects` redirects; an unknown name is an
 * answer (`status: 404`), not an error.
 *
 * @example
 * ```ts
 * const server = await startServer({ port: 0, db: ':memory:', demo: true });
 * const r = await resolveUrn('urn:foo:a123,456', { resolvers: [server.url] });
 * r.status // 302
 * r.locations[0]?.url // 'http://example.org/foo/a123,456'
 * r.via // ['urn:foo:a123,456']
 * // A 301 to another URN is followed (1995 draft §4):
 * const moved = await resolveUrn('urn:dns:library.bigstate.edu:old-price-list', { resolvers: [server.url] });
 * moved.via // ['urn:dns:library.bigstate.edu:old-price-list', 'urn:dns:library.bigstate.edu:current-version-of-price-list']
 * await server.close();
 * ```
 */
export async function resolveUrn(urn: string, opts: ResolveOptions = {}): Promise<ResolveResult> {
  // Throws UriError with the offset of a malformed URN.
  const reference = splitReference(urn);
  const service = opts.service ?? reference.service ?? 'I2L';
  const accept = opts.accept ?? DEFAULT_ACCEPT;
  const maxRedirects = opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const via = [reference.urn];
  const seen = new Set([urnKey(reference.urn)]);
  const asked = new Set<string>();
  const sameUrn = (a: string, b: string) => urnKey(a) === urnKey(b);
  let current = reference.urn;
  let extra: { first?: string; last?: string } = {};
  let redirects = 0;
  for (;;) {
    const { answer, url, fromCache } = await askAnyResolver(current, service, accept, opts, via, extra);
    asked.add(`${url}\n${current}`);
    extra = {};
    if (REDIRECTS.has(answer.status)) {
      const meaning = interpretRedirect(answer.headers['location'], answer.statusText, url, current, sameUrn);
      if (meaning !== undefined && meaning.kind !== 'location') {
        if (redirects >= maxRedirects) {
          const next = meaning.kind === 'urn' ? meaning.urn : meaning.url;
          throw new ResolutionError('too-many-redirects', [...via, next], [], `more than ${maxRedirects}: ${[...via, next].join(' -> ')}`);
        }
        redirects++;
        if (meaning.kind === 'resolver') {
          if (asked.has(`${meaning.url}\n${current}`)) throw new ResolutionError('redirect-loop', via, [], `${url} -> ${meaning.url} for ${current}`);
          extra = { first: meaning.url };
          continue;
        }
        // 1995 draft §4: "attempt to resolve the original URN by substituting the new URN".
        try {
          parseUrn(meaning.urn);
        } catch (e) {
          throw new ResolutionError('bad-resolver-answer', via, [], `${url} redirected to the malformed URN ${meaning.urn}${isUriError(e) ? `: ${e.message}` : ''}`);
        }
        const key = urnKey(meaning.urn);
        if (seen.has(key)) throw new ResolutionError('redirect-loop', [...via, meaning.urn], [], [...via, meaning.urn].join(' -> '));
        seen.add(key);
        via.push(meaning.urn);
        current = meaning.urn;
        if (meaning.hint !== undefined) extra = { last: meaning.hint };
        continue;
      }
      if (meaning !== undefined) {
        // A redirect to a URL is the location itself (RFC 2169 §3.1: N2L answers 30X with the URL in Location).
        const contentType = mediaType(answer.headers['content-type']);
        return withBody({ status: answer.status, locations: [{ url: withFragment(meaning.url, reference.fragment) }], via, resolver: url, fromCache, ...(contentType ? { contentType } : {}) }, answer.body.toString('latin1'));
      }
    }
    const type = mediaType(answer.headers['content-type']);
    const result: ResolveResult = { status: answer.status, locations: [], via, resolver: url, fromCache };
    if (type) result.contentType = type;
    // urc-0 may be ISO-8859-x (1995 draft §3.4.2): kept as latin1 so the bytes can be passed through.
    withBody(result, type === 'text/urc-0' ? answer.body.toString('latin1') : answer.body.toString('utf8'));
    if (answer.body.length > 0) {
      try {
        const read = readAnswer(type, answer.body);
        result.locations = reference.fragment === undefined ? read.locations : read.locations.map((l) => ({ ...l, url: withFragment(l.url, reference.fragment) }));
        if (read.metadata !== undefined) result.metadata = read.metadata;
      } catch (e) {
        if (answer.status >= 200 && answer.status < 300) {
          throw new ResolutionError('bad-resolver-answer', via, [], `${url} (${type}): ${e instanceof Error ? e.message : String(e)}`);
        }
        // An error answer whose body cannot be read keeps its status; the text is the metadata.
        result.metadata = result.body;
      }
    }
    return result;
  }
}
