/**
 * The progress line of bulk mode: bytes, lines and the rate, redrawn on
 * standard error at most ten times a second, and only when standard error
 * is a terminal (never in a pipe or a file).
 */

/**
 * A progress line on a terminal, or nothing.
 *
 * @example
 * ```ts
 * let screen = '';
 * const terminal = { write: (s: string) => ((screen += s), true) } as unknown as NodeJS.WriteStream;
 * const p = new Progress(terminal, true, 2_000_000);
 * p.bytes += 1_000_000;
 * p.lines += 20_000;
 * p.tick();
 * screen.startsWith('\r\x1b[K[############............]  50% 1.0 MB  20,000 lines  ') // true
 * p.clear();
 * screen.endsWith('lines/s\r\x1b[K') // true (the line is erased)
 * ```
 */
export class Progress {
  private last = 0;
  private shown = false;
  private readonly started = Date.now();
  bytes = 0;
  lines = 0;

  constructor(private readonly stream: NodeJS.WriteStream, private readonly enabled: boolean, private readonly totalBytes?: number) {}

  /** Redraws the line if a tenth of a second has passed. */
  tick(): void {
    if (!this.enabled) return;
    const now = Date.now();
    if (now - this.last < 100) return;
    this.last = now;
    const secs = Math.max((now - this.started) / 1000, 0.001);
    const rate = Math.round(this.lines / secs);
    const mb = (this.bytes / 1e6).toFixed(1);
    let bar = '';
    if (this.totalBytes) {
      const frac = Math.min(this.bytes / this.totalBytes, 1);
      const width = 24;
      const full = Math.round(frac * width);
      bar = `[${'#'.repeat(full)}${'.'.repeat(width - full)}] ${(frac * 100).toFixed(0).padStart(3)}% `;
    }
    this.stream.write(`\r\x1b[K${bar}${mb} MB  ${this.lines.toLocaleString('en')} lines  ${rate.toLocaleString('en')} lines/s`);
    this.shown = true;
  }

  /** Removes the line (before other text is written to the same terminal, and at the end). */
  clear(): void {
    if (this.shown) {
      this.stream.write('\r\x1b[K');
      this.shown = false;
      this.last = 0;
    }
  }
}
