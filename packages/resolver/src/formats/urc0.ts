/**
 * text/urc-0, the resolution result format of the 1995 draft §3.4.2:
 *
 * ```
 *   *[<header><CRLF><some-URL><CRLF>[<metainformation>]]
 *   header = "=====" [ charset [ "/" language ] ]
 * ```
 *
 * Each part names one location; a URL longer than a line is written as
 * `<URL:...>` over several lines (RFC 1738 §2.2 "wrapped" form); no line
 * of metainformation may begin with "=====".
 */
import { DEFAULT_URC0_LINE_LENGTH } from '../defaults/index.js';
import { ResolverError } from '../errors/resolver-error.js';
import { decodeUrc0Bytes, encodeUrc0Text, urc0Charset, type Urc0Charset } from './charset.js';

export type { Urc0Charset } from './charset.js';

/**
 * One part of a text/urc-0 result: a location and its metainformation
 * (1995 draft §3.4.2).
 *
 * @example
 * ```ts
 * const part: Urc0Part = { charset: 'US-ASCII', language: 'en', url: 'mailto:url-admin@flixco.com' };
 * formatUrc0Text([part]); // '=====US-ASCII/en\r\nmailto:url-admin@flixco.com\r\n'
 * ```
 */
export interface Urc0Part {
  /**
   * The charset of the metainformation. {@link parseUrc0} fills in the
   * 1995 draft's default, "US-ASCII", where the header names none; to
   * {@link formatUrc0Text}, `undefined` writes a bare "=====" header.
   */
  charset?: Urc0Charset;
  /**
   * The language of the metainformation. {@link parseUrc0} fills in the
   * draft's default, "x-unspecified", where the header names none;
   * {@link formatUrc0Text} leaves the default out of the header.
   */
  language?: string;
  /** The URL, unwrapped: the `<URL:` `>` wrapper and the line breaks inside it removed. */
  url: string;
  /** The metainformation lines joined with "\n" (decoded from `charset`); `undefined` when the part has none. */
  meta?: string;
}

/**
 * A malformed text/urc-0 body: a {@link ResolverError} with code `bad-urc0`
 * and the 1-based `line` where the problem is.
 *
 * @example
 * ```ts
 * let line = 0;
 * try { parseUrc0('=====\r\nftp://a/b\r\n=====UTF-9\r\nftp://c/\r\n'); } catch (e) { line = (e as Urc0SyntaxError).line; }
 * line // 3
 * parseUrc0('ftp://a/b\r\n') // throws Urc0SyntaxError bad-urc0
 * ```
 */
export class Urc0SyntaxError extends ResolverError {
  override readonly name: string = 'Urc0SyntaxError';
  /** 1-based line number of the offending line. */
  readonly line: number;
  constructor(line: number, offset: number, reason: string) {
    super('bad-urc0', offset, undefined, `line ${line}: ${reason}`);
    this.line = line;
  }
}

/** "=====", the start of every header (1995 draft §3.4.2). */
const MARK = '=====';
/** 1995 draft §3.4.2: for the charset "If not specified, the default is "US-ASCII""; for the language, ""x-unspecified"". */
const DEFAULT_CHARSET: Urc0Charset = 'US-ASCII';
const DEFAULT_LANGUAGE = 'x-unspecified';

// RFC 1766 §2: Language-Tag = Primary-tag *( "-" Subtag ); 1*8ALPHA each
// (RFC 3066 later allowed digits in subtags; "x-unspecified" is the default).
const ALPHA = new Uint8Array(128);
for (let c = 0x41; c <= 0x5a; c++) { ALPHA[c] = 1; ALPHA[c + 0x20] = 1; }
const ALNUM = new Uint8Array(ALPHA);
for (let c = 0x30; c <= 0x39; c++) ALNUM[c] = 1;

/** True if `tag` is a language tag of RFC 1766 (subtags may have digits, RFC 3066). */
function isLanguageTag(tag: string): boolean {
  let len = 0;
  let first = true;
  for (let i = 0; i < tag.length; i++) {
    const c = tag.charCodeAt(i);
    if (c === 0x2d) {
      if (len === 0) return false;
      first = false;
      len = 0;
      continue;
    }
    if (c >= 128 || !(first ? ALPHA[c] : ALNUM[c])) return false;
    if (++len > 8) return false;
  }
  return len > 0;
}

/** True for the octets a URL may contain (RFC 1738 §2.2: printable US-ASCII, no space). */
function isUrlOctet(c: number): boolean {
  return c > 0x20 && c < 0x7f;
}

interface Line { start: number; end: number }

/** Splits on CRLF (a bare LF is accepted too); a lone CR is an error. */
function splitLines(at: (i: number) => number, length: number): Line[] {
  const lines: Line[] = [];
  let start = 0;
  for (let i = 0; i < length; i++) {
    const c = at(i);
    if (c === 0x0d) {
      if (i + 1 >= length || at(i + 1) !== 0x0a) throw new Urc0SyntaxError(lines.length + 1, i, 'a CR must be followed by LF');
      lines.push({ start, end: i });
      i++;
      start = i + 1;
    } else if (c === 0x0a) {
      lines.push({ start, end: i });
      start = i + 1;
    }
  }
  if (start < length) lines.push({ start, end: length });
  return lines;
}

/**
 * Options of {@link parseUrc0} (1995 draft §3.4.2 ends every line with
 * CRLF).
 *
 * @example
 * ```ts
 * const opts: ParseUrc0Options = { strictCrlf: true };
 * parseUrc0('=====\nhttp://a/\n', opts); // throws bad-urc0
 * parseUrc0('=====\nhttp://a/\n'); // [{ charset: 'US-ASCII', language: 'x-unspecified', url: 'http://a/' }]
 * ```
 */
export interface ParseUrc0Options {
  /** Refuse a bare LF as a line end (default false: CRLF and LF both end a line). */
  strictCrlf?: boolean;
}

/**
 * Parses a text/urc-0 resolution result (1995 draft §3.4.2) into its
 * parts. Bytes are decoded per part in the charset its header names
 * (US-ASCII or ISO-8859-1..9); a string is taken as already decoded.
 * Where a header names no charset or no language, the part has the
 * draft's defaults: "US-ASCII" and "x-unspecified".
 * Throws {@link Urc0SyntaxError} (code `bad-urc0`, with `line`) on a
 * malformed body.
 *
 * @example
 * ```ts
 * parseUrc0('=====\r\nftp://elm.wnln.edu/pub/mirrors/phone-list.txt\r\n')
 * // [{ charset: 'US-ASCII', language: 'x-unspecified', url: 'ftp://elm.wnln.edu/pub/mirrors/phone-list.txt' }]
 * parseUrc0('=====ISO-8859-1\r\nhttp://a/\r\n')[0]?.language // "x-unspecified"
 * ```
 */
export function parseUrc0(body: string | Uint8Array, opts: ParseUrc0Options = {}): Urc0Part[] {
  const isBytes = typeof body !== 'string';
  const at = isBytes ? (i: number) => body[i]! : (i: number) => body.charCodeAt(i);
  const length = body.length;
  if (opts.strictCrlf) {
    for (let i = 0; i < length; i++) {
      if (at(i) === 0x0a && (i === 0 || at(i - 1) !== 0x0d)) throw new Urc0SyntaxError(lineAt(at, i), i, 'a line must end with CRLF');
    }
  }
  const lines = splitLines(at, length);
  const ascii = (l: Line): string => {
    let s = '';
    for (let i = l.start; i < l.end; i++) s += String.fromCharCode(at(i));
    return s;
  };
  const parts: Urc0Part[] = [];
  let n = 0;
  while (n < lines.length) {
    const hl = lines[n]!;
    const header = ascii(hl);
    if (!header.startsWith(MARK)) throw new Urc0SyntaxError(n + 1, hl.start, 'a part must begin with a "=====" header');
    const part = parseHeader(header, n + 1, hl.start);
    n++;
    // <some-URL><CRLF>
    const ul = lines[n];
    if (!ul || ul.start === ul.end) throw new Urc0SyntaxError(n + 1, ul ? ul.start : length, 'a header must be followed by a URL');
    let url = ascii(ul);
    if (url.startsWith('<URL:')) {
      let wrapped = url;
      while (!wrapped.endsWith('>')) {
        n++;
        const more = lines[n];
        if (!more || ascii(more).startsWith(MARK)) throw new Urc0SyntaxError(n + 1, more ? more.start : length, 'a "<URL:" is not closed by ">"');
        wrapped += ascii(more);
      }
      // RFC 1738 §2.2: whitespace inside a wrapped URL is ignored.
      url = '';
      for (let i = 5; i < wrapped.length - 1; i++) {
        const c = wrapped.charCodeAt(i);
        if (c !== 0x20 && c !== 0x09) url += wrapped[i];
      }
    }
    for (let i = 0; i < url.length; i++) {
      if (!isUrlOctet(url.charCodeAt(i))) throw new Urc0SyntaxError(n + 1, ul.start + i, 'a URL is printable US-ASCII without spaces (RFC 1738 §2.2)');
    }
    if (url.length === 0) throw new Urc0SyntaxError(n + 1, ul.start, 'the URL is empty');
    part.url = url;
    n++;
    // [<metainformation>]: every line up to the next header.
    const metaLines: string[] = [];
    const charset = part.charset ?? DEFAULT_CHARSET;
    while (n < lines.length) {
      const ml = lines[n]!;
      if (ascii({ start: ml.start, end: Math.min(ml.end, ml.start + 5) }) === MARK) break;
      if (isBytes) {
        const text = decodeUrc0Bytes(body, ml.start, ml.end, charset);
        if (typeof text === 'number') throw new Urc0SyntaxError(n + 1, text, `byte 0x${body[text]!.toString(16)} is not defined in ${charset}`);
        metaLines.push(text);
      } else {
        const text = body.slice(ml.start, ml.end);
        const bad = encodeUrc0Text(text, charset, []);
        if (bad >= 0) throw new Urc0SyntaxError(n + 1, ml.start + bad, `this character is not in ${charset}`);
        metaLines.push(text);
      }
      n++;
    }
    if (metaLines.length > 0) part.meta = metaLines.join('\n');
    parts.push(part);
  }
  return parts;
}

function lineAt(at: (i: number) => number, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (at(i) === 0x0a) line++;
  return line;
}

/** `=====[<charset>[/<language>]]` (1995 draft §3.4.2), the defaults filled in. */
function parseHeader(header: string, line: number, offset: number): Urc0Part {
  const part: Urc0Part = { charset: DEFAULT_CHARSET, language: DEFAULT_LANGUAGE, url: '' };
  const rest = header.slice(MARK.length);
  if (rest.length === 0) return part;
  const slash = rest.indexOf('/');
  const cs = slash < 0 ? rest : rest.slice(0, slash);
  const charset = urc0Charset(cs);
  if (!charset) throw new Urc0SyntaxError(line, offset + 5, `"${cs}" is not US-ASCII or ISO-8859-1..9`);
  part.charset = charset;
  if (slash >= 0) {
    const lang = rest.slice(slash + 1);
    if (!isLanguageTag(lang)) throw new Urc0SyntaxError(line, offset + 6 + slash, `"${lang}" is not a language tag (RFC 1766)`);
    part.language = lang;
  }
  return part;
}

/**
 * Options of {@link formatUrc0} and {@link formatUrc0Text} (1995 draft
 * §3.4.2: a URL "more than one line long" is written as `<URL:...>`).
 *
 * @example
 * ```ts
 * const opts: FormatUrc0Options = { maxLineLength: 40 };
 * formatUrc0Text([{ url: 'ftp://elm.wnln.edu/pub/mirrors/phone-list.txt' }], opts);
 * // '=====\r\n<URL:ftp://elm.wnln.edu/pub/mirrors\r\n/phone-list.txt>\r\n'
 * ```
 */
export interface FormatUrc0Options {
  /**
   * Longest line for a URL, in characters; a longer URL is written as
   * `<URL:...>` wrapped over several lines, broken before a "/". Default
   * 76; `Infinity` never wraps.
   */
  maxLineLength?: number;
}

/**
 * Writes parts as a text/urc-0 result (1995 draft §3.4.2) and returns its
 * text, with CRLF line ends. Throws `ResolverError('bad-urc0')` for what the
 * format cannot carry: a URL with spaces or controls, a metainformation
 * line beginning with "=====", a character outside the part's charset.
 *
 * @example
 * ```ts
 * formatUrc0Text([{ url: 'ftp://elm.wnln.edu/pub/mirrors/phone-list.txt' }])
 * // '=====\r\nftp://elm.wnln.edu/pub/mirrors/phone-list.txt\r\n'
 * ```
 */
export function formatUrc0Text(parts: readonly Urc0Part[], opts: FormatUrc0Options = {}): string {
  const max = opts.maxLineLength ?? DEFAULT_URC0_LINE_LENGTH;
  let out = '';
  for (const part of parts) {
    let header = MARK;
    // The default language needs no "/x-unspecified" (1995 draft §3.4.2).
    const language = part.language === DEFAULT_LANGUAGE ? undefined : part.language;
    if (part.charset !== undefined || language !== undefined) {
      const cs = urc0Charset(part.charset ?? DEFAULT_CHARSET);
      if (!cs) throw new ResolverError('bad-urc0', 0, String(part.charset), 'not US-ASCII or ISO-8859-1..9');
      header += cs;
      if (language !== undefined) {
        if (!isLanguageTag(language)) throw new ResolverError('bad-urc0', 0, language, 'not a language tag (RFC 1766)');
        header += `/${language}`;
      }
    }
    out += `${header}\r\n`;
    const url = part.url;
    if (url.length === 0) throw new ResolverError('bad-urc0', 0, url, 'the URL is empty');
    for (let i = 0; i < url.length; i++) {
      if (!isUrlOctet(url.charCodeAt(i))) throw new ResolverError('bad-urc0', i, url, 'a URL is printable US-ASCII without spaces (RFC 1738 §2.2)');
    }
    if (url.startsWith(MARK)) throw new ResolverError('bad-urc0', 0, url, 'a URL line cannot begin with "====="');
    out += url.length <= max ? `${url}\r\n` : wrapUrl(url, max);
    if (part.meta !== undefined) {
      const charset = part.charset ?? DEFAULT_CHARSET;
      for (const line of part.meta.split('\n')) {
        if (line.startsWith(MARK)) throw new ResolverError('bad-urc0', 0, line, 'no line of metainformation may begin with "====="');
        if (line.includes('\r')) throw new ResolverError('bad-urc0', line.indexOf('\r'), line, 'a CR inside metainformation');
        const bad = encodeUrc0Text(line, charset, []);
        if (bad >= 0) throw new ResolverError('bad-urc0', bad, line, `this character is not in ${charset}`);
        out += `${line}\r\n`;
      }
    }
  }
  return out;
}

/** `<URL:` + url + `>` in lines of at most `max` characters, broken before a "/" where one fits (RFC 1738 §2.2). */
function wrapUrl(url: string, max: number): string {
  let s = `<URL:${url}>`;
  const width = Math.max(max, 8);
  let out = '';
  while (s.length > width) {
    let p = -1;
    for (let i = width; i > 5; i--) {
      if (s.charCodeAt(i) === 0x2f && s.charCodeAt(i - 1) !== 0x2f) { p = i; break; }
    }
    if (p < 0) p = width;
    out += `${s.slice(0, p)}\r\n`;
    s = s.slice(p);
  }
  return `${out}${s}\r\n`;
}

/**
 * Writes parts as a text/urc-0 body in bytes: {@link formatUrc0Text} with
 * each part's metainformation encoded in its charset (1995 draft §3.4.2).
 *
 * @example
 * ```ts
 * const body = formatUrc0([{ charset: 'ISO-8859-1', url: 'http://a/', meta: 'café' }]);
 * body.length; // 34
 * body[31]; // 0xe9 ('é' in ISO-8859-1)
 * ```
 */
export function formatUrc0(parts: readonly Urc0Part[], opts: FormatUrc0Options = {}): Uint8Array {
  const bytes: number[] = [];
  for (const part of parts) {
    const text = formatUrc0Text([part], opts);
    encodeUrc0Text(text, part.charset ?? DEFAULT_CHARSET, bytes);
  }
  return Uint8Array.from(bytes);
}
