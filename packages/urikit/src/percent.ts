/**
 * Percent-encoding (2003 draft §2.4, RFC 3986 §2.1, §2.4): data octets
 * <-> `%HH` triplets, per component, with UTF-8 for non-ASCII text
 * (RFC 3986 §2.5, RFC 3629).
 */
import { UriError } from './errors.js';
import { COMPONENT_MESSAGES, registerMessages } from './messages.js';
import { CLASS, PATH, PCHAR, QUERY, REG_NAME, UNRESERVED, USERINFO, octetAt } from './chars.js';
import { pctTriplet } from './triplets.js';

// The messages of the component codes this module throws (messages.ts).
registerMessages(COMPONENT_MESSAGES);

/**
 * The component a text is encoded for; each keeps its own characters
 * literal (RFC 3986 §3.2.1, §3.2.2, §3.3, §3.4, §3.5) and `component`
 * keeps only `unreserved` (the safe choice for data put into any one component).
 *
 * @example
 * ```ts
 * percentEncode('a/b', 'path') // "a/b"
 * percentEncode('a/b', 'path-segment') // "a%2Fb"
 * ```
 */
export type PercentComponent = 'userinfo' | 'host' | 'path' | 'path-segment' | 'query' | 'fragment' | 'component';

const ALLOWED: Record<PercentComponent, number> = {
  // userinfo = *( unreserved / pct-encoded / sub-delims / ":" )
  'userinfo': USERINFO,
  // reg-name = *( unreserved / pct-encoded / sub-delims )
  'host': REG_NAME,
  // path = *( "/" segment ); segment = *pchar
  'path': PATH,
  // segment = *pchar
  'path-segment': PCHAR,
  // query = *( pchar / "/" / "?" )
  'query': QUERY,
  // fragment = *( pchar / "/" / "?" )
  'fragment': QUERY,
  // unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"
  'component': UNRESERVED,
};

/**
 * The `%HH` triplets of the UTF-8 form of code point `cp` (RFC 3629 §3;
 * RFC 3986 §2.5: non-ASCII data is encoded as UTF-8, then percent-encoded).
 *
 * @see https://www.rfc-editor.org/rfc/rfc3629#section-3
 * @example
 * ```ts
 * utf8Triplets(0xe9) // "%C3%A9"
 * utf8Triplets(0x10300) // "%F0%90%8C%80"
 * ```
 */
export function utf8Triplets(cp: number): string {
  if (cp < 0x80) return pctTriplet(cp);
  if (cp < 0x800) return pctTriplet(0xc0 | (cp >> 6)) + pctTriplet(0x80 | (cp & 63));
  if (cp < 0x10000) return pctTriplet(0xe0 | (cp >> 12)) + pctTriplet(0x80 | ((cp >> 6) & 63)) + pctTriplet(0x80 | (cp & 63));
  return pctTriplet(0xf0 | (cp >> 18)) + pctTriplet(0x80 | ((cp >> 12) & 63)) + pctTriplet(0x80 | ((cp >> 6) & 63)) + pctTriplet(0x80 | (cp & 63));
}

/**
 * Encodes `text` for use as `component`: every character that the
 * component cannot hold literally, and `%` itself, becomes the `%HH`
 * triplets of its UTF-8 octets (RFC 3986 §2.1, §2.5,
 * https://www.rfc-editor.org/rfc/rfc3986#section-2.1). A lone surrogate
 * has no UTF-8 form and throws `invalid-char` at its offset.
 *
 * @example
 * ```ts
 * percentEncode('a b/c?', 'path-segment') // "a%20b%2Fc%3F"
 * percentEncode('a b/c?', 'query') // "a%20b/c?"
 * percentEncode('café', 'component') // "caf%C3%A9"
 * ```
 */
export function percentEncode(text: string, component: PercentComponent): string {
  const allowed = ALLOWED[component];
  if (allowed === undefined) throw new UriError('bad-component', 0, String(component));
  let out = '';
  let run = 0; // start of the pending literal run
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c < 128 && CLASS[c]! & allowed) continue;
    out += text.slice(run, i);
    if (c >= 0xd800 && c <= 0xdfff) {
      const d = text.charCodeAt(i + 1);
      if (c > 0xdbff || !(d >= 0xdc00 && d <= 0xdfff)) throw new UriError('invalid-char', i, text, 'a lone surrogate has no UTF-8 form');
      c = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
      i++;
    }
    out += utf8Triplets(c);
    run = i + 1;
  }
  return run === 0 ? text : out + text.slice(run);
}

/**
 * Options of {@link percentDecode}.
 *
 * @example
 * ```ts
 * percentDecode('%E2%82%AC%FF', { lenient: true }) // "€%FF"
 * ```
 */
export interface PercentDecodeOptions {
  /**
   * Keep a malformed `%` sequence or an octet that is not part of valid
   * UTF-8 as written instead of throwing (default `false`).
   */
  lenient?: boolean;
}

/**
 * The code point spelled by the well-formed UTF-8 sequence of `%HH`
 * triplets at `text[i]` (RFC 3629 §4: no overlong form, no surrogate,
 * nothing above U+10FFFF), or -1; one triplet of an ASCII octet is that
 * character. The sequence is `utf8Length(cp)` triplets long.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3629#section-4
 * @example
 * ```ts
 * utf8At('caf%C3%A9', 3) // 0xe9
 * utf8At('%41', 0) // 0x41
 * utf8At('%C0%AF', 0) // -1 (an overlong "/")
 * utf8At('%E2%82', 0) // -1 (cut short)
 * ```
 */
export function utf8At(text: string, i: number): number {
  const b0 = octetAt(text, i);
  if (b0 < 0x80) return b0;
  // RFC 3629 §4: UTF8-2 = %xC2-DF UTF8-tail; UTF8-3 = %xE0 %xA0-BF UTF8-tail /
  // %xE1-EC 2UTF8-tail / %xED %x80-9F UTF8-tail / %xEE-EF 2UTF8-tail;
  // UTF8-4 = %xF0 %x90-BF 2UTF8-tail / %xF1-F3 3UTF8-tail / %xF4 %x80-8F 2UTF8-tail
  let need = 0;
  let lo = 0x80;
  let hi = 0xbf;
  let cp = 0;
  if (b0 >= 0xc2 && b0 <= 0xdf) { need = 1; cp = b0 & 0x1f; }
  else if (b0 >= 0xe0 && b0 <= 0xef) { need = 2; cp = b0 & 0x0f; if (b0 === 0xe0) lo = 0xa0; else if (b0 === 0xed) hi = 0x9f; }
  else if (b0 >= 0xf0 && b0 <= 0xf4) { need = 3; cp = b0 & 0x07; if (b0 === 0xf0) lo = 0x90; else if (b0 === 0xf4) hi = 0x8f; }
  else return -1;
  for (let k = 1; k <= need; k++) {
    const b = octetAt(text, i + 3 * k);
    if (b < lo || b > hi) return -1;
    cp = (cp << 6) | (b & 0x3f);
    lo = 0x80;
    hi = 0xbf;
  }
  return cp;
}

/**
 * How many octets the UTF-8 form of code point `cp` has (RFC 3629 §3).
 *
 * @see https://www.rfc-editor.org/rfc/rfc3629#section-3
 * @example
 * ```ts
 * utf8Length(0x41) // 1
 * utf8Length(0x10300) // 4
 * ```
 */
export const utf8Length = (cp: number): number => (cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4);

/**
 * Decodes every `%HH` triplet of `text` and reads the octets as UTF-8
 * (RFC 3986 §2.1, §2.5; RFC 3629 §4 for what is valid UTF-8,
 * https://www.rfc-editor.org/rfc/rfc3629#section-4). Strict by default: a
 * `%` not followed by two hex digits throws `bad-percent`, octets that are
 * not UTF-8 (overlong forms, surrogates, above U+10FFFF, cut sequences)
 * throw `bad-utf8`, both at the offset of the `%`. Other characters are
 * kept as they are.
 *
 * @example
 * ```ts
 * percentDecode('caf%C3%A9%20au%20lait') // "café au lait"
 * percentDecode('100%', { lenient: true }) // "100%"
 * percentDecode('%C3') // throws UriError bad-utf8 at offset 0
 * ```
 */
export function percentDecode(text: string, opts?: PercentDecodeOptions): string {
  let i = text.indexOf('%');
  if (i < 0) return text;
  const lenient = opts?.lenient === true;
  let out = text.slice(0, i);
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c !== 0x25) {
      const next = text.indexOf('%', i);
      const end = next < 0 ? text.length : next;
      out += text.slice(i, end);
      i = end;
      continue;
    }
    if (octetAt(text, i) < 0) {
      if (!lenient) throw new UriError('bad-percent', i, text);
      out += '%';
      i++;
      continue;
    }
    // RFC 3629 §4: one well-formed UTF-8 sequence of triplets, or a stray octet.
    const cp = utf8At(text, i);
    if (cp < 0) {
      if (!lenient) throw new UriError('bad-utf8', i, text);
      out += text.slice(i, i + 3); // keep the stray octet as written
      i += 3;
      continue;
    }
    out += String.fromCodePoint(cp);
    i += 3 * utf8Length(cp);
  }
  return out;
}
