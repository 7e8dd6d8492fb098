/**
 * urikit: URIs, URLs, IRIs and URNs exactly as the specifications say.
 * This file only re-exports; each concept lives in its own module.
 */
export * from './errors.js';
export type * from './types.js';
// The core: parse, serialize, resolve, normalize, percent-encoding and the
// IP address texts (RFC 3986 §3–§6).
export { parse, tryParse, isValid, resolve } from './entry.js';
export type { ParseOptions, ResolveOptions } from './entry.js';
export { serialize } from './serialize.js';
export { parseIPv4Address, formatIPv4 } from './host/ipv4.js';
export { parseIPv6Address, isIPv6Address, formatIPv6 } from './host/ipv6.js';
export { removeDotSegments } from './remove-dot-segments.js';
export { percentEncode, percentDecode } from './percent.js';
export type { PercentComponent, PercentDecodeOptions } from './percent.js';
export { normalize, equivalent } from './normalize.js';
export type { NormalizeLevel, CompareLevel, NormalizeOptions, EquivalentOptions } from './normalize.js';
export * from './scheme-of.js';
export * from './host/index.js';
export * from './iri.js';
export * from './schemes/index.js';
export * from './profiles.js';
export * from './urn/index.js';
export * from './text/index.js';
export * from './security/index.js';
