/**
 * Every link of an HTML document, resolved against the document's
 * established base (2003 draft §5.1, §5.2, Appendix D).
 */
import { parse as parseHtml } from 'parse5';
import { resolve, isUriError } from 'urikit';
import type { UriErrorCode } from 'urikit';
import { URL_ATTRIBUTES } from './url-attributes.js';
import { srcsetUrls } from './srcset.js';
import { firstBaseHref, baseOf } from './base.js';
import type { HtmlContext } from './base.js';
import { walk, attribute } from './tree.js';
import type { Element } from './tree.js';

/**
 * One reference found in an HTML attribute: where it was (`element`,
 * `attribute`, `offset` of the attribute in the HTML), the
 * reference as written (`value`, HTML white space trimmed), and the target
 * URI `uri` resolved against `base`, or the `error` code when the value is
 * not a URI reference.
 *
 * @example
 * ```ts
 * const link: HtmlLink = { element: 'a', attribute: 'href', value: '../x', uri: 'http://a/x', offset: 0 };
 * ```
 */
export interface HtmlLink {
  element: string;
  attribute: string;
  value: string;
  uri?: string;
  error?: UriErrorCode;
  offset: number;
}

/**
 * The result of {@link extractLinksFromHtml}: the established base and the links.
 *
 * @example
 * ```ts
 * const r: HtmlLinks = { base: 'http://a/', links: [] };
 * ```
 */
export interface HtmlLinks {
  base: string;
  links: HtmlLink[];
}

const trimHtml = (s: string): string => {
  // HTML "strip leading and trailing ASCII whitespace" (TAB, LF, FF, CR, SPACE).
  let a = 0, b = s.length;
  const ws = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
  while (a < b && ws(s.charCodeAt(a))) a++;
  while (b > a && ws(s.charCodeAt(b - 1))) b--;
  return s.slice(a, b);
};

/**
 * The URL of `<meta http-equiv="refresh" content="5; url=...">` (HTML
 * Living Standard, "shared declarative refresh steps"), quotes removed.
 */
function refreshTarget(el: Element, content: string): string | undefined {
  if (attribute(el, 'http-equiv')?.trim().toLowerCase() !== 'refresh') return undefined;
  const lower = content.toLowerCase();
  let i = lower.indexOf('url');
  if (i < 0) return undefined;
  i += 3;
  while (i < content.length && (content[i] === ' ' || content[i] === '\t')) i++;
  if (content[i] !== '=') return undefined;
  let v = content.slice(i + 1).trim();
  const q = v[0];
  if (q === '"' || q === "'") {
    const close = v.indexOf(q, 1);
    v = v.slice(1, close < 0 ? undefined : close);
  }
  return v === '' ? undefined : v;
}

/**
 * Finds every URI reference in the URL-valued attributes of an HTML
 * document (`href`, `src`, `srcset`, `action`, `formaction`, `cite`,
 * `poster`, `data`, `ping`, `<meta http-equiv=refresh>` ...) with parse5, and resolves each against
 * the base the document establishes: its first `<base href>` over the
 * `context` (message headers, encapsulating entity, redirects) over
 * `documentUri` (2003 draft §5.1 and Appendix D, §5.2 resolution,
 * https://datatracker.ietf.org/doc/html/draft-fielding-uri-rfc2396bis-01#appendix-D).
 *
 * @example
 * ```ts
 * const { base, links } = extractLinksFromHtml(
 *   '<base href="http://www.ics.uci.edu/Test/a/b/c"><a href="../x">x</a><img srcset="i.png 1x, j.png 2x">',
 *   'http://example.org/doc',
 * );
 * base // "http://www.ics.uci.edu/Test/a/b/c"
 * links.map((l) => l.uri) // ["http://www.ics.uci.edu/Test/a/x", "http://www.ics.uci.edu/Test/a/b/i.png", "http://www.ics.uci.edu/Test/a/b/j.png"]
 * ```
 */
export function extractLinksFromHtml(html: string, documentUri: string, context?: HtmlContext): HtmlLinks {
  const doc = parseHtml(html, { sourceCodeLocationInfo: true });
  const base = baseOf(firstBaseHref(doc), documentUri, context);
  const links: HtmlLink[] = [];
  const add = (element: string, attribute: string, value: string, offset: number): void => {
    const link: HtmlLink = { element, attribute, value, offset };
    try {
      link.uri = resolve(base, value);
    } catch (e) {
      if (!isUriError(e)) throw e;
      link.error = e.code;
    }
    links.push(link);
  };
  walk(doc, (el) => {
    if (el.tagName === 'base') return true; // the base itself is not a link to follow
    const table = URL_ATTRIBUTES.get(el.tagName);
    const loc = el.sourceCodeLocation;
    for (const a of el.attrs) {
      if (a.namespace !== undefined) continue;
      const offset = loc?.attrs?.[a.name]?.startOffset ?? loc?.startOffset ?? -1;
      if (el.tagName === 'meta' && a.name === 'content') {
        const target = refreshTarget(el, a.value);
        if (target !== undefined) add('meta', 'content', target, offset);
        continue;
      }
      const kind = table?.get(a.name);
      if (kind === undefined) continue;
      if (kind === 'url') add(el.tagName, a.name, trimHtml(a.value), offset);
      else if (kind === 'urls') {
        for (const part of a.value.split(/[ \t\n\f\r]+/)) if (part !== '') add(el.tagName, a.name, part, offset);
      } else for (const c of srcsetUrls(a.value)) add(el.tagName, a.name, c.url, offset);
    }
    return true;
  });
  return { base, links };
}
