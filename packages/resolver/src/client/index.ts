// The URN resolution client (1995 draft §4, RFC 2169, RFC 3404): resolveUrn, its cache and discovery.
export { resolveUrn, ResolutionError, splitReference } from './resolve-urn.js';
export type { ResolveOptions, ResolveResult, ResolverAttempt, UrnLocation } from './types.js';
export { MemoryCache, DiskCache, isFresh, isStorable, maxAge } from './cache.js';
export type { Cache, CacheEntry } from './cache.js';
export { discoverySteps, loadResolverConfig, requestUrl, encodeForRequest } from './discovery.js';
export type { DiscoveryOptions, DiscoveryMethod, ResolverConfig, ResolverTarget } from './discovery.js';
export { discoverByNaptr, applySubstitution, parseSubstitution, parseServiceField } from './naptr.js';
export type { NaptrOptions, NaptrRecord, NaptrTarget } from './naptr.js';
export { readAnswer, mediaType, DEFAULT_ACCEPT } from './answer.js';
export type { ReadAnswer } from './answer.js';
export { httpGet } from './http.js';
export type { HttpAnswer, HttpGetOptions } from './http.js';
export { interpretRedirect, urnInReasonPhrase, urnOfRfc2169Url } from './redirect.js';
export type { RedirectMeaning } from './redirect.js';
export { compileEre } from './ere.js';
export { crawl, crawlText, readNameList } from './crawl.js';
export type { CrawlOptions, CrawlNode, CrawlResult } from './crawl.js';
