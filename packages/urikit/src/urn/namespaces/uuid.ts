/**
 * The `uuid` namespace (RFC 4122 §3, which RFC 9562 obsoletes): the string
 * representation of a UUID, hexadecimal digits case-insensitive.
 */
import { CLASS, HEXDIG } from '../../chars.js';
import type { UrnLexicalRules, UrnNamespace } from '../types.js';

// RFC 4122 §3: UUID = time-low "-" time-mid "-" time-high-and-version "-"
//   clock-seq-and-reserved clock-seq-low "-" node   (8-4-4-4-12 hexDigit)

/** 8-4-4-4-12 hexadecimal digits (RFC 4122 §3, RFC 9562 §4). */
function validateUuid(nss: string): number {
  for (let i = 0; i < 36; i++) {
    if (i >= nss.length) return i;
    const c = nss.charCodeAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23 ? c !== 0x2d : !(c < 128 && (CLASS[c]! & HEXDIG) !== 0)) return i;
  }
  return nss.length === 36 ? -1 : 36;
}

// RFC 4122 §3: "The hexadecimal values "a" through "f" are output as lower case
// characters and are case insensitive on input."
const lowerCase = (nss: string): string => nss.toLowerCase();

/**
 * The lexical rules of `urn:uuid:` that normalization uses: the hexadecimal
 * digits in lower case.
 *
 * @example
 * ```ts
 * uuidLexical.normalizeNss('F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6') // "f81d4fae-7dec-11d0-a765-00a0c91e6bf6"
 * ```
 */
export const uuidLexical: UrnLexicalRules = { nid: 'uuid', validateNss: validateUuid, normalizeNss: lowerCase };

/**
 * RFC 4122 §3 `urn:uuid:` — validation, lower-case canonical form.
 *
 * @see https://www.rfc-editor.org/rfc/rfc4122#section-3
 * @example
 * ```ts
 * uuid.normalizeNss?.('F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6'); // "f81d4fae-7dec-11d0-a765-00a0c91e6bf6"
 * ```
 */
export const uuid: UrnNamespace = {
  nid: 'uuid',
  reference: 'RFC 4122 §3, RFC 9562',
  validateNss: validateUuid,
  normalizeNss: lowerCase,
  displayNss: lowerCase,
};
