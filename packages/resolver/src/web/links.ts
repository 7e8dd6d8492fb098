/**
 * Which URLs the web page and the gateway turn into active links (1995
 * draft §3.4.3: "text/html allows the URLs to be displayed as active
 * links"), and which stay plain text because following them would run
 * code in the page (2003 draft §7: semantic attacks).
 */
import { schemeOf } from 'urikit';
import { escapeHtml } from '../formats/html.js';

// Schemes a person can follow safely from a page; everything else
// (javascript:, data:, vbscript:, file:, unknown ones) is shown, not linked.
const LINKABLE_SCHEMES = new Set(['http', 'https', 'ftp', 'gopher', 'mailto', 'news', 'nntp', 'telnet', 'wais', 'prospero']);

/**
 * An HTML link to `url` when its scheme is safe to follow, else the URL
 * as escaped text; a URN links to `urnHref(urn)` (the gateway's own page).
 *
 * @example
 * ```ts
 * linkTo('http://a/?x=<1>') // '<a href="http://a/?x=&lt;1&gt;" rel="noopener noreferrer">http://a/?x=&lt;1&gt;</a>'
 * linkTo('javascript:alert(1)') // '<code>javascript:alert(1)</code>'
 * ```
 */
export function linkTo(url: string, urnHref?: (urn: string) => string, label?: string): string {
  const scheme = schemeOf(url);
  const text = escapeHtml(label ?? url);
  // Whitespace and controls inside a URL would be dropped by the browser and
  // could hide a scheme; such URLs are never links.
  for (let i = 0; i < url.length; i++) if (url.charCodeAt(i) <= 0x20 || url.charCodeAt(i) === 0x7f) return `<code>${text}</code>`;
  if (scheme === 'urn' && urnHref) return `<a href="${escapeHtml(urnHref(url))}">${text}</a>`;
  if (scheme !== undefined && LINKABLE_SCHEMES.has(scheme)) return `<a href="${escapeHtml(url)}" rel="noopener noreferrer">${text}</a>`;
  return `<code>${text}</code>`;
}
