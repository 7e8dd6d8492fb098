/**
 * The character encoding of an HTML document given as bytes (HTML Living
 * Standard §13.2.3.2 "Determining the character encoding": the encoding
 * sniffing algorithm, its prescan of the first 1024 bytes and "get an XML
 * encoding"), and the document decoded in it (Encoding Standard,
 * "decode"). For a document read from a file or a pipe, which has no
 * transport layer to say its charset unless the caller passes one.
 */
import { encodingForLabel } from './encoding-labels.js';
import { charsetParameter } from './document-encoding.js';
import { SINGLE_BYTE_INDEXES } from './single-byte-indexes.js';

/**
 * What {@link sniffHtmlEncoding} is told besides the bytes; each an
 * Encoding Standard label (an unknown one throws a RangeError).
 *
 * @example
 * ```ts
 * const opts: SniffOptions = { transport: 'text/html; charset=koi8-r' };
 * sniffHtmlEncoding(new TextEncoder().encode('<p>'), opts).encoding // "koi8-r"
 * ```
 */
export interface SniffOptions {
  /** The user's override of the document's encoding (step 2 of the algorithm; a byte order mark still wins). */
  override?: string;
  /** The transport layer's charset (step 4): a label, or a Content-Type value whose `charset` parameter is read. */
  transport?: string;
  /**
   * Before the default, take bytes that are well-formed UTF-8 and not all
   * ASCII as UTF-8 (the optional autodetection step: "Files from the local
   * file system that contain bytes with values greater than 0x7F which
   * match the UTF-8 pattern are very likely to be UTF-8"). Off by default:
   * the Standard discourages autodetection for resources from the network.
   */
  detectUtf8?: boolean;
  /** The default when nothing else decides (the last step): windows-1252, the Standard's suggestion for most locales. */
  fallback?: string;
}

/**
 * The encoding {@link sniffHtmlEncoding} found (its name in the Encoding
 * Standard), the algorithm's confidence in it, and which step decided.
 *
 * @example
 * ```ts
 * const found: SniffedEncoding = { encoding: 'utf-8', confidence: 'certain', from: 'bom' };
 * sniffHtmlEncoding(new Uint8Array([0xef, 0xbb, 0xbf, 0x3c])) // found
 * ```
 */
export interface SniffedEncoding {
  encoding: string;
  confidence: 'certain' | 'tentative';
  from: 'bom' | 'override' | 'transport' | 'prescan' | 'autodetect' | 'default';
}

/** The bytes the prescan reads: "User agents are encouraged to only prescan the first 1024 bytes". */
const PRESCAN_BYTES = 1024;

/** Encoding Standard, "get an encoding", throwing for a label the Standard does not know. */
function encodingOrThrow(label: string, what: string): string {
  const encoding = encodingForLabel(label);
  if (encoding === undefined) throw new RangeError(`${what} "${label}" is no encoding label of the Encoding Standard`);
  return encoding;
}

/**
 * Encoding Standard, "BOM sniff": UTF-8 for EF BB BF, UTF-16BE for FE FF,
 * UTF-16LE for FF FE, else undefined.
 *
 * @example
 * ```ts
 * bomEncoding(new Uint8Array([0xff, 0xfe, 0x3c, 0x00])) // "utf-16le"
 * bomEncoding(new Uint8Array([0x3c])) // undefined
 * ```
 */
export function bomEncoding(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return undefined;
}

/**
 * HTML's encoding sniffing algorithm for `bytes`, the whole document: the
 * byte order mark, the user's `override`, the `transport` layer's
 * charset, the prescan of the first 1024 bytes for `<meta charset>` or
 * `<meta http-equiv="content-type" content="...charset=...">` (or an XML
 * declaration), with `detectUtf8` well-formed UTF-8, and else the
 * `fallback` (windows-1252). The steps for a nested browsing context and
 * remembered pages do not apply to bytes alone.
 *
 * @see https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm
 * @example
 * ```ts
 * const bytes = (s: string) => new TextEncoder().encode(s);
 * sniffHtmlEncoding(bytes('<meta charset="ISO-8859-2"><p>')) // { encoding: "iso-8859-2", confidence: "tentative", from: "prescan" }
 * sniffHtmlEncoding(bytes('<p>caf\u00e9')).encoding // "windows-1252"
 * sniffHtmlEncoding(bytes('<p>caf\u00e9'), { detectUtf8: true }).encoding // "utf-8"
 * sniffHtmlEncoding(bytes('<p>'), { override: 'utf-8' }).encoding // "utf-8"
 * sniffHtmlEncoding(bytes('<p>'), { override: 'klingon' }) // throws RangeError
 * ```
 */
export function sniffHtmlEncoding(bytes: Uint8Array, opts?: SniffOptions): SniffedEncoding {
  const bom = bomEncoding(bytes);
  if (bom !== undefined) return { encoding: bom, confidence: 'certain', from: 'bom' };
  if (opts?.override !== undefined) return { encoding: encodingOrThrow(opts.override, 'the override'), confidence: 'certain', from: 'override' };
  if (opts?.transport !== undefined) {
    // "If the transport layer specifies a character encoding, and it is supported".
    const label = opts.transport.includes('=') ? charsetParameter(opts.transport) : opts.transport;
    const encoding = label === undefined ? undefined : encodingForLabel(label);
    if (encoding !== undefined) return { encoding, confidence: 'certain', from: 'transport' };
  }
  const declared = prescanEncoding(bytes.subarray(0, PRESCAN_BYTES));
  if (declared !== undefined) return { encoding: declared, confidence: 'tentative', from: 'prescan' };
  if (opts?.detectUtf8 === true && isNonAsciiUtf8(bytes)) return { encoding: 'utf-8', confidence: 'tentative', from: 'autodetect' };
  return { encoding: encodingOrThrow(opts?.fallback ?? 'windows-1252', 'the fallback'), confidence: 'tentative', from: 'default' };
}

/** True when `bytes` hold a byte above 0x7F and are well-formed UTF-8 (Encoding Standard, UTF-8 decoder without error). */
function isNonAsciiUtf8(bytes: Uint8Array): boolean {
  let i = 0;
  while (i < bytes.length && bytes[i]! < 0x80) i++;
  if (i === bytes.length) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(i));
    return true;
  } catch {
    return false;
  }
}

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

/**
 * An HTML document's bytes as text, in the encoding
 * {@link sniffHtmlEncoding} finds (Encoding Standard, "decode": a byte
 * order mark is dropped; malformed bytes become U+FFFD), with that
 * encoding. UTF-8, UTF-16 and the multi-byte encodings are decoded by the
 * platform's `TextDecoder`; the legacy single-byte encodings and
 * x-user-defined by the Standard's indexes here (Node 22's decoders read a
 * few bytes the old way and lack iso-8859-16); the replacement encoding
 * decodes to one U+FFFD.
 *
 * @example
 * ```ts
 * const html = new Uint8Array([...new TextEncoder().encode('<a href="caf'), 0xe9, ...new TextEncoder().encode('">')]);
 * decodeHtml(html) // { text: "<a href=\"café\">", encoding: "windows-1252", confidence: "tentative", from: "default" }
 * decodeHtml(new Uint8Array([0xff, 0xfe, 0x3c, 0x00, 0x70, 0x00])).text // "<p"
 * ```
 */
export function decodeHtml(bytes: Uint8Array, opts?: SniffOptions): SniffedEncoding & { text: string } {
  const found = sniffHtmlEncoding(bytes, opts);
  return { text: decodeIn(bytes, found.encoding), ...found };
}

/**
 * Encoding Standard, "decode" of `bytes` in `encoding` (a name of the
 * Standard), as {@link decodeHtml} decodes once the encoding is known.
 *
 * @example
 * ```ts
 * decodeIn(new Uint8Array([0x63, 0xe9]), 'iso-8859-16') // "cé"
 * decodeIn(new Uint8Array([0x41, 0x80]), 'x-user-defined') // "A\uf780"
 * decodeIn(new Uint8Array([0x1b, 0x24]), 'replacement') // "\ufffd"
 * ```
 */
export function decodeIn(bytes: Uint8Array, encoding: string): string {
  // Encoding Standard, "replacement decoder": one U+FFFD for any input, nothing for none.
  if (encoding === 'replacement') return bytes.length === 0 ? '' : '\ufffd';
  if (encoding === 'x-user-defined' || SINGLE_BYTE_INDEXES.has(encoding)) return decodeSingleByte(bytes, encoding);
  let decoder: InstanceType<typeof TextDecoder>;
  try {
    decoder = new TextDecoder(encoding);
  } catch {
    throw new RangeError(`this platform's TextDecoder cannot decode ${encoding}`);
  }
  return decoder.decode(bytes);
}

/** Encoding Standard, "single-byte decoder" and "x-user-defined decoder" (0x80-0xFF to U+F780-U+F7FF). */
function decodeSingleByte(bytes: Uint8Array, encoding: string): string {
  const index = SINGLE_BYTE_INDEXES.get(encoding);
  let out = '';
  for (let i = 0; i < bytes.length; i += 4096) {
    const chunk = bytes.subarray(i, i + 4096);
    const units = new Array<number>(chunk.length);
    for (let j = 0; j < chunk.length; j++) {
      const b = chunk[j]!;
      units[j] = b < 0x80 ? b : index === undefined ? 0xf700 + b : index.charCodeAt(b - 0x80);
    }
    out += String.fromCharCode(...units);
  }
  return out;
}
