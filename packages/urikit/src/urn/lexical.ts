/**
 * The lexical form of a URN inside the core's comparison ladder: the
 * `urn` scheme's own rules at the scheme level (RFC 8141 §3, 2012 draft
 * §5), read from the components the generic parser already found. Lean on
 * purpose: `normalize` and `equivalent` carry it into a browser bundle.
 */
import { CLASS, PCHAR, UNRESERVED, hexValue, isLdh, octetAt } from '../chars.js';
import type { UriReference } from '../types.js';
import { namespaceNss } from './namespaces/lexical.js';

/**
 * RFC 8141 §3.1 step 3 / 2012 draft §5 step 3: the hexadecimal digits of
 * every pct-encoded triplet in upper case, nothing decoded. (The core's
 * syntax normalization also decodes unreserved triplets, RFC 3986 §6.2.2.2;
 * URN-equivalence must not: "Percent-encoded characters MUST NOT be decoded".)
 *
 * @see https://www.rfc-editor.org/rfc/rfc8141#section-3.1
 * @example
 * ```ts
 * upperPct('a%2cb'); // "a%2Cb"
 * ```
 */
export function upperPct(s: string): string {
  let out = '';
  let run = 0; // start of the part not yet copied
  for (let i = s.indexOf('%'); i >= 0 && i + 2 < s.length; i = s.indexOf('%', i + 1)) {
    const a = s.charCodeAt(i + 1);
    const b = s.charCodeAt(i + 2);
    if (hexValue(a) < 0 || hexValue(b) < 0) continue; // not a triplet (not reached for parsed input)
    if ((a >= 0x61 && a <= 0x66) || (b >= 0x61 && b <= 0x66)) {
      // a-f -> A-F
      out += s.slice(run, i + 1) + s.slice(i + 1, i + 3).toUpperCase();
      run = i + 3;
    }
    i += 2;
  }
  return run === 0 ? s : out + s.slice(run);
}

/**
 * RFC 8141 §5.1, §5.2: an NID beginning with "urn-" is informal, and an
 * informal NID is "urn-" and a number (a positive integer without leading
 * zeros); a formal NID never begins with "urn-". Returns -1 or the index in
 * `nid` of the first character that breaks the rule.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8141#section-5.2
 * @example
 * ```ts
 * informalNidError('urn-7') // -1
 * informalNidError('urn-07') // 4
 * informalNidError('urn-s') // 4
 * informalNidError('example') // -1
 * ```
 */
export function informalNidError(nid: string): number {
  if (nid.length < 4 || nid.charCodeAt(3) !== 0x2d || nid.slice(0, 3).toLowerCase() !== 'urn') return -1;
  if (nid.charCodeAt(4) === 0x30) return 4; // no leading zero
  for (let i = 4; i < nid.length; i++) {
    const c = nid.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return i;
  }
  return nid.length > 4 ? -1 : 4;
}

/** True if `s` is ASCII and holds no "%00" (2012 draft §2.5.3; RFC 8141 §2: non-ASCII is percent-encoded). */
function asciiWithoutNul(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 128) return false;
    if (c === 0x25 && s.charCodeAt(i + 1) === 0x30 && s.charCodeAt(i + 2) === 0x30) return false;
  }
  return true;
}

/** RFC 8141 §2: r-component and q-component begin with a pchar (a "%" begins a pct-encoded one). */
const beginsWithPchar = (s: string, i: number): boolean => {
  const c = s.charCodeAt(i);
  return c === 0x25 || (c < 128 && (CLASS[c]! & PCHAR) !== 0);
};

/**
 * The lexical form of a `urn:` reference that the generic parser accepted
 * (`ref.scheme` is "urn" in any case), or `undefined` when it is no URN
 * under RFC 8141 §2 (it then keeps the generic normal form). The form is
 * RFC 8141 §3.1: "urn" and the NID in lower case, `%hh` in upper case and
 * never decoded, the namespace's own equivalences applied to the NSS; the
 * r-, q- and f-components are kept (with `%HH`) when `components` is true,
 * dropped otherwise (§3.1: they "MUST be ignored" for URN-equivalence).
 *
 * @see https://www.rfc-editor.org/rfc/rfc8141#section-3
 * @example
 * ```ts
 * urnLexicalForm({ scheme: 'URN', path: 'ISBN:0-395-36341-1', query: '+r%2f' }, true) // "urn:isbn:0395363411?+r%2F"
 * urnLexicalForm({ scheme: 'urn', path: 'ex:a', query: '+r' }, false) // "urn:ex:a"
 * urnLexicalForm({ scheme: 'urn', path: 'urn-0:a' }, false) // undefined
 * ```
 */
export function urnLexicalForm(ref: UriReference, components: boolean): string | undefined {
  if (ref.host !== undefined) return undefined;
  const path = ref.path;
  // RFC 8141 §2: NID = (alphanum) 0*30(ldh) (alphanum), then ":"
  const colon = path.indexOf(':');
  if (colon < 2 || colon > 32 || path.charCodeAt(0) === 0x2d || path.charCodeAt(colon - 1) === 0x2d) return undefined;
  for (let i = 0; i < colon; i++) if (!isLdh(path.charCodeAt(i))) return undefined;
  const nid = path.slice(0, colon).toLowerCase();
  // RFC 8141 §5.1: "urn" is reserved; §5.2: informal NIDs
  if (nid === 'urn' || informalNidError(nid) >= 0) return undefined;
  // RFC 8141 §2: NSS = pchar *(pchar / "/") (the generic parser checked the characters)
  if (colon + 1 === path.length || path.charCodeAt(colon + 1) === 0x2f || !asciiWithoutNul(path)) return undefined;
  const query = ref.query;
  if (query !== undefined) {
    // RFC 8141 §2: rq-components = [ "?+" r-component ] [ "?=" q-component ], neither empty
    let q = 0;
    if (query.charCodeAt(0) === 0x2b) {
      if (!beginsWithPchar(query, 1)) return undefined;
      const end = query.indexOf('?=');
      if (end < 0) q = -1;
      else if (end === 1) return undefined;
      else q = end + 1;
    }
    if (q >= 0 && (query.charCodeAt(q) !== 0x3d || !beginsWithPchar(query, q + 1))) return undefined;
    if (!asciiWithoutNul(query)) return undefined;
  }
  if (ref.fragment !== undefined && !asciiWithoutNul(ref.fragment)) return undefined;
  let out = 'urn:' + nid + ':' + namespaceNss(nid, upperPct(path.slice(colon + 1)));
  if (!components) return out;
  if (query !== undefined) out += '?' + upperPct(query);
  if (ref.fragment !== undefined) out += '#' + upperPct(ref.fragment);
  return out;
}

/**
 * The offsets of the pct-encoded triplets in a URN that encode an
 * unreserved character (ALPHA, DIGIT, "-", ".", "_", "~"): 2012 draft
 * §2.5.2, "a character MUST NOT be percent-encoded if the character is not
 * a reserved character". `urn` is the whole URN as written.
 *
 * @see https://datatracker.ietf.org/doc/html/draft-ietf-urnbis-rfc2141bis-urn-03#section-2.5.2
 * @example
 * ```ts
 * encodedUnreservedInUrn('urn:ex:%41b%2Cc%7e') // [7, 15]
 * ```
 */
export function encodedUnreservedInUrn(urn: string): number[] {
  const out: number[] = [];
  for (let i = urn.indexOf('%'); i >= 0; i = urn.indexOf('%', i + 1)) {
    const octet = octetAt(urn, i);
    if (octet >= 0 && octet < 128 && (CLASS[octet]! & UNRESERVED) !== 0) out.push(i);
  }
  return out;
}
