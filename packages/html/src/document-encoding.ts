/**
 * The character encoding of an HTML document read as text: what the HTML
 * Standard's encoding sniffing algorithm would have found for its bytes,
 * from what the text still shows (a byte order mark, a `<meta>`
 * declaration) and what the caller knows (the encoding it decoded with,
 * the message's Content-Type).
 */
import type { HeaderFields } from 'urikit';
import { encodingForLabel } from './encoding-labels.js';
import { walk, attribute, HTML_NS } from './tree.js';
import { asciiLowercase, isAsciiWhitespace } from './whitespace.js';

/**
 * HTML "algorithm for extracting a character encoding from a meta
 * element" (also read on a Content-Type header value): the label after
 * the first `charset` followed by `=`, quoted or up to white space or `;`.
 *
 * @example
 * ```ts
 * charsetParameter('text/html; charset=ISO-8859-2') // "ISO-8859-2"
 * charsetParameter("text/html;charset = 'koi8-r' ") // "koi8-r"
 * charsetParameter('text/html; charset="unclosed') // undefined
 * ```
 */
export function charsetParameter(s: string): string | undefined {
  const lower = asciiLowercase(s);
  let p = 0;
  for (;;) {
    const at = lower.indexOf('charset', p);
    if (at < 0) return undefined;
    p = at + 7;
    while (p < s.length && isAsciiWhitespace(s.charCodeAt(p))) p++;
    if (s[p] !== '=') continue;
    p++;
    while (p < s.length && isAsciiWhitespace(s.charCodeAt(p))) p++;
    if (p >= s.length) return undefined;
    const q = s[p];
    if (q === '"' || q === "'") {
      const close = s.indexOf(q, p + 1);
      return close < 0 ? undefined : s.slice(p + 1, close);
    }
    let end = p;
    while (end < s.length && !isAsciiWhitespace(s.charCodeAt(end)) && s[end] !== ';') end++;
    return s.slice(p, end);
  }
}

/**
 * The encoding a document's first `<meta charset>` or `<meta
 * http-equiv=content-type>` declares (HTML, the "in head" insertion mode's
 * meta rules and the prescan; UTF-16 read as UTF-8 and x-user-defined as
 * windows-1252, as "change the encoding" does), undefined for none.
 *
 * @example
 * ```ts
 * import { parse } from 'parse5';
 * metaEncoding(parse('<meta http-equiv="Content-Type" content="text/html; charset=latin2">')) // "iso-8859-2"
 * metaEncoding(parse('<meta charset="utf-16le">')) // "utf-8"
 * metaEncoding(parse('<p>')) // undefined
 * ```
 */
export function metaEncoding(root: Parameters<typeof walk>[0]): string | undefined {
  let found: string | undefined;
  walk(root, (el, inTemplate) => {
    if (el.tagName !== 'meta' || el.namespaceURI !== HTML_NS || inTemplate) return true;
    const charset = attribute(el, 'charset');
    let label: string | undefined;
    if (charset !== undefined) label = charset;
    else if (asciiLowercase(attribute(el, 'http-equiv') ?? '') === 'content-type') {
      const content = attribute(el, 'content');
      if (content !== undefined) label = charsetParameter(content);
    }
    found = label === undefined ? undefined : encodingForLabel(label);
    return found === undefined;
  });
  // HTML prescan: a declared UTF-16 is read as UTF-8 (the bytes were read as ASCII), x-user-defined as windows-1252.
  if (found === 'utf-16be' || found === 'utf-16le') return 'utf-8';
  if (found === 'x-user-defined') return 'windows-1252';
  return found;
}

/**
 * The Content-Type charset of a message's header fields, if it names an encoding.
 *
 * @example
 * ```ts
 * headerEncoding({ 'content-type': 'text/html; charset=Shift_JIS' }) // "shift_jis"
 * headerEncoding({ 'Content-Type': 'text/html' }) // undefined
 * ```
 */
export function headerEncoding(headers: HeaderFields): string | undefined {
  const entries: Iterable<readonly [string, unknown]> = Symbol.iterator in headers ? (headers as Iterable<readonly [string, string]>) : Object.entries(headers);
  for (const [name, raw] of entries) {
    const value = Array.isArray(raw) ? (raw[0] as string | undefined) : (raw as string | undefined);
    if (value === undefined || asciiLowercase(name) !== 'content-type') continue;
    const label = charsetParameter(value);
    return label === undefined ? undefined : encodingForLabel(label);
  }
  return undefined;
}

/**
 * The encoding a document's URLs are parsed with (HTML "encoding-parse a
 * URL": the document's character encoding; Encoding Standard, "get an
 * output encoding": UTF-16 and replacement are UTF-8), decided as the
 * encoding sniffing algorithm orders it: the encoding the caller decoded
 * the text with (`encoding`, any label of the Encoding Standard; an unknown
 * one throws a RangeError), a byte order mark left at the start of the text
 * (UTF-8 or UTF-16), the charset of the message's Content-Type, the
 * document's first `<meta charset>` or `<meta http-equiv=content-type>`,
 * and else UTF-8 (the text is no longer bytes to sniff; a browser's
 * default would depend on its locale).
 *
 * @example
 * ```ts
 * import { parse } from 'parse5';
 * documentEncoding(parse('<meta charset=latin1>'), {}) // "windows-1252"
 * documentEncoding(parse('<meta charset=latin1>'), { headers: { 'Content-Type': 'text/html; charset=koi8-r' } }) // "koi8-r"
 * documentEncoding(parse('<p>'), { encoding: 'utf-16le' }) // "utf-8"
 * documentEncoding(parse('<p>'), { encoding: 'klingon' }) // throws RangeError
 * ```
 */
export function documentEncoding(root: Parameters<typeof walk>[0], context: { encoding?: string; headers?: HeaderFields } | undefined, text?: string): string {
  let encoding: string | undefined;
  if (context?.encoding !== undefined) {
    encoding = encodingForLabel(context.encoding);
    if (encoding === undefined) throw new RangeError(`"${context.encoding}" is no encoding label of the Encoding Standard`);
  } else if (text?.charCodeAt(0) === 0xfeff) encoding = 'utf-8';
  else encoding = (context?.headers !== undefined ? headerEncoding(context.headers) : undefined) ?? metaEncoding(root);
  if (encoding === undefined || encoding === 'utf-16be' || encoding === 'utf-16le' || encoding === 'replacement') return 'utf-8';
  return encoding;
}
