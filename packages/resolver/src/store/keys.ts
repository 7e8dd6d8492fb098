/**
 * The store's key of a name: its canonical URN (RFC 8141 §3.1 via
 * `normalizeUrn`), split into the naming authority and the ElementID of
 * the 1995 draft (§2) for the reserved requests and `GET /<ElementID>`.
 */
import { normalizeUrn, parseUrn } from 'urikit';

/**
 * A name's key and its parts.
 *
 * @example
 * ```ts
 * const k: NameKey = nameKey('URN:DNS:Library.BigState.EDU:aj17-mcc');
 * k // { key: 'urn:dns:library.bigstate.edu:aj17-mcc', nid: 'dns', authority: 'urn:dns:library.bigstate.edu', elementId: 'aj17-mcc' }
 * // Under any other NID the authority is the NID itself.
 * nameKey('urn:ISBN:0451450523') // { key: 'urn:isbn:0451450523', nid: 'isbn', authority: 'urn:isbn', elementId: '0451450523' }
 * ```
 */
export interface NameKey {
  /** The canonical URN: the store's key. */
  key: string;
  /** The NID, lower case (the SchemeID of 1995 draft §2.1). */
  nid: string;
  /** The naming authority: `urn:dns:<AuthorityID>` for the 1995 "dns" SchemeID, else `urn:<nid>`. */
  authority: string;
  /** What follows the authority and ":" (1995 draft §2.3). */
  elementId: string;
}

/**
 * The key of a URN: `normalizeUrn` (RFC 8141 §3.1: NID and %hh case, r-,
 * q- and f-components dropped), and under the "dns" SchemeID the
 * AuthorityID in lower case (1995 draft §2.2.1: "The case of the characters
 * in the AuthorityIDs is not significant"). Throws the parser's `UriError`.
 *
 * @example
 * ```ts
 * nameKey('URN:DNS:Library.BigState.EDU:aj17-mcc').key // 'urn:dns:library.bigstate.edu:aj17-mcc'
 * ```
 */
export function nameKey(urn: string): NameKey {
  const parsed = parseUrn(urn);
  let key = normalizeUrn(parsed);
  const nid = parsed.nid.toLowerCase();
  const nssStart = 5 + nid.length;
  let authority = `urn:${nid}`;
  let elementId = key.slice(nssStart);
  if (nid === 'dns') {
    const colon = key.indexOf(':', nssStart);
    if (colon > nssStart) {
      authority = key.slice(0, colon).toLowerCase();
      key = authority + key.slice(colon);
      elementId = key.slice(colon + 1);
    }
  }
  return { key, nid, authority, elementId };
}

/**
 * The canonical form of a naming-authority prefix (`urn:dns:host`,
 * `urn:isbn`, `urn:nbn:de:101-`; `*`, `urn` or empty for all names).
 *
 * @example
 * ```ts
 * authorityPrefix('URN:DNS:FlixCo.com') // 'urn:dns:flixco.com'
 * ```
 */
export function authorityPrefix(prefix: string): string {
  const body = prefix.endsWith(':') ? prefix.slice(0, -1) : prefix;
  if (body === '*' || body === '' || body.toLowerCase() === 'urn') return '';
  // Normalize through a name under the prefix, then cut the placeholder off.
  return nameKey(`${body}:x`).key.slice(0, -2);
}

/**
 * True if `key` is under the authority `prefix` (canonical, from
 * {@link authorityPrefix}): the prefix itself, or the prefix followed by
 * ":" and more; the empty prefix holds every name.
 *
 * @example
 * ```ts
 * inAuthority('urn:isbn:0451450523', 'urn:isbn') // true
 * inAuthority('urn:isbnx:1', 'urn:isbn')         // false
 * ```
 */
export function inAuthority(key: string, prefix: string): boolean {
  if (prefix === '') return true;
  if (!key.startsWith(prefix)) return false;
  return key.length === prefix.length || key.charCodeAt(prefix.length) === 0x3a || prefix.endsWith(':');
}

/**
 * True if every key that starts with `prefix` is under the authority
 * (canonical, from {@link authorityPrefix}): what a token may list, export
 * or hand to a partial-redirect rule. `urn:isbn` itself is not such a
 * prefix for the `urn:isbn` authority, since `urn:isbnx:1` starts with it.
 *
 * @example
 * ```ts
 * prefixInAuthority('urn:isbn:978', 'urn:isbn') // true
 * prefixInAuthority('urn:isbn', 'urn:isbn')     // false
 * prefixInAuthority('urn:dns:library.bigstate.edu.evil.example:', 'urn:dns:library.bigstate.edu') // false
 * ```
 */
export function prefixInAuthority(prefix: string, authority: string): boolean {
  if (authority === '') return true;
  if (!prefix.startsWith(authority)) return false;
  return authority.endsWith(':') || (prefix.length > authority.length && prefix.charCodeAt(authority.length) === 0x3a);
}
