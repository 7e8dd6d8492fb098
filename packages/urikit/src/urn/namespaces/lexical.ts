/**
 * The namespaces that add lexical equivalences (RFC 8141 §3.1, last
 * paragraph; 2012 draft §5), and the plug-ins a caller registered. Kept
 * apart from the full registry so that scheme-based normalization
 * (`normalize`, `equivalent`) carries only these into a browser bundle.
 */
import type { UrnLexicalRules, UrnNamespace } from '../types.js';
import { ietfLexical } from './ietf.js';
import { isbnLexical } from './isbn.js';
import { issnLexical } from './issn.js';
import { nbnLexical } from './nbn.js';
import { uuidLexical } from './uuid.js';

/**
 * @internal The plug-ins `registerUrnNamespace` added, by lower-case NID;
 * they win over the built-in ones.
 *
 * @example
 * ```ts
 * registeredUrnNamespaces instanceof Map // true
 * ```
 */
export const registeredUrnNamespaces = new Map<string, UrnNamespace>();

const LEXICAL = new Map<string, UrnLexicalRules>([ietfLexical, isbnLexical, issnLexical, nbnLexical, uuidLexical].map((ns) => [ns.nid, ns]));

/**
 * The NSS in the namespace's canonical form (RFC 8141 §3.1: a namespace's
 * rules "MUST always have the effect of eliminating some of the false
 * negatives"); applied to an NSS already in generic form (`%HH`), and only
 * when the namespace accepts it. `nid` is in lower case.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8141#section-3.1
 * @example
 * ```ts
 * namespaceNss('isbn', '0-395-36341-1') // "0395363411"
 * namespaceNss('isbn', '0-395-36341-2') // "0-395-36341-2" (no ISBN: left as it is)
 * ```
 */
export function namespaceNss(nid: string, nss: string): string {
  const ns = (registeredUrnNamespaces.size > 0 ? registeredUrnNamespaces.get(nid) : undefined) ?? LEXICAL.get(nid);
  if (ns?.normalizeNss === undefined || (ns.validateNss !== undefined && ns.validateNss(nss) >= 0)) return nss;
  return ns.normalizeNss(nss);
}
