/**
 * @urikit/html: the links of an HTML document, resolved against its
 * established base (2003 draft §5.1, Appendix D), read with parse5.
 */
export { extractLinksFromHtml } from './links.js';
export type { HtmlLink, HtmlLinkError, HtmlLinks, ExtractLinksOptions } from './links.js';
export { repairReference } from './repair.js';
export { baseFromHtml } from './base.js';
export type { HtmlContext } from './base.js';
export { srcsetUrls } from './srcset.js';
export { refreshUrl } from './refresh.js';
export { URL_ATTRIBUTES, SVG_URL_ATTRIBUTES } from './url-attributes.js';
export { sniffHtmlEncoding, decodeHtml } from './encoding-sniffing.js';
export type { SniffOptions, SniffedEncoding } from './encoding-sniffing.js';
export { encodingForLabel } from './encoding-labels.js';
export type { UrlAttributeKind } from './url-attributes.js';
