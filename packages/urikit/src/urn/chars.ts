/**
 * Character classes of the URN grammars as 128-entry lookup tables.
 *
 * Defined here (not imported from ../chars.ts) because the URN scanner was
 * written in parallel with the core tables; each table carries its ABNF line.
 * A code unit >= 128 is never in any class: URNs are ASCII (2012 draft §2.5.3,
 * RFC 8141 §2: non-ASCII must be percent-encoded).
 */

/** Builds a table from literal characters and inclusive ranges. */
function table(chars: string, ...ranges: Array<[string, string]>): Uint8Array {
  const t = new Uint8Array(128);
  for (let i = 0; i < chars.length; i++) t[chars.charCodeAt(i)] = 1;
  for (const [lo, hi] of ranges) for (let c = lo.charCodeAt(0); c <= hi.charCodeAt(0); c++) t[c] = 1;
  return t;
}

/** Union of tables. */
function union(...tables: Uint8Array[]): Uint8Array {
  const t = new Uint8Array(128);
  for (const s of tables) for (let i = 0; i < 128; i++) t[i] |= s[i]!;
  return t;
}

/** Removes characters from a table. */
function without(t: Uint8Array, chars: string): Uint8Array {
  const r = t.slice();
  for (let i = 0; i < chars.length; i++) r[chars.charCodeAt(i)] = 0;
  return r;
}

const AZ: [string, string] = ['A', 'Z'];
const az: [string, string] = ['a', 'z'];
const D09: [string, string] = ['0', '9'];

// RFC 5234 App. B.1: ALPHA = %x41-5A / %x61-7A
export const ALPHA = table('', AZ, az);
// RFC 5234 App. B.1: DIGIT = %x30-39
export const DIGIT = table('', D09);
// RFC 8141 §2: alphanum = ALPHA / DIGIT
export const ALPHANUM = union(ALPHA, DIGIT);
// RFC 8141 §2: ldh = alphanum / "-"
export const LDH = table('-', AZ, az, D09);
// RFC 5234 App. B.1: HEXDIG = DIGIT / "A" / "B" / "C" / "D" / "E" / "F" (case-insensitive per RFC 3986 §2.1)
export const HEXDIG = table('', D09, ['A', 'F'], ['a', 'f']);
// RFC 3986 §2.3: unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"
export const UNRESERVED = table('-._~', AZ, az, D09);
// RFC 3986 §2.2: sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="
export const SUB_DELIMS = table("!$&'()*+,;=");
// RFC 3986 §3.3: pchar = unreserved / pct-encoded / sub-delims / ":" / "@"   (pct-encoded is scanned apart)
export const PCHAR = union(UNRESERVED, SUB_DELIMS, table(':@'));
// RFC 3986 §3.4/§3.5: query = fragment = *( pchar / "/" / "?" )   (pct-encoded is scanned apart)
export const QCHAR = union(PCHAR, table('/?'));
// 2012 draft §2.3: v-pchar = unreserved / pct-encoded / v-subdels;
//   v-subdels = "!" / "$" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "=" / ":" / "@" / "/" / "?"
export const V_PCHAR = without(QCHAR, '&');

// RFC 1738 §5 (the 1995 draft's [URL]): safe = "$" | "-" | "_" | "." | "+"; extra = "!" | "*" | "'" | "(" | ")" | ","
//   unreserved = alpha | digit | safe | extra   (escape = "%" hex hex is scanned apart)
export const UNRESERVED_1738 = table("$-_.+!*'(),", AZ, az, D09);
// RFC 1738 §5: reserved = ";" | "/" | "?" | ":" | "@" | "=" | "&"
export const RESERVED_1738 = table(';/?:@=&');
// RFC 1738 §5: scheme = 1*[ lowalpha | digit | "+" | "-" | "." ]   (the 1995 draft's SchemeID, case-insensitive)
export const SCHEME_1738 = table('+-.', AZ, az, D09);
// 1995 draft §2.3: an ElementID is made of URL characters; "#" and "?" are reserved for future use
export const ELEMENT_1995 = without(union(UNRESERVED_1738, RESERVED_1738), '?');
// 1995 draft §2.2: an AuthorityID is one colon-delimited field of URL characters
export const AUTHORITY_1995 = without(ELEMENT_1995, ':');

/**
 * The value of one hexadecimal digit (RFC 5234 HEXDIG, either case), or -1.
 *
 * @example
 * ```ts
 * hexValue(0x61); // 10
 * ```
 */
export function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const l = c | 0x20;
  if (l >= 0x61 && l <= 0x66) return l - 0x57;
  return -1;
}

/**
 * True if `c` is a code unit below 128 that is in the table `t`.
 *
 * @example
 * ```ts
 * inTable(PCHAR, 0x3a); // true (":")
 * ```
 */
export function inTable(t: Uint8Array, c: number): boolean {
  return c < 128 && t[c] === 1;
}
