/**
 * The `data` scheme (RFC 2397 §3):
 *
 * ```text
 *   data:[<mediatype>][;base64],<data>
 *   mediatype := [ type "/" subtype ] *( ";" parameter )
 * ```
 */
import { CLASS, QUERY } from '../chars.js';
import { UriError } from '../errors.js';
import { decodeOctets, decodeText, encodeText } from './octets.js';
import type { SchemeCodec } from './codec.js';
import { DATA_RULES } from './rules.js';

/**
 * The typed view of a data URL (RFC 2397 §3).
 *
 * @example
 * ```ts
 * const d: DataUrl = dataScheme.parse(parse('data:text/plain;charset=US-ASCII;base64,aGk='));
 * d.mediaType // "text/plain"
 * d.parameters // [['charset', 'US-ASCII']]
 * d.base64 // true
 * new TextDecoder().decode(d.data) // "hi"
 * ```
 */
export interface DataUrl {
  /** `type/subtype` in lower case; `text/plain` when omitted (RFC 2397 §3). */
  mediaType: string;
  /** True when the URL wrote no `type/subtype`. */
  mediaTypeOmitted?: boolean;
  /** The parameters in order, names in lower case, values percent-decoded; `charset=US-ASCII` is implied when the media type is omitted, not added. */
  parameters: Array<[string, string]>;
  /** True for `;base64`. */
  base64: boolean;
  /** The decoded payload. */
  data: Uint8Array;
}

// token := 1*<any (US-ASCII) CHAR except SPACE, CTLs, or tspecials> (RFC 2045 §5.1)
const TSPECIALS = '()<>@,;:\\"/[]?=';
const isToken = (s: string): boolean => {
  if (s === '') return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c <= 0x20 || c >= 0x7f || TSPECIALS.indexOf(s[i]!) >= 0) return false;
  }
  return true;
};

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_VALUE = /* @__PURE__ */ (() => {
  const t = new Int8Array(128).fill(-1);
  for (let i = 0; i < 64; i++) t[B64.charCodeAt(i)] = i;
  return t;
})();

/** Decodes base64 (RFC 2045 §6.8) strictly: padding only at the end, no other characters. */
function base64Decode(octets: Uint8Array, at: number, input: string): Uint8Array {
  let n = octets.length;
  if (n % 4 !== 0) throw new UriError('bad-scheme-specific-part', at, input);
  let pad = 0;
  while (pad < 2 && n > 0 && octets[n - 1] === 0x3d) { n--; pad++; }
  const out = new Uint8Array((octets.length / 4) * 3 - pad);
  let bits = 0;
  let acc = 0;
  let o = 0;
  for (let i = 0; i < n; i++) {
    const c = octets[i]!;
    const v = c < 128 ? B64_VALUE[c]! : -1;
    if (v < 0) throw new UriError('bad-scheme-specific-part', at, input);
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

function base64Encode(data: Uint8Array): string {
  let s = '';
  for (let i = 0; i < data.length; i += 3) {
    const a = data[i]!, b = data[i + 1], c = data[i + 2];
    s += B64[a >> 2]! + B64[((a & 3) << 4) | ((b ?? 0) >> 4)]!;
    s += b === undefined ? '=' : B64[((b & 15) << 2) | ((c ?? 0) >> 6)]!;
    s += c === undefined ? '=' : B64[c & 63]!;
  }
  return s;
}

/** The text of a data URL after "data:": the path, plus "?" and the query (a query is data too). */
const body = (ref: { path: string; query?: string }): string => (ref.query === undefined ? ref.path : `${ref.path}?${ref.query}`);

/**
 * The `data` codec (RFC 2397): media type, parameters, base64 flag, and the decoded payload.
 *
 * @see https://www.rfc-editor.org/rfc/rfc2397#section-3
 * @example
 * ```ts
 * new TextDecoder().decode(dataScheme.parse(parse('data:,A%20brief%20note')).data) // "A brief note"
 * ```
 */
export const dataScheme: SchemeCodec<DataUrl> = {
  ...DATA_RULES,
  validate(ref) {
    dataScheme.parse(ref);
  },
  parse(ref) {
    if (ref.host !== undefined) throw new UriError('bad-scheme-specific-part', 5, ref.path);
    const text = body(ref);
    const comma = text.indexOf(',');
    if (comma < 0) throw new UriError('bad-scheme-specific-part', text.length, text);
    const parts = text.slice(0, comma).split(';');
    const out: DataUrl = { mediaType: 'text/plain', parameters: [], base64: false, data: new Uint8Array(0) };
    const type = parts[0]!;
    if (type === '') out.mediaTypeOmitted = true;
    else {
      const slash = type.indexOf('/');
      if (slash < 0 || !isToken(type.slice(0, slash)) || !isToken(type.slice(slash + 1))) throw new UriError('bad-scheme-specific-part', 0, text);
      out.mediaType = type.toLowerCase();
    }
    for (let k = 1; k < parts.length; k++) {
      const p = parts[k]!;
      if (k === parts.length - 1 && p.toLowerCase() === 'base64') { out.base64 = true; break; }
      // parameter := attribute "=" value
      const eq = p.indexOf('=');
      if (eq <= 0 || !isToken(p.slice(0, eq))) throw new UriError('bad-scheme-specific-part', 0, text);
      out.parameters.push([p.slice(0, eq).toLowerCase(), decodeText(p, eq + 1)]);
    }
    const octets = decodeOctets(text, comma + 1);
    out.data = out.base64 ? base64Decode(octets, comma + 1, text) : octets;
    return out;
  },
  build(f) {
    let s = `data:${f.mediaTypeOmitted ? '' : f.mediaType}`;
    for (const [k, v] of f.parameters) s += `;${k}=${encodeValue(v)}`;
    if (f.base64) return `${s};base64,${base64Encode(f.data)}`;
    s += ',';
    for (const b of f.data) s += b < 0x80 && b !== 0x25 && b !== 0x23 && (CLASS[b]! & QUERY) !== 0 ? String.fromCharCode(b) : `%${(b < 16 ? '0' : '') + b.toString(16).toUpperCase()}`;
    return s;
  },
};

// A parameter value keeps what a query keeps, except the delimiters of the data URL itself.
const keepValue = (c: number): boolean => c !== 0x3b && c !== 0x2c && c !== 0x3f && (CLASS[c]! & QUERY) !== 0;
const encodeValue = (v: string): string => encodeText(v, keepValue);
