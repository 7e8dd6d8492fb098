/**
 * The base URI of an HTML document (2003 draft §5.1.1 and Appendix D;
 * HTML Living Standard "document base URL").
 */
import { parse as parseHtml } from 'parse5';
import { establishBase } from 'urikit';
import { walk, attribute } from './tree.js';
import type { Element } from './tree.js';

/**
 * The `href` of the first `<base>` element that has one (HTML: "the first
 * base element with an href attribute, in tree order"), trimmed of ASCII
 * white space, or undefined.
 */
export function firstBaseHref(root: Parameters<typeof walk>[0]): string | undefined {
  let href: string | undefined;
  walk(root, (el: Element) => {
    if (href !== undefined) return false;
    if (el.tagName === 'base') {
      const v = attribute(el, 'href');
      if (v !== undefined) href = v.trim();
    }
    return true;
  });
  return href;
}

/**
 * Establishes the base URI of an HTML document: the first `<base href>`
 * (2003 draft Appendix D, embedded base, §5.1.1), resolved against the
 * document's own URI (§5.1.3), else the document's URI; a `<base href>`
 * that is not a URI reference is ignored as HTML says
 * (https://datatracker.ietf.org/doc/html/draft-fielding-uri-rfc2396bis-01#section-5.1).
 *
 * @example
 * ```ts
 * baseFromHtml('<base href="http://www.ics.uci.edu/Test/a/b/c">', 'http://a/doc') // "http://www.ics.uci.edu/Test/a/b/c"
 * baseFromHtml('<p>no base</p>', 'http://a/b/doc.html') // "http://a/b/doc.html"
 * ```
 */
export function baseFromHtml(html: string, documentUri: string): string {
  return baseOf(firstBaseHref(parseHtml(html)), documentUri);
}

/** The established base from a `<base href>` value (or none) and the document URI. */
export function baseOf(href: string | undefined, documentUri: string): string {
  if (href !== undefined && href !== '') {
    try {
      const b = establishBase({ embedded: href, retrieval: documentUri });
      if (b !== undefined) return b;
    } catch {
      // HTML: "If parsing fails, the fallback base URL" — the document's own URI.
    }
  }
  return establishBase({ retrieval: documentUri }) ?? documentUri;
}
