/**
 * Every link of an HTML document, resolved against the document's
 * established base (2003 draft §5.1, §5.2, Appendix D).
 */
import { parse as parseHtml } from 'parse5';
import { resolve, isUriError, establishBase, schemeOf } from 'urikit';
import type { UriErrorCode } from 'urikit';
import { URL_ATTRIBUTES, SVG_URL_ATTRIBUTES } from './url-attributes.js';
import { srcsetUrls } from './srcset.js';
import { firstBaseHref, baseOf } from './base.js';
import { documentEncoding, headerEncoding, metaEncoding } from './document-encoding.js';
import { decodeHtml, decodeIn } from './encoding-sniffing.js';
import { encodeQueryIn } from './query-encoding.js';
import type { HtmlContext } from './base.js';
import { walk, attribute, HTML_NS, SVG_NS, XLINK_NS } from './tree.js';
import { asciiLowercase, stripAsciiWhitespace } from './whitespace.js';
import { repairReference } from './repair.js';
import { refreshTarget, RELOAD } from './refresh.js';
import type { Element } from './tree.js';

/**
 * One reference found in an HTML attribute: where it was (`element`,
 * `attribute`, `offset` of the attribute in the HTML), the
 * reference as written (`value`, HTML white space trimmed), and the target
 * URI `uri` resolved against `base`, or the `error` code when the value is
 * not a URI reference. With `{ repair: true }`, a value that is no URI
 * reference keeps its `error` and gets `repaired` (the value repaired by
 * RFC 3987 §3.1's rules) and the `uri` that one resolves to. `svg` marks
 * an SVG element, `inTemplate` a link in a `<template>`'s contents (inert
 * until the template is used), `inSrcdoc` one in the document of an
 * `<iframe srcdoc>` (resolved against that document's base, which is the
 * parent's unless it has its own `<base>`).
 *
 * @example
 * ```ts
 * const link: HtmlLink = { element: 'a', attribute: 'href', value: '../x', uri: 'http://a/x', offset: 3 };
 * extractLinksFromHtml('<a href="../x">', 'http://a/b/c').links[0] // link
 * ```
 */
export interface HtmlLink {
  element: string;
  attribute: string;
  value: string;
  uri?: string;
  error?: HtmlLinkError;
  repaired?: string;
  svg?: true;
  inTemplate?: true;
  inSrcdoc?: true;
  offset: number;
}

/**
 * Why a link has no `uri`: the value is no URI reference (a
 * {@link UriErrorCode} of urikit), or `unsupported-encoding`: its query
 * holds non-ASCII characters and the document's encoding is one of the
 * multi-byte encodings (gbk, gb18030, big5, euc-jp, iso-2022-jp,
 * shift_jis, euc-kr) that urikit cannot encode it in.
 *
 * @example
 * ```ts
 * const e: HtmlLinkError = 'unsupported-encoding';
 * extractLinksFromHtml('<a href="?q=é">', 'http://a/', { encoding: 'shift_jis' }).links[0]?.error // e
 * ```
 */
export type HtmlLinkError = UriErrorCode | 'unsupported-encoding';

/**
 * Options of {@link extractLinksFromHtml}.
 *
 * @example
 * ```ts
 * const opts: ExtractLinksOptions = { repair: true };
 * extractLinksFromHtml('<a href="?q=a<b>">', 'http://a/', undefined, opts).links[0]?.uri // "http://a/?q=a%3Cb%3E"
 * ```
 */
export interface ExtractLinksOptions {
  /**
   * Repair a value that is no URI reference (RFC 3987 §3.1 in spirit, as a
   * browser reads it): tab and newline dropped, C0 controls stripped at
   * the ends, space, `<>"{}|^`, the backtick, a stray `%` and a second `#` percent-encoded.
   * The raw `value` and its `error` stay beside `repaired` and its `uri`.
   */
  repair?: boolean;
  /**
   * For a document given as bytes: before the default encoding
   * (windows-1252), take well-formed UTF-8 that is not all ASCII as UTF-8,
   * as the HTML Standard suggests for files of the local file system
   * (see {@link sniffHtmlEncoding}).
   */
  detectUtf8?: boolean;
}

/**
 * The result of {@link extractLinksFromHtml}: the established base and the links.
 *
 * @example
 * ```ts
 * const r: HtmlLinks = { base: 'http://a/', links: [] };
 * extractLinksFromHtml('<p>no links</p>', 'http://a/') // r
 * ```
 */
export interface HtmlLinks {
  base: string;
  links: HtmlLink[];
}

/**
 * What `<meta http-equiv="refresh" content="...">` does (HTML Living
 * Standard, the Refresh state of `http-equiv`: the keyword matched ASCII
 * case-insensitively, then the shared declarative refresh steps on the
 * content): its URL string, {@link RELOAD}, or undefined for no refresh.
 */
function metaRefresh(el: Element, content: string): string | typeof RELOAD | undefined {
  if (asciiLowercase(attribute(el, 'http-equiv') ?? '') !== 'refresh' || content === '') return undefined;
  const target = refreshTarget(content);
  return typeof target === 'string' ? stripAsciiWhitespace(target) : target;
}

/**
 * HTML form submission: "If action is the empty string, let action be the
 * URL of the form document" — the `action` or `formaction` value as
 * written, so `action=" "` is not empty and resolves against the base.
 */
const isEmptyFormAction = (element: string, attr: string, value: string): boolean =>
  value === '' && ((element === 'form' && attr === 'action') || attr === 'formaction');

/**
 * The document's URL, fragment and all (HTML "the document's URL"): the
 * retrieval URI after redirects (2003 draft §5.1.3), whose fragment is the
 * last one written: a redirect without one keeps the one before (Fetch,
 * "location URL": a location whose fragment is null takes the request's).
 */
function documentUrlOf(documentUri: string, redirects: readonly string[] | undefined): string {
  const url = establishBase({ retrieval: documentUri, redirects }) ?? documentUri;
  let fragment = '';
  for (const u of [documentUri, ...(redirects ?? [])]) {
    const hash = u.indexOf('#');
    if (hash >= 0) fragment = stripAsciiWhitespace(u.slice(hash));
  }
  return url + fragment;
}

/** A document parsed with the source locations the links' offsets come from. */
const parseDocument = (text: string) => parseHtml(text, { sourceCodeLocationInfo: true });
type ParsedDocument = ReturnType<typeof parseDocument>;

/** How deep `<iframe srcdoc>` documents are read inside each other. */
const MAX_SRCDOC_DEPTH = 8;

/**
 * Finds every URI reference in the URL-valued attributes of an HTML
 * document (`href`, `src`, `srcset`, `action`, `formaction`, `cite`,
 * `poster`, `data`, `ping`, `<meta http-equiv=refresh>`, SVG `href` and
 * `xlink:href` ...) with parse5, and resolves each against the base the
 * document establishes: its first `<base href>` over the `context`
 * (message headers, encapsulating entity, redirects) over `documentUri`
 * (2003 draft §5.1 and Appendix D, §5.2 resolution,
 * https://datatracker.ietf.org/doc/html/draft-fielding-uri-rfc2396bis-01#appendix-D).
 * As a browser does: an empty or missing form `action` is the
 * document's URL, fragment included (HTML form submission), reported as
 * `action` with the value `""`; a `<base>` in a
 * `<template>` or in SVG, or one whose URL is `javascript:` or `data:`,
 * is no base; the links of an
 * `<iframe srcdoc>` document are found too, against its own base; the
 * query of an http(s), ftp or file URL is encoded in the document's
 * encoding (HTML "encoding-parse a URL"; the encoding is
 * `context.encoding`, else the Content-Type charset of `context.headers`,
 * else the document's `<meta charset>`, else UTF-8). Given bytes
 * (a `Uint8Array`), it decodes them as a browser does: the encoding
 * sniffing algorithm ({@link sniffHtmlEncoding}: byte order mark,
 * `context.encoding` as the user's override, the Content-Type charset,
 * the prescan of the first 1024 bytes for `<meta charset>`, with
 * `opts.detectUtf8` well-formed UTF-8, else windows-1252), then a later
 * `<meta>` declaration changes the encoding while the sniffed one was
 * only tentative (HTML "change the encoding"); offsets are then in the
 * decoded text.
 *
 * @example
 * ```ts
 * const { base, links } = extractLinksFromHtml(
 *   '<base href="http://www.ics.uci.edu/Test/a/b/c"><a href="../x">x</a><img srcset="i.png 1x, j.png 2x">',
 *   'http://example.org/doc',
 * );
 * base // "http://www.ics.uci.edu/Test/a/b/c"
 * links.map((l) => l.uri) // ["http://www.ics.uci.edu/Test/a/x", "http://www.ics.uci.edu/Test/a/b/i.png", "http://www.ics.uci.edu/Test/a/b/j.png"]
 * extractLinksFromHtml('<svg><a xlink:href="/s">s</a></svg><form action=""></form>', 'http://a/b?q#top').links.map((l) => l.uri) // ["http://a/s", "http://a/b?q#top"]
 * extractLinksFromHtml('<form method="post"><input name="q"></form>', 'http://a/b?q#top').links // [{ element: "form", attribute: "action", value: "", uri: "http://a/b?q#top", offset: 0 }]
 * extractLinksFromHtml('<meta charset="windows-1252"><a href="?q=é&r=😀">', 'http://a/').links[0]?.uri // "http://a/?q=%E9&r=%26%23128512%3B"
 * const latin1 = new Uint8Array([...new TextEncoder().encode('<a href="caf'), 0xe9, ...new TextEncoder().encode('?q=caf'), 0xe9, 0x22, 0x3e]);
 * extractLinksFromHtml(latin1, 'http://a/').links[0]?.uri // "http://a/café?q=caf%E9"
 * ```
 */
export function extractLinksFromHtml(html: string | Uint8Array, documentUri: string, context?: HtmlContext, opts?: ExtractLinksOptions): HtmlLinks {
  let doc: ParsedDocument;
  let encoding: string;
  if (typeof html === 'string') {
    doc = parseDocument(html);
    encoding = documentEncoding(doc, context, html);
  } else {
    const read = parseBytes(html, context, opts?.detectUtf8 === true);
    doc = read.doc;
    // The replacement encoding is no label; its output encoding is UTF-8 (Encoding Standard, "get an output encoding").
    encoding = documentEncoding(doc, { encoding: read.encoding === 'replacement' ? 'utf-8' : read.encoding });
  }
  const base = baseOf(firstBaseHref(doc), documentUri, context, encoding);
  const documentUrl = documentUrlOf(documentUri, context?.redirects);
  const links: HtmlLink[] = [];
  collect(doc, base, documentUrl, encoding, opts?.repair === true, links, undefined, 0);
  return { base, links };
}

/**
 * An HTML document given as bytes, decoded and parsed: the encoding
 * sniffing algorithm (context.encoding is the user's override, the
 * Content-Type of context.headers the transport layer's charset), then,
 * while the confidence is tentative, HTML "change the encoding" when the
 * tree builder meets a `<meta>` declaring another one (the document is
 * read again in it; one in UTF-16 stays, step 1).
 */
function parseBytes(bytes: Uint8Array, context: HtmlContext | undefined, detectUtf8: boolean): { doc: ParsedDocument; encoding: string } {
  const transport = context?.headers !== undefined ? headerEncoding(context.headers) : undefined;
  const found = decodeHtml(bytes, { override: context?.encoding, transport, detectUtf8 });
  const doc = parseDocument(found.text);
  if (found.confidence === 'certain' || found.encoding === 'utf-16le' || found.encoding === 'utf-16be') return { doc, encoding: found.encoding };
  const declared = metaEncoding(doc);
  if (declared === undefined || declared === found.encoding) return { doc, encoding: found.encoding };
  return { doc: parseDocument(decodeIn(bytes, declared)), encoding: declared };
}

/** The links of one document (or srcdoc document) into `links`; `srcdocAt` is the offset of the enclosing srcdoc attribute. */
function collect(doc: Parameters<typeof walk>[0], base: string, documentUrl: string, encoding: string, repair: boolean, links: HtmlLink[], srcdocAt: number | undefined, depth: number): void {
  let refreshed = false;
  walk(doc, (el, inTemplate) => {
    if (el.tagName === 'base') return true; // the base itself is not a link to follow
    const svg = el.namespaceURI === SVG_NS;
    const table = svg ? SVG_URL_ATTRIBUTES.get(el.tagName) : el.namespaceURI === HTML_NS ? URL_ATTRIBUTES.get(el.tagName) : undefined;
    const loc = el.sourceCodeLocation;
    const add = (attr: string, value: string, offset: number, isDocumentUrl = false): void => {
      const link: HtmlLink = { element: el.tagName, attribute: attr, value, offset: srcdocAt ?? offset };
      if (isDocumentUrl) link.uri = documentUrl;
      else resolveInto(link, base, encoding, repair);
      if (svg) link.svg = true;
      if (inTemplate) link.inTemplate = true;
      if (srcdocAt !== undefined) link.inSrcdoc = true;
      links.push(link);
    };
    for (const a of el.attrs) {
      const offset = loc?.attrs?.[a.prefix ? `${a.prefix}:${a.name}` : a.name]?.startOffset ?? loc?.startOffset ?? -1;
      if (svg) {
        // SVG 2 §5.3.2: "href", or "xlink:href" when there is no "href".
        if (table === undefined || a.name !== 'href') continue;
        if (a.namespace === XLINK_NS ? attribute(el, 'href') !== undefined : a.namespace !== undefined) continue;
        add(a.namespace === XLINK_NS ? 'xlink:href' : 'href', stripAsciiWhitespace(a.value), offset);
        continue;
      }
      if (a.namespace !== undefined) continue;
      if (el.tagName === 'meta' && a.name === 'content') {
        // Only a document's first refresh runs (shared declarative refresh
        // steps, step 1: "will declaratively refresh"); one in a template's
        // contents runs when the template is used, like its other links.
        const target = refreshed ? undefined : metaRefresh(el, a.value);
        if (target !== undefined && !inTemplate) refreshed = true;
        if (typeof target === 'string') add('content', target, offset);
        continue;
      }
      const kind = table?.get(a.name);
      if (kind === undefined) continue;
      if (kind === 'url') add(a.name, stripAsciiWhitespace(a.value), offset, isEmptyFormAction(el.tagName, a.name, a.value));
      else if (kind === 'urls') {
        for (const part of a.value.split(/[ \t\n\f\r]+/)) if (part !== '') add(a.name, part, offset);
      } else for (const c of srcsetUrls(a.value)) add(a.name, c.url, offset);
    }
    // HTML form submission: "Let action be the submitter element's action"
    // (a form owner's action attribute, "or else the empty string"); "If
    // action is the empty string, let action be the URL of the form
    // document": a form without the attribute submits there too. Its link
    // is the one of action="", at the offset of the tag.
    if (el.tagName === 'form' && el.namespaceURI === HTML_NS && attribute(el, 'action') === undefined) {
      add('action', '', loc?.startOffset ?? -1, true);
    }
    // The document of an <iframe srcdoc> (HTML "iframe srcdoc document"): its
    // fallback base is the parent's base; a <base> of its own is read against it.
    const srcdoc = el.tagName === 'iframe' && !svg ? attribute(el, 'srcdoc') : undefined;
    if (srcdoc !== undefined && depth < MAX_SRCDOC_DEPTH) {
      const inner = parseHtml(srcdoc);
      const innerBase = baseOf(firstBaseHref(inner), base);
      const at = loc?.attrs?.['srcdoc']?.startOffset ?? loc?.startOffset ?? -1;
      // An iframe srcdoc document is UTF-8 (HTML "navigate to a srcdoc resource").
      collect(inner, innerBase, 'about:srcdoc', 'utf-8', repair, links, srcdocAt ?? at, depth + 1);
    }
    return true;
  });
}

/**
 * Resolves `link.value` against `base` into `link.uri`, its query encoded
 * in the document's `encoding` (HTML "encoding-parse a URL"), or sets
 * `link.error` (and, when asked, repairs it).
 */
function resolveInto(link: HtmlLink, base: string, encoding: string, repair: boolean): void {
  const value = encodeQueryIn(link.value, encoding, schemeOf(base));
  if (value === undefined) {
    link.error = 'unsupported-encoding';
    return;
  }
  try {
    link.uri = resolve(base, value);
    return;
  } catch (e) {
    if (!isUriError(e)) throw e;
    link.error = e.code;
  }
  if (!repair) return;
  const repaired = repairReference(value);
  if (repaired === undefined) return;
  try {
    link.uri = resolve(base, repaired);
    link.repaired = repaired;
  } catch (e) {
    if (!isUriError(e)) throw e;
  }
}
