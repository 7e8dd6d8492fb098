/**
 * The `oid` namespace (RFC 3061): ISO/ITU-T object identifiers in dotted
 * decimal form.
 */
import type { UrnNamespace } from '../types.js';

/**
 * RFC 3061 §2: oid = number *( "." number ); number = DIGIT / ( LEADDIGIT 1*DIGIT );
 * LEADDIGIT = %x31-39. Returns -1 or the index of the first problem.
 */
function validateOid(nss: string): number {
  let start = 0;
  for (let i = 0; i <= nss.length; i++) {
    const c = i < nss.length ? nss.charCodeAt(i) : 0x2e;
    if (c === 0x2e) {
      if (i === start) return i; // empty arc
      start = i + 1;
    } else if (c >= 0x30 && c <= 0x39) {
      if (i > start && nss.charCodeAt(start) === 0x30) return start; // leading zero
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
