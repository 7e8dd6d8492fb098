/**
 * The `issn` namespace (RFC 3044, obsoleted by RFC 8254 and Historic; the NID stays
 * registered): NNNN-NNNC (ISO 3297), the check character C a digit or "X".
 */
import type { UrnLexicalRules, UrnNamespace } from '../types.js';

const upperCase = (nss: string): string => nss.toUpperCase();

/**
 * ISO 3297 check of an ISSN `NNNN-NNNC`: weights 8..2, modulus 11, "X" = 10.
 * Returns -1 or the index of the first problem.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3044
 * @example
 * ```ts
 * checkIssn('0317-8471'); // -1
 * checkIssn('0317-8472'); // 8
 * ```
 */
export function checkIssn(nss: string): number {
  let sum = 0;
  for (let i = 0, w = 8; i < 9; i++) {
    if (i >= nss.length) return i;
    const c = nss.charCodeAt(i);
    if (i === 4) {
      if (c !== 0x2d) return i;
      continue;
    }
    let v = c - 0x30;
    if (v < 0 || v > 9) {
      if (i === 8 && (c | 0x20) === 0x78 /* x */) v = 10;
      else return i;
    }
    sum += i === 8 ? v : v * w--;
  }
  if (nss.length !== 9) return 9;
  return sum % 11 === 0 ? -1 : 8;
}

/**
 * The lexical rules of `urn:issn:` that normalization uses: the check
 * digit "X" is written in upper case (RFC 3044 §3 shows it so).
 *
 * @example
 * ```ts
 * issnLexical.normalizeNss('0317-847x') // "0317-847X"
 * ```
 */
export const issnLexical: UrnLexicalRules = { nid: 'issn', validateNss: checkIssn, normalizeNss: upperCase };

/**
 * RFC 3044 `urn:issn:` — the hyphenated ISSN with its check character; the
 * case of "x" is not significant.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3044
 * @example
 * ```ts
 * issn.validateNss?.('1050-124x'); // -1
 * ```
 */
export const issn: UrnNamespace = {
  nid: 'issn',
  reference: 'RFC 3044, RFC 8254',
  validateNss: checkIssn,
  normalizeNss: upperCase,
  displayNss: upperCase,
};
