/**
 * The `example` namespace (RFC 6963): for documentation; any NSS valid
 * under the generic syntax, no extra lexical equivalences.
 */
import type { UrnNamespace } from '../types.js';

/**
 * RFC 6963 §3 "URN:example" — the generic syntax only.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6963
 * @example
 * ```ts
 * example.validateNss?.('a123,z456'); // -1
 * ```
 */
export const example: UrnNamespace = {
  nid: 'example',
  reference: 'RFC 6963',
  validateNss: () => -1,
};
