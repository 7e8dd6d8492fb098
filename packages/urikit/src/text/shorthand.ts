/**
 * URIs written without a scheme, found by the scanner on request: the
 * abbreviated forms of 2003 draft Appendix F (`www.`, `ftp.`, a bare host
 * with a path) and bare e-mail addresses read as `mailto:` (RFC 6068).
 */
import { isLdh, ucscharLength } from '../chars.js';
import { TEXT_CLASS, T_ALNUM, isTextDelimiter, MAX_LOCAL_PART } from './delimiters.js';
import { isHostName, isCommonTopLabel, hostEnd, isLocalChar } from './host-name.js';
import { REJECT, MATCH, PENDING } from './outcome.js';
import type { Outcome, ScannerView } from './outcome.js';
import type { UriMatch } from './match.js';

const DOT = 0x2e, SLASH = 0x2f, HYPHEN = 0x2d, LT = 0x3c, DQUOTE = 0x22, LPAREN = 0x28, LBRACKET = 0x5b;
const cls = (c: number): number => (c < 128 ? TEXT_CLASS[c]! : 0);

/**
 * A "." — an abbreviated URI (2003 draft App. F): a host beginning with
 * `www.` (read with `http://`) or `ftp.` (`ftp://`), or a bare host name
 * with a common top label followed by a path ("only the authority and
 * path portions"), read with `http://`.
 *
 * @example
 * ```ts
 * extractUris('see www.w3.org/Addressing/', { abbreviated: true })[0].uri // "http://www.w3.org/Addressing/"
 * ```
 */
export function atDot(sc: ScannerView, t: number, out: UriMatch[]): Outcome {
  const text = sc.text;
  sc.resume = 0;
  // The first label: RFC 1123 §2.1 letters, digits and "-", at most 63 of them.
  const lo = Math.max(sc.floor, t - 64);
  let s = t;
  while (s > lo && isLdh(text.charCodeAt(s - 1))) s--;
  if (s === t || (s === lo && s > sc.floor && isLdh(text.charCodeAt(s - 1)))) return REJECT;
  if (s > sc.floor && !sc.boundaryBefore(text.charCodeAt(s - 1))) return REJECT;
  const a = text.charCodeAt(s) | 0x20, b2 = text.charCodeAt(s + 1) | 0x20, c = text.charCodeAt(s + 2) | 0x20;
  const www = t - s === 3 && a === 0x77 && b2 === 0x77 && c === 0x77;
  const ftp = t - s === 3 && a === 0x66 && b2 === 0x74 && c === 0x70;
  const open = sc.openerBefore(s);
  const r = sc.scanBody(s, t, true, false, 0, sc.iri);
  if (r === PENDING) return PENDING;
  sc.trim(t + 1, open);
  const b = sc.body;
  const he = hostEnd(text, t + 1, b.end);
  const ok = www || ftp
    ? isHostName(text, t + 1, he, 2)
    : he < b.end && text.charCodeAt(he) === SLASH && isHostName(text, s, he, 2) && isCommonTopLabel(text, he);
  if (!ok) { sc.resume = b.resume; return REJECT; }
  const wrapped = open === LT ? 'angle' : open === DQUOTE ? 'quotes' : open === LPAREN ? 'parens' : open === LBRACKET ? 'brackets' : undefined;
  if (sc.emit(s, s - 1, false, wrapped, false, ftp ? 'ftp://' : 'http://', out)) return MATCH;
  sc.resume = b.resume;
  return REJECT;
}

/**
 * An "@" — a bare e-mail address `local@domain`, read as a `mailto:` URI
 * (RFC 6068 §2, https://www.rfc-editor.org/rfc/rfc6068#section-2)?
 *
 * @example
 * ```ts
 * extractUris('mail roy@example.org.', { emails: true })[0].uri // "mailto:roy@example.org"
 * ```
 */
export function atAt(sc: ScannerView, t: number, out: UriMatch[]): Outcome {
  const text = sc.text, len = text.length;
  sc.resume = 0;
  const lo = Math.max(sc.floor, t - MAX_LOCAL_PART - 1);
  let s = t;
  while (s > lo && isLocalChar(text.charCodeAt(s - 1))) s--;
  if (s === lo && s > sc.floor && isLocalChar(text.charCodeAt(s - 1))) return REJECT;
  while (s < t && text.charCodeAt(s) === DOT) s++;
  if (s === t || text.charCodeAt(t - 1) === DOT) return REJECT;
  if (s > sc.floor && !sc.boundaryBefore(text.charCodeAt(s - 1))) return REJECT;
  let e = t + 1;
  while (e < len) {
    const ch = text.charCodeAt(e);
    if (cls(ch) & T_ALNUM || ch === HYPHEN || ch === DOT) e++;
    else if (ch >= 0xd800 && ch <= 0xdbff && e + 1 >= len && !sc.final) return PENDING;
    else if (ch >= 128 && sc.iri && !isTextDelimiter(ch) && ucscharLength(text, e, false) > 0) e += ucscharLength(text, e, false);
    else break;
  }
  if (e >= len && !sc.final) return PENDING;
  while (e > t + 1 && text.charCodeAt(e - 1) === DOT) e--;
  if (!isHostName(text, t + 1, e, 2)) { sc.resume = e; return REJECT; }
  const b = sc.body;
  b.built = ''; b.segStart = s; b.end = e; b.resume = e; b.hyphens = undefined;
  const wrapped = sc.openerBefore(s) === LT ? 'angle' : undefined;
  if (sc.emit(s, s - 1, false, wrapped, false, 'mailto:', out)) return MATCH;
  sc.resume = e;
  return REJECT;
}

