/**
 * The character sets a text/urc-0 part may declare for its
 * metainformation: "US-ASCII" or "ISO-8859-x", x from 1 to 9
 * (1995 draft §3.4.2). Decoding and encoding are exact: no byte is
 * guessed, an undefined position is an error.
 */

/**
 * The charsets a text/urc-0 header may name, upper-cased (1995 draft
 * §3.4.2: "US-ASCII" or "ISO-8859-x", x from 1 to 9).
 *
 * @example
 * ```ts
 * const cs: Urc0Charset = 'ISO-8859-1';
 * urc0Charset('iso-8859-1') === cs // true
 * ```
 */
export type Urc0Charset =
  | 'US-ASCII' | 'ISO-8859-1' | 'ISO-8859-2' | 'ISO-8859-3' | 'ISO-8859-4'
  | 'ISO-8859-5' | 'ISO-8859-6' | 'ISO-8859-7' | 'ISO-8859-8' | 'ISO-8859-9';

/**
 * Returns the canonical (upper-case) spelling of a urc-0 charset name, or
 * `undefined` if the 1995 draft §3.4.2 does not allow it.
 *
 * @example
 * ```ts
 * urc0Charset('iso-8859-2') // 'ISO-8859-2'
 * urc0Charset('UTF-8')      // undefined
 * ```
 */
export function urc0Charset(name: string): Urc0Charset | undefined {
  const upper = name.toUpperCase();
  if (upper === 'US-ASCII') return upper;
  // "ISO-8859-x", where "x" is a digit in the range "1" through "9"
  if (upper.length === 10 && upper.startsWith('ISO-8859-')) {
    const x = upper.charCodeAt(9);
    if (x >= 0x31 && x <= 0x39) return upper as Urc0Charset;
  }
  return undefined;
}

/** ISO-8859-9 is ISO-8859-1 with six Turkish letters (ISO/IEC 8859-9:1999). */
const LATIN5_DIFF: ReadonlyArray<readonly [number, number]> = [
  [0xd0, 0x011e], [0xdd, 0x0130], [0xde, 0x015e],
  [0xf0, 0x011f], [0xfd, 0x0131], [0xfe, 0x015f],
];

const tables = new Map<Urc0Charset, Int32Array>();

/**
 * The 256-entry byte -> code point table of a charset, -1 where the
 * charset leaves a byte undefined. ISO-8859-2..8 come from the platform's
 * WHATWG decoder, whose tables for those seven are the ISO ones; ISO-8859-1
 * and -9 are built here because WHATWG maps them to windows-1252/1254.
 */
function tableOf(charset: Urc0Charset): Int32Array {
  let t = tables.get(charset);
  if (t) return t;
  t = new Int32Array(256);
  for (let b = 0; b < 256; b++) t[b] = b;
  if (charset === 'US-ASCII') {
    for (let b = 0x80; b < 256; b++) t[b] = -1;
  } else if (charset === 'ISO-8859-9') {
    for (const [b, cp] of LATIN5_DIFF) t[b] = cp;
  } else if (charset !== 'ISO-8859-1') {
    const decoder = new TextDecoder(charset.toLowerCase());
    for (let b = 0xa0; b < 256; b++) {
      const s = decoder.decode(new Uint8Array([b]));
      const cp = s.codePointAt(0) ?? 0xfffd;
      t[b] = cp === 0xfffd ? -1 : cp;
    }
  }
  tables.set(charset, t);
  return t;
}

/**
 * Decodes `bytes[start, end)` in `charset`; returns the index of the first
 * byte the charset does not define instead of a string when there is one.
 *
 * @example
 * ```ts
 * decodeUrc0Bytes(new Uint8Array([0x41, 0xe9]), 0, 2, 'ISO-8859-1') // 'Aé'
 * ```
 */
export function decodeUrc0Bytes(bytes: Uint8Array, start: number, end: number, charset: Urc0Charset): string | number {
  const t = tableOf(charset);
  let out = '';
  for (let i = start; i < end; i++) {
    const cp = t[bytes[i]!]!;
    if (cp < 0) return i;
    out += String.fromCharCode(cp);
  }
  return out;
}

const reverse = new Map<Urc0Charset, Map<number, number>>();

/**
 * Encodes `text` in `charset` onto `out`; returns the index of the first
 * character the charset cannot represent, or -1 when all were written.
 *
 * @example
 * ```ts
 * const out: number[] = [];
 * encodeUrc0Text('Aé', 'ISO-8859-1', out); // -1
 * out; // [0x41, 0xe9]
 * encodeUrc0Text('Ā', 'ISO-8859-1', []); // 0 (not in Latin-1)
 * ```
 */
export function encodeUrc0Text(text: string, charset: Urc0Charset, out: number[]): number {
  let r = reverse.get(charset);
  if (!r) {
    r = new Map();
    const t = tableOf(charset);
    for (let b = 0; b < 256; b++) if (t[b]! >= 0) r.set(t[b]!, b);
    reverse.set(charset, r);
  }
  for (let i = 0; i < text.length; i++) {
    const b = r.get(text.charCodeAt(i));
    if (b === undefined) return i;
    out.push(b);
  }
  return -1;
}
