/**
 * Percent-decoding of a scheme's fields into octets and text
 * (RFC 3986 §2.1; RFC 2397 §3 for `data:` payloads, RFC 6068 §2 for
 * `mailto:` fields, RFC 1738 §2.2 for the older schemes).
 */
import { UriError } from '../errors.js';
import { COMPONENT_MESSAGES, registerMessages } from '../messages.js';
import { CLASS, PATH, PCHAR, octetAt } from '../chars.js';
import { utf8Triplets } from '../percent.js';

// The messages of the component codes this module throws (messages.ts).
registerMessages(COMPONENT_MESSAGES);

/**
 * The octets that `text[start, end)` denotes: `%XX` is one octet, any
 * other character below U+0080 is itself, anything above is UTF-8.
 * Throws `bad-percent` at a malformed escape.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-2.1
 * @example
 * ```ts
 * decodeOctets('a%20b') // new Uint8Array([0x61, 0x20, 0x62])
 * ```
 */
export function decodeOctets(text: string, start = 0, end = text.length): Uint8Array {
  // Each UTF-16 code unit yields at most 3 octets.
  const out = new Uint8Array((end - start) * 3);
  let n = 0;
  let i = start;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c === 0x25) {
      const octet = i + 2 < end ? octetAt(text, i) : -1;
      if (octet < 0) throw new UriError('bad-percent', i, text);
      out[n++] = octet;
      i += 3;
    } else if (c < 0x80) {
      out[n++] = c;
      i++;
    } else {
      // Non-ASCII (an IRI's characters): their UTF-8 octets (RFC 3987 §3.1).
      const cp = text.codePointAt(i)!;
      if (cp >= 0xd800 && cp <= 0xdfff) throw new UriError('bad-utf8', i, text);
      n += encoder.encodeInto(String.fromCodePoint(cp), out.subarray(n)).written;
      i += cp > 0xffff ? 2 : 1;
    }
  }
  return out.subarray(0, n);
}

const encoder = /* @__PURE__ */ new TextEncoder();
const utf8 = /* @__PURE__ */ new TextDecoder('utf-8', { fatal: true });

/**
 * The text that `text[start, end)` denotes once percent-decoded as UTF-8
 * (RFC 3986 §2.5); throws `bad-utf8` when the octets are not UTF-8.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-2.1
 * @example
 * ```ts
 * decodeText('Los%20Angeles') // 'Los Angeles'
 * ```
 */
export function decodeText(text: string, start = 0, end = text.length): string {
  // Only [start, end) is looked at, so that decoding the pieces of a long text stays linear.
  let i = start;
  while (i < end && text.charCodeAt(i) !== 0x25) i++;
  if (i === end) return text.slice(start, end);
  const octets = decodeOctets(text, start, end);
  try {
    return utf8.decode(octets);
  } catch {
    throw new UriError('bad-utf8', start, text);
  }
}

/**
 * The `keep` of {@link encodeText} for a path: `pchar` and "/" stay
 * literal (RFC 3986 §3.3 `path-abempty = *( "/" segment )`), "|" and
 * everything else are encoded.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-3.3
 * @example
 * ```ts
 * encodeText('/a b/c', keepPath) // "/a%20b/c"
 * ```
 */
export const keepPath = (c: number): boolean => (CLASS[c]! & PATH) !== 0;

/**
 * The `keep` of {@link encodeText} for one path segment: `pchar` stays
 * literal, "/" is encoded (RFC 3986 §3.3 `segment = *pchar`).
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-3.3
 * @example
 * ```ts
 * encodeText('a b/c', keepSegment) // "a%20b%2Fc"
 * ```
 */
export const keepSegment = (c: number): boolean => c !== 0x2f && (CLASS[c]! & PCHAR) !== 0;

/**
 * Percent-encodes every octet of `value`'s UTF-8 form except the ASCII
 * characters for which `keep(code)` is true (RFC 3986 §2.1: upper-case hex).
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-2.1
 * @example
 * ```ts
 * encodeText('a b/c', (c) => c !== 0x2f && c > 0x20) // 'a%20b%2Fc'
 * ```
 */
export function encodeText(value: string, keep: (code: number) => boolean): string {
  let out = '';
  let plain = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x80 && keep(c)) continue;
    out += value.slice(plain, i);
    const cp = value.codePointAt(i)!;
    if (cp >= 0xd800 && cp <= 0xdfff) throw new UriError('bad-utf8', i, value);
    out += utf8Triplets(cp);
    if (cp > 0xffff) i++;
    plain = i + 1;
  }
  return out + value.slice(plain);
}

/**
 * The character set in which the percent-encoded octets of the 1990s
 * schemes (ftp, gopher, news, nntp) are read as text: `utf-8` (RFC 3986
 * §2.5, the default) or `iso-8859-1` (Latin-1, which the documents of that
 * time mostly used; RFC 1738 §2.2 says only that octets are encoded).
 *
 * @see https://www.rfc-editor.org/rfc/rfc1738#section-2.2
 * @example
 * ```ts
 * const charset: OctetCharset = 'iso-8859-1';
 * ftpCodec({ charset }).parse(parse('ftp://h/caf%E9.txt')).name // "café.txt"
 * ```
 */
export type OctetCharset = 'utf-8' | 'iso-8859-1';

/**
 * Options of the codecs of the 1990s schemes: {@link OctetCharset}.
 *
 * @see https://www.rfc-editor.org/rfc/rfc1738#section-2.2
 * @example
 * ```ts
 * const opts: CharsetOptions = { charset: 'iso-8859-1' };
 * gopherCodec(opts).parse(parse('gopher://h/0caf%E9')).selector // "café"
 * ```
 */
export interface CharsetOptions {
  /** Default `utf-8`. */
  charset?: OctetCharset;
}

// The Encoding Standard's "UTF-8 decode": a sequence that is not UTF-8 becomes U+FFFD.
const lenientUtf8 = /* @__PURE__ */ new TextDecoder('utf-8');

/**
 * The text that `text[start, end)` denotes once its octets are read in
 * `charset`. A valid escape never throws: octets that are not UTF-8 become
 * U+FFFD under `utf-8`; every octet is a character under `iso-8859-1`.
 * Throws `bad-percent` at a malformed escape.
 *
 * @see https://www.rfc-editor.org/rfc/rfc1738#section-2.2
 * @example
 * ```ts
 * decodeIn('iso-8859-1', 'caf%E9') // "café"
 * decodeIn('utf-8', 'caf%E9') // "caf\uFFFD"
 * decodeIn('utf-8', 'caf%C3%A9') // "café"
 * ```
 */
export function decodeIn(charset: OctetCharset, text: string, start = 0, end = text.length): string {
  let i = start;
  while (i < end && text.charCodeAt(i) !== 0x25) i++;
  if (i === end) return text.slice(start, end);
  if (charset === 'utf-8') return lenientUtf8.decode(decodeOctets(text, start, end));
  let out = '';
  let plain = start;
  for (; i < end; i = text.indexOf('%', i)) {
    if (i < 0) break;
    const octet = i + 2 < end ? octetAt(text, i) : -1;
    if (octet < 0) throw new UriError('bad-percent', i, text);
    out += text.slice(plain, i) + String.fromCharCode(octet);
    plain = i += 3;
    if (i >= end) break;
  }
  return out + text.slice(plain, end);
}

/**
 * Percent-encodes `value` in `charset`, keeping the ASCII characters for
 * which `keep(code)` is true (RFC 3986 §2.1: upper-case hex). Under
 * `iso-8859-1` a character above U+00FF cannot be written and throws
 * `bad-component` at its offset.
 *
 * @see https://www.rfc-editor.org/rfc/rfc1738#section-2.2
 * @example
 * ```ts
 * encodeIn('iso-8859-1', 'café', keepPath) // "caf%E9"
 * encodeIn('utf-8', 'café', keepPath) // "caf%C3%A9"
 * encodeIn('iso-8859-1', '€', keepPath) // throws UriError bad-component
 * ```
 */
export function encodeIn(charset: OctetCharset, value: string, keep: (code: number) => boolean): string {
  if (charset === 'utf-8') return encodeText(value, keep);
  let out = '';
  let plain = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x80 && keep(c)) continue;
    if (c > 0xff) throw new UriError('bad-component', i, value);
    out += `${value.slice(plain, i)}%${c < 0x10 ? '0' : ''}${c.toString(16).toUpperCase()}`;
    plain = i + 1;
  }
  return out + value.slice(plain);
}
