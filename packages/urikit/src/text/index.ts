/**
 * Finding URIs in text (2003 draft App. E), abbreviated URIs (App. F) and
 * establishing a base URI (§5.1). Re-exported from ../index.ts.
 */
export { extractUris } from './extract.js';
export { extractUriBatches, extractUrisFromStream } from './stream.js';
export type { ExtractOptions, UriMatch } from './match.js';
export { PROSE_SCHEMES, isTextDelimiter } from './delimiters.js';
export { expandAbbreviated } from './abbreviated.js';
export type { AbbreviatedOptions } from './abbreviated.js';
export { establishBase, baseFromHeaders } from './base.js';
export type { BaseLayers, HeaderFields } from './base.js';
