/**
 * The lexical form of a URN inside the core's comparison ladder: the
 * `urn` scheme's own rules at the scheme level (RFC 8141 §3, 2012 draft
 * §5), read from the string as written. Lean on
 * purpose: `normalize` and `equivalent` carry it into a browser bundle.
 */
import { CLASS, PATH, PCHAR, QUERY, UNRESERVED, hexValue, octetAt, runSkipper } from '../chars.js';
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

/**
 * An RFC 8141 §2 URN in ASCII, whole: "urn" ":" NID ":" NSS [ "?+"
 * r-component ] [ "?=" q-component ] [ "#" f-component ], with NID =
 * (alphanum) 0*30(ldh) (alphanum), NSS = pchar *(pchar / "/"), the r- and
 * q-components pchar *(pchar / "/" / "?") (an r-component ends at the first
 * "?="), the f-component a fragment (RFC 3986 §3.5), every "%" a triplet
 * and none "%00" (2012 draft §2.5.3). Written from the tables of chars.ts;
 * each character is read once (the lookahead is one or two characters
 * long), so it runs in linear time.
 */
const URN_SHAPE = /* @__PURE__ */ urnShape();
function urnShape(): RegExp {
  const run = (cls: number): string => `(?:${runSkipper(cls).source.slice(0, -1)}|%(?!00)[\\da-f]{2})`;
  const pchar = run(PCHAR);
  const query = run(QUERY);
  const rq = `\\?(?:\\+${pchar}(?:(?!\\?=)${query})*(?:\\?=${pchar}${query}*)?|=${pchar}${query}*)`;
  return new RegExp(`^urn:[\\da-z][\\da-z-]{0,30}[\\da-z]:${pchar}${run(PATH)}*(?:${rq})?(?:#${query}*)?$`, 'i');
}

/**
 * The lexical form of a URI reference as written whose scheme is "urn"
 * (in any case: the caller has checked), or `undefined` when it is not an
 * RFC 8141 §2 URN in ASCII (it then keeps the generic normal form; the
 * caller's generic pass reports what is invalid). The form is RFC 8141
 * §3.1: "urn" and the NID in lower case, `%hh` in upper case and never
 * decoded, the namespace's own equivalences applied to the NSS; the r-,
 * q- and f-components are kept (with `%HH`) when `components` is true,
 * dropped otherwise (§3.1: they "MUST be ignored" for URN-equivalence).
 * Read from the string as written, with no generic pass.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8141#section-3
 * @example
 * ```ts
 * urnLexicalForm('URN:ISBN:0-395-36341-1?+r%2f', true) // "urn:isbn:0395363411?+r%2F"
 * urnLexicalForm('urn:ex:a?+r', false) // "urn:ex:a"
 * urnLexicalForm('urn:urn-0:a', false) // undefined
 * ```
 */
export function urnLexicalForm(input: string, components: boolean): string | undefined {
  if (!URN_SHAPE.test(input)) return undefined;
  const colon = input.indexOf(':', 4);
  const nid = input.slice(4, colon).toLowerCase();
  // RFC 8141 §5.1: "urn" is reserved; §5.2: informal NIDs ("urn-" and a number)
  if (nid === 'urn' || informalNidError(nid) >= 0) return undefined;
  let end = colon;
  for (let c = 0; ++end < input.length && (c = input.charCodeAt(end)) !== 0x3f && c !== 0x23; );
  const out = 'urn:' + nid + ':' + namespaceNss(nid, upperPct(input.slice(colon + 1, end))) + (components ? upperPct(input.slice(end)) : '');
  return out === input ? input : out;
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
