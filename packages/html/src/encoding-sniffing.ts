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
import { prescanEncoding } from './encoding-prescan.js';

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
