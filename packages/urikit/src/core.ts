/**
 * The core barrel: parse, serialize, resolve, normalize, percent-encoding
 * and the IP address texts (RFC 3986 §3–§6). Re-exported from index.ts.
 */
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
