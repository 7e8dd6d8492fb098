/**
 * The query of a URL in a document of a legacy encoding: HTML
 * "encoding-parse a URL" hands the URL parser the document's encoding, and
 * the URL Standard's query state encodes the query's code points in it
 * ("percent-encode after encoding"): each byte percent-encoded, and a code
 * point the encoding cannot hold written `%26%23` decimal `%3B` (the HTML
 * numeric character reference `&#N;`, percent-encoded). Only the query:
 * the path and fragment are UTF-8 whatever the document.
 *
 * Encoders here: UTF-8 (the IRI is left as it is, RFC 3987 §3.1 maps it),
 * every legacy single-byte encoding of the Encoding Standard and
 * x-user-defined. The multi-byte encodings (gbk, gb18030, big5, euc-jp,
 * iso-2022-jp, shift_jis, euc-kr) have none: a non-ASCII query in such a
 * document cannot be encoded here.
 */
import { schemeOf } from 'urikit';
import { SINGLE_BYTE_INDEXES } from './single-byte-indexes.js';

/** A code point to its byte, or -1 where the encoding has none. */
type ByteEncoder = (cp: number) => number;

const encoders = new Map<string, ByteEncoder>();

/**
 * The encoder of a single-byte encoding (Encoding Standard, "single-byte
 * encoder" and "x-user-defined encoder"), or undefined for an encoding
 * that is not single-byte.
 */
function byteEncoder(encoding: string): ByteEncoder | undefined {
  let enc = encoders.get(encoding);
  if (enc !== undefined) return enc;
  if (encoding === 'x-user-defined') {
    // Encoding Standard, x-user-defined encoder: U+F780..U+F7FF are the bytes 0x80..0xFF.
    enc = (cp) => (cp < 0x80 ? cp : cp >= 0xf780 && cp <= 0xf7ff ? cp - 0xf700 : -1);
  } else {
    const index = SINGLE_BYTE_INDEXES.get(encoding);
    if (index === undefined) return undefined;
    const bytes = new Map<number, number>();
    for (let i = 0; i < 128; i++) if (index.charCodeAt(i) !== 0xfffd) bytes.set(index.charCodeAt(i), 0x80 + i);
    enc = (cp) => (cp < 0x80 ? cp : bytes.get(cp) ?? -1);
  }
  encoders.set(encoding, enc);
  return enc;
}

/**
 * True when the query of a URL in `encoding` can be encoded here: UTF-8,
 * the legacy single-byte encodings and x-user-defined.
 *
 * @example
 * ```ts
 * canEncodeQuery('windows-1252') // true
 * canEncodeQuery('shift_jis') // false
 * ```
 */
export function canEncodeQuery(encoding: string): boolean {
  return encoding === 'utf-8' || byteEncoder(encoding) !== undefined;
}

/** The schemes whose query the URL parser encodes in the document's encoding (URL Standard, query state: special, not ws or wss). */
const LEGACY_QUERY_SCHEMES: ReadonlySet<string> = new Set(['http', 'https', 'ftp', 'file']);

const HEX = '0123456789ABCDEF';

/**
 * `reference` with the non-ASCII code points of its query encoded in
 * `encoding` as the URL parser encodes them (URL Standard, query state and
 * "percent-encode after encoding"; the encoding is UTF-8 unless the URL's
 * scheme, the reference's own or else `baseScheme`, is http, https, ftp or
 * file); unchanged for UTF-8 and where there is no query; undefined when
 * the query has a non-ASCII code point and `encoding` has no encoder here.
 *
 * @example
 * ```ts
 * encodeQueryIn('?q=é#é', 'windows-1252', 'http') // "?q=%E9#é"
 * encodeQueryIn('/é?q=€', 'iso-8859-15', 'https') // "/é?q=%A4"
 * encodeQueryIn('?q=€😀', 'iso-8859-2', 'http') // "?q=%26%238364%3B%26%23128512%3B"
 * encodeQueryIn('mailto:a@b?subject=é', 'windows-1252', 'http') // "mailto:a@b?subject=é"
 * encodeQueryIn('?q=é', 'shift_jis', 'http') // undefined
 * ```
 */
export function encodeQueryIn(reference: string, encoding: string, baseScheme: string | undefined): string | undefined {
  if (encoding === 'utf-8') return reference;
  const q = reference.indexOf('?');
  if (q < 0) return reference;
  const hash = reference.indexOf('#');
  if (hash >= 0 && hash < q) return reference;
  const end = hash < 0 ? reference.length : hash;
  let ascii = true;
  for (let i = q + 1; i < end && ascii; i++) if (reference.charCodeAt(i) >= 0x80) ascii = false;
  if (ascii) return reference;
  const scheme = schemeOf(reference) ?? baseScheme?.toLowerCase();
  if (scheme === undefined || !LEGACY_QUERY_SCHEMES.has(scheme)) return reference;
  const enc = byteEncoder(encoding);
  if (enc === undefined) return undefined;
  let out = reference.slice(0, q + 1);
  for (let i = q + 1; i < end; i++) {
    let cp = reference.codePointAt(i)!;
    if (cp > 0xffff) i++;
    else if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd; // a lone surrogate is U+FFFD to the URL parser (a scalar value string)
    if (cp < 0x80) {
      out += reference[i];
      continue;
    }
    const byte = enc(cp);
    out += byte < 0 ? `%26%23${cp}%3B` : `%${HEX[byte >> 4]}${HEX[byte & 15]}`;
  }
  return out + reference.slice(end);
}
