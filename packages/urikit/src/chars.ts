/**
 * Character classes of the generic syntax as 128-entry lookup tables
 * (2003 draft §2, RFC 3986 §2 and Appendix A), plus the non-ASCII ranges
 * of RFC 3987 §2.2 (`ucschar`, `iprivate`).
 *
 * Each ASCII code unit maps to a bit set; a class is one bit, composed
 * classes are the OR of smaller ones, so a test is `CLASS[c] & PCHAR`.
 */

const table = (chars: string, bit: number, into: Uint16Array): void => {
  for (let i = 0; i < chars.length; i++) into[chars.charCodeAt(i)]! |= bit;
};
const range = (from: string, to: string): string => {
  let s = '';
  for (let c = from.charCodeAt(0); c <= to.charCodeAt(0); c++) s += String.fromCharCode(c);
  return s;
};

// ALPHA = %x41-5A / %x61-7A (RFC 2234 core rules)
const ALPHA_CHARS = range('A', 'Z') + range('a', 'z');
// DIGIT = %x30-39
const DIGIT_CHARS = range('0', '9');
// HEXDIG = DIGIT / "A" / "B" / "C" / "D" / "E" / "F" (case-insensitive, RFC 3986 §2.1)
const HEXDIG_CHARS = DIGIT_CHARS + 'ABCDEFabcdef';
// unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"  (RFC 3986 §2.3)
const UNRESERVED_CHARS = ALPHA_CHARS + DIGIT_CHARS + '-._~';
// sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="  (RFC 3986 §2.2)
const SUB_DELIMS_CHARS = "!$&'()*+,;=";
// gen-delims = ":" / "/" / "?" / "#" / "[" / "]" / "@"  (RFC 3986 §2.2)
const GEN_DELIMS_CHARS = ':/?#[]@';

/**
 * Bit: `ALPHA`.
 *
 * @example
 * ```ts
 * (CLASS['A'.charCodeAt(0)] & ALPHA) !== 0 // true
 * ```
 */
export const ALPHA = 1 << 0;
/**
 * Bit: `DIGIT`.
 *
 * @example
 * ```ts
 * (CLASS['7'.charCodeAt(0)] & DIGIT) !== 0 // true
 * ```
 */
export const DIGIT = 1 << 1;
/**
 * Bit: `HEXDIG`.
 *
 * @example
 * ```ts
 * (CLASS['f'.charCodeAt(0)] & HEXDIG) !== 0 // true
 * ```
 */
export const HEXDIG = 1 << 2;
/**
 * Bit: `unreserved` (RFC 3986 §2.3).
 *
 * @example
 * ```ts
 * (CLASS['~'.charCodeAt(0)] & UNRESERVED) !== 0 // true
 * ```
 */
export const UNRESERVED = 1 << 3;
/**
 * Bit: `sub-delims` (RFC 3986 §2.2).
 *
 * @example
 * ```ts
 * (CLASS['!'.charCodeAt(0)] & SUB_DELIMS) !== 0 // true
 * ```
 */
export const SUB_DELIMS = 1 << 4;
/**
 * Bit: `gen-delims` (RFC 3986 §2.2).
 *
 * @example
 * ```ts
 * (CLASS['#'.charCodeAt(0)] & GEN_DELIMS) !== 0 // true
 * ```
 */
export const GEN_DELIMS = 1 << 5;
/**
 * Bit: `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )` after the first character (RFC 3986 §3.1).
 *
 * @example
 * ```ts
 * (CLASS['+'.charCodeAt(0)] & SCHEME) !== 0 // true
 * ```
 */
export const SCHEME = 1 << 6;
/**
 * Bit: `userinfo = *( unreserved / pct-encoded / sub-delims / ":" )` without `pct-encoded` (RFC 3986 §3.2.1).
 *
 * @example
 * ```ts
 * (CLASS[':'.charCodeAt(0)] & USERINFO) !== 0 // true
 * ```
 */
export const USERINFO = 1 << 7;
/**
 * Bit: `reg-name = *( unreserved / pct-encoded / sub-delims )` without `pct-encoded` (RFC 3986 §3.2.2).
 *
 * @example
 * ```ts
 * (CLASS[':'.charCodeAt(0)] & REG_NAME) !== 0 // false
 * ```
 */
export const REG_NAME = 1 << 8;
/**
 * Bit: `pchar = unreserved / pct-encoded / sub-delims / ":" / "@"` without `pct-encoded` (RFC 3986 §3.3).
 *
 * @example
 * ```ts
 * (CLASS['/'.charCodeAt(0)] & PCHAR) !== 0 // false
 * ```
 */
export const PCHAR = 1 << 9;
/**
 * Bit: `segment-nz-nc = 1*( unreserved / pct-encoded / sub-delims / "@" )` without `pct-encoded` (RFC 3986 §3.3).
 *
 * @example
 * ```ts
 * (CLASS[':'.charCodeAt(0)] & SEGMENT_NC) !== 0 // false
 * ```
 */
export const SEGMENT_NC = 1 << 10;
/**
 * Bit: `pchar / "/"`, the characters of a path (RFC 3986 §3.3).
 *
 * @example
 * ```ts
 * (CLASS['/'.charCodeAt(0)] & PATH) !== 0 // true
 * ```
 */
export const PATH = 1 << 11;
/**
 * Bit: `query = *( pchar / "/" / "?" )`, also `fragment` (RFC 3986 §3.4, §3.5).
 *
 * @example
 * ```ts
 * (CLASS['?'.charCodeAt(0)] & QUERY) !== 0 // true
 * ```
 */
export const QUERY = 1 << 12;
/**
 * Bit: the IPvFuture tail, `1*( unreserved / sub-delims / ":" )` (RFC 3986 §3.2.2).
 *
 * @example
 * ```ts
 * (CLASS[':'.charCodeAt(0)] & IPVFUTURE) !== 0 // true
 * ```
 */
export const IPVFUTURE = 1 << 13;
/**
 * Bit: the `reg-name` characters that are already in normal form, that is
 * without the upper-case letters (RFC 3986 §6.2.2.1: the host is
 * case-insensitive, its normal form is lower case): the fast path of the
 * scan of an authority.
 *
 * @example
 * ```ts
 * (CLASS['A'.charCodeAt(0)] & LOWER_REG_NAME) !== 0 // false
 * ```
 */
export const LOWER_REG_NAME = 1 << 15;

/**
 * The class bits of every ASCII code unit; `CLASS[c] & PCHAR` is non-zero
 * when `c` may appear literally in a path segment (RFC 3986 Appendix A).
 *
 * @example
 * ```ts
 * (CLASS['@'.charCodeAt(0)] & PCHAR) !== 0 // true
 * ```
 */
export const CLASS: Uint16Array = (() => {
  const t = new Uint16Array(128);
  table(ALPHA_CHARS, ALPHA, t);
  table(DIGIT_CHARS, DIGIT, t);
  table(HEXDIG_CHARS, HEXDIG, t);
  table(UNRESERVED_CHARS, UNRESERVED, t);
  table(SUB_DELIMS_CHARS, SUB_DELIMS, t);
  table(GEN_DELIMS_CHARS, GEN_DELIMS, t);
  // scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
  table(ALPHA_CHARS + DIGIT_CHARS + '+-.', SCHEME, t);
  // userinfo = *( unreserved / pct-encoded / sub-delims / ":" )
  table(UNRESERVED_CHARS + SUB_DELIMS_CHARS + ':', USERINFO, t);
  // reg-name = *( unreserved / pct-encoded / sub-delims )
  table(UNRESERVED_CHARS + SUB_DELIMS_CHARS, REG_NAME, t);
  // pchar = unreserved / pct-encoded / sub-delims / ":" / "@"
  table(UNRESERVED_CHARS + SUB_DELIMS_CHARS + ':@', PCHAR, t);
  // segment-nz-nc = 1*( unreserved / pct-encoded / sub-delims / "@" )
  table(UNRESERVED_CHARS + SUB_DELIMS_CHARS + '@', SEGMENT_NC, t);
  // path characters = pchar / "/"
  table(UNRESERVED_CHARS + SUB_DELIMS_CHARS + ':@/', PATH, t);
  // query = *( pchar / "/" / "?" ) ; fragment = *( pchar / "/" / "?" )
  table(UNRESERVED_CHARS + SUB_DELIMS_CHARS + ':@/?', QUERY, t);
  // IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
  table(UNRESERVED_CHARS + SUB_DELIMS_CHARS + ':', IPVFUTURE, t);
  table(range('a', 'z') + DIGIT_CHARS + '-._~' + SUB_DELIMS_CHARS, LOWER_REG_NAME, t);
  return t;
})();

/**
 * The value of a hexadecimal digit code unit, or -1 (RFC 3986 §2.1 `HEXDIG`).
 *
 * @example
 * ```ts
 * hexValue('f'.charCodeAt(0)) // 15
 * ```
 */
export function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const l = c | 0x20;
  if (l >= 0x61 && l <= 0x66) return l - 0x61 + 10;
  return -1;
}

/**
 * True if code unit `c` is an ASCII letter (RFC 5234 Appendix B.1 `ALPHA`).
 *
 * @see https://www.rfc-editor.org/rfc/rfc5234#appendix-B.1
 * @example
 * ```ts
 * isAlpha(0x61) // true ("a")
 * isAlpha(0xe9) // false ("é")
 * ```
 */
export function isAlpha(c: number): boolean {
  return c < 128 && (CLASS[c]! & ALPHA) !== 0;
}

/**
 * True if code unit `c` is an ASCII letter or digit (RFC 8141 §2
 * `alphanum = ALPHA / DIGIT`; RFC 1123 §2.1 letters and digits).
 *
 * @see https://www.rfc-editor.org/rfc/rfc8141#section-2
 * @example
 * ```ts
 * isAlphanum(0x37) // true ("7")
 * isAlphanum(0x2d) // false ("-")
 * ```
 */
export function isAlphanum(c: number): boolean {
  return c < 128 && (CLASS[c]! & (ALPHA | DIGIT)) !== 0;
}

/**
 * True if code unit `c` is a host name character (RFC 8141 §2
 * `ldh = alphanum / "-"`; RFC 1123 §2.1 letters, digits and "-").
 *
 * @see https://www.rfc-editor.org/rfc/rfc8141#section-2
 * @example
 * ```ts
 * isLdh(0x2d) // true ("-")
 * isLdh(0x5f) // false ("_")
 * ```
 */
export function isLdh(c: number): boolean {
  return c === 0x2d || isAlphanum(c);
}

/**
 * True if `text[i]` begins a `pct-encoded = "%" HEXDIG HEXDIG` triplet (RFC 3986 §2.1).
 *
 * @example
 * ```ts
 * isPctEncoded('a%2Fb', 1) // true
 * ```
 */
export function isPctEncoded(text: string, i: number): boolean {
  return octetAt(text, i) >= 0;
}

/**
 * The octet of the `pct-encoded = "%" HEXDIG HEXDIG` triplet at `text[i]`,
 * or -1 when none begins there (RFC 3986 §2.1).
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-2.1
 * @example
 * ```ts
 * octetAt('a%2Fb', 1) // 47
 * octetAt('a%2Fb', 0) // -1
 * octetAt('%4', 0) // -1
 * ```
 */
export function octetAt(text: string, i: number): number {
  if (text.charCodeAt(i) !== 0x25) return -1;
  const h = hexValue(text.charCodeAt(i + 1));
  const l = hexValue(text.charCodeAt(i + 2));
  return h < 0 || l < 0 ? -1 : (h << 4) | l;
}

/**
 * True for the bidirectional formatting characters that RFC 3987 §4.1 says
 * must not appear in an IRI: LRM, RLM, LRE, RLE, PDF, LRO, RLO, and those
 * Unicode 6.3 added, which act the same way: U+061C ARABIC LETTER MARK and
 * the isolates LRI, RLI, FSI, PDI (UAX #9 §2, the explicit formatting
 * characters and implicit marks).
 *
 * @see https://www.rfc-editor.org/rfc/rfc3987#section-4.1
 * @example
 * ```ts
 * isBidiFormat(0x202e) // true (RIGHT-TO-LEFT OVERRIDE)
 * isBidiFormat(0x2067) // true (RIGHT-TO-LEFT ISOLATE)
 * isBidiFormat(0x61c) // true (ARABIC LETTER MARK)
 * isBidiFormat(0x5d0) // false (HEBREW LETTER ALEF)
 * ```
 */
export function isBidiFormat(cp: number): boolean {
  return cp === 0x200e || cp === 0x200f || cp === 0x61c || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

/**
 * How many UTF-16 code units the RFC 3987 §2.2 `ucschar` (or, when
 * `privateToo`, `iprivate`) at `text[i]` spans: 1 or 2, or 0 when the code
 * point at `i` is neither (lone surrogates are never allowed).
 *
 * ```text
 * ucschar  = %xA0-D7FF / %xF900-FDCF / %xFDF0-FFEF
 *          / %x10000-1FFFD / %x20000-2FFFD / ... / %xD0000-DFFFD
 *          / %xE1000-EFFFD
 * iprivate = %xE000-F8FF / %xF0000-FFFFD / %x100000-10FFFD
 * ```
 *
 * @example
 * ```ts
 * ucscharLength('é', 0, false) // 1
 * ucscharLength('\u{1F600}', 0, false) // 2
 * ucscharLength('\uD800', 0, false) // 0
 * ```
 */
export function ucscharLength(text: string, i: number, privateToo: boolean): number {
  const c = text.charCodeAt(i);
  if (c < 0xa0) return 0;
  if (c < 0xd800) return 1;
  if (c < 0xdc00) {
    // A high surrogate: the pair's code point decides.
    const d = text.charCodeAt(i + 1);
    if (!(d >= 0xdc00 && d <= 0xdfff)) return 0;
    const cp = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
    const plane = cp >>> 16;
    if ((cp & 0xffff) > 0xfffd) return 0;
    if (plane <= 13) return 2;
    if (plane === 14) return cp >= 0xe1000 ? 2 : 0;
    return privateToo ? 2 : 0; // planes 15 and 16 are iprivate
  }
  if (c < 0xe000) return 0; // a lone low surrogate
  if (c < 0xf900) return privateToo ? 1 : 0; // %xE000-F8FF iprivate
  if (c <= 0xfdcf) return 1;
  if (c < 0xfdf0) return 0;
  if (c <= 0xffef) return 1;
  return 0;
}

/**
 * A sticky regular expression `[...]*` that matches, from its `lastIndex`,
 * the longest run of the ASCII characters of class `cls`: the same set as
 * `CLASS[c] & cls`, written from the table itself. A single character class
 * under `*` cannot backtrack, so it runs in linear time; V8 compiles it to
 * machine code that skips a run of plain characters about twice as fast as
 * a `charCodeAt` loop (measured on the URLs of the isaacs corpus, see
 * docs/architecture.md, "The core"). The scanners use it to skip to the next character that needs a
 * decision ("%", a delimiter, non-ASCII); test/core/chars.test.ts proves it
 * equal to the table over all 65,536 code units.
 *
 * @example
 * ```ts
 * const skip = runSkipper(PATH);
 * skip.lastIndex = 0;
 * skip.test('/a/b?q');
 * skip.lastIndex // 4
 * ```
 */
export function runSkipper(cls: number): RegExp {
  let set = '';
  for (let c = 0; c < 128; c++) if (CLASS[c]! & cls) set += '\\x' + (c < 16 ? '0' : '') + c.toString(16);
  return new RegExp('[' + set + ']*', 'y');
}
