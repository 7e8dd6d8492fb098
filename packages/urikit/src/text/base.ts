/**
 * Establishing the base URI of a document (2003 draft §5.1, 1997 draft
 * §5.1, RFC 3986 §5.1): the four layers, innermost first, and the base
 * carried by message headers (Content-Base, Content-Location).
 */
import { UriError } from '../errors.js';
import { isValid3986, componentsOf } from '../rfc3986-scanner.js';
import { resolve } from '../resolve.js';
import { TEXT_MESSAGES, registerMessages } from '../messages.js';

// The messages of the text codes this module throws (messages.ts).
registerMessages(TEXT_MESSAGES);

/**
 * The layers of 2003 draft §5.1, innermost first: `embedded` (§5.1.1, e.g.
 * HTML `<base href>` or a Content-Base header), `encapsulating` (§5.1.2,
 * the base of the enclosing message or document), `retrieval` (§5.1.3, the
 * URI used to retrieve the document), `redirects` (§5.1.3, the URIs of a
 * redirected retrieval in order; the last one wins), `fallback` (§5.1.4,
 * the application's default).
 *
 * @example
 * ```ts
 * const layers: BaseLayers = { embedded: '../x/', retrieval: 'http://a/b/c' };
 * establishBase(layers) // "http://a/x/" (the relative embedded base against the retrieval URI)
 * ```
 */
export interface BaseLayers {
  embedded?: string | undefined;
  encapsulating?: string | undefined;
  retrieval?: string | undefined;
  redirects?: readonly string[] | undefined;
  fallback?: string | undefined;
}

/**
 * Establishes the base URI from the layers of 2003 draft §5.1
 * (https://www.rfc-editor.org/rfc/rfc3986#section-5.1): the innermost
 * layer that is defined wins; a relative value (a relative
 * Content-Location, 1997 draft §5.1.1, or a relative `Location` of a
 * redirect) is first resolved against the base of the layers outside it;
 * the fragment is removed (RFC 3986 §5.1). Returns `undefined` when no
 * layer defines a base (1997 draft §5.1.4: "the base URL is considered to
 * be the empty string"); throws `bad-base` when a layer is not a URI
 * reference or a relative layer has nothing outside it to resolve against.
 *
 * @example
 * ```ts
 * establishBase({ retrieval: 'http://a/old', redirects: ['http://b/new/', 'page'] }) // "http://b/new/page"
 * establishBase({ embedded: 'http://c/', retrieval: 'http://a/' }) // "http://c/"
 * establishBase({}) // undefined
 * establishBase({ embedded: '\u00a0/x/', retrieval: 'http://a/b' }) // "http://a/\u00a0/x/" (only ASCII white space is trimmed)
 * ```
 */
export function establishBase(layers: BaseLayers): string | undefined {
  // Outermost first, so that each layer can be resolved against the ones outside it.
  const order: string[] = [];
  if (layers.fallback !== undefined) order.push(layers.fallback);
  if (layers.retrieval !== undefined) order.push(layers.retrieval);
  // §5.1.3: "if the retrieval was the result of a redirected request, the last
  // URI used ... is the base URI".
  for (const r of layers.redirects ?? []) order.push(r);
  if (layers.encapsulating !== undefined) order.push(layers.encapsulating);
  if (layers.embedded !== undefined) order.push(layers.embedded);
  let base: string | undefined;
  for (const value of order) base = layer(value, base);
  return base;
}

/** Spaces, tabs, line breaks and form feeds: the white space around a base that is not part of it (2003 draft App. E; HTML "ASCII whitespace"). */
const isAsciiSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;

/** One layer over the base established outside it. */
function layer(value: string, outer: string | undefined): string {
  // Only ASCII white space: a leading NO-BREAK SPACE is part of the value (String#trim would drop it).
  let a = 0;
  let b = value.length;
  while (a < b && isAsciiSpace(value.charCodeAt(a))) a++;
  while (b > a && isAsciiSpace(value.charCodeAt(b - 1))) b--;
  const v = value.slice(a, b);
  if (!isValid3986(v, 'iri-reference')) throw new UriError('bad-base', 0, value);
  let absolute: string;
  if (componentsOf(v, 'iri-reference').scheme !== undefined) absolute = v;
  else if (outer !== undefined) absolute = resolve(outer, v);
  else throw new UriError('bad-base', 0, value);
  const hash = absolute.indexOf('#');
  return hash < 0 ? absolute : absolute.slice(0, hash);
}

/**
 * Message header fields as a plain object, a `Map`, a fetch `Headers` or
 * `[name, value]` pairs (1997 draft §5.1.1).
 *
 * @example
 * ```ts
 * const fields: HeaderFields = [['Content-Location', 'd/e']];
 * baseFromHeaders(fields, 'http://a/b/c') // "http://a/b/d/e"
 * ```
 */
export type HeaderFields =
  | Readonly<Record<string, string | readonly string[] | undefined>>
  | Iterable<readonly [string, string]>;

/**
 * The base URI a message's headers define (1997 draft §5.1.1,
 * https://www.rfc-editor.org/rfc/rfc2557#section-4 for MHTML): field names
 * are case-insensitive, "any whitespace inside the field value (including
 * that used for line folding) is ignored", "Content-Base takes precedence
 * over any Content-Location", and a relative Content-Location "must be
 * resolved to its absolute form" first, against `outer` (the base of the
 * retrieval context). Returns `undefined` when the headers define none.
 *
 * @example
 * ```ts
 * baseFromHeaders({ 'Content-Base': 'http://www.ics.uci.edu/Test/a/b/c' }) // "http://www.ics.uci.edu/Test/a/b/c"
 * baseFromHeaders({ 'content-location': 'd/e' }, 'http://a/b/c') // "http://a/b/d/e"
 * ```
 */
export function baseFromHeaders(headers: HeaderFields, outer?: string): string | undefined {
  let contentBase: string | undefined;
  let contentLocation: string | undefined;
  const entries: Iterable<readonly [string, unknown]> =
    Symbol.iterator in headers ? (headers as Iterable<readonly [string, string]>) : Object.entries(headers);
  for (const [name, raw] of entries) {
    const value = Array.isArray(raw) ? (raw[0] as string | undefined) : (raw as string | undefined);
    if (value === undefined) continue;
    const n = name.toLowerCase();
    if (n === 'content-base' && contentBase === undefined) contentBase = unfold(value);
    else if (n === 'content-location' && contentLocation === undefined) contentLocation = unfold(value);
  }
  if (contentBase !== undefined) return establishBase({ embedded: contentBase, retrieval: outer });
  if (contentLocation !== undefined) return establishBase({ embedded: contentLocation, retrieval: outer });
  return undefined;
}

/** Removes all white space of a header value, folding included (1997 draft §5.1.1). */
function unfold(value: string): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0x0a) out += value[i];
  }
  return out;
}
