/**
 * The `host` component as a typed value (2003 draft §3.2.2, RFC 3986
 * §3.2.2): a registered name, an IPv4 address as a 32-bit number, an IPv6
 * address as eight 16-bit groups with its RFC 6874 zone, or an IPvFuture
 * literal.
 *
 * ```text
 * host        = IP-literal / IPv4address / reg-name
 * IP-literal  = "[" ( IPv6address / IPv6addrz / IPvFuture ) "]"
 * IPvFuture   = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
 * ```
 */
import { UriError } from '../errors.js';
import { parseIPv4Address, formatIPv4 } from './ipv4.js';
import { parseIPv6Address, formatIPv6 } from './ipv6.js';
import { readIPvFuture } from './ipvfuture.js';
import { findRegNameError, findIRegNameError, checkHostname } from './regname.js';

/**
 * A registered name exactly as written (percent-encoding kept).
 *
 * @example
 * ```ts
 * const h: RegNameHost = { kind: 'reg-name', name: 'Example.COM' };
 * formatHost(h) // "Example.COM"
 * ```
 */
export interface RegNameHost {
  kind: 'reg-name';
  name: string;
}
/**
 * A dotted-decimal IPv4 address (RFC 3986 §3.2.2 `IPv4address`).
 *
 * @example
 * ```ts
 * const h: IPv4Host = { kind: 'ipv4', address: 0xc0000201, text: '192.0.2.1' };
 * formatHost(h) // "192.0.2.1"
 * ```
 */
export interface IPv4Host {
  kind: 'ipv4';
  /** The address as an unsigned 32-bit number. */
  address: number;
  /** The dotted-decimal text. */
  text: string;
}
/**
 * An IPv6 literal (RFC 3986 §3.2.2, RFC 6874 zone).
 *
 * @example
 * ```ts
 * const h: IPv6Host = { kind: 'ipv6', groups: [0x2001, 0xdb8, 0, 0, 0, 0, 0, 1], text: '2001:db8::1' };
 * formatHost(h) // "[2001:db8::1]"
 * ```
 */
export interface IPv6Host {
  kind: 'ipv6';
  /** The eight 16-bit groups. */
  groups: number[];
  /** The zone identifier as written after `%25` (still percent-encoded). */
  zone?: string;
  /** The RFC 5952 canonical text (§4; §5 mixed notation for IPv4-mapped), without brackets (the zone as `%25` + zone). */
  text: string;
}
/**
 * An IPvFuture literal (RFC 3986 §3.2.2).
 *
 * @example
 * ```ts
 * const h: IPvFutureHost = { kind: 'ipvfuture', version: '7', address: 'x:y' };
 * formatHost(h) // "[v7.x:y]"
 * ```
 */
export interface IPvFutureHost {
  kind: 'ipvfuture';
  /** The hexadecimal version after "v", as written. */
  version: string;
  /** What follows the ".", as written. */
  address: string;
}
/**
 * A parsed host; see {@link parseHost}.
 *
 * @example
 * ```ts
 * const hosts: Host[] = ['example.com', '192.0.2.1', '[::1]', '[v7.x]'].map((t) => parseHost(t));
 * hosts.map((h) => h.kind) // ["reg-name", "ipv4", "ipv6", "ipvfuture"]
 * ```
 */
export type Host = RegNameHost | IPv4Host | IPv6Host | IPvFutureHost;

/**
 * Options of {@link parseHost}.
 *
 * @example
 * ```ts
 * const opts: ParseHostOptions = { requireHostname: true };
 * parseHost('a_b.example') // { kind: 'reg-name', name: 'a_b.example' }
 * parseHost('a_b.example', opts) // throws bad-hostname
 * parseHost('bücher.example', { iri: true }) // { kind: 'reg-name', name: 'bücher.example' }
 * ```
 */
export interface ParseHostOptions {
  /**
   * Also require a registered name to be a DNS host name (2003 draft
   * §3.2.2 `hostname`, see {@link checkHostname}); default false.
   */
  requireHostname?: boolean;
  /**
   * Read a registered name as an RFC 3987 `ireg-name` (non-ASCII
   * `ucschar` allowed, as in an IRI); default false.
   */
  iri?: boolean;
}

/**
 * Parses a host as it appears in a URI (brackets around an IP literal)
 * into a typed {@link Host} (RFC 3986 §3.2.2,
 * https://www.rfc-editor.org/rfc/rfc3986#section-3.2.2); throws a
 * {@link UriError} (`bad-host`, `bad-ipv6`, `bad-zone-id`,
 * `bad-ipvfuture`, `unclosed-ip-literal`, `bad-hostname`) with the offset
 * of the first offending character.
 *
 * A dotted quad is an IPv4 address only in strict dotted-decimal form;
 * `127.1` or `0x7f.0.0.1` are registered names (see
 * {@link interpretLegacyIPv4} for what a resolver may make of them).
 *
 * @example
 * ```ts
 * parseHost('192.0.2.1') // { kind: 'ipv4', address: 3221225985, text: '192.0.2.1' }
 * parseHost('[2001:DB8::0:1]') // { kind: 'ipv6', groups: [0x2001, 0xdb8, 0, 0, 0, 0, 0, 1], text: '2001:db8::1' }
 * parseHost('[fe80::1%25eth0]') // matches { kind: 'ipv6', zone: 'eth0' }
 * parseHost('[v7.x:y]') // { kind: 'ipvfuture', version: '7', address: 'x:y' }
 * parseHost('example.com') // { kind: 'reg-name', name: 'example.com' }
 * ```
 */
export function parseHost(text: string, opts?: ParseHostOptions): Host {
  if (text.charCodeAt(0) === 0x5b) {
    const close = text.indexOf(']');
    if (close < 0) throw new UriError('unclosed-ip-literal', text.length, text);
    // Nothing may follow the "]" of an IP-literal in a host.
    if (close !== text.length - 1) throw new UriError('bad-host', close + 1, text);
    const c = text.charCodeAt(1) | 0x20;
    if (c === 0x76) return parseIPvFuture(text, close);
    const inner = text.slice(1, close);
    try {
      const { groups, zone } = parseIPv6Address(inner);
      return zone === undefined ? { kind: 'ipv6', groups, text: formatIPv6(groups) } : { kind: 'ipv6', groups, zone, text: formatIPv6(groups, zone) };
    } catch (e) {
      // Re-point the offset from the inside of the brackets to `text`.
      if (e instanceof UriError) throw new UriError(e.code, e.offset + 1, text);
      throw e;
    }
  }
  const address = parseIPv4Address(text);
  if (address !== undefined) return { kind: 'ipv4', address, text: formatIPv4(address) };
  const bad = opts?.iri ? findIRegNameError(text) : findRegNameError(text);
  if (bad >= 0) throw new UriError('bad-host', bad, text);
  if (opts?.requireHostname) checkHostname(text);
  return { kind: 'reg-name', name: text };
}

/** `"[" IPvFuture "]"` with `text[close]` the "]" (RFC 3986 §3.2.2). */
function parseIPvFuture(text: string, close: number): IPvFutureHost {
  const dot = readIPvFuture(text, 1, close);
  return { kind: 'ipvfuture', version: text.slice(2, dot), address: text.slice(dot + 1, close) };
}

/**
 * Like {@link parseHost}, but returns `undefined` instead of throwing.
 *
 * @example
 * ```ts
 * tryParseHost('[::1]')?.kind // "ipv6"
 * tryParseHost('[::1') // undefined
 * ```
 */
export function tryParseHost(text: string, opts?: ParseHostOptions): Host | undefined {
  try {
    return parseHost(text, opts);
  } catch (e) {
    if (e instanceof UriError) return undefined;
    throw e;
  }
}

/**
 * The text of a host as it appears in a URI: the canonical forms for IP
 * addresses (RFC 5952 §4 and §5 inside brackets for IPv6), the name as written
 * otherwise (RFC 3986 §3.2.2).
 *
 * @example
 * ```ts
 * formatHost(parseHost('[2001:0DB8:0:0::1]')) // "[2001:db8::1]"
 * ```
 */
export function formatHost(host: Host): string {
  switch (host.kind) {
    case 'reg-name':
      return host.name;
    case 'ipv4':
      return formatIPv4(host.address);
    case 'ipv6':
      return `[${formatIPv6(host.groups, host.zone)}]`;
    case 'ipvfuture':
      return `[v${host.version}.${host.address}]`;
  }
}
