/**
 * The store's key of a name: the one function that says when two URNs are
 * the same name, for registration, lookup, moves, the cycle check and
 * import alike (DESIGN.md, "One key function for a name"), split into the
 * naming authority and the ElementID of the 1995 draft (§2) for the
 * reserved requests and `GET /<ElementID>`.
 *
 * The case rule, read exactly:
 *
 * - 1995 draft §2: "The first and SchemeID fields are case insensitive"
 *   ("urn" and the NID; RFC 8141 §3.1 says the same of every NID).
 * - §2.2.1: for the "dns" SchemeID, "The case of the characters in the
 *   AuthorityIDs is not significant".
 * - §2.3.1: for the "dns" SchemeID, "The case of the characters in
 *   ElementIDs can be significant; however, current practice dictates
 *   that they should not be case-sensitive". The key follows current
 *   practice: a `urn:dns:` name is case-insensitive throughout, so
 *   `urn:dns:h:MixedCase` and `urn:dns:h:mixedcase` are one name.
 * - Under every other NID, RFC 8141 §3.1: the NSS is case-sensitive, only
 *   its `%hh` triplets compare without case.
 *
 * `%hh` triplets stay upper case in every key (RFC 8141 §3.1).
 */
import { normalizeUrn, parseUrn } from 'urikit';

/**
 * A name's key and its parts.
 *
 * @example
 * ```ts
 * const k: NameKey = nameKey('URN:DNS:Library.BigState.EDU:aj17-MCC');
 * k // { key: 'urn:dns:library.bigstate.edu:aj17-mcc', nid: 'dns', authority: 'urn:dns:library.bigstate.edu', elementId: 'aj17-mcc', spelling: 'urn:dns:library.bigstate.edu:aj17-MCC' }
 * // Under any other NID the authority is the NID itself, and the NSS keeps its case.
 * nameKey('urn:ISBN:0451450523X').key // 'urn:isbn:0451450523X'
 * ```
 */
export interface NameKey {
  /** The canonical URN: the store's key. */
  key: string;
  /** The NID, lower case (the SchemeID of 1995 draft §2.1). */
  nid: string;
  /** The naming authority: `urn:dns:<AuthorityID>` for the 1995 "dns" SchemeID, else `urn:<nid>`. */
  authority: string;
  /** What follows the authority and ":" in the key (1995 draft §2.3). */
  elementId: string;
  /**
   * The URN as written, less what RFC 8141 §3.1 and §2.2.1 make
   * insignificant everywhere ("urn", NID, AuthorityID and `%hh` case,
   * r-, q- and f-components): two spellings of one key differ here only
   * in the case the §2.3.1 rule folds. A name keeps the spelling it was
   * registered with.
   */
  spelling: string;
}

const ASCII_ONLY = /^[\x00-\x7f]*$/;

/**
 * ASCII letters in lower case but for the hex digits of `%hh` triplets,
 * which are upper case (RFC 8141 §3.1).
 */
function lowerLettersUpperTriplets(s: string): string {
  // The common case, no triplet: one native call (US-ASCII only, so no letter changes length).
  if (!s.includes('%') && ASCII_ONLY.test(s)) return s.toLowerCase();
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x25) { out += s.slice(i, i + 3).toUpperCase(); i += 2; continue; }
    out += c >= 0x41 && c <= 0x5a ? String.fromCharCode(c + 0x20) : s[i];
  }
  return out;
}

/** `%hh` triplets with upper-case hex digits, the rest as it is (RFC 8141 §3.1). */
function upperTriplets(s: string): string {
  return s.includes('%') ? s.replace(/%[0-9a-fA-F]{2}/g, (t) => t.toUpperCase()) : s;
}

/**
 * The key of a URN (see the case rule above): `normalizeUrn` (RFC 8141
 * §3.1: NID and %hh case, r-, q- and f-components dropped), and under the
 * "dns" SchemeID the whole NSS in lower case (1995 draft §2.2.1, §2.3.1).
 * Throws the parser's `UriError`.
 *
 * @example
 * ```ts
 * nameKey('URN:DNS:Library.BigState.EDU:AJ17-mcc%2c1').key // 'urn:dns:library.bigstate.edu:aj17-mcc%2C1'
 * nameKey('urn:example:MixedCase').key // 'urn:example:MixedCase'
 * ```
 */
export function nameKey(urn: string): NameKey {
  const known = RECENT_KEYS.get(urn);
  if (known !== undefined) return known;
  const k = Object.freeze(computeNameKey(urn));
  if (urn.length <= RECENT_KEY_LENGTH) {
    if (RECENT_KEYS.size >= RECENT_KEY_COUNT) RECENT_KEYS.clear();
    RECENT_KEYS.set(urn, k);
  }
  return k;
}

/**
 * The keys of the URNs asked last: a resolver is asked the same names
 * again and again, and a key depends on its URN alone (frozen, since
 * callers share them). Bounded in count and length, emptied when full.
 */
const RECENT_KEYS = new Map<string, NameKey>();
const RECENT_KEY_COUNT = 4096;
const RECENT_KEY_LENGTH = 256;

/** {@link nameKey}, computed. */
function computeNameKey(urn: string): NameKey {
  const parsed = parseUrn(urn);
  const normal = normalizeUrn(parsed);
  const nid = parsed.nid.toLowerCase();
  const nssStart = 5 + nid.length;
  if (nid !== 'dns') return { key: normal, nid, authority: `urn:${nid}`, elementId: normal.slice(nssStart), spelling: normal };
  const key = lowerLettersUpperTriplets(normal);
  const colon = key.indexOf(':', nssStart);
  if (colon <= nssStart) return { key, nid, authority: 'urn:dns', elementId: key.slice(nssStart), spelling: key };
  return { key, nid, authority: key.slice(0, colon), elementId: key.slice(colon + 1), spelling: key.slice(0, colon) + normal.slice(colon) };
}

/**
 * The key prefix that a listing's prefix as written selects: "urn" and the
 * NID in lower case, `%hh` in upper case, and under the "dns" SchemeID
 * every other letter in lower case, as {@link nameKey} writes keys;
 * anything not a URN prefix as it is.
 *
 * @example
 * ```ts
 * keyPrefix('URN:DNS:Library.BigState.EDU:AJ17-'); // 'urn:dns:library.bigstate.edu:aj17-'
 * keyPrefix('URN:ISBN:978X%2c'); // 'urn:isbn:978X%2C'
 * ```
 */
export function keyPrefix(prefix: string): string {
  if (prefix.length <= 4 || prefix.slice(0, 4).toLowerCase() !== 'urn:') return prefix;
  const colon = prefix.indexOf(':', 4);
  const head = (colon < 0 ? prefix : prefix.slice(0, colon)).toLowerCase();
  const rest = colon < 0 ? '' : prefix.slice(colon);
  return head === 'urn:dns' ? head + lowerLettersUpperTriplets(rest) : head + upperTriplets(rest);
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
