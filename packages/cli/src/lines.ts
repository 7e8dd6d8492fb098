/**
 * Cutting a byte stream into blocks of whole lines, the input side of bulk
 * mode. The stream is pulled only as fast as the blocks are consumed
 * (backpressure), and the bytes held never exceed one block plus one line
 * of at most `maxLine` bytes plus one chunk: a longer line is reported as
 * too long and skipped without being held, so memory stays constant on any
 * input.
 */

/**
 * What {@link splitLines} yields: a run of whole lines, or the number of a line too long to hold.
 *
 * @example
 * ```ts
 * const pieces: Piece[] = [];
 * import { Readable } from 'node:stream';
 * const chunks = Readable.from(['a\n', '0123456789', '\nb\n'].map((s) => Buffer.from(s)));
 * for await (const p of splitLines(chunks, { blockSize: 1, maxLine: 4 })) pieces.push(p);
 * pieces.map((p) => (p.kind === 'lines' ? p.bytes.toString() : p)) // ['a\n', { kind: 'too-long', line: 2 }, 'b\n']
 * ```
 */
export type Piece =
  | { kind: 'lines'; bytes: Buffer; firstLine: number; lines: number }
  | { kind: 'too-long'; line: number };

/**
 * How {@link splitLines} cuts.
 *
 * @example
 * ```ts
 * const o: SplitOptions = { blockSize: 6, maxLine: 16 };
 * const blocks: string[] = [];
 * import { Readable } from 'node:stream';
 * for await (const p of splitLines(Readable.from(['ab\n', 'cd\n', 'ef\n', 'gh\n'].map((s) => Buffer.from(s))), o)) if (p.kind === 'lines') blocks.push(p.bytes.toString());
 * blocks // ['ab\ncd\n', 'ef\ngh\n'] (a block is yielded once 6 bytes are held)
 * ```
 */
export interface SplitOptions {
  /** A block is yielded once this many bytes are held and a line has ended (about). */
  blockSize: number;
  /** A line found longer than this while it is still being read is reported and skipped. */
  maxLine: number;
}

/**
 * Counts the line feeds in `buf[0, end)` with the native search.
 *
 * @example
 * ```ts
 * countLines(Buffer.from('a\nb\n'), 4) // 2
 * ```
 */
export function countLines(buf: Uint8Array, end: number): number {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  let n = 0;
  let i = b.indexOf(10);
  while (i >= 0 && i < end) {
    n++;
    i = b.indexOf(10, i + 1);
  }
  return n;
}

/**
 * Yields the blocks of whole lines of `stream` with the number of their
 * first line (1-based). The last block may end without a line feed. A line
 * becomes a `too-long` piece when more than `maxLine` of its bytes are held
 * before its end is seen; a line never longer than `maxLine` is always
 * yielded whole.
 *
 * @example
 * ```ts
 * // A line cut across two chunks comes out whole; the last line needs no line feed.
 * const blocks: string[] = [];
 * import { Readable } from 'node:stream';
 * const stdin = Readable.from([Buffer.from('http://a/\nhttp:'), Buffer.from('//b/\nhttp://c/')]);
 * for await (const p of splitLines(stdin, { blockSize: 8, maxLine: 1 << 24 })) {
 *   if (p.kind === 'lines') blocks.push(`${p.firstLine}+${p.lines}: ${p.bytes.toString('utf8')}`);
 * }
 * blocks // ['1+1: http://a/\n', '2+1: http://b/\n', '3+0: http://c/']
 * ```
 */
export async function* splitLines(stream: AsyncIterable<Uint8Array>, o: SplitOptions): AsyncGenerator<Piece> {
  let parts: Buffer[] = [];
  let partsLen = 0;
  /** Index in the held bytes of the last line feed, or -1. */
  let lastNl = -1;
  let line = 1;
  let skipping = false;

  const cut = (upTo: number): Piece => {
    const buf = parts.length === 1 ? parts[0]! : Buffer.concat(parts, partsLen);
    const bytes = buf.subarray(0, upTo);
    const lines = countLines(bytes, upTo);
    const piece: Piece = { kind: 'lines', bytes, firstLine: line, lines };
    line += lines;
    const rest = buf.subarray(upTo);
    parts = rest.length ? [rest] : [];
    partsLen = rest.length;
    lastNl = -1;
    return piece;
  };

  for await (const chunk of stream) {
    let c = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (skipping) {
      const nl = c.indexOf(10);
      if (nl < 0) continue;
      c = c.subarray(nl + 1);
      skipping = false;
      line++;
    }
    if (c.length === 0) continue;
    const lastInChunk = c.lastIndexOf(10);
    if (lastInChunk >= 0) lastNl = partsLen + lastInChunk;
    parts.push(c);
    partsLen += c.length;
    if (partsLen - (lastNl + 1) > o.maxLine) {
      // The line being read is too long to hold: the lines before it go out, it is reported and skipped.
      if (lastNl >= 0) yield cut(lastNl + 1);
      yield { kind: 'too-long', line };
      parts = [];
      partsLen = 0;
      lastNl = -1;
      skipping = true;
      continue;
    }
    if (partsLen >= o.blockSize && lastNl >= 0) yield cut(lastNl + 1);
  }
  if (partsLen > 0) yield cut(partsLen);
}
