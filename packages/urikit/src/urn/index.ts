/**
 * URNs (RFC 8141; the 2012 and 1995 drafts): syntax of all three generations, query directives,
 * lexical equivalence, namespaces as plug-ins, presentation.
 * Re-exported from ../index.ts.
 */
export type { Urn, UrnDirective, UrnParseOptions, UrnEquivalenceOptions, UrnEquivalencePurpose, UrnNamespace } from './types.js';
export { parseUrn, isValidUrn } from './parse.js';
export { buildUrn } from './build.js';
export type { UrnParts } from './build.js';
export { normalizeUrn, urnEquivalent } from './equivalence.js';
export {
  parseDirectives,
  getDirective,
  registerDirectiveKeyword,
  getDirectiveKeyword,
  registerServiceDesignator,
  getServiceDesignator,
  listServiceDesignators,
} from './directives.js';
export type { UrnDirectiveKeyword, UrnServiceDesignator } from './directives.js';
export { registerUrnNamespace, getUrnNamespace, listUrnNamespaces } from './namespaces/registry.js';
export { publicIdToNss, nssToPublicId } from './namespaces/publicid.js';
export { identifierToNss, displayUrn } from './presentation.js';
export { nbnCheckDigit } from './namespaces/nbn-check-digit.js';
export { nbnHasCheckDigit } from './namespaces/dnb-check-digit.js';
export { mintNbn } from './namespaces/nbn-mint.js';
export type { NbnMintOptions } from './namespaces/nbn-mint.js';
