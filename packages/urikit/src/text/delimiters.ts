/**
 * What delimits a URI in running text (2003 draft Appendix E, 1997 draft
 * Appendix E, RFC 3986 Appendix C): which characters a URI found in prose
 * may contain, which ones end it, which trailing ones are sentence
 * punctuation, and which scheme names a careful reader recognises.
 *
 * The tables are 128-entry bit sets over ASCII, composed from the core's
 * classes (../chars.ts); code units >= 128 are classified by
 * {@link isTextDelimiter} (RFC 3987 §2.2 `ucschar` minus the spaces,
 * quotation marks and brackets that delimit IRIs in text).
 */
import { CLASS, GEN_DELIMS, SUB_DELIMS, UNRESERVED } from '../chars.js';

/**
 * Bit: a character that may appear in a URI found in text (`"%"` is checked apart).
 *
 * @example
 * ```ts
 * (TEXT_CLASS[0x2e]! & T_URIC) !== 0 // true ("." may be inside a URI)
 * ```
 */
export const T_URIC = 1 << 0;
/**
 * Bit: white space the drafts ignore inside `<...>` (2003 draft App. E: "spaces, linebreaks, tabs, etc.").
 *
 * @example
 * ```ts
 * (TEXT_CLASS[0x20]! & T_SPACE) !== 0 // true (a space ends a URI unless wrapped)
 * ```
 */
export const T_SPACE = 1 << 1;
/**
 * Bit: a line break (LF or CR).
 *
 * @example
 * ```ts
 * (TEXT_CLASS[0x0a]! & T_EOL) !== 0 // true (a line feed)
 * ```
 */
export const T_EOL = 1 << 2;
/**
 * Bit: sentence punctuation that is left out at the end of a URI: `. , ; : ! ?` (2003 draft App. E).
 *
 * @example
 * ```ts
 * (TEXT_CLASS[0x2e]! & T_TRAILING) !== 0 // true (a final "." is punctuation of the prose)
 * ```
 */
export const T_TRAILING = 1 << 3;
/**
 * Bit: a character that, placed just before a URI, is often repeated just
 * after it as a wrapper (`'`, `*`, `_`, `~`: quotes and Markdown emphasis);
 * a trailing run of the same character is then left out.
 */
export const T_SYMMETRIC = 1 << 4;
/**
 * Bit: a character that may continue the scheme run before ":" (RFC 3986 §3.1 `scheme`).
 *
 * @example
 * ```ts
 * (TEXT_CLASS[0x2b]! & T_SCHEME) !== 0 // true ("+" may be in a scheme)
 * ```
 */
export const T_SCHEME = 1 << 5;
/**
 * Bit: a letter or digit (a word character in the sense of a boundary test).
 *
 * @example
 * ```ts
 * (TEXT_CLASS[0x2e]! & T_ALNUM) !== 0 // false ("." is no letter or digit)
 * ```
 */
export const T_ALNUM = 1 << 6;

/**
 * The text class bits of every ASCII code unit.
 *
 * @example
 * ```ts
 * (TEXT_CLASS[0x3c]! & T_URIC) === 0 // true ("<" ends a URI)
 * ```
 */
export const TEXT_CLASS: Uint8Array = (() => {
  const t = new Uint8Array(128);
  for (let c = 0; c < 128; c++) {
    const k = CLASS[c]!;
    // uric in text = unreserved / sub-delims / gen-delims (RFC 3986 §2.2, §2.3);
    // "[" and "]" are admitted only inside an authority by the scanner.
    if (k & (UNRESERVED | SUB_DELIMS | GEN_DELIMS)) t[c]! |= T_URIC;
    // scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
    if ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39)) t[c]! |= T_SCHEME | T_ALNUM;
  }
  for (const ch of '+-.') t[ch.charCodeAt(0)]! |= T_SCHEME;
  // SP, HTAB, LF, VT, FF, CR
  for (const c of [0x20, 0x09, 0x0a, 0x0b, 0x0c, 0x0d]) t[c]! |= T_SPACE;
  t[0x0a]! |= T_EOL;
  t[0x0d]! |= T_EOL;
  for (const ch of '.,;:!?') t[ch.charCodeAt(0)]! |= T_TRAILING;
  for (const ch of "'*_~") t[ch.charCodeAt(0)]! |= T_SYMMETRIC;
  return t;
})();

/**
 * True if the non-ASCII code unit `c` ends an IRI in text although RFC 3987
 * §2.2 `ucschar` admits it: the Unicode spaces, en and em dashes, typographic quotation marks,
 * angle quotes and CJK brackets that people write around identifiers, and
 * the ideographic and full-width sentence punctuation (RFC 3987 §7.2 asks
 * for such delimiters to be chosen from outside the IRI).
 *
 * @example
 * ```ts
 * isTextDelimiter(0x201d) // true (”)
 * isTextDelimiter(0xe9) // false (é)
 * ```
 */
export function isTextDelimiter(c: number): boolean {
  if (typeof c !== 'number') return false;
  if (c === 0xa0 || c === 0xab || c === 0xbb || c === 0x1680) return true; // NBSP « » OGHAM SPACE
  if (c >= 0x2000 && c <= 0x200f) return true; // spaces, zero-width, LRM/RLM
  if (c >= 0x2013 && c <= 0x2015) return true; // – — ― (dashes of prose)
  if (c >= 0x2018 && c <= 0x201f) return true; // ‘ ’ ‚ ‛ “ ” „ ‟
  if (c >= 0x2026 && c <= 0x202f) return true; // … line/paragraph separators, bidi controls, NNBSP
  if (c === 0x2039 || c === 0x203a || c === 0x205f) return true; // ‹ › MMSP
  if (c >= 0x3000 && c <= 0x3002) return true; // ideographic space, comma, full stop
  if (c >= 0x3008 && c <= 0x3011) return true; // 〈 〉 《 》 「 」 『 』 【 】
  if (c === 0xfeff) return true; // BOM / ZWNBSP
  // Full-width ! ( ) , . : ; < > ? [ ]
  if (c === 0xff01 || c === 0xff08 || c === 0xff09 || c === 0xff0c || c === 0xff0e) return true;
  if (c === 0xff1a || c === 0xff1b || c === 0xff1c || c === 0xff1e || c === 0xff1f) return true;
  return c === 0xff3b || c === 0xff3d;
}

/**
 * Scheme names a careful reader recognises in prose without a following
 * `//` (lower case): the schemes of the 1993 draft, the registered
 * permanent schemes of IANA's "Uniform Resource Identifier (URI) Schemes"
 * that appear in text, and a few widely used provisional ones. English
 * words that happen to be registered schemes ("tip", "service", "session",
 * "example", "go") are left out on purpose. Any syntactically valid scheme
 * followed by `//` is recognised as well (see `ExtractOptions.schemes`).
 *
 * @example
 * ```ts
 * PROSE_SCHEMES.has('mailto') // true
 * ```
 */
export const PROSE_SCHEMES: ReadonlySet<string> = new Set([
  // 1993 draft: http ftp news wais prospero telnet gopher afs mailto
  'http', 'https', 'ftp', 'ftps', 'sftp', 'news', 'nntp', 'snews', 'wais', 'prospero', 'telnet', 'gopher', 'afs',
  'mailto', 'file', 'urn', 'tel', 'fax', 'sms', 'sip', 'sips', 'xmpp', 'im', 'irc', 'ircs', 'ldap', 'ldaps',
  'data', 'about', 'cid', 'mid', 'tag', 'info', 'geo', 'dns', 'doi', 'ws', 'wss', 'ssh', 'git', 'svn', 'rsync',
  'nfs', 'smb', 'imap', 'pop', 'rtsp', 'rtsps', 'rtmp', 'coap', 'coaps', 'magnet', 'bitcoin', 'acct',
  'dav', 'dict', 'tftp', 'vnc', 'z39.50r', 'z39.50s', 'opaquelocktoken', 'crid', 'ni', 'nih', 'ipp', 'ipps',
  'msrp', 'msrps', 'stun', 'stuns', 'turn', 'turns', 'webcal', 'feed', 'jabber',
]);

/**
 * The longest scheme looked back for from a ":" (bounded look-back keeps the scan linear).
 *
 * @example
 * ```ts
 * MAX_SCHEME // 32
 * ```
 */
export const MAX_SCHEME = 32;
/**
 * The most white space looked over between `<` (or `URL:`) and a URI.
 *
 * @example
 * ```ts
 * MAX_GAP // 64
 * ```
 */
export const MAX_GAP = 64;
/**
 * The longest e-mail local part looked back for from an "@" (RFC 5321 §4.5.3.1.1).
 *
 * @example
 * ```ts
 * MAX_LOCAL_PART // 64
 * ```
 */
export const MAX_LOCAL_PART = 64;
/**
 * How far back from a `<` the start of its line is looked for, to see if
 * the line is quoted mail (`> `).
 *
 * @example
 * ```ts
 * MAX_QUOTE_LINE // 128
 * ```
 */
export const MAX_QUOTE_LINE = 128;
/**
 * How far back from a trigger character any decision of the scanner looks;
 * the stream keeps this much text from one chunk to the next.
 *
 * @example
 * ```ts
 * LOOKBACK > MAX_SCHEME + MAX_GAP // true
 * ```
 */
export const LOOKBACK = 4 + MAX_SCHEME + 2 * MAX_GAP + MAX_LOCAL_PART + MAX_QUOTE_LINE + 8;
