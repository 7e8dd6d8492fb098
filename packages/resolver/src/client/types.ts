/**
 * The shapes of the resolution client: what `resolveUrn` is
 * asked and what it answers. 1995 draft §3 (resolution over HTTP), §4
 * (clients follow redirects), §5 (caching); RFC 2169 (`/uri-res/`).
 */
import type { Cache } from './cache.js';
import type { DiscoveryOptions } from './discovery.js';

/**
 * One location of a resolved name: a URL and the metainformation that
 * the 1995 draft's text/urc-0 header and body carry with it (§3.4.2).
 *
 * @example
 * ```ts
 * // A JSON answer may give a location's media type as "type" and its URL as "href".
 * const body = Buffer.from('[{"href": "http://a.test/x.pdf", "type": "application/pdf", "language": "en"}]');
 * const loc: UrnLocation = readAnswer('application/json', body).locations[0]!;
 * loc // { url: 'http://a.test/x.pdf', mediaType: 'application/pdf', language: 'en' }
 * ```
 */
export interface UrnLocation {
  /** The URL, with the `<URL:...>` wrapper and line breaks removed. */
  url: string;
  /** `US-ASCII` or `ISO-8859-1`..`9` (1995 draft §3.4.2). */
  charset?: string;
  /** The language tag of the metainformation (RFC 1766 / BCP 47). */
  language?: string;
  /** Free-text metainformation about this location. */
  meta?: string;
  /** The media type of the resource at this location, when known. */
  mediaType?: string;
}

/**
 * The answer of {@link resolveUrn}: the HTTP status of the last answer,
 * the locations, any metadata and the URNs asked, in order (1995 draft
 * §4: a 301/302 to a URN substitutes that URN).
 *
 * @example
 * ```ts
 * const server = await startServer({ port: 0, db: ':memory:', demo: true });
 * const r: ResolveResult = await resolveUrn('urn:foo:a123,456', { resolvers: [server.url], service: 'I2Ls', accept: 'application/json' });
 * r.status // 200
 * r.locations.map((l) => l.url) // ['http://example.org/foo/a123,456']
 * r.resolver // `${server.url}/uri-res/I2Ls?urn:foo:a123,456`
 * r.contentType // 'application/json'
 * r.via // ['urn:foo:a123,456']
 * await server.close();
 * ```
 */
export interface ResolveResult {
  /** The HTTP status of the answer that ended the resolution. */
  status: number;
  /** Where the named resource can be found, best first. */
  locations: UrnLocation[];
  /** Descriptive metadata (I2C) or the free text of a text/plain answer. */
  metadata?: unknown;
  /** Every URN asked, from the original to the one that was answered (§4). */
  via: string[];
  /** The request URL of the answer that ended the resolution. */
  resolver?: string;
  /** The media type of that answer. */
  contentType?: string;
  /** True when the answer came from the cache (fresh, or revalidated with a 304; §5). */
  fromCache?: boolean;
  /** The body of that answer as received, for gateways that pass it through (not enumerable: left out of JSON). */
  body?: string;
}

/**
 * One attempt to reach a resolver, kept so that an error can say which
 * resolvers were tried and why each failed.
 *
 * @example
 * ```ts
 * // Nothing listens on port 1: the error lists the one resolver tried and why it failed.
 * const e = await resolveUrn('urn:example:a', { resolvers: ['http://127.0.0.1:1'] }).then(() => undefined, (e: ResolutionError) => e);
 * const attempts: ResolverAttempt[] = e!.attempts;
 * attempts.map((a) => a.url) // ['http://127.0.0.1:1/uri-res/I2L?urn:example:a']
 * attempts[0]!.error.includes('ECONNREFUSED') // true
 * ```
 */
export interface ResolverAttempt {
  /** The request URL. */
  url: string;
  /** What went wrong (connection refused, timeout, 5xx). */
  error: string;
}

/**
 * The options of {@link resolveUrn}.
 *
 * @example
 * ```ts
 * const server = await startServer({ port: 0, db: ':memory:', demo: true });
 * const opts: ResolveOptions = { resolvers: [server.url], service: 'I2Ls', maxRedirects: 5, cache: new MemoryCache() };
 * // A 301 to another URN is followed, once here.
 * (await resolveUrn('urn:dns:library.bigstate.edu:old-price-list', opts)).via.length; // 2
 * await resolveUrn('urn:dns:library.bigstate.edu:old-price-list', { ...opts, maxRedirects: 0 }); // throws ResolutionError too-many-redirects
 * // Asked again, the kept answer is revalidated (304) and used.
 * (await resolveUrn('urn:foo:a123,456', opts)).fromCache; // false
 * (await resolveUrn('urn:foo:a123,456', opts)).fromCache; // true
 * await server.close();
 * ```
 */
export interface ResolveOptions {
  /**
   * Resolver base URLs tried in order before discovery. A plain base uses
   * the RFC 2169 form `<base>/uri-res/<service>?<urn>`; a template with
   * `{urn}`, `{service}`, `{nid}`, `{nss}` or `{elementid}` is filled in.
   */
  resolvers?: string[];
  /** The RFC 2483 service, `I2L` by default (RFC 2169 §2). */
  service?: string;
  /** The `Accept` header; by default urc-0 first (1995 draft §3.4.2: programs prefer it). */
  accept?: string;
  /** How many 301/302 answers to follow, 10 by default (1995 draft §4). */
  maxRedirects?: number;
  /** Where answers are kept between calls (1995 draft §5); each is revalidated (If-None-Match, If-Modified-Since) before it is used again. */
  cache?: Cache;
  /**
   * Use a kept answer without asking while its `Cache-Control: max-age`
   * lasts (RFC 9111 §4.2), as browsers do; default false: the 1995 draft
   * §5 caches "only ... using the If-Modified-Since mechanism", so that a
   * name changed a second ago is never answered from the cache.
   */
  trustMaxAge?: boolean;
  /** How resolvers are found when `resolvers` is absent or all fail. */
  discovery?: DiscoveryOptions;
  /** Milliseconds to wait for each resolver, 10 000 by default. */
  timeout?: number;
  /** Connect only to public addresses (a gateway open to anyone; 2003 draft §7.3). */
  publicOnly?: boolean;
  /** The clock, in milliseconds since the epoch (for cache freshness). */
  now?: () => number;
}
