/**
 * The `oid` namespace (RFC 3061): ISO/ITU-T object identifiers in dotted
 * decimal form.
 */
import type { UrnNamespace } from '../types.js';

/**
 * RFC 3061 §2 "Declaration of structure": oid = number *( DOT number );
 * number = DIGIT / ( LEADDIGIT 1*DIGIT ); LEADDIGIT = %x31-39 ; DOT = %x2E.
 * Returns -1 or the index of the first offending character.
 */
function validateOid(nss: string): number {
  let start = 0;
  for (let i = 0; i <= nss.length; i++) {
    const c = i < nss.length ? nss.charCodeAt(i) : 0x2e;
    if (c === 0x2e) {
      if (i === start) return i; // empty arc
      start = i + 1;
    } else if (c >= 0x30 && c <= 0x39) {
      // a number that begins with "0" is just "0": the digit after it is the first offending one
      if (i > start && nss.charCodeAt(start) === 0x30) return i;
    } else return i;
  }
  return -1;
}

/**
 * RFC 3061 `urn:oid:` — dotted decimal arcs without leading zeros; no extra
 * lexical equivalences (the form is already canonical).
 *
 * @see https://www.rfc-editor.org/rfc/rfc3061
 * @example
 * ```ts
 * oid.validateNss?.('1.3.6.1'); // -1
 * ```
 */
export const oid: UrnNamespace = {
  nid: 'oid',
  reference: 'RFC 3061',
  validateNss: validateOid,
};
