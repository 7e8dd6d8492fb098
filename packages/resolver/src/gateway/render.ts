/**
 * The gateway's pages: a resolution result as HTML with active links
 * (1995 draft §4: "an intelligent HTML-based URN client can reformat a
 * resolution result that has a format of text/urc-0 as HTML text with the
 * URLs as links"), and a failed resolution explained.
 */
import type { ResolveResult } from '../client/types.js';
import { escapeHtml } from '../formats/html.js';
import { htmlDocument } from '../web/layout.js';
import { renderResolution } from '../web/result.js';

/**
 * The link from a gateway page to the gateway's page for another URN.
 *
 * @example
 * ```ts
 * gatewayHref('urn:isbn:0451450523') // '/urn:isbn:0451450523'
 * ```
 */
export function gatewayHref(urn: string): string {
  // The gateway reads the URN from the raw request target (path and query
  // as sent), so it is linked as written; the f-component is never sent
  // to a resolver (RFC 8141 §2.3.3) and is left off.
  const hash = urn.indexOf('#');
  return `/${hash < 0 ? urn : urn.slice(0, hash)}`;
}

/** The navigation every gateway page starts with. */
function header(urn: string): string {
  return `<p><a href="/">urikit gateway</a> · <a href="/?uri=${encodeURIComponent(urn)}">look at this URN</a></p>`;
}

/**
 * The HTML page of a resolution: the URN asked, then the result with every
 * location an active link.
 *
 * @example
 * ```ts
 * renderResultPage('urn:x:y', { status: 200, locations: [{ url: 'http://a/' }], via: ['urn:x:y'] })
 *   .includes('<a href="http://a/" rel="noopener noreferrer">http://a/</a>') // true
 * ```
 */
export function renderResultPage(urn: string, result: ResolveResult): string {
  return htmlDocument(`${urn} — urikit gateway`, `${header(urn)}
<h1>Resolution of <code>${escapeHtml(urn)}</code></h1>
<div class="resolution">${renderResolution(result, gatewayHref)}</div>`);
}

/**
 * The HTML page of a resolution that failed, with the reason.
 *
 * @example
 * ```ts
 * renderErrorPage('urn:x:y', 'no resolver for <this> URN could be reached')
 *   .includes('<p class="bad" role="alert">no resolver for &lt;this&gt; URN could be reached</p>') // true
 * ```
 */
export function renderErrorPage(urn: string, message: string): string {
  return htmlDocument(`${urn} — urikit gateway`, `${header(urn)}
<h1>Resolution of <code>${escapeHtml(urn)}</code></h1>
<p class="bad" role="alert">${escapeHtml(message)}</p>`);
}
