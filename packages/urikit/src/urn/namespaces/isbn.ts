/**
 * The `isbn` namespace (RFC 3187, obsoleted by RFC 8254 and Historic; the NID stays
 * registered): the NSS is an ISBN-10 or ISBN-13 (ISO 2108), hyphens allowed
 * between digits; check digits checked.
 */
import type { UrnLexicalRules, UrnNamespace } from '../types.js';

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
  // the characters: digits, and "X" (= 10) only as the check digit of an ISBN-10
  for (let i = 0; i < n && i < 13; i++) {
    const c = digits.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) continue;
    if (i === 9 && (c | 0x20) === 0x78 /* x */) continue;
    return i;
  }
  const x = n >= 10 && (digits.charCodeAt(9) | 0x20) === 0x78;
  if (n < 10) return n; // the end, where more digits were needed
  if (n > 13) return 13; // the 14th digit
  if (n > 10 && x) return 9; // "X" ends an ISBN-10 only
  if (n > 10 && n < 13) return prefix13(digits) < 0 ? n : 10; // the end of a would-be ISBN-13, or one digit too many for an ISBN-10
  if (n === 13 && prefix13(digits) >= 0) return prefix13(digits);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const v = i === 9 && x ? 10 : digits.charCodeAt(i) - 0x30;
    sum += n === 10 ? v * (10 - i) : v * (i % 2 === 0 ? 1 : 3);
  }
  return sum % (n === 10 ? 11 : 10) === 0 ? -1 : n - 1;
}

/** ISO 2108:2005: an ISBN-13 begins with the EAN prefix 978 or 979; -1 or the first digit that departs from it. */
function prefix13(digits: string): number {
  if (digits.charCodeAt(0) !== 0x39) return 0;
  if (digits.charCodeAt(1) !== 0x37) return 1;
  const c = digits.charCodeAt(2);
  return c === 0x38 || c === 0x39 ? -1 : 2;
}

/**
 * RFC 3187, RFC 8254: the NSS is the ISBN as ISO 2108 writes it; hyphens separate its parts
 * (group, publisher, title, check digit, and the EAN prefix of an ISBN-13): at most 3 in an
 * ISBN-10, 4 in an ISBN-13, each between two digits.
 */
function validateIsbn(nss: string): number {
  let digits = '';
  const pos: number[] = [];
  let hyphens = 0;
  let badHyphen = -1;
  for (let i = 0; i < nss.length; i++) {
    const c = nss.charCodeAt(i);
    if (c === 0x2d) {
      // a hyphen only between two digits
      if (badHyphen < 0 && (i === 0 || i === nss.length - 1 || nss.charCodeAt(i - 1) === 0x2d)) badHyphen = i;
      hyphens++;
      continue;
    }
    digits += nss[i];
    pos.push(i);
    if (pos.length > 13) break; // the 14th character is offending whatever follows: stop reading
  }
  const bad = checkIsbnDigits(digits);
  const badDigit = bad < 0 ? -1 : bad < pos.length ? pos[bad]! : nss.length;
  // the first offending character of the two checks
  if (badHyphen >= 0 || badDigit >= 0) return badHyphen < 0 ? badDigit : badDigit < 0 ? badHyphen : Math.min(badHyphen, badDigit);
  // the first hyphen beyond the number of parts
  const max = digits.length === 10 ? 3 : 4;
  for (let i = 0, seen = 0; hyphens > max && i < nss.length; i++) if (nss.charCodeAt(i) === 0x2d && ++seen > max) return i;
  return -1;
}

// Hyphens only group the digits (ISO 2108), so two ISBNs that differ only in
// hyphenation or in the case of "X" name the same book.
const normalizeIsbn = (nss: string): string => nss.replaceAll('-', '').toUpperCase();

/**
 * The lexical rules of `urn:isbn:` that normalization uses: without the
 * hyphens, "X" in upper case.
 *
 * @example
 * ```ts
 * isbnLexical.normalizeNss('0-395-36341-x') // "039536341X"
 * ```
 */
export const isbnLexical: UrnLexicalRules = { nid: 'isbn', validateNss: validateIsbn, normalizeNss: normalizeIsbn };

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
  normalizeNss: normalizeIsbn,
  displayNss: (nss) => nss.toUpperCase(),
};
