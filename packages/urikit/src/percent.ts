/**
 * Percent-encoding (2003 draft §2.4, RFC 3986 §2.1, §2.4): data octets
 * <-> `%HH` triplets, per component, with UTF-8 for non-ASCII text
 * (RFC 3986 §2.5, RFC 3629).
 */
import { UriError } from './errors.js';
import { CLASS, PATH, PCHAR, QUERY, REG_NAME, UNRESERVED, USERINFO, hexValue } from './chars.js';

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

const HEX = '0123456789ABCDEF';
/**
 * One octet as `%HH` with upper-case hex digits (RFC 3986 §2.1: producers should use upper case).
 *
 * @example
 * ```ts
 * pctTriplet(0x2f) // "%2F"
 * ```
 */
export const pctTriplet = (octet: number): string => '%' + HEX[octet >> 4]! + HEX[octet & 15]!;

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
    if (c < 0x80) {
      out += pctTriplet(c);
    } else if (c < 0x800) {
      out += pctTriplet(0xc0 | (c >> 6)) + pctTriplet(0x80 | (c & 63));
    } else if (c < 0xd800 || c > 0xdfff) {
      out += pctTriplet(0xe0 | (c >> 12)) + pctTriplet(0x80 | ((c >> 6) & 63)) + pctTriplet(0x80 | (c & 63));
    } else {
      const d = text.charCodeAt(i + 1);
      if (c > 0xdbff || !(d >= 0xdc00 && d <= 0xdfff)) throw new UriError('invalid-char', i, text, 'a lone surrogate has no UTF-8 form');
      c = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
      out += pctTriplet(0xf0 | (c >> 18)) + pctTriplet(0x80 | ((c >> 12) & 63)) + pctTriplet(0x80 | ((c >> 6) & 63)) + pctTriplet(0x80 | (c & 63));
      i++;
    }
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

/** The octet of the `%HH` triplet at `i`, or -1. */
function octetAt(text: string, i: number): number {
  if (text.charCodeAt(i) !== 0x25) return -1;
  const h = hexValue(text.charCodeAt(i + 1));
  const l = hexValue(text.charCodeAt(i + 2));
  return h < 0 || l < 0 ? -1 : (h << 4) | l;
}

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
    const b0 = octetAt(text, i);
    if (b0 < 0) {
      if (!lenient) throw new UriError('bad-percent', i, text);
      out += '%';
      i++;
      continue;
    }
    if (b0 < 0x80) {
      out += String.fromCharCode(b0);
      i += 3;
      continue;
    }
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
    let j = i + 3;
    let ok = need > 0;
    for (let k = 0; ok && k < need; k++, j += 3) {
      const b = octetAt(text, j);
      if (b < lo || b > hi) ok = false;
      else cp = (cp << 6) | (b & 0x3f);
      lo = 0x80;
      hi = 0xbf;
    }
    if (!ok) {
      if (!lenient) throw new UriError('bad-utf8', i, text);
      out += text.slice(i, i + 3); // keep the stray octet as written
      i += 3;
      continue;
    }
    out += String.fromCodePoint(cp);
    i = j;
  }
  return out;
}
