/**
 * The `isbn` namespace (RFC 3187, updated by RFC 8254): the NSS is an
 * ISBN-10 or ISBN-13, hyphens allowed between digits; check digits checked.
 */
import type { UrnNamespace } from '../types.js';

/**
 * ISO 2108 check of the digits of an ISBN-10 (weights 10..1, modulus 11,
 * "X" = 10 in the last place) or ISBN-13 (prefix 978/979, weights 1,3,
 * modulus 10). `digits` holds the code units with hyphens removed; returns
 * -1 or the index (in `digits`) of the first bad one.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8254
 * @example
 * ```ts
 * checkIsbnDigits('9780395363416'); // -1
 * checkIsbnDigits('0395363412');    // 9 (the check digit)
 * ```
 */
export function checkIsbnDigits(digits: string): number {
  const n = digits.length;
  if (n !== 10 && n !== 13) return Math.min(n, 13);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const c = digits.charCodeAt(i);
    let v = c - 0x30;
    if (v < 0 || v > 9) {
      if (n === 10 && i === 9 && (c | 0x20) === 0x78 /* x */) v = 10;
      else return i;
    }
    sum += n === 10 ? v * (10 - i) : v * (i % 2 === 0 ? 1 : 3);
  }
  if (n === 13 && !(digits.startsWith('978') || digits.startsWith('979'))) return 2;
  return sum % (n === 10 ? 11 : 10) === 0 ? -1 : n - 1;
}

/** RFC 8254 §4 / RFC 3187 §3: the NSS is the ISBN; hyphens separate its parts (at most 3 in an ISBN-10, 4 in an ISBN-13). */
function validateIsbn(nss: string): number {
  let digits = '';
  const pos: number[] = [];
  let hyphens = 0;
  for (let i = 0; i < nss.length; i++) {
    const c = nss.charCodeAt(i);
    if (c === 0x2d) {
      // a hyphen only between two digits
      if (i === 0 || i === nss.length - 1 || nss.charCodeAt(i - 1) === 0x2d) return i;
      hyphens++;
      continue;
    }
    digits += nss[i];
    pos.push(i);
  }
  const bad = checkIsbnDigits(digits);
  if (bad >= 0) return bad < pos.length ? pos[bad]! : nss.length;
  // the first hyphen beyond the number of parts
  const max = digits.length === 10 ? 3 : 4;
  for (let i = 0, seen = 0; hyphens > max && i < nss.length; i++) if (nss.charCodeAt(i) === 0x2d && ++seen > max) return i;
  return -1;
}

/**
 * RFC 3187 / RFC 8254 `urn:isbn:` — ISBN-10 and ISBN-13 with check digits;
 * hyphens and the case of "x" are not significant.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8254
 * @example
 * ```ts
 * isbn.normalizeNss?.('0-395-36341-x'); // "039536341X"
 * ```
 */
export const isbn: UrnNamespace = {
  nid: 'isbn',
  reference: 'RFC 3187, RFC 8254',
  validateNss: validateIsbn,
  // Hyphens only group the digits (ISO 2108), so two ISBNs that differ only in
  // hyphenation or in the case of "X" name the same book.
  normalizeNss: (nss) => nss.replaceAll('-', '').toUpperCase(),
  displayNss: (nss) => nss.toUpperCase(),
};
