/**
 * Percent-encoding helpers of the URN module (2012 draft §2.5.2, §5 step 3):
 * case normalization of pct-encoded triplets, UTF-8 encoding of an
 * identifier, and the decoding used for presentation.
 */

/**
 * 2012 draft §5 step 3 / RFC 3986 §6.2.2.1: the hexadecimal digits
 * of every pct-encoded triplet in upper case (input already validated).
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-6.2.2.1
 * @example
 * ```ts
 * upperPct('a%2cb'); // "a%2Cb"
 * ```
 */
export function upperPct(s: string): string {
  let i = s.indexOf('%');
  if (i < 0) return s;
  let out = '';
  let last = 0;
  for (; i >= 0 && i + 2 < s.length; i = s.indexOf('%', i + 3)) {
    const h = s.slice(i + 1, i + 3);
    const u = h.toUpperCase();
    if (h !== u) {
      out += s.slice(last, i + 1) + u;
      last = i + 3;
    }
  }
  return last === 0 ? s : out + s.slice(last);
}

const HEX = '0123456789ABCDEF';

/**
 * One octet as "%" HEXDIG HEXDIG, upper case (RFC 3986 §2.1).
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-2.1
 * @example
 * ```ts
 * pctOctet(0x2f); // "%2F"
 * ```
 */
export function pctOctet(b: number): string {
  return `%${HEX[b >> 4]}${HEX[b & 15]}`;
}

/**
 * The code point a run of pct-encoded triplets starting at `s[i]` spells in
 * UTF-8 (RFC 3629 §3), with the number of characters it covers; `undefined`
 * if the octets are not one well-formed, non-ASCII UTF-8 sequence.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3629#section-4
 * @example
 * ```ts
 * decodeUtf8At('%C3%A9', 0); // { cp: 0xe9, length: 6 }
 * ```
 */
export function decodeUtf8At(s: string, i: number): { cp: number; length: number } | undefined {
  const b0 = octetAt(s, i);
  // RFC 3629 §4: UTF8-2 starts C2..DF, UTF8-3 E0..EF, UTF8-4 F0..F4
  const n = b0 >= 0xc2 && b0 <= 0xdf ? 2 : b0 >= 0xe0 && b0 <= 0xef ? 3 : b0 >= 0xf0 && b0 <= 0xf4 ? 4 : 0;
  if (n === 0) return undefined;
  let cp = b0 & (n === 2 ? 0x1f : n === 3 ? 0x0f : 0x07);
  for (let k = 1; k < n; k++) {
    const b = octetAt(s, i + 3 * k);
    if (b < 0x80 || b > 0xbf) return undefined;
    cp = (cp << 6) | (b & 0x3f);
  }
  // no overlong forms, no surrogates, nothing above U+10FFFF
  const min = n === 2 ? 0x80 : n === 3 ? 0x800 : 0x10000;
  if (cp < min || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) return undefined;
  return { cp, length: 3 * n };
}

/** The octet of the triplet at `s[i]`, or -1. */
function octetAt(s: string, i: number): number {
  if (s.charCodeAt(i) !== 0x25 || i + 2 >= s.length) return -1;
  const h = parseInt(s.slice(i + 1, i + 3), 16);
  return Number.isNaN(h) ? -1 : h;
}
