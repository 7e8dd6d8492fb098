/**
 * Which addresses the link checker may connect to. A location is data that
 * a registrant wrote: without this guard, a planted `http://10.0.0.5/admin`
 * or a public name that resolves to 127.0.0.1 would make the checker probe
 * the operator's internal network (server-side request forgery).
 *
 * The decision is taken on the numeric address that the connection will
 * use (the core's `classifyHost`, IANA special-purpose registries,
 * RFC 6890; 2003 draft §7.3: filter on the number, not the string): for a
 * DNS name, on every address the lookup returned, inside the lookup that
 * the socket itself calls, so that no second resolution can swap the
 * address after the check.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { classifyHost, type HostClass } from 'urikit';

/**
 * The address classes the checker connects to unless told otherwise.
 *
 * @example
 * ```ts
 * PUBLIC_ONLY.has('loopback'); // false
 * ```
 */
export const PUBLIC_ONLY: ReadonlySet<HostClass> = new Set<HostClass>(['public']);

/**
 * An address the policy refuses, with its class, for the health record's error text.
 *
 * @example
 * ```ts
 * new BlockedAddressError('10.0.0.5', 'private').message; // 'the address 10.0.0.5 is private, which the link checker does not probe'
 * ```
 */
export class BlockedAddressError extends Error {
  readonly code = 'blocked-address';
  constructor(readonly address: string, readonly addressClass: HostClass) {
    super(`the address ${address} is ${addressClass}, which the link checker does not probe`);
  }
}

/**
 * The class of an IP address as a socket sees it (no brackets for IPv6).
 *
 * @example
 * ```ts
 * addressClass('127.0.0.1'); // 'loopback'
 * addressClass('::1'); // 'loopback'
 * ```
 */
export function addressClass(address: string): HostClass {
  return classifyHost(address.includes(':') ? `[${address}]` : address);
}

/**
 * True if `allowed` is the "everything" policy (`'all'`) or holds the class.
 *
 * @example
 * ```ts
 * isAllowedAddress('10.0.0.5', PUBLIC_ONLY); // false
 * isAllowedAddress('10.0.0.5', 'all'); // true
 * ```
 */
export function isAllowedAddress(address: string, allowed: ReadonlySet<HostClass> | 'all'): boolean {
  return allowed === 'all' || allowed.has(addressClass(address));
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `http.request`/`net.connect` that resolves the name and
 * refuses it with {@link BlockedAddressError} if any of its addresses is
 * not allowed (one refused address refuses the name: a name that mixes a
 * public and a loopback address is the DNS-rebinding pattern).
 *
 * @example
 * ```ts
 * const lookup = guardedLookup(PUBLIC_ONLY);
 * const err = await new Promise((done) => lookup('localhost', {}, (e) => done(e)));
 * (err as Error).message.includes('loopback'); // true
 * ```
 */
export function guardedLookup(allowed: ReadonlySet<HostClass> | 'all') {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      for (const a of addresses) {
        if (!isAllowedAddress(a.address, allowed)) return callback(new BlockedAddressError(a.address, addressClass(a.address)) as unknown as NodeJS.ErrnoException, '');
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (first === undefined) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '');
      callback(null, first.address, first.family);
    });
  };
}
