/**
 * What kind of place a host names — loopback, private, link-local,
 * documentation, public... — from the IANA IPv4 and IPv6 Special-Purpose
 * Address Registries (RFC 6890), on the numeric value of the address
 * (2003 draft §7.3: filter on the number, not the string).
 *
 * Registries (facts copied as data):
 * https://www.iana.org/assignments/iana-ipv4-special-registry/
 * https://www.iana.org/assignments/iana-ipv6-special-registry/
 */
import { formatIPv4, parseIPv4Address } from './ipv4.js';
import { parseIPv6Address } from './ipv6.js';
import { parseHost, type Host } from './parse-host.js';
import { interpretLegacyIPv4 } from './legacy-ipv4.js';
import { domainToASCII } from './idna.js';

/**
 * The class of a host, for filters: `public` is an address in no block of
 * the IANA special-purpose registries (ordinary global unicast), `name` a
 * DNS name whose addresses are known only after resolution (classify each
 * resolved address too). Every other class is the registry row the address
 * falls in, also for the few blocks the registry marks "globally reachable"
 * (`anycast` 192.0.0.9, `as112`, `amt`, `orchid`...): an allow-list of
 * `public` refuses them; {@link HostInfo.globallyReachable} follows the
 * registry's column instead.
 *
 * @example
 * ```ts
 * const c: HostClass = classifyHost('10.1.2.3');
 * c // "private"
 * ```
 */
export type HostClass =
  | 'public'
  | 'name'
  | 'unspecified'
  | 'this-network'
  | 'loopback'
  | 'private'
  | 'shared'
  | 'link-local'
  | 'unique-local'
  | 'site-local'
  | 'multicast'
  | 'broadcast'
  | 'documentation'
  | 'benchmarking'
  | 'protocol-assignment'
  | 'anycast'
  | 'as112'
  | 'amt'
  | 'discard'
  | 'deprecated'
  | 'reserved'
  | 'ipv4-mapped'
  | 'ipv4-compatible'
  | 'nat64'
  | '6to4'
  | 'teredo'
  | 'orchid'
  | 'drone-id'
  | 'segment-routing';

/**
 * One row of a special-purpose registry.
 *
 * @example
 * ```ts
 * const r: SpecialRange | undefined = inspectHost('192.0.2.7').range;
 * r?.range // "192.0.2.0/24"
 * ```
 */
export interface SpecialRange {
  /** The block in CIDR notation, as the registry writes it. */
  readonly range: string;
  readonly class: HostClass;
  /** The registry's "Name" column. */
  readonly name: string;
  /** The registry's "Reference" column. */
  readonly rfc: string;
  /** The registry's "Globally Reachable" column (undefined where it says N/A). */
  readonly globallyReachable: boolean | undefined;
}

type Row = [range: string, cls: HostClass, name: string, rfc: string, reachable: boolean | undefined];

// IANA IPv4 Special-Purpose Address Registry (RFC 6890 §2.2.2, updated),
// plus multicast 224.0.0.0/4 (RFC 5771) which has its own registry.
const IPV4_ROWS: Row[] = [
  ['0.0.0.0/8', 'this-network', '"This network"', 'RFC 791 §3.2', false],
  ['0.0.0.0/32', 'unspecified', '"This host on this network"', 'RFC 1122 §3.2.1.3', false],
  ['10.0.0.0/8', 'private', 'Private-Use', 'RFC 1918', false],
  ['100.64.0.0/10', 'shared', 'Shared Address Space', 'RFC 6598', false],
  ['127.0.0.0/8', 'loopback', 'Loopback', 'RFC 1122 §3.2.1.3', false],
  ['169.254.0.0/16', 'link-local', 'Link Local', 'RFC 3927', false],
  ['172.16.0.0/12', 'private', 'Private-Use', 'RFC 1918', false],
  ['192.0.0.0/24', 'protocol-assignment', 'IETF Protocol Assignments', 'RFC 6890 §2.1', false],
  ['192.0.0.0/29', 'protocol-assignment', 'IPv4 Service Continuity Prefix', 'RFC 7335', false],
  ['192.0.0.8/32', 'protocol-assignment', 'IPv4 dummy address', 'RFC 7600', false],
  ['192.0.0.9/32', 'anycast', 'Port Control Protocol Anycast', 'RFC 7723', true],
  ['192.0.0.10/32', 'anycast', 'Traversal Using Relays around NAT Anycast', 'RFC 8155', true],
  ['192.0.0.170/32', 'protocol-assignment', 'NAT64/DNS64 Discovery', 'RFC 8880, RFC 7050 §2.2', false],
  ['192.0.0.171/32', 'protocol-assignment', 'NAT64/DNS64 Discovery', 'RFC 8880, RFC 7050 §2.2', false],
  ['192.0.2.0/24', 'documentation', 'Documentation (TEST-NET-1)', 'RFC 5737', false],
  ['192.31.196.0/24', 'as112', 'AS112-v4', 'RFC 7535', true],
  ['192.52.193.0/24', 'amt', 'AMT', 'RFC 7450', true],
  ['192.88.99.0/24', 'deprecated', 'Deprecated (6to4 Relay Anycast)', 'RFC 7526', undefined],
  ['192.168.0.0/16', 'private', 'Private-Use', 'RFC 1918', false],
  ['192.175.48.0/24', 'as112', 'Direct Delegation AS112 Service', 'RFC 7534', true],
  ['198.18.0.0/15', 'benchmarking', 'Benchmarking', 'RFC 2544', false],
  ['198.51.100.0/24', 'documentation', 'Documentation (TEST-NET-2)', 'RFC 5737', false],
  ['203.0.113.0/24', 'documentation', 'Documentation (TEST-NET-3)', 'RFC 5737', false],
  ['224.0.0.0/4', 'multicast', 'Multicast', 'RFC 5771', undefined],
  ['240.0.0.0/4', 'reserved', 'Reserved', 'RFC 1112 §4', false],
  ['255.255.255.255/32', 'broadcast', 'Limited Broadcast', 'RFC 8190, RFC 919 §7', false],
];

// IANA IPv6 Special-Purpose Address Registry (RFC 6890 §2.2.3, updated),
// plus multicast ff00::/8 (RFC 4291 §2.7), deprecated site-local fec0::/10
// (RFC 3879), IPv4-compatible ::/96 (deprecated, RFC 4291 §2.5.5.1), and
// everything outside global unicast 2000::/3 as reserved (IANA IPv6
// Address Space registry).
const IPV6_ROWS: Row[] = [
  ['::/0', 'reserved', 'Reserved by IETF (outside 2000::/3)', 'RFC 4291 §2.4', false],
  ['2000::/3', 'public', 'Global Unicast', 'RFC 4291 §2.4', true],
  ['::/128', 'unspecified', 'Unspecified Address', 'RFC 4291 §2.5.2', false],
  ['::1/128', 'loopback', 'Loopback Address', 'RFC 4291 §2.5.3', false],
  ['::/96', 'ipv4-compatible', 'IPv4-Compatible IPv6 Address (deprecated)', 'RFC 4291 §2.5.5.1', false],
  ['::ffff:0:0/96', 'ipv4-mapped', 'IPv4-mapped Address', 'RFC 4291 §2.5.5.2', false],
  ['64:ff9b::/96', 'nat64', 'IPv4-IPv6 Translat.', 'RFC 6052', true],
  ['64:ff9b:1::/48', 'nat64', 'IPv4-IPv6 Translat.', 'RFC 8215', false],
  ['100::/64', 'discard', 'Discard-Only Address Block', 'RFC 6666', false],
  ['100:0:0:1::/64', 'discard', 'Dummy IPv6 Prefix', 'RFC 9780', false],
  ['2001::/23', 'protocol-assignment', 'IETF Protocol Assignments', 'RFC 2928', false],
  ['2001::/32', 'teredo', 'TEREDO', 'RFC 4380, RFC 8190', undefined],
  ['2001:1::1/128', 'anycast', 'Port Control Protocol Anycast', 'RFC 7723', true],
  ['2001:1::2/128', 'anycast', 'Traversal Using Relays around NAT Anycast', 'RFC 8155', true],
  ['2001:1::3/128', 'anycast', 'DNS-SD Service Registration Protocol Anycast', 'RFC 9665', true],
  ['2001:2::/48', 'benchmarking', 'Benchmarking', 'RFC 5180, RFC Errata 1752', false],
  ['2001:3::/32', 'amt', 'AMT', 'RFC 7450', true],
  ['2001:4:112::/48', 'as112', 'AS112-v6', 'RFC 7535', true],
  ['2001:10::/28', 'deprecated', 'Deprecated (previously ORCHID)', 'RFC 4843', undefined],
  ['2001:20::/28', 'orchid', 'ORCHIDv2', 'RFC 7343', true],
  ['2001:30::/28', 'drone-id', 'Drone Remote ID Protocol Entity Tags (DETs) Prefix', 'RFC 9374', true],
  ['2001:db8::/32', 'documentation', 'Documentation', 'RFC 3849', false],
  ['2002::/16', '6to4', '6to4', 'RFC 3056', undefined],
  ['2620:4f:8000::/48', 'as112', 'Direct Delegation AS112 Service', 'RFC 7534', true],
  ['3fff::/20', 'documentation', 'Documentation', 'RFC 9637', false],
  ['5f00::/16', 'segment-routing', 'Segment Routing (SRv6) SIDs', 'RFC 9602', false],
  ['fc00::/7', 'unique-local', 'Unique-Local', 'RFC 4193, RFC 8190', false],
  ['fe80::/10', 'link-local', 'Link-Local Unicast', 'RFC 4291', false],
  ['fec0::/10', 'site-local', 'Site-Local (deprecated)', 'RFC 3879', false],
  ['ff00::/8', 'multicast', 'Multicast', 'RFC 4291 §2.7', undefined],
];

interface V4Entry { row: SpecialRange; base: number; mask: number; bits: number }
interface V6Entry { row: SpecialRange; groups: number[]; bits: number }

const toRange = ([range, cls, name, rfc, reachable]: Row): SpecialRange => ({ range, class: cls, name, rfc, globallyReachable: reachable });

// Longest prefix first, so the first match is the most specific.
const V4: V4Entry[] = IPV4_ROWS.map((r) => {
  const [text, len] = r[0].split('/') as [string, string];
  const bits = Number(len);
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return { row: toRange(r), base: parseIPv4Address(text)!, mask, bits };
}).sort((a, b) => b.bits - a.bits);
const V6: V6Entry[] = IPV6_ROWS.map((r) => {
  const [text, len] = r[0].split('/') as [string, string];
  return { row: toRange(r), groups: parseIPv6Address(text).groups, bits: Number(len) };
}).sort((a, b) => b.bits - a.bits);

/**
 * The rows of the IANA IPv4 and IPv6 Special-Purpose Address Registries
 * (RFC 6890, https://www.iana.org/assignments/iana-ipv4-special-registry/)
 * as {@link classifyHost} uses them, for tests and documentation.
 *
 * @example
 * ```ts
 * SPECIAL_PURPOSE_RANGES.ipv4.find((r) => r.range === '127.0.0.0/8')?.class // "loopback"
 * ```
 */
export const SPECIAL_PURPOSE_RANGES: { ipv4: readonly SpecialRange[]; ipv6: readonly SpecialRange[] } = {
  ipv4: IPV4_ROWS.map(toRange),
  ipv6: IPV6_ROWS.map(toRange),
};

function matchV4(address: number): SpecialRange | undefined {
  for (const e of V4) if (((address & e.mask) >>> 0) === e.base) return e.row;
  return undefined;
}

function matchV6(groups: number[]): SpecialRange {
  for (const e of V6) {
    let bits = e.bits;
    let k = 0;
    for (; bits >= 16; k++, bits -= 16) if (groups[k] !== e.groups[k]) break;
    if (bits >= 16) continue;
    if (bits > 0) {
      const mask = (0xffff << (16 - bits)) & 0xffff;
      if ((groups[k]! & mask) !== e.groups[k]) continue;
    }
    return e.row;
  }
  return V6[V6.length - 1]!.row; // ::/0, unreachable in practice
}

/**
 * What {@link inspectHost} tells about a host.
 *
 * @example
 * ```ts
 * const info: HostInfo = inspectHost('0x7f.1');
 * info.class // "loopback"
 * info.legacyIPv4 // 2130706433
 * ```
 */
export interface HostInfo {
  /** The class a filter should act on (see {@link classifyHost}). */
  class: HostClass;
  /** The host as typed by {@link parseHost}. */
  host: Host;
  /** For a name that denotes an IPv4 address in a rare format (2003 draft §7.3): that address. */
  legacyIPv4?: number;
  /** The matching registry row, if the address is special-purpose. */
  range?: SpecialRange;
  /** For an IPv6 address that embeds an IPv4 address (mapped, compatible, NAT64, 6to4, Teredo): that address and its class. */
  embeddedIPv4?: { address: number; text: string; class: HostClass };
  /**
   * The IANA registries' "Globally Reachable" column for the address
   * (true for an address in no special-purpose block, false where the
   * column says N/A); undefined for a name, whose addresses are known only
   * after resolution.
   */
  globallyReachable?: boolean;
}

// RFC 6761 §6, RFC 6762, RFC 7686, RFC 8375: special-use domain names.
const SPECIAL_NAMES: Array<[suffix: string, cls: HostClass]> = [
  ['localhost', 'loopback'], // RFC 6761 §6.3
  ['local', 'link-local'], // RFC 6762 (mDNS)
  ['home.arpa', 'private'], // RFC 8375
  ['internal', 'private'], // ICANN board resolution 2024.07.29.06
  ['example', 'documentation'], // RFC 6761 §6.5
  ['example.com', 'documentation'],
  ['example.net', 'documentation'],
  ['example.org', 'documentation'],
  ['test', 'reserved'], // RFC 6761 §6.2
  ['invalid', 'reserved'], // RFC 6761 §6.4
  ['onion', 'reserved'], // RFC 7686
];

const URL_READER = { reader: 'url' } as const;

function ipv4Info(address: number, host: Host): HostInfo {
  const range = matchV4(address);
  return range ? { class: range.class, host, range, globallyReachable: range.globallyReachable ?? false } : { class: 'public', host, globallyReachable: true };
}

/** The IPv4 address an IPv6 address embeds, per its prefix, if any. */
function embeddedIPv4(groups: number[], cls: HostClass): number | undefined {
  switch (cls) {
    case 'ipv4-mapped': // RFC 4291 §2.5.5.2 ::ffff:a.b.c.d
    case 'ipv4-compatible': // RFC 4291 §2.5.5.1 ::a.b.c.d
      return groups[6]! * 0x10000 + groups[7]!;
    case 'nat64':
      // RFC 6052 §2.2: with the /96 prefix 64:ff9b::/96 the last 32 bits;
      // with the /48 of RFC 8215 (64:ff9b:1::/48) bits 48-63 and 72-87,
      // around the octet "u" (bits 64-71).
      if (groups[2] === 0) return groups[6]! * 0x10000 + groups[7]!;
      return groups[3]! * 0x10000 + (groups[4]! & 0xff) * 0x100 + (groups[5]! >>> 8);
    case '6to4': // RFC 3056 §2: 2002:V4ADDR::/48
      return groups[1]! * 0x10000 + groups[2]!;
    case 'teredo':
      // RFC 4380 §4: 2001:0:<server>:<flags>:<port>:<client>, the client's
      // address (where the packets go) stored with every bit inverted.
      return (~(groups[6]! * 0x10000 + groups[7]!)) >>> 0;
    default:
      return undefined;
  }
}

/** True if `name` is only ASCII letters, digits, "-", "_" and ".". */
function isDnsText(name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    const l = c | 0x20;
    if (!((l >= 0x61 && l <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2e || c === 0x5f)) return false;
  }
  return true;
}

/** Lower-cases a reg-name and decodes its percent-encoding; undefined if it is not UTF-8. */
function decodeName(name: string): string | undefined {
  let s = name;
  if (s.includes('%')) {
    try {
      s = decodeURIComponent(s);
    } catch {
      return undefined;
    }
  }
  return s.toLowerCase();
}

function inspectName(host: Host & { kind: 'reg-name' }): HostInfo {
  let name = decodeName(host.name);
  if (name !== undefined && /[^\x00-\x7f]/.test(name)) {
    // A resolver maps the name with IDNA first (fullwidth digits become digits).
    try {
      name = domainToASCII(name, { useSTD3ASCIIRules: false, checkHyphens: false, verifyDnsLength: false });
    } catch {
      name = undefined;
    }
  }
  if (name === undefined) return { class: 'reserved', host };
  // One trailing dot names the same host ("127.0.0.1." in a browser).
  if (name.endsWith('.')) name = name.slice(0, -1);
  // What is left must be letters, digits, "-", "_" and "."; anything else
  // (a decoded NUL, space or sub-delim) is no name a resolver looks up as
  // written, and C resolvers cut a name at NUL ("127.0.0.1%00.evil.example").
  if (!isDnsText(name)) return { class: 'reserved', host };
  // 2003 draft §7.3: a name a resolver (inet_aton) or a browser (the URL
  // Standard's IPv4 parser, which also reads "0x" as 0) takes for an
  // address is that address; the URL reader accepts all that inet_aton does.
  const legacy = interpretLegacyIPv4(name, URL_READER);
  if (legacy !== undefined) {
    const info = ipv4Info(legacy, host);
    info.legacyIPv4 = legacy;
    return info;
  }
  for (const [suffix, cls] of SPECIAL_NAMES) {
    if (name === suffix || (name.endsWith(suffix) && name.charCodeAt(name.length - suffix.length - 1) === 0x2e)) {
      return { class: cls, host };
    }
  }
  return { class: name === '' ? 'reserved' : 'name', host };
}

/** Accepts a host as in a URI, a bare IPv6 address, or a parsed {@link Host}. */
function toHost(host: string | Host): Host {
  if (typeof host !== 'string') return host;
  if (host.charCodeAt(0) !== 0x5b && host.includes(':')) return parseHost(`[${host}]`);
  return parseHost(host, { iri: true });
}

/**
 * Everything {@link classifyHost} knows of a host: its class, the
 * registry row it falls in, the IPv4 address a rare format names, and the
 * IPv4 address an IPv6 address embeds (RFC 6890, 2003 draft §7.3,
 * https://www.rfc-editor.org/rfc/rfc6890). Throws a {@link UriError} if a
 * string host is not a valid host.
 *
 * @example
 * ```ts
 * inspectHost('[::ffff:127.0.0.1]').embeddedIPv4 // { address: 2130706433, text: '127.0.0.1', class: 'loopback' }
 * inspectHost('0x7f.1').legacyIPv4 // 2130706433
 * inspectHost('192.0.2.7').range?.name // "Documentation (TEST-NET-1)"
 * inspectHost('192.0.0.9') // matches { class: 'anycast', globallyReachable: true }
 * inspectHost('[2001:0:4136:e378:8000:63bf:3fff:fdd2]').embeddedIPv4?.text // "192.0.2.45"
 * ```
 */
export function inspectHost(host: string | Host): HostInfo {
  const h = toHost(host);
  switch (h.kind) {
    case 'reg-name':
      return inspectName(h);
    case 'ipvfuture':
      return { class: 'reserved', host: h };
    case 'ipv4':
      return ipv4Info(h.address, h);
    case 'ipv6': {
      const range = matchV6(h.groups);
      const info: HostInfo =
        range.class === 'public' ? { class: 'public', host: h, globallyReachable: true } : { class: range.class, host: h, range, globallyReachable: range.globallyReachable ?? false };
      const v4 = embeddedIPv4(h.groups, range.class);
      if (v4 !== undefined) {
        const embedded = ipv4Info(v4, h);
        info.embeddedIPv4 = { address: v4, text: formatIPv4(v4), class: embedded.class };
        // A filter must see what the packet really reaches: a mapped loopback is loopback.
        if (embedded.class !== 'public') {
          info.class = embedded.class;
          info.globallyReachable = embedded.globallyReachable;
        }
      }
      return info;
    }
  }
}

/**
 * The class of a host — `loopback`, `private`, `link-local`,
 * `unique-local`, `multicast`, `unspecified`, `documentation`,
 * `broadcast`, `ipv4-mapped`, ..., `public`, or `name` for a DNS name —
 * decided on the numeric address (IANA special-purpose registries,
 * RFC 6890; 2003 draft §7.3, https://www.rfc-editor.org/rfc/rfc3986#section-7.4).
 *
 * Accepts a host as in a URI (`[::1]`, `127.0.0.1`, `example.com`), a
 * bare IPv6 address, or a parsed {@link Host}. A registered name in a rare
 * IPv4 format (`0x7f.1`, `2130706433`, `127.1`) is classified as the
 * address `inet_aton` reads, or the one a browser reads where only the URL
 * Standard's IPv4 parser takes it for an address (an empty `0x` is 0:
 * `127.0x.0x.1` is 127.0.0.1 for `fetch`); percent-encoding and IDNA
 * mapping are undone first, and a name that still holds anything but
 * letters, digits, "-", "_" and "." (a decoded NUL or space) is
 * `reserved`. An IPv6 address that embeds an IPv4 address (IPv4-mapped,
 * IPv4-compatible, NAT64 with the /96 or the RFC 8215 /48 prefix, 6to4,
 * the client of a Teredo address) takes the embedded address's class when
 * that is not `public`. Throws a {@link UriError} on an invalid host.
 *
 * @example
 * ```ts
 * classifyHost('127.0.0.1') // "loopback"
 * classifyHost('0x7f.1') // "loopback"
 * classifyHost('127.0x.0x.1') // "loopback"
 * classifyHost('[::ffff:127.0.0.1]') // "loopback"
 * classifyHost('[64:ff9b:1:a9fe:a9:fe00::]') // "link-local"
 * classifyHost('[::ffff:8.8.8.8]') // "ipv4-mapped"
 * classifyHost('10.1.2.3') // "private"
 * classifyHost('example.org') // "documentation"
 * classifyHost('www.ietf.org') // "name"
 * classifyHost('8.8.8.8') // "public"
 * ```
 */
export function classifyHost(host: string | Host): HostClass {
  return inspectHost(host).class;
}
