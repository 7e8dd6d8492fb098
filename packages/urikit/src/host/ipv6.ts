/**
 * IPv6 address literals (2003 draft §3.2.2, RFC 3986 §3.2.2 `IPv6address`,
 * all nine forms with the embedded IPv4 tail), RFC 6874 zone identifiers
 * (`%25` ZoneID) and the RFC 5952 §4 canonical text (§5 mixed notation for
 * IPv4-mapped addresses).
 */
import { UriError } from '../errors.js';
import { CLASS, UNRESERVED, isPctEncoded } from '../chars.js';
import { parseIPv4Address, formatIPv4 } from './ipv4.js';

/*
 * RFC 3986 §3.2.2:
 *   IPv6address =                            6( h16 ":" ) ls32
 *               /                       "::" 5( h16 ":" ) ls32
 *               / [               h16 ] "::" 4( h16 ":" ) ls32
 *               / [ *1( h16 ":" ) h16 ] "::" 3( h16 ":" ) ls32
 *               / [ *2( h16 ":" ) h16 ] "::" 2( h16 ":" ) ls32
 *               / [ *3( h16 ":" ) h16 ] "::"    h16 ":"   ls32
 *               / [ *4( h16 ":" ) h16 ] "::"              ls32
 *               / [ *5( h16 ":" ) h16 ] "::"              h16
 *               / [ *6( h16 ":" ) h16 ] "::"
 *   h16  = 1*4HEXDIG
 *   ls32 = ( h16 ":" h16 ) / IPv4address
 *
 * Equivalently: eight 16-bit pieces (an IPv4address counting as two, and
 * only as the last), or at most seven around exactly one "::".
 */

/**
 * @internal Checks `text[start, end)` against `IPv6address` in one pass and,
 * when `groups` is given, fills it with the eight 16-bit pieces. Throws
 * `bad-ipv6` at the first offending character; offsets index `input`.
 */
export function readIPv6address(text: string, start: number, end: number, groups?: number[], input: string = text): void {
  const pieces = groups ?? scratch;
  let n = 0; // pieces read
  let compressAt = -1; // index in pieces where "::" stands
  let i = start;
  if (i === end) throw new UriError('bad-ipv6', i, input);
  if (text.charCodeAt(i) === 0x3a) {
    if (text.charCodeAt(i + 1) !== 0x3a || i + 1 >= end) throw new UriError('bad-ipv6', i, input);
    compressAt = 0;
    i += 2;
  }
  while (i < end) {
    if (n === 8 || (compressAt >= 0 && n === 7)) throw new UriError('bad-ipv6', i, input);
    // h16 = 1*4HEXDIG
    const g = i;
    let value = 0;
    while (i < end) {
      const c = text.charCodeAt(i);
      const d = c >= 0x30 && c <= 0x39 ? c - 0x30 : (c | 0x20) >= 0x61 && (c | 0x20) <= 0x66 ? (c | 0x20) - 0x57 : -1;
      if (d < 0) break;
      if (i - g === 4) throw new UriError('bad-ipv6', i, input);
      value = (value << 4) | d;
      i++;
    }
    if (i === g) throw new UriError('bad-ipv6', i, input);
    if (i < end && text.charCodeAt(i) === 0x2e) {
      // ls32 = IPv4address: only as the last 32 bits.
      if (n > 6 || (compressAt >= 0 && n > 5)) throw new UriError('bad-ipv6', g, input);
      const v4 = parseIPv4Address(text, g, end);
      if (v4 === undefined) throw new UriError('bad-ipv6', g, input);
      pieces[n++] = v4 >>> 16;
      pieces[n++] = v4 & 0xffff;
      i = end;
      break;
    }
    pieces[n++] = value;
    if (i === end) break;
    if (text.charCodeAt(i) !== 0x3a) throw new UriError('bad-ipv6', i, input);
    i++;
    if (i < end && text.charCodeAt(i) === 0x3a) {
      if (compressAt >= 0) throw new UriError('bad-ipv6', i, input);
      compressAt = n;
      i++;
    } else if (i === end) {
      throw new UriError('bad-ipv6', i - 1, input); // a trailing single ":"
    }
  }
  if (compressAt < 0) {
    if (n !== 8) throw new UriError('bad-ipv6', end, input);
  } else if (n > 7) {
    throw new UriError('bad-ipv6', end - 2, input); // "::" stands for no group at all
  } else if (groups) {
    // Spread the pieces after "::" to the end and fill the gap with zeros.
    const after = n - compressAt;
    for (let k = 0; k < after; k++) groups[7 - k] = groups[n - 1 - k]!;
    for (let k = compressAt; k < 8 - after; k++) groups[k] = 0;
  }
  if (groups) groups.length = 8;
}
const scratch: number[] = [0, 0, 0, 0, 0, 0, 0, 0];

/**
 * @internal Checks `text[start, end)` against RFC 6874 `ZoneID = 1*( unreserved / pct-encoded )`;
 * throws `bad-zone-id` at the first offending character.
 */
export function readZoneID(text: string, start: number, end: number, input: string = text): void {
  if (start === end) throw new UriError('bad-zone-id', start, input);
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 128 && CLASS[c]! & UNRESERVED) continue;
    if (c === 0x25 && i + 2 < end && isPctEncoded(text, i)) {
      i += 2;
      continue;
    }
    throw new UriError('bad-zone-id', i, input);
  }
}

/**
 * Parses an IPv6 address as it appears between the brackets of a URI
 * host (RFC 3986 §3.2.2 `IPv6address`, RFC 6874 `IPv6addrz`): the eight
 * 16-bit groups and the zone identifier as written (without `%25`).
 * Throws a {@link UriError} `bad-ipv6` or `bad-zone-id` with the offset.
 *
 * @example
 * ```ts
 * parseIPv6Address('2001:db8::1') // { groups: [0x2001, 0xdb8, 0, 0, 0, 0, 0, 1] }
 * parseIPv6Address('fe80::1%25eth0').zone // "eth0"
 * ```
 */
export function parseIPv6Address(text: string): { groups: number[]; zone?: string } {
  const pct = text.indexOf('%');
  const end = pct < 0 ? text.length : pct;
  const groups: number[] = [];
  readIPv6address(text, 0, end, groups);
  if (pct < 0) return { groups };
  // RFC 6874 §2: IPv6addrz = IPv6address "%25" ZoneID
  if (text.charCodeAt(pct + 1) !== 0x32 || text.charCodeAt(pct + 2) !== 0x35) throw new UriError('bad-zone-id', pct, text);
  readZoneID(text, pct + 3, text.length);
  return { groups, zone: text.slice(pct + 3) };
}

/**
 * True if `text` is an `IPv6address`, optionally with an RFC 6874 `%25` zone (RFC 3986 §3.2.2).
 *
 * @example
 * ```ts
 * isIPv6Address('::ffff:192.0.2.1') // true
 * isIPv6Address('1::2::3') // false
 * ```
 */
export function isIPv6Address(text: string): boolean {
  if (typeof text !== 'string') return false;
  try {
    parseIPv6Address(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The RFC 5952 §4 canonical text of eight 16-bit groups: lower-case hex,
 * no leading zeros, the longest run (first if tied) of two or more zero
 * groups as `::`; an IPv4-mapped address (RFC 4291 §2.5.5.2,
 * `::ffff:0:0/96`) in the mixed notation RFC 5952 §5 recommends, its last
 * 32 bits in dotted decimal; a zone is appended as `%25` + zone (RFC 6874).
 *
 * @see https://www.rfc-editor.org/rfc/rfc5952#section-5
 * @example
 * ```ts
 * formatIPv6([0x2001, 0xdb8, 0, 0, 0, 0, 0, 1]) // "2001:db8::1"
 * formatIPv6([0xfe80, 0, 0, 0, 0, 0, 0, 1], 'eth0') // "fe80::1%25eth0"
 * formatIPv6([0, 0, 0, 0, 0, 0xffff, 0xc000, 0x201]) // "::ffff:192.0.2.1"
 * formatIPv6([0x64, 0xff9b, 0, 0, 0, 0, 0xc000, 0x201]) // "64:ff9b::c000:201" (only ::ffff:0:0/96 is mixed)
 * ```
 */
export function formatIPv6(groups: ArrayLike<number>, zone?: string): string {
  // RFC 5952 §5: "::ffff:" and the IPv4 address in dotted decimal for the
  // IPv4-mapped prefix (RFC 4291 §2.5.5.2) only; other prefixes stay hex.
  if (groups[0] === 0 && groups[1] === 0 && groups[2] === 0 && groups[3] === 0 && groups[4] === 0 && groups[5] === 0xffff) {
    const text = `::ffff:${formatIPv4(((groups[6]! & 0xffff) * 0x10000 + (groups[7]! & 0xffff)) >>> 0)}`;
    return zone === undefined ? text : `${text}%25${zone}`;
  }
  // RFC 5952 §4.2.1–4.2.3: find the longest run of zero groups, at least two long.
  let bestAt = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      bestAt = i;
      bestLen = j - i;
    }
    i = j;
  }
  let out = '';
  for (let i = 0; i < 8; i++) {
    if (i === bestAt) {
      out += i === 0 ? '::' : ':';
      i += bestLen - 1;
      continue;
    }
    // RFC 5952 §4.1 (no leading zeros), §4.3 (lower case)
    out += (groups[i]! & 0xffff).toString(16);
    if (i < 7) out += ':';
  }
  return zone === undefined ? out : `${out}%25${zone}`;
}
