/**
 * Text read in chunks of about 64 KiB, for `urikit extract`: each chunk
 * decoded from UTF-8 on its own (Latin-1 when all ASCII, a plain copy),
 * cut before a character whose bytes are not all read yet, so that no
 * character is split; a byte order mark at the start is dropped, as
 * `TextDecoder` drops it. Strings of this size are ones V8 scans fastest
 * (a string of more than about 128 KB is a large object, and the
 * extractor's scans measured about twice as fast on 64 KiB chunks as on
 * 1 MiB ones).
 */
import { isAscii } from 'node:buffer';
import type { ReadInto } from './lines.js';

/** Bytes of a chunk (about). */
const CHUNK = 64 * 1024;

/**
 * Where the bytes of `buf[0, len)` can be cut without splitting a UTF-8
 * sequence: `len`, or the start of an unfinished sequence at the end.
 *
 * @example
 * ```ts
 * const b = Buffer.from('a\u00e9');  // 61 c3 a9
 * [utf8Cut(b, 3), utf8Cut(b, 2), utf8Cut(b, 1)] // [3, 1, 1]
 * ```
 */
export function utf8Cut(buf: Uint8Array, len: number): number {
  let i = len - 1;
  // Back over at most three continuation bytes (10xxxxxx) to the sequence's lead byte.
  while (i >= 0 && i > len - 4 && (buf[i]! & 0xc0) === 0x80) i--;
  if (i < 0) return len;
  const lead = buf[i]!;
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return len - i < need ? i : len;
}

/**
 * The text that `read` gives, as chunks of about 64 KiB.
 *
 * @example
 * ```ts
 * import { chunkReader } from './lines.js';
 * const bytes = Buffer.from('\uFEFFcaf\u00e9 au lait');
 * // Read a byte at a time: no chunk ends inside the é.
 * const one = Array.from(bytes, (b) => Uint8Array.of(b));
 * const chunks: string[] = [];
 * for await (const t of textChunks(chunkReader(one))) chunks.push(t);
 * chunks.join('') // 'caf\u00e9 au lait'
 * ```
 */
export async function* textChunks(read: ReadInto): AsyncGenerator<string> {
  const buf = Buffer.allocUnsafe(CHUNK + 4);
  let len = 0;
  let first = true;
  let done = false;
  while (!done) {
    // Fill the chunk (a pipe gives at most 64 KiB a read, often less).
    while (len < CHUNK) {
      const got = read(buf, len, CHUNK - len);
      const n = typeof got === 'number' ? got : await got;
      if (n === 0) {
        done = true;
        break;
      }
      len += n;
    }
    let from = 0;
    if (first && len >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) from = 3;
    if (first && (len >= 3 || done)) first = false;
    // At the end, an unfinished sequence is decoded as it is (to U+FFFD, as TextDecoder does).
    const cut = done ? len : utf8Cut(buf, len);
    if (cut > from) {
      const part = buf.subarray(from, cut);
      yield isAscii(part) ? buf.toString('latin1', from, cut) : buf.toString('utf8', from, cut);
    }
    buf.copyWithin(0, cut, len);
    len -= cut;
  }
}
