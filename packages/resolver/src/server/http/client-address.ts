/**
 * The address a request comes from, behind reverse proxies: the socket's
 * peer, unless it is a proxy the operator trusts, in which case the hop
 * that proxy reports (`Forwarded: for=`, RFC 7239 §5.2; else
 * `X-Forwarded-For`), walked from the nearest hop outwards past every
 * trusted proxy. Only trusted proxies are believed: a client cannot
 * choose its own address (and rate limit) by sending the header itself.
 */
import { BlockList, isIP } from 'node:net';

/** An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`) as the IPv4 address it is. */
function plain(address: string): string {
  return address.length > 7 && address.slice(0, 7).toLowerCase() === '::ffff:' && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

/**
 * The node of a `for=` parameter or an `X-Forwarded-For` entry: quotes,
 * brackets and port removed (RFC 7239 §6: `node = nodename [ ":" node-port ]`,
 * an IPv6 nodename in brackets).
 *
 * @example
 * ```ts
 * forwardedNode('"[2001:db8:cafe::17]:4711"'); // '2001:db8:cafe::17'
 * forwardedNode('192.0.2.43:47011'); // '192.0.2.43'
 * forwardedNode('unknown'); // 'unknown'
 * ```
 */
export function forwardedNode(raw: string): string {
  let s = raw.trim();
  if (s.length >= 2 && s.startsWith('"') && s.endsWith('"')) s = s.slice(1, -1);
  if (s.startsWith('[')) {
    const close = s.indexOf(']');
    return close > 0 ? s.slice(1, close) : s;
  }
  const colon = s.indexOf(':');
  // One colon: IPv4 (or a name) and a port; more: a bare IPv6 address.
  return colon >= 0 && s.indexOf(':', colon + 1) < 0 ? s.slice(0, colon) : s;
}

/**
 * The hops a `Forwarded` field value (RFC 7239 §4) reports, nearest last:
 * the `for=` of each element.
 *
 * @example
 * ```ts
 * forwardedFor('for=192.0.2.60;proto=http;by=203.0.113.43, for="[2001:db8:cafe::17]:4711"'); // ['192.0.2.60', '2001:db8:cafe::17']
 * ```
 */
export function forwardedFor(value: string): string[] {
  const out: string[] = [];
  for (const element of value.split(',')) {
    for (const pair of element.split(';')) {
      const eq = pair.indexOf('=');
      if (eq > 0 && pair.slice(0, eq).trim().toLowerCase() === 'for') out.push(forwardedNode(pair.slice(eq + 1)));
    }
  }
  return out;
}

/**
 * Finds a request's client address given the trusted proxies (addresses
 * or CIDR blocks, IPv4 or IPv6).
 *
 * @example
 * ```ts
 * const a = new ClientAddresses(['10.0.0.0/8', '::1']);
 * a.of('10.1.2.3', { 'x-forwarded-for': '203.0.113.7, 10.9.9.9' }); // '203.0.113.7'
 * a.of('198.51.100.1', { 'x-forwarded-for': '203.0.113.7' }); // '198.51.100.1' (not a trusted proxy: the header is not believed)
 * a.of('::1', { forwarded: 'for=192.0.2.60', 'x-forwarded-for': '10.0.0.1' }); // '192.0.2.60'
 * ```
 */
export class ClientAddresses {
  readonly #trusted = new BlockList();
  readonly size: number;

  constructor(trusted: readonly string[]) {
    for (const t of trusted) {
      const slash = t.indexOf('/');
      const address = plain(slash < 0 ? t : t.slice(0, slash));
      const family = isIP(address);
      if (family === 0) throw new Error(`"${t}" is not an IP address or a CIDR block (address/prefix)`);
      const type = family === 6 ? 'ipv6' : 'ipv4';
      if (slash < 0) { this.#trusted.addAddress(address, type); continue; }
      const prefix = Number(t.slice(slash + 1));
      if (!Number.isInteger(prefix) || prefix < 0 || prefix > (family === 6 ? 128 : 32)) throw new Error(`"${t}": the prefix length is 0 to ${family === 6 ? 128 : 32}`);
      this.#trusted.addSubnet(address, prefix, type);
    }
    this.size = trusted.length;
  }

  /** True if `address` is one of the trusted proxies. */
  trusts(address: string): boolean {
    const a = plain(address);
    const family = isIP(a);
    return family !== 0 && this.#trusted.check(a, family === 6 ? 'ipv6' : 'ipv4');
  }

  /** The client's address: the peer, or past the trusted proxies, the nearest hop they report that is not one of them. */
  of(peer: string | undefined, headers: Record<string, string | string[] | undefined>): string {
    let address = plain(peer ?? '');
    if (this.size === 0 || !this.trusts(address)) return address;
    const fwd = headers['forwarded'];
    const xff = headers['x-forwarded-for'];
    const hops = fwd !== undefined
      ? forwardedFor(Array.isArray(fwd) ? fwd.join(',') : fwd)
      : (Array.isArray(xff) ? xff.join(',') : xff ?? '').split(',').map(forwardedNode).filter((h) => h !== '');
    for (let i = hops.length - 1; i >= 0; i--) {
      address = plain(hops[i]!);
      if (!this.trusts(address)) return address;
    }
    return address;
  }
}
