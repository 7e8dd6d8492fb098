/**
 * The percent-encoding steps that belong to URNs alone. Encoding, decoding
 * and the triplet test are the core's (../percent.ts, ../chars.ts); what
 * stays here differs from them on purpose:
 *
 * - `upperPct` only changes the case of `%hh`: URN equivalence must never
 *   decode (RFC 8141 §3.1, 2012 draft §5), where the core's syntax
 *   normalization decodes unreserved triplets (RFC 3986 §6.2.2.2);
 * - `decodeUtf8At` reads one UTF-8 sequence, for a presentation that decodes
 *   some sequences and keeps others encoded (2012 draft §4).
 */
import { hexValue } from '../chars.js';

/**
 * RFC 8141 §3.1 step 3 / 2012 draft §5 step 3: the hexadecimal digits of
 * every pct-encoded triplet in upper case, nothing decoded.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8141#section-3.1
 * @example
 * ```ts
 * upperPct('a%2cb'); // "a%2Cb"
 * ```
 */
export function upperPct(s: string): string {
  let i = s.indexOf('%');
  if (i < 0) return s;
  let out = '';
  let run = 0;
  for (; i >= 0 && i + 2 < s.length; i = s.indexOf('%', i + 1)) {
    const a = s.charCodeAt(i + 1);
    const b = s.charCodeAt(i + 2);
    if (hexValue(a) < 0 || hexValue(b) < 0) continue; // not a triplet (not reached for parsed input)
    // a..f -> A..F
    if ((a >= 0x61 && a <= 0x66) || (b >= 0x61 && b <= 0x66)) {
      out += s.slice(run, i + 1) + s.slice(i + 1, i + 3).toUpperCase();
      run = i + 3;
    }
    i += 2;
  }
  return run === 0 ? s : out + s.slice(run);
}

/**
 * The code point a run of pct-encoded triplets starting at `s[i]` spells in
 * UTF-8, with the number of characters it covers; `undefined` if the octets
 * are not one well-formed, non-ASCII UTF-8 sequence (RFC 3629 §4: no
 * overlong forms, no surrogates, nothing above U+10FFFF).
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
  const min = n === 2 ? 0x80 : n === 3 ? 0x800 : 0x10000;
  if (cp < min || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) return undefined;
  return { cp, length: 3 * n };
}

/** The octet of the `%HH` triplet at `s[i]`, or -1. */
function octetAt(s: string, i: number): number {
  if (s.charCodeAt(i) !== 0x25) return -1;
  const h = hexValue(s.charCodeAt(i + 1));
  const l = hexValue(s.charCodeAt(i + 2));
  return h < 0 || l < 0 ? -1 : (h << 4) | l;
}
