/**
 * Reads a resolver's answer into locations and metadata, whatever format
 * it came in (1995 draft §3.1.2: "the client should be able to handle (or
 * at least ignore) resolution results that are not of a requested type"):
 * text/urc-0 (§3.4.2), application/json, text/uri-list (RFC 2169 §3,
 * RFC 2483 §5), text/plain (§3.4.4) and text/html (§3.4.3).
 */
import { schemeOf } from 'urikit';
import { parseUrc0 } from '../formats/urc0.js';
import type { UrnLocation } from './types.js';

/**
 * The `Accept` header {@link resolveUrn} sends by default: urc-0 first,
 * since "resolution servers should prefer this format" (1995 draft §3.4.2).
 *
 * @example
 * ```ts
 * DEFAULT_ACCEPT.startsWith('text/urc-0') // true
 * ```
 */
export const DEFAULT_ACCEPT = 'text/urc-0, application/json;q=0.9, text/uri-list;q=0.8, text/plain;q=0.5, text/html;q=0.4';

/**
 * What an answer says: its locations and any metadata.
 *
 * @example
 * ```ts
 * const a: ReadAnswer = readAnswer('application/json', Buffer.from('{"locations": ["http://a.test/"], "metadata": {"title": "T"}}'));
 * a.locations // [{ url: 'http://a.test/' }]
 * a.metadata // { title: 'T' }
 * readAnswer('text/uri-list', Buffer.from('# a comment\r\nhttp://a.test/\r\nftp://b.test/x\r\n')).locations.map((l) => l.url) // ['http://a.test/', 'ftp://b.test/x']
 * ```
 */
export interface ReadAnswer {
  locations: UrnLocation[];
  metadata?: unknown;
}

/**
 * The media type of a `Content-Type` header, lower case, parameters dropped.
 *
 * @example
 * ```ts
 * mediaType('Text/URC-0; charset=US-ASCII') // 'text/urc-0'
 * ```
 */
export function mediaType(contentType: string | undefined): string {
  if (contentType === undefined) return '';
  const semi = contentType.indexOf(';');
  return (semi < 0 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
}

/**
 * Reads an answer body by its media type. Throws (a `bad-urc0` ResolverError
 * with the line number, or a SyntaxError for JSON) when the body is
 * malformed; an unknown type gives no locations and the body as text.
 *
 * @example
 * ```ts
 * readAnswer('text/urc-0', Buffer.from('=====\r\nftp://elm.wnln.edu/pub/mirrors/phone-list.txt\r\n'))
 * // { locations: [{ charset: 'US-ASCII', language: 'x-unspecified', url: 'ftp://elm.wnln.edu/pub/mirrors/phone-list.txt' }] }
 * ```
 */
export function readAnswer(type: string, body: Uint8Array): ReadAnswer {
  switch (type) {
    case 'text/urc-0':
      return { locations: parseUrc0(body).map((p) => ({ ...p })) };
    case 'application/json':
    case 'application/problem+json':
      return readJson(JSON.parse(Buffer.from(body).toString('utf8')) as unknown);
    case 'text/uri-list':
      return { locations: readUriList(Buffer.from(body).toString('utf8')) };
    case 'text/plain':
      return readPlain(Buffer.from(body).toString('utf8'));
    case 'text/html':
      return { locations: readHtmlLinks(Buffer.from(body).toString('utf8')) };
    default:
      return { locations: [], metadata: Buffer.from(body).toString('utf8') };
  }
}

/** One location from a JSON value: a string, or an object with `url`/`href`/`uri`. */
function jsonLocation(v: unknown): UrnLocation | undefined {
  if (typeof v === 'string') return { url: v };
  if (v === null || typeof v !== 'object') return undefined;
  const o = v as Record<string, unknown>;
  const url = o['url'] ?? o['href'] ?? o['uri'] ?? o['location'];
  if (typeof url !== 'string') return undefined;
  const loc: UrnLocation = { url };
  for (const key of ['charset', 'language', 'meta', 'mediaType'] as const) {
    const x = o[key];
    if (typeof x === 'string') loc[key] = x;
  }
  if (loc.meta === undefined && typeof o['metainformation'] === 'string') loc.meta = o['metainformation'];
  if (loc.mediaType === undefined && typeof o['type'] === 'string') loc.mediaType = o['type'];
  return loc;
}

/**
 * The JSON answer of a resolver: `{ locations: [...], metadata? }`, a bare
 * array of locations, or any object whose other fields are metadata.
 */
function readJson(value: unknown): ReadAnswer {
  const list = Array.isArray(value) ? value : (value as Record<string, unknown> | null)?.['locations'];
  const locations: UrnLocation[] = [];
  if (Array.isArray(list)) {
    for (const item of list) {
      const loc = jsonLocation(item);
      if (loc) locations.push(loc);
    }
  }
  if (Array.isArray(value)) return { locations };
  const o = (value ?? {}) as Record<string, unknown>;
  const metadata = o['metadata'] ?? o;
  return { locations, metadata };
}

/** text/uri-list: one URI a line, "#" lines are comments (RFC 2483 §5). */
function readUriList(text: string): UrnLocation[] {
  const out: UrnLocation[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line !== '' && !line.startsWith('#')) out.push({ url: line });
  }
  return out;
}

/**
 * text/plain has "no structure implied" (§3.4.4): every whitespace-separated
 * word that begins with a scheme and ":" is taken as a location, and the
 * text is the metadata. `<URL:...>` wrappers are removed.
 */
function readPlain(text: string): ReadAnswer {
  const locations: UrnLocation[] = [];
  for (const raw of text.split(/[\s]+/)) {
    // 2003 draft App. E: sentence punctuation after a URI is not part of it.
    let word = raw;
    while (word.length > 0 && '.,;:!?)"\''.includes(word[word.length - 1]!)) word = word.slice(0, -1);
    if (word.startsWith('<URL:') && word.endsWith('>')) word = word.slice(5, -1);
    else if (word.startsWith('<') && word.endsWith('>')) word = word.slice(1, -1);
    const scheme = schemeOf(word);
    if (scheme !== undefined && scheme !== 'urn' && word.length > scheme.length + 1) locations.push({ url: word });
  }
  return { locations, metadata: text };
}

/**
 * The `href` of every `<a>` in an HTML answer, read in one pass without a
 * parser (§3.4.3: the URLs are "displayed as active links"). Character
 * references `&amp;` are decoded; other answers' markup is ignored.
 */
function readHtmlLinks(html: string): UrnLocation[] {
  const out: UrnLocation[] = [];
  const lower = html.toLowerCase();
  let i = 0;
  while ((i = lower.indexOf('<a', i)) >= 0) {
    const end = lower.indexOf('>', i);
    if (end < 0) break;
    const tag = html.slice(i, end);
    const at = tag.toLowerCase().indexOf('href=');
    if (at >= 0) {
      let v = tag.slice(at + 5).trimStart();
      const q = v[0];
      if (q === '"' || q === "'") {
        const close = v.indexOf(q, 1);
        v = close < 0 ? v.slice(1) : v.slice(1, close);
      } else {
        const sp = v.search(/\s/);
        v = sp < 0 ? v : v.slice(0, sp);
      }
      v = v.replaceAll('&amp;', '&').replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>');
      if (schemeOf(v) !== undefined) out.push({ url: v });
    }
    i = end + 1;
  }
  return out;
}
