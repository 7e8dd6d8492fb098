/**
 * Cutting a byte stream into blocks of whole lines, the input side of bulk
 * mode. The bytes are read into one buffer of about a block (reused from
 * block to block: no allocation per chunk, no concatenation), and a block
 * is the buffer up to its last line feed; the unfinished line after it
 * moves to the front for the next read. A line longer than `maxLine` bytes
 * is reported as too long and skipped without being held, so memory stays
 * constant on any input: the buffer grows only for a line that does not
 * fit, and never past `maxLine` + 1 bytes.
 */
import { readSync } from 'node:fs';

/**
 * What {@link readLines} yields: a run of whole lines (the last one of the
 * input may lack its line feed), or a line too long to hold. `bytes` is a
 * view into the reader's buffer, good until the next piece is asked for.
 * Lines are not numbered here: the caller counts them as it goes.
 *
 * @example
 * ```ts
 * const pieces: string[] = [];
 * for await (const p of readLines(chunkReader(['a\n', '0123456789', '\nb\n']), { blockSize: 8, maxLine: 4 })) {
 *   pieces.push(p.kind === 'lines' ? p.bytes.toString() : p.kind);
 * }
 * pieces // ['a\n', 'too-long', 'b\n']
 * ```
 */
export type Piece = { kind: 'lines'; bytes: Buffer } | { kind: 'too-long' };

/**
 * How {@link readLines} cuts.
 *
 * @example
 * ```ts
 * const o: SplitOptions = { blockSize: 6, maxLine: 16 };
 * const blocks: string[] = [];
 * for await (const p of readLines(chunkReader(['ab\n', 'cd\n', 'ef\n', 'gh\n']), o)) if (p.kind === 'lines') blocks.push(p.bytes.toString());
 * blocks // ['ab\ncd\n', 'ef\ngh\n'] (a block is yielded once the 6-byte buffer is full)
 * ```
 */
export interface SplitOptions {
  /** The size of the read buffer, so of a block (about: the last line of the buffer goes to the next block). */
  blockSize: number;
  /** A line of more bytes than this (its line feed not counted, a CR counted) is reported as too long and skipped. */
  maxLine: number;
}

/**
 * Reads bytes into `buf[offset, offset + length)` and returns how many it
 * read (0 at the end of the input), or a promise of that.
 *
 * @example
 * ```ts
 * const read: ReadInto = chunkReader(['abc']);
 * const buf = Buffer.alloc(8);
 * read(buf, 0, 8) // 3
 * ```
 */
export type ReadInto = (buf: Buffer, offset: number, length: number) => number | Promise<number>;

/**
 * A {@link ReadInto} over chunks held in memory, one chunk (or what fits of it) per call.
 *
 * @example
 * ```ts
 * const read = chunkReader(['ab', 'c']);
 * const buf = Buffer.alloc(4);
 * [read(buf, 0, 4), read(buf, 2, 2), read(buf, 3, 1)] // [2, 1, 0]
 * buf.toString('utf8', 0, 3) // 'abc'
 * ```
 */
export function chunkReader(chunks: Array<string | Uint8Array>): ReadInto {
  let i = 0;
  let at = 0;
  return (buf, offset, length) => {
    while (i < chunks.length) {
      const c = chunks[i]!;
      const b = typeof c === 'string' ? Buffer.from(c) : c;
      if (at >= b.length) {
        i++;
        at = 0;
        continue;
      }
      const n = Math.min(length, b.length - at);
      buf.set(b.subarray(at, at + n), offset);
      at += n;
      return n;
    }
    return 0;
  };
}

/**
 * A {@link ReadInto} over a stream (standard input when it cannot be read
 * synchronously), copying from its chunks.
 *
 * @example
 * ```ts
 * import { Readable } from 'node:stream';
 * const read = streamReader(Readable.from([Buffer.from('ab'), Buffer.from('c')]));
 * const buf = Buffer.alloc(4);
 * [await read(buf, 0, 4), await read(buf, 2, 2), await read(buf, 3, 1)] // [2, 1, 0]
 * ```
 */
export function streamReader(stream: AsyncIterable<Uint8Array>): ReadInto {
  const it = stream[Symbol.asyncIterator]();
  let chunk: Uint8Array | undefined;
  let at = 0;
  return async (buf, offset, length) => {
    while (chunk === undefined || at >= chunk.length) {
      const r = await it.next();
      if (r.done) return 0;
      chunk = r.value;
      at = 0;
    }
    const n = Math.min(length, chunk.length - at);
    buf.set(chunk.subarray(at, at + n), offset);
    at += n;
    return n;
  };
}

/**
 * A {@link ReadInto} over a file descriptor, read synchronously (a blocking
 * read per call: no stream, no promise per chunk). A descriptor that would
 * block (standard input opened non-blocking by the process that started
 * this one) is read through `fallback()`'s stream from then on.
 *
 * @example
 * ```ts
 * import { openSync, writeFileSync } from 'node:fs';
 * writeFileSync('abc.txt', 'abc');
 * const read = fdReader(openSync('abc.txt', 'r'));
 * const buf = Buffer.alloc(8);
 * [read(buf, 0, 8), read(buf, 3, 5)] // [3, 0]
 * ```
 */
export function fdReader(fd: number, fallback?: () => AsyncIterable<Uint8Array>): ReadInto {
  let slow: ReadInto | undefined;
  return (buf, offset, length) => {
    if (slow) return slow(buf, offset, length);
    try {
      return readSync(fd, buf, offset, length, null);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EOF') return 0; // Windows' end of a pipe
      if (code !== 'EAGAIN' || !fallback) throw e;
      slow = streamReader(fallback());
      return slow(buf, offset, length);
    }
  };
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
 * Yields the blocks of whole lines of the input that `read` gives, and a
 * `too-long` piece in place of each line of more than `maxLine` bytes.
 * The last block may end without a line feed. A block is yielded when the
 * buffer is full (or at the end of the input), so a slow producer's lines
 * wait until a block's worth has come, as a pipe's reader expects.
 *
 * @example
 * ```ts
 * // A line cut across two reads comes out whole; the last line needs no line feed.
 * const blocks: string[] = [];
 * const read = chunkReader(['http://a/\nhttp:', '//b/\nhttp://c/']);
 * for await (const p of readLines(read, { blockSize: 12, maxLine: 1 << 24 })) {
 *   if (p.kind === 'lines') blocks.push(p.bytes.toString('utf8'));
 * }
 * blocks // ['http://a/\n', 'http://b/\n', 'http://c/']
 * ```
 */
export async function* readLines(read: ReadInto, o: SplitOptions): AsyncGenerator<Piece> {
  let buf = Buffer.allocUnsafe(Math.max(1, o.blockSize));
  /** Bytes held: buf[0, len), starting at the start of a line. */
  let len = 0;
  /** Inside a too-long line: the bytes up to its line feed are dropped. */
  let skipping = false;
  for (;;) {
    if (len === buf.length) {
      // Full: the block is everything up to the last line feed.
      const lastNl = buf.lastIndexOf(10, len - 1);
      if (lastNl >= 0) {
        yield* checked(buf.subarray(0, lastNl + 1), o.maxLine, buf.length);
        buf.copyWithin(0, lastNl + 1, len);
        len -= lastNl + 1;
      } else if (buf.length > o.maxLine) {
        yield { kind: 'too-long' };
        len = 0;
        skipping = true;
      } else {
        // One line fills the buffer: room for it, up to a line of maxLine bytes and its line feed.
        const bigger = Buffer.allocUnsafe(Math.min(buf.length * 2, o.maxLine + 1));
        buf.copy(bigger, 0, 0, len);
        buf = bigger;
      }
      if (len > o.maxLine) {
        // The unfinished line already holds more than maxLine bytes.
        yield { kind: 'too-long' };
        len = 0;
        skipping = true;
      }
      continue;
    }
    const got = read(buf, len, buf.length - len);
    const n = typeof got === 'number' ? got : await got;
    if (n === 0) break;
    if (skipping) {
      // Nothing is held while skipping (len is 0): the bytes after the long line's end are kept.
      const nl = buf.subarray(0, n).indexOf(10);
      if (nl < 0) continue;
      buf.copyWithin(0, nl + 1, n);
      len = n - (nl + 1);
      skipping = false;
      continue;
    }
    len += n;
  }
  if (len > 0 && !skipping) yield* checked(buf.subarray(0, len), o.maxLine, buf.length);
}

/**
 * The block as it is, unless the buffer is larger than a line may be:
 * then each of its lines longer than `maxLine` becomes a `too-long` piece
 * between the runs of lines around it.
 */
function* checked(block: Buffer, maxLine: number, capacity: number): Generator<Piece> {
  if (capacity <= maxLine + 1) {
    // No line of the block can be longer than maxLine (with its line feed, it fit).
    yield { kind: 'lines', bytes: block };
    return;
  }
  let from = 0;
  let pos = 0;
  while (pos < block.length) {
    let nl = block.indexOf(10, pos);
    if (nl < 0) nl = block.length;
    if (nl - pos > maxLine) {
      if (pos > from) yield { kind: 'lines', bytes: block.subarray(from, pos) };
      yield { kind: 'too-long' };
      from = nl + 1;
    }
    pos = nl + 1;
  }
  if (from < block.length) yield { kind: 'lines', bytes: block.subarray(from) };
}
