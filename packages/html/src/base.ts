/**
 * The base URI of an HTML document (2003 draft §5.1.1 and Appendix D;
 * HTML Living Standard "document base URL").
 */
import { parse as parseHtml } from 'parse5';
import { establishBase, baseFromHeaders, schemeOf } from 'urikit';
import type { HeaderFields } from 'urikit';
import { walk, attribute, HTML_NS } from './tree.js';
import { stripAsciiWhitespace, urlParserInput } from './whitespace.js';
import { documentEncoding } from './document-encoding.js';
import { encodeQueryIn } from './query-encoding.js';
import type { Element } from './tree.js';

/**
 * The `href` of the first `<base>` element that has one (HTML: "the first
 * base element with an href attribute, in tree order"), stripped of ASCII
 * white space only (a leading NBSP stays), or undefined. Only an HTML
 * `<base>` of the document counts: not one in a `<template>`'s contents (a
 * separate fragment) nor an SVG element named `base`.
 */
export function firstBaseHref(root: Parameters<typeof walk>[0]): string | undefined {
  let href: string | undefined;
  walk(root, (el: Element, inTemplate) => {
    if (href !== undefined) return false;
    if (el.tagName === 'base' && el.namespaceURI === HTML_NS && !inTemplate) {
      const v = attribute(el, 'href');
      if (v !== undefined) href = stripAsciiWhitespace(v);
    }
    return true;
  });
  return href;
}

/**
 * What surrounds an HTML document besides its URI (2003 draft §5.1.2,
 * §5.1.3): the headers of the message that carried it (Content-Base,
 * Content-Location), the base of an enclosing entity (a MIME multipart),
 * and the URIs of a redirected retrieval.
 *
 * @example
 * ```ts
 * const ctx: HtmlContext = { headers: { 'Content-Location': '/en/' }, redirects: ['http://b.example/'] };
 * baseFromHtml('<p>no base</p>', 'http://a.example/doc', ctx) // "http://b.example/en/"
 * ```
 */
export interface HtmlContext {
  headers?: HeaderFields;
  encapsulating?: string;
  redirects?: readonly string[];
  /**
   * The character encoding the document's bytes were decoded from (any
   * label of the Encoding Standard): the query of each URL is encoded in
   * it, as a browser encodes it for fetching. Without it, the Content-Type
   * of `headers`, then the document's `<meta charset>`, then UTF-8.
   */
  encoding?: string;
}

/**
 * Establishes the base URI of an HTML document in the layers of 2003
 * draft §5.1: the first `<base href>` (Appendix D, embedded in the
 * content, §5.1.1), over the message's Content-Base / Content-Location
 * (1997 draft §5.1.1), over the encapsulating entity (§5.1.2), over the
 * retrieval URI after redirects (§5.1.3). A `<base href>` that is not a
 * URI reference once the URL parser has removed its tabs and newlines
 * (and stripped C0 controls at its ends) is ignored, as HTML says, and so
 * is a `javascript:` or `data:` one, as browsers do; a `<base>` in a `<template>` or in SVG is
 * no base of the document
 * (https://datatracker.ietf.org/doc/html/draft-fielding-uri-rfc2396bis-01#section-5.1).
 *
 * @example
 * ```ts
 * baseFromHtml('<base href="http://www.ics.uci.edu/Test/a/b/c">', 'http://a/doc') // "http://www.ics.uci.edu/Test/a/b/c"
 * baseFromHtml('<p>no base</p>', 'http://a/b/doc.html') // "http://a/b/doc.html"
 * baseFromHtml('<base href="x/">', 'http://a/b/doc.html', { headers: { 'Content-Location': '/en/doc' } }) // "http://a/en/x/"
 * baseFromHtml('<base href="javascript:void(0)">', 'http://a/doc') // "http://a/doc"
 * baseFromHtml('<template><base href="http://t/"></template>', 'http://a/doc') // "http://a/doc"
 * baseFromHtml('<base href="http://b/x\n/y/">', 'http://a/doc') // "http://b/x/y/"
 * ```
 */
export function baseFromHtml(html: string, documentUri: string, context?: HtmlContext): string {
  const doc = parseHtml(html);
  return baseOf(firstBaseHref(doc), documentUri, context, documentEncoding(doc, context, html));
}

/**
 * The established base from a `<base href>` value (or none), the document
 * URI and its context (see {@link baseFromHtml}); the query of the
 * `<base href>` is encoded in the document's `encoding` (HTML "frozen base
 * URL": the value parsed with the document's character encoding), left as
 * it is where no encoder here has that encoding.
 *
 * @example
 * ```ts
 * baseOf('../x/', 'http://a/b/c/d') // "http://a/b/x/"
 * ```
 */
export function baseOf(href: string | undefined, documentUri: string, context?: HtmlContext, encoding = 'utf-8'): string {
  const outer = establishBase({ retrieval: documentUri, redirects: context?.redirects, encapsulating: context?.encapsulating }) ?? documentUri;
  const message = context?.headers !== undefined ? baseFromHeaders(context.headers, outer) : undefined;
  const around = message ?? outer;
  // A "javascript:" or "data:" base is not used: the fallback base is
  // (HTML "set the frozen base URL": a base that is not allowed; what
  // Chromium does, with a console message, for these two schemes).
  // The URL parser reads the value without its tabs and newlines and
  // without C0 controls and spaces at its ends (URL Standard, basic URL
  // parser steps 1–3), so a base written over two lines still applies.
  const read = href === undefined ? undefined : urlParserInput(href);
  const embedded = read === undefined ? undefined : encodeQueryIn(read, encoding, schemeOf(around)) ?? read;
  if (embedded !== undefined && embedded !== '' && !/^(?:javascript|data):/i.test(embedded)) {
    try {
      const b = establishBase({ embedded, retrieval: around });
      if (b !== undefined) return b;
    } catch {
      // HTML: "If parsing fails, the fallback base URL" — the base around the document.
    }
  }
  return around;
}
