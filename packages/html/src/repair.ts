/**
 * Repairing a URL-valued attribute that is no URI reference, in the
 * spirit of RFC 3987 §3.1 (an IRI becomes a URI by percent-encoding what
 * a URI cannot hold) and of what browsers do with the same text (WHATWG
 * URL Standard, basic URL parser: tabs and newlines removed, C0 controls
 * and spaces stripped at the ends).
 */
import { iriToUri, isValid } from 'urikit';
import { urlParserInput } from './whitespace.js';

/*
 * 2003 draft §2.4.3 "Excluded US-ASCII Characters": space, the delims
 * "<" ">" '"' and the unwise "{" "}" "|" "\" "^" "`" never appear in a URI
 * reference; all but "\" are percent-encoded here, with every control and
 * a "%" that begins no escape. A "\" is read as "/" by a browser in the
 * authority and path of some schemes, so no one repair fits it there; in
 * the query and the fragment (after the first "?" or "#") every reading
 * keeps it as data, and it is percent-encoded too.
 */
const ENCODE: Uint8Array = (() => {
  const t = new Uint8Array(128);
  for (let c = 0; c < 0x20; c++) t[c] = 1;
  t[0x7f] = 1;
  for (const ch of ' <>"{}|^`') t[ch.charCodeAt(0)] = 1;
  return t;
})();

const isHex = (c: number): boolean => (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66);
const pct = (c: number): string => `%${c.toString(16).toUpperCase().padStart(2, '0')}`;

/**
 * The repaired form of an attribute value that is no URI reference, or
 * undefined when no repair makes it one: tab, LF and CR removed anywhere;
 * C0 controls and spaces stripped at the ends; space, `<>"{}|^` and the
 * backtick, controls, a stray `%`, a second `#`, a `[` or `]` outside
 * the host and a `\` in the query or fragment percent-encoded; then non-ASCII mapped by RFC 3987 §3.1 (UTF-8
 * percent-encoding, IDNA in the host).
 *
 * @example
 * ```ts
 * repairReference('?search=option<T>') // "?search=option%3CT%3E"
 * repairReference(' /a b\n/c%zz ') // "/a%20b/c%25zz"
 * repairReference('/ok') // "/ok"
 * repairReference('http://a\\b') // undefined (a backslash before the query has no one repair)
 * repairReference('/p?a\\b#c\\d') // "/p?a%5Cb#c%5Cd"
 * ```
 */
export function repairReference(value: string): string | undefined {
  const v = urlParserInput(value);
  // Where the authority is (brackets are an IP literal only there, RFC 3986 §3.2.2).
  const authority = /^(?:[A-Za-z][A-Za-z0-9+.-]*:)?\/\//.exec(v);
  const authorityEnd = authority === null ? 0 : (() => {
    for (let i = authority[0].length; i < v.length; i++) if ('/?#'.includes(v[i]!)) return i;
    return v.length;
  })();
  let out = '';
  let inFragment = false;
  let inQueryOrFragment = false;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c === 0x25 && !(isHex(v.charCodeAt(i + 1)) && isHex(v.charCodeAt(i + 2)))) out += '%25';
    else if (c < 0x80 && ENCODE[c] === 1) out += pct(c);
    else if (c === 0x23 && inFragment) out += '%23';
    else if ((c === 0x5b || c === 0x5d) && i >= authorityEnd) out += pct(c);
    else if (c === 0x5c && inQueryOrFragment) out += '%5C';
    else out += v[i];
    if (c === 0x23) inFragment = true;
    if (c === 0x23 || c === 0x3f) inQueryOrFragment = true;
  }
  if (isValid(out, 'uri-reference')) return out;
  if (!isValid(out, 'iri-reference')) return undefined;
  try {
    return iriToUri(out);
  } catch {
    return undefined;
  }
}
