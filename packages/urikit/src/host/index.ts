/**
 * The host barrel (RFC 3986 §3.2.2, §7.4): typed hosts, DNS names, the rare IPv4
 * formats, special-purpose classification, IDNA and Punycode. Re-exported
 * from ../index.ts. (`parseIPv4Address`, `parseIPv6Address`, `formatIPv6`
 * and friends come through the core barrel.)
 */
export { parseHost, tryParseHost, formatHost } from './parse-host.js';
export type { Host, RegNameHost, IPv4Host, IPv6Host, IPvFutureHost, ParseHostOptions } from './parse-host.js';
export { checkHostname, isHostname, findRegNameError, findIRegNameError, MAX_HOSTNAME_LENGTH, MAX_LABEL_LENGTH } from './regname.js';
export { interpretLegacyIPv4 } from './legacy-ipv4.js';
export { classifyHost, inspectHost, SPECIAL_PURPOSE_RANGES } from './classify.js';
export type { HostClass, HostInfo, SpecialRange } from './classify.js';
export { domainToASCII, domainToUnicode } from './idna.js';
export type { IdnaOptions } from './idna.js';
export { punycodeEncode, punycodeDecode } from './punycode.js';
