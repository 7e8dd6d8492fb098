/**
 * The `mailto` scheme (RFC 6068 §2):
 *
 * ```text
 *   mailto:<addr-spec>,<addr-spec>?<hfname>=<hfvalue>&<hfname>=<hfvalue>
 *          \_____________________/ \________________________________/
 *                   to                          hfields
 * ```
 */
import { CLASS, UNRESERVED } from '../chars.js';
import { UriError } from '../errors.js';
import { decodeText, encodeText } from './octets.js';
import type { SchemeCodec } from './codec.js';
import { MAILTO_RULES } from './rules.js';

/**
 * The typed view of a mailto URI (RFC 6068 §2). Every field is percent-decoded.
 *
 * @example
 * ```ts
 * const m: MailtoUrl = { to: ['infobot@example.com'], headers: [['subject', 'current-issue']] };
 * mailtoScheme.build(m) // "mailto:infobot@example.com?subject=current-issue"
 * ```
 */
export interface MailtoUrl {
  /** The addresses before "?", in order. */
  to: string[];
  /** The header fields after "?", in order, names as written (`subject`, `body`, `cc`, ...). */
  headers: Array<[string, string]>;
}

// some-delims = "!" / "$" / "'" / "(" / ")" / "*" / "+" / "," / ";" / ":" / "@"
// qchar = unreserved / pct-encoded / some-delims  (RFC 6068 §2)
const isQchar = (c: number): boolean => (CLASS[c]! & UNRESERVED) !== 0 || "!$'()*+,;:@".indexOf(String.fromCharCode(c)) >= 0;
// An address keeps qchar but ",", which separates addresses (RFC 6068 §2 "to").
const keepAddress = (c: number): boolean => c !== 0x2c && isQchar(c);

/** RFC 6068 §2, §6.2: only the last "@" separates; one inside a quoted local-part is written %40. */
function encodeAddress(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 0) return encodeText(address, keepAddress);
  return `${encodeText(address.slice(0, at), (c) => c !== 0x40 && keepAddress(c))}@${encodeText(address.slice(at + 1), keepAddress)}`;
}

/** Splits `text[from, to)` at each `sep`, decoding each piece. */
function decodeList(text: string, sep: number): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i <= text.length; i++) {
    if (i === text.length || text.charCodeAt(i) === sep) {
      out.push(decodeText(text, start, i));
      start = i + 1;
    }
  }
  return out;
}

/**
 * The `mailto` codec (RFC 6068): no authority; addresses and header fields.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6068#section-2
 * @example
 * ```ts
 * mailtoScheme.parse(parse('mailto:infobot@example.com?subject=current-issue'))
 * // { to: ['infobot@example.com'], headers: [['subject', 'current-issue']] }
 * ```
 */
export const mailtoScheme: SchemeCodec<MailtoUrl> = {
  ...MAILTO_RULES,
  validate(ref) {
    mailtoScheme.parse(ref);
  },
  parse(ref) {
    if (ref.host !== undefined) throw new UriError('bad-scheme-specific-part', 7, ref.path);
    const out: MailtoUrl = { to: [], headers: [] };
    if (ref.path !== '') {
      out.to = decodeList(ref.path, 0x2c);
      // to = addr-spec *("," addr-spec ); addr-spec = local-part "@" domain
      for (const a of out.to) if (a.lastIndexOf('@') <= 0 || a.lastIndexOf('@') === a.length - 1) throw new UriError('bad-scheme-specific-part', 0, ref.path);
    }
    if (ref.query !== undefined) {
      const q = ref.query;
      let start = 0;
      for (let i = 0; i <= q.length; i++) {
        if (i < q.length && q.charCodeAt(i) !== 0x26) continue;
        // hfield = hfname "=" hfvalue; hfname = *qchar (RFC 6068 §2)
        const eq = q.indexOf('=', start);
        if (eq < 0 || eq >= i || eq === start) throw new UriError('bad-scheme-specific-part', start, q);
        out.headers.push([decodeText(q, start, eq), decodeText(q, eq + 1, i)]);
        start = i + 1;
      }
    }
    return out;
  },
  build(f) {
    let s = `mailto:${f.to.map(encodeAddress).join(',')}`;
    if (f.headers.length > 0) s += `?${f.headers.map(([k, v]) => `${encodeText(k, isQchar)}=${encodeText(v, isQchar)}`).join('&')}`;
    return s;
  },
};
