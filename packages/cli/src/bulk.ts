/**
 * Bulk mode: one input per line from standard input or files, read in
 * blocks of about a megabyte with backpressure so memory stays constant on
 * any input size. Lines are cut into blocks of whole lines; a block is
 * processed in the main thread, or by a pool of worker threads with
 * `--jobs N`, and the answers are written in input order. An invalid line
 * is reported with its line number and the run goes on.
 */
import { closeSync, openSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { processBytes, type BlockJob, type BlockResult } from './block.js';
import type { WorkerPool } from './pool.js';
import { Progress } from './progress.js';
import { countLines, fdReader, readLines } from './lines.js';
import { ByteSink } from './out.js';

/**
 * How a bulk run is set up.
 *
 * @example
 * ```ts
 * import { writeFileSync } from 'node:fs';
 * writeFileSync('urls.txt', 'http://a/\nhttp://a b/\n');
 * const o: BulkOptions = {
 *   job: { op: 'validate', opts: {}, json: false, problemsTo: 'stdout', silentValid: true },
 *   sources: ['urls.txt'], jobs: 1, progress: false, stats: false, maxLine: 1 << 24,
 * };
 * await runBulk(o) // { lines: 2, inputs: 2, failed: 1 } (prints "urls.txt:2:9: invalid-char: ...")
 * ```
 */
export interface BulkOptions {
  job: Omit<BlockJob, 'source'>;
  /** File names; `-` is standard input. */
  sources: string[];
  /** Worker threads; 1 runs in the main thread. */
  jobs: number;
  /** Show the progress line (only honoured when standard error is a terminal). */
  progress: boolean;
  /** Print a JSON summary with the peak memory on standard error at the end. */
  stats: boolean;
  /** A line longer than this many bytes is reported as invalid and skipped. */
  maxLine: number;
  /** The size of a block of lines in bytes (about). */
  blockSize?: number;
}

/**
 * The totals of a bulk run.
 *
 * @example
 * ```ts
 * import { writeFileSync } from 'node:fs';
 * writeFileSync('urls.txt', 'http://a/\n\nhttp://b/\n');
 * const job = { op: 'validate', opts: {}, json: false, problemsTo: 'stdout', silentValid: true } as const;
 * const t: BulkTotals = await runBulk({ job, sources: ['urls.txt'], jobs: 1, progress: false, stats: false, maxLine: 1 << 24 });
 * t // { lines: 3, inputs: 2, failed: 0 } (a blank line counts, but is no input)
 * ```
 */
export interface BulkTotals {
  lines: number;
  inputs: number;
  failed: number;
}

/** The error of a line too long to hold, written as the block output of that line. */
function tooLong(job: BlockJob, line: number, maxLine: number): BlockResult {
  const message = `line longer than ${maxLine} bytes (--max-line) skipped`;
  if (job.json) {
    const rec: Record<string, unknown> = { line, input: null, valid: false, error: { code: 'line-too-long', offset: maxLine, message } };
    if (job.source !== '-') rec.source = job.source;
    return { out: JSON.stringify(rec) + '\n', err: '', lines: 1, inputs: 1, failed: 1 };
  }
  const text = `${job.source}:${line}:${maxLine + 1}: line-too-long: ${message}\n`;
  return job.problemsTo === 'stdout'
    ? { out: text, err: '', lines: 1, inputs: 1, failed: 1 }
    : { out: '', err: text, lines: 1, inputs: 1, failed: 1 };
}

/**
 * Runs a bulk job to the end and returns its totals.
 *
 * @example
 * ```ts
 * import { writeFileSync } from 'node:fs';
 * writeFileSync('a.txt', 'http://a/\n');
 * writeFileSync('b.txt', 'http://a b/\n');
 * const job = { op: 'validate', opts: {}, json: false, problemsTo: 'stdout', silentValid: true } as const;
 * await runBulk({ job, sources: ['a.txt', 'b.txt'], jobs: 1, progress: false, stats: false, maxLine: 1 << 24 })
 * // { lines: 2, inputs: 2, failed: 1 } (prints "b.txt:1:9: invalid-char: ...")
 * ```
 */
export async function runBulk(o: BulkOptions): Promise<BulkTotals> {
  const stdout = process.stdout;
  const stderr = process.stderr;
  const started = process.hrtime.bigint();
  let totalBytes: number | undefined = 0;
  for (const s of o.sources) {
    if (s === '-') totalBytes = undefined;
    else if (totalBytes !== undefined) totalBytes += statSync(s).size;
  }
  const progress = new Progress(stderr, o.progress && stderr.isTTY === true, totalBytes);
  const totals: BulkTotals = { lines: 0, inputs: 0, failed: 0 };
  // The pool's module (worker_threads) is loaded only when there is a pool.
  const pool = o.jobs > 1 ? new (await import('./pool.js')).WorkerPool(o.jobs) : undefined;
  const maxInFlight = Math.max(2, o.jobs * 3);
  const queue: Array<Promise<BlockResult>> = [];
  const blockSize = o.blockSize ?? 1 << 20;
  const sink = new ByteSink((b) => void stdout.write(b), () => stdout.writableLength === 0, blockSize + (blockSize >> 2));

  const count = (r: BlockResult): void => {
    totals.lines += r.lines;
    totals.inputs += r.inputs;
    totals.failed += r.failed;
    progress.lines = totals.lines;
  };

  const write = async (r: BlockResult): Promise<void> => {
    count(r);
    if (r.err) {
      progress.clear();
      stderr.write(r.err);
    }
    if (r.out.length > 0 && !stdout.write(r.out)) await once(stdout, 'drain');
    progress.tick();
  };

  const emit = async (r: BlockResult): Promise<void> => {
    if (pool) {
      queue.push(Promise.resolve(r));
      while (queue.length >= maxInFlight) await write(await queue.shift()!);
    } else {
      await write(r);
    }
  };

  /** One block in this thread; its answers go out before the next block is read. */
  const inThread = async (job: BlockJob, bytes: Buffer, firstLine: number): Promise<number> => {
    const r = processBytes(job, bytes, firstLine, sink);
    count(r);
    if (r.err) {
      progress.clear();
      stderr.write(r.err);
    }
    sink.flush();
    if (stdout.writableNeedDrain) await once(stdout, 'drain');
    // A turn of the event loop per block: an error of standard output (a
    // reader gone away) is seen now, not after the whole input.
    else await new Promise<void>((resolve) => setImmediate(resolve));
    progress.tick();
    return r.lines;
  };

  /** One block to the pool; answers are written in order as they come back. */
  const toPool = async (p: WorkerPool, job: BlockJob, bytes: Buffer, firstLine: number): Promise<number> => {
    // A fresh buffer of its own, so that it can be transferred to the worker.
    const copy = new Uint8Array(bytes.length);
    copy.set(bytes);
    const pending = p.run(job, copy, firstLine);
    // Awaited in order below; marked handled now so that a failure is not an unhandled rejection meanwhile.
    pending.catch(() => undefined);
    queue.push(pending);
    while (queue.length >= maxInFlight) await write(await queue.shift()!);
    // The lines of the block: its line feeds, and a last line without one.
    return countLines(bytes, bytes.length) + (bytes[bytes.length - 1] === 10 ? 0 : 1);
  };

  try {
    for (const source of o.sources) {
      const job: BlockJob = { ...o.job, source };
      const fd = source === '-' ? 0 : openSync(source, 'r');
      try {
        const read = fdReader(fd, () => process.stdin);
        let line = 1;
        const counted = (buf: Buffer, offset: number, length: number): number | Promise<number> => {
          const got = read(buf, offset, length);
          if (typeof got === 'number') {
            progress.bytes += got;
            return got;
          }
          return got.then((n) => ((progress.bytes += n), n));
        };
        for await (const piece of readLines(counted, { blockSize, maxLine: o.maxLine })) {
          if (piece.kind === 'lines') {
            line += pool ? await toPool(pool, job, piece.bytes, line) : await inThread(job, piece.bytes, line);
          } else {
            await emit(tooLong(job, line, o.maxLine));
            line++;
          }
        }
      } finally {
        if (fd !== 0) closeSync(fd);
      }
    }
    while (queue.length) await write(await queue.shift()!);
  } finally {
    progress.clear();
    if (pool) await pool.close();
  }
  if (o.stats) {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const usage = process.resourceUsage();
    stderr.write(JSON.stringify({
      stats: {
        lines: totals.lines,
        inputs: totals.inputs,
        invalid: totals.failed,
        bytes: progress.bytes,
        seconds: Number(seconds.toFixed(3)),
        linesPerSecond: Math.round(totals.lines / Math.max(seconds, 1e-9)),
        maxRssBytes: usage.maxRSS * 1024,
        jobs: o.jobs,
      },
    }) + '\n');
  }
  return totals;
}
