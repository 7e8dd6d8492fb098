/**
 * The output side of bulk mode: answers gathered as bytes in one large
 * buffer and handed to the stream a buffer at a time, so that a million
 * lines cost a few dozen writes and no string is built per line. Runs of
 * input lines that come out unchanged are copied from the input's bytes
 * in one piece.
 */

/**
 * Where {@link ByteSink} sends a full buffer (standard output's `write`).
 *
 * @example
 * ```ts
 * const seen: string[] = [];
 * const w: WriteBytes = (b) => { seen.push(b.toString()); };
 * w(Buffer.from('a\n'));
 * seen // ['a\n']
 * ```
 */
export type WriteBytes = (bytes: Buffer) => void;

/**
 * A growing run of output bytes, written out whenever the next piece does
 * not fit. The buffer is filled again once the stream has written it
 * (`idle()`: nothing of what it was handed is left, as after a 'drain'):
 * a buffer the stream may still hold is never touched; the sink takes its
 * second buffer instead, and so alternates between two, which spares the
 * system mapping fresh memory for every megabyte (on a pipe to a slower
 * reader, allocating a buffer per write cost a sixth of the run).
 *
 * @example
 * ```ts
 * const seen: string[] = [];
 * const sink = new ByteSink((b) => { seen.push(b.toString()); }, () => true, 8);
 * sink.text('http://a/');
 * sink.copy(Buffer.from('xyz\n'), 0, 4);
 * sink.flush();
 * seen // ['http://a/', 'xyz\n'] (a piece larger than the buffer is written on its own)
 * ```
 */
export class ByteSink {
  private buf: Buffer;
  /** The buffer written before this one, if any: free again once the stream is idle. */
  private other: Buffer | undefined;
  private len = 0;

  constructor(private readonly write: WriteBytes, private readonly idle: () => boolean, private readonly size = 1 << 20) {
    this.buf = Buffer.allocUnsafe(size);
  }

  /** Bytes held, not yet written. */
  get length(): number {
    return this.len;
  }

  /** Appends `src[start, end)`. */
  copy(src: Uint8Array, start: number, end: number): void {
    const n = end - start;
    if (this.len + n > this.buf.length) {
      this.flush();
      if (n > this.buf.length) {
        this.write(Buffer.from(src.subarray(start, end))); // a copy of its own, held or not
        return;
      }
    }
    this.buf.set(src.subarray(start, end), this.len);
    this.len += n;
  }

  /** Appends `s` as UTF-8. */
  text(s: string): void {
    // A UTF-16 unit takes at most 3 bytes of UTF-8.
    if (this.len + s.length * 3 > this.buf.length) {
      this.flush();
      if (s.length * 3 > this.buf.length) {
        this.write(Buffer.from(s, 'utf8')); // a buffer of its own, held or not
        return;
      }
    }
    this.len += this.buf.write(s, this.len, 'utf8');
  }

  /** Appends one byte (a line feed). */
  byte(b: number): void {
    if (this.len === this.buf.length) this.flush();
    this.buf[this.len++] = b;
  }

  /** Writes what is held. */
  flush(): void {
    if (this.len === 0) return;
    const full = this.buf.subarray(0, this.len);
    this.len = 0;
    // Idle before this write: the other buffer, written earlier, is no longer held.
    const otherFree = this.idle();
    this.write(full);
    if (this.idle()) return;
    const next = otherFree && this.other !== undefined ? this.other : Buffer.allocUnsafe(this.size);
    this.other = this.buf;
    this.buf = next;
  }
}
