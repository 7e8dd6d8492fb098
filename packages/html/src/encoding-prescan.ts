/**
 * HTML Living Standard §13.2.3.2: "prescan a byte stream to determine its
 * encoding" (the `<meta charset>` and `http-equiv` pragma of the first
 * bytes) and "get an XML encoding", for the encoding sniffing algorithm
 * of encoding-sniffing.ts.
 */
import { encodingForLabel } from './encoding-labels.js';
import { charsetParameter } from './document-encoding.js';

// The bytes the prescan names (HTML §13.2.3.2).
const TAB = 0x09;
const LF = 0x0a;
const FF = 0x0c;
const CR = 0x0d;
const SPACE = 0x20;
const BANG = 0x21;
const DQUOTE = 0x22;
const SQUOTE = 0x27;
const HYPHEN = 0x2d;
const SLASH = 0x2f;
const LT = 0x3c;
const EQUALS = 0x3d;
const GT = 0x3e;
const QUESTION = 0x3f;

const isSpace = (b: number | undefined): boolean => b === TAB || b === LF || b === FF || b === CR || b === SPACE;
const isAsciiLetter = (b: number | undefined): boolean => b !== undefined && ((b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a));
/** A byte as the prescan appends it: A-Z lowered ("This converts the input to lowercase"), every other byte as the code point of its value. */
const lowered = (b: number): string => String.fromCharCode(b >= 0x41 && b <= 0x5a ? b + 0x20 : b);

/** Thrown when the prescan runs out of bytes ("abort the prescan ... unsuccessfully"): caught once, in prescanEncoding. */
const OUT_OF_BYTES: object = {};

/**
 * The prescan's reader: the bytes and the position pointer; reading past
 * the end throws {@link OUT_OF_BYTES}.
 */
class Prescan {
  position = 0;
  constructor(readonly bytes: Uint8Array) {}
  /** The byte at the position (plus `ahead`), or an abort when there is none. */
  at(ahead = 0): number {
    const b = this.bytes[this.position + ahead];
    if (b === undefined) throw OUT_OF_BYTES;
    return b;
  }
  /** The byte at the position plus `ahead`, undefined past the end (for the "starts with" tests, which do not run out). */
  peek(ahead: number): number | undefined {
    return this.bytes[this.position + ahead];
  }
  /** Moves the position to the first byte at or after it that `stop` accepts. */
  advanceTo(stop: (b: number) => boolean): void {
    while (!stop(this.at())) this.position++;
  }
}

/**
 * HTML "prescan a byte stream to determine its encoding" on `bytes` (the
 * end condition: their end), falling back to "get an XML encoding" when it
 * runs out of bytes; undefined for failure.
 *
 * @see https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding
 * @example
 * ```ts
 * const bytes = (s: string) => new TextEncoder().encode(s);
 * prescanEncoding(bytes('<!-- <meta charset=koi8-r> --><META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=latin2">')) // "iso-8859-2"
 * prescanEncoding(bytes('<meta content="text/html; charset=koi8-r">')) // undefined (no http-equiv: the pragma is needed)
 * prescanEncoding(bytes('<meta charset="utf-16">')) // "utf-8"
 * prescanEncoding(bytes('<?xml version="1.0" encoding="windows-1251"?><p>')) // "windows-1251"
 * ```
 */
export function prescanEncoding(bytes: Uint8Array): string | undefined {
  try {
    return prescan(new Prescan(bytes));
  } catch (e) {
    if (e !== OUT_OF_BYTES) throw e;
    return xmlEncoding(bytes);
  }
}

/** The prescan's steps ("Loop" to "Next byte"); throws OUT_OF_BYTES when the bytes end. */
function prescan(p: Prescan): string {
  // Prescan for UTF-16 XML declarations: '<?x' in UTF-16LE or UTF-16BE.
  const b = p.bytes;
  if (b[0] === LT && b[1] === 0 && b[2] === QUESTION && b[3] === 0 && b[4] === 0x78 && b[5] === 0) return 'utf-16le';
  if (b[0] === 0 && b[1] === LT && b[2] === 0 && b[3] === QUESTION && b[4] === 0 && b[5] === 0x78) return 'utf-16be';
  for (;; p.position++) {
    if (p.at() !== LT) continue; // "Any other byte: do nothing with that byte"
    if (p.peek(1) === BANG && p.peek(2) === HYPHEN && p.peek(3) === HYPHEN) {
      // The first ">" preceded by "--" after the "<" (the "--" of "<!--" may count).
      p.position += 3;
      while (!(p.at() === GT && b[p.position - 1] === HYPHEN && b[p.position - 2] === HYPHEN)) p.position++;
    } else if (isMetaStart(p)) {
      p.position += 5; // at the space or slash after "<meta"
      const charset = metaCharset(p);
      if (charset !== undefined) return charset;
    } else if (isAsciiLetter(p.peek(1)) || (p.peek(1) === SLASH && isAsciiLetter(p.peek(2)))) {
      // A tag: skip its name, then its attributes.
      p.advanceTo((c) => isSpace(c) || c === GT);
      while (getAttribute(p) !== undefined);
    } else if (p.peek(1) === BANG || p.peek(1) === SLASH || p.peek(1) === QUESTION) {
      p.position++;
      p.advanceTo((c) => c === GT);
    }
  }
}

/** True at a case-insensitive "<meta" followed by a space or slash. */
function isMetaStart(p: Prescan): boolean {
  const name = [0x6d, 0x65, 0x74, 0x61]; // "meta"
  for (let i = 0; i < 4; i++) if (((p.peek(i + 1) ?? 0) | 0x20) !== name[i]) return false;
  const after = p.peek(5);
  return isSpace(after) || after === SLASH;
}

/**
 * The attributes of a `<meta>` in the prescan ("Attributes" and
 * "Processing"): the encoding it declares, or undefined to go on with the
 * next byte.
 */
function metaCharset(p: Prescan): string | undefined {
  const seen = new Set<string>();
  let gotPragma = false;
  let needPragma: boolean | undefined;
  let charset: string | null | undefined = null; // null: none yet; undefined: failure
  for (let attr = getAttribute(p); attr !== undefined; attr = getAttribute(p)) {
    const [name, value] = attr;
    if (seen.has(name)) continue;
    seen.add(name);
    if (name === 'http-equiv') {
      if (value === 'content-type') gotPragma = true;
    } else if (name === 'content') {
      // HTML "algorithm for extracting a character encoding from a meta element".
      const label = charsetParameter(value);
      const encoding = label === undefined ? undefined : encodingForLabel(label);
      if (encoding !== undefined && charset === null) {
        charset = encoding;
        needPragma = true;
      }
    } else if (name === 'charset') {
      charset = encodingForLabel(value);
      needPragma = false;
    }
  }
  if (needPragma === undefined || (needPragma && !gotPragma) || charset === undefined || charset === null) return undefined;
  if (charset === 'utf-16be' || charset === 'utf-16le') return 'utf-8';
  if (charset === 'x-user-defined') return 'windows-1252';
  return charset;
}

/** HTML "get an attribute" in the prescan: [name, value] (both lowered), or undefined when there is none. */
function getAttribute(p: Prescan): [string, string] | undefined {
  while (isSpace(p.at()) || p.at() === SLASH) p.position++;
  if (p.at() === GT) return undefined;
  let name = '';
  let value = '';
  // The name, up to "=", white space, "/" or ">".
  for (;; p.position++) {
    const c = p.at();
    if (c === EQUALS && name !== '') {
      p.position++;
      break;
    }
    if (isSpace(c)) {
      // Spaces: then "=" or no value.
      while (isSpace(p.at())) p.position++;
      if (p.at() !== EQUALS) return [name, ''];
      p.position++;
      break;
    }
    if (c === SLASH || c === GT) return [name, ''];
    name += lowered(c);
  }
  // Value.
  while (isSpace(p.at())) p.position++;
  const first = p.at();
  if (first === DQUOTE || first === SQUOTE) {
    for (p.position++; p.at() !== first; p.position++) value += lowered(p.at());
    p.position++;
    return [name, value];
  }
  if (first === GT) return [name, ''];
  for (; !isSpace(p.at()) && p.at() !== GT; p.position++) value += lowered(p.at());
  return [name, value];
}

/**
 * HTML "get an XML encoding": the `encoding` of an XML declaration at the
 * very start (`<?xml ... encoding="..."`), UTF-16 read as UTF-8, or
 * undefined for failure.
 */
function xmlEncoding(bytes: Uint8Array): string | undefined {
  if (!(bytes[0] === LT && bytes[1] === QUESTION && bytes[2] === 0x78 && bytes[3] === 0x6d && bytes[4] === 0x6c)) return undefined;
  const end = bytes.indexOf(GT);
  if (end < 0) return undefined;
  // The first "encoding" in the declaration: the Standard finds xmlDeclarationEnd for
  // this, and browsers (WebKit's findXMLEncoding) look no further.
  let at = indexOfAscii(bytes.subarray(0, end), 'encoding', 0);
  if (at < 0) return undefined;
  at += 8;
  while (at < bytes.length && bytes[at]! <= SPACE) at++;
  if (bytes[at] !== EQUALS) return undefined;
  at++;
  while (at < bytes.length && bytes[at]! <= SPACE) at++;
  const quote = bytes[at];
  if (quote !== DQUOTE && quote !== SQUOTE) return undefined;
  const close = bytes.indexOf(quote, at + 1);
  if (close < 0) return undefined;
  let label = '';
  for (let i = at + 1; i < close; i++) {
    if (bytes[i]! <= SPACE) return undefined;
    label += String.fromCharCode(bytes[i]!); // isomorphic decode
  }
  const encoding = encodingForLabel(label);
  return encoding === 'utf-16be' || encoding === 'utf-16le' ? 'utf-8' : encoding;
}

/** The index of the ASCII string `s` in `bytes` from `from`, or -1. */
function indexOfAscii(bytes: Uint8Array, s: string, from: number): number {
  outer: for (let i = from; i + s.length <= bytes.length; i++) {
    for (let j = 0; j < s.length; j++) if (bytes[i + j] !== s.charCodeAt(j)) continue outer;
    return i;
  }
  return -1;
}

