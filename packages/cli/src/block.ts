/**
 * One block of input lines through one operation: the unit of work of
 * bulk mode, run in the main thread or in a worker thread (`--jobs`).
 * A block is a run of whole lines; its output is a pair of strings for
 * standard output and standard error, so the caller only has to write
 * them in order.
 */
import { OPS, runOp, type OpOptions, type Outcome } from './ops/index.js';
import type { OpName } from './command-table.js';
import { QUICK_TEXT, quickAscii } from './ops/uri.js';
import { invalid } from './ops/outcome.js';
import type { ByteSink } from './out.js';
import { isAscii } from 'node:buffer';
import { UriError } from 'urikit';

/**
 * What the caller needs to know to run a block.
 *
 * @example
 * ```ts
 * const job: BlockJob = { op: 'validate', opts: {}, json: false, problemsTo: 'stdout', source: '-', silentValid: true };
 * processBlock(job, 'http://a/\nhttp://a b/\n', 1).out
 * // '-:2:9: invalid-char: this character is not allowed here at offset 8: U+0020\n'
 * ```
 */
export interface BlockJob {
  op: OpName;
  opts: OpOptions;
  /** `--json`: one JSON record per line of input (NDJSON). */
  json: boolean;
  /** Where invalid lines are reported in text mode: `validate` prints them on standard output. */
  problemsTo: 'stdout' | 'stderr';
  /** The name of the input (a file name, or `-` for standard input). */
  source: string;
  /** In bulk mode, print nothing for a valid input (`validate`). */
  silentValid?: boolean;
  /** In bulk mode, start each output line with `source:line: ` (`lint`, `host`). */
  prefix?: boolean;
}

/**
 * What a block produced.
 *
 * @example
 * ```ts
 * const r: BlockResult = processBlock({ op: 'normalize', opts: {}, json: false, problemsTo: 'stderr', source: '-' }, 'HTTP://A\n\n', 1);
 * r // { out: 'http://a/\n', err: '', lines: 2, inputs: 1, failed: 0 }
 * ```
 */
export interface BlockResult {
  /** Standard output's text, or its bytes (UTF-8) when the block went through a {@link ByteSink} (a worker's answer). */
  out: string | Uint8Array;
  err: string;
  /** Lines read (blank ones included, since they count in line numbers). */
  lines: number;
  /** Inputs processed (non-blank lines). */
  inputs: number;
  /** Inputs that were invalid or failed the check. */
  failed: number;
}

/**
 * The `file:line:column: code: message` line of an invalid input (column is 1-based).
 *
 * @example
 * ```ts
 * import { OPS } from './ops/index.js';
 * problemLine('-', 2, OPS.validate!('http://a b/', {})) // '-:2:9: invalid-char: this character is not allowed here at offset 8: U+0020'
 * ```
 */
export function problemLine(source: string, line: number, outcome: Outcome): string {
  const p = outcome.problem;
  if (!p) return `${source}:${line}: failed`;
  return `${source}:${line}:${p.offset + 1}: ${p.code}: ${p.message}`;
}

/**
 * Renders one outcome into the output strings. `line` is undefined for inputs given as arguments.
 *
 * @example
 * ```ts
 * import { OPS } from './ops/index.js';
 * const job: BlockJob = { op: 'normalize', opts: {}, json: true, problemsTo: 'stderr', source: 'urls.txt' };
 * const acc = { out: '', err: '' };
 * renderOutcome(job, 'HTTP://A', 1, OPS.normalize!('HTTP://A', {}), acc);
 * acc.out // '{"line":1,"input":"HTTP://A","source":"urls.txt","valid":true,"normalized":"http://a/"}\n'
 * ```
 */
export function renderOutcome(job: BlockJob, input: string, line: number | undefined, outcome: Outcome, into: { out: string; err: string }): void {
  if (job.json) {
    const rec: Record<string, unknown> = line === undefined ? { input } : { line, input };
    if (line !== undefined && job.source !== '-') rec.source = job.source;
    into.out += JSON.stringify({ ...rec, ...outcome.record }) + '\n';
    return;
  }
  const p = outcome.problem;
  if (p) {
    const text = line === undefined
      ? `${JSON.stringify(input)}: ${p.code}: ${p.message}\n`
      : problemLine(job.source, line, outcome) + '\n';
    if (job.problemsTo === 'stdout') into.out += text;
    else into.err += text;
    // An invalid input may still have findings to print (lint --differential).
    if (outcome.text === undefined) return;
  }
  if (outcome.text === undefined || (job.silentValid && line !== undefined && outcome.ok)) return;
  if (job.prefix && line !== undefined) {
    const head = `${job.source}:${line}: `;
    into.out += head + outcome.text.replaceAll('\n', '\n' + head) + '\n';
  } else {
    into.out += outcome.text + '\n';
  }
}

/**
 * Runs the operation over every line of `text`, numbering from `firstLine`.
 * A trailing CR is removed (CRLF files), a byte order mark at the start of
 * an input is skipped, and blank lines count but are not processed.
 *
 * @example
 * ```ts
 * const job: BlockJob = { op: 'validate', opts: {}, json: false, problemsTo: 'stdout', source: '-', silentValid: true };
 * processBlock(job, '\uFEFFhttp://a/\r\n\nhttp://a b/\n', 1)
 * // { out: '-:3:9: invalid-char: this character is not allowed here at offset 8: U+0020\n', err: '',
 * //   lines: 3, inputs: 2, failed: 1 }
 * ```
 */
export function processBlock(job: BlockJob, text: string, firstLine: number): BlockResult {
  return withoutStacks(() => blockOfText(job, text, firstLine));
}

function blockOfText(job: BlockJob, text: string, firstLine: number): BlockResult {
  const op = OPS[job.op];
  if (!op) throw new Error(`unknown operation ${job.op}`);
  // Text output of normalize, and validate printing only the invalid lines:
  // each valid input costs one library call and its line, no Outcome.
  const quick = !job.json && !job.prefix && (job.op === 'normalize' || job.silentValid === true) ? QUICK_TEXT[job.op] : undefined;
  const acc = { out: '', err: '' };
  let lines = 0;
  let inputs = 0;
  let failed = 0;
  let pos = 0;
  if (firstLine === 1 && text.charCodeAt(0) === 0xfeff) pos = 1;
  const n = text.length;
  while (pos < n) {
    let nl = text.indexOf('\n', pos);
    if (nl < 0) nl = n;
    let end = nl;
    if (end > pos && text.charCodeAt(end - 1) === 13) end--;
    const line = firstLine + lines;
    lines++;
    if (end > pos) {
      const input = text.slice(pos, end);
      inputs++;
      let outcome: Outcome | undefined;
      if (quick !== undefined) {
        let answer: string | null | undefined;
        try {
          answer = quick(input, job.opts);
        } catch (e) {
          // The operations report what the library refuses as invalid (ops/outcome.ts).
          if (e instanceof UriError) outcome = invalid(e);
        }
        if (answer !== undefined) {
          if (answer !== null) acc.out += answer + '\n';
          pos = nl + 1;
          continue;
        }
      }
      outcome ??= runOp(op, input, job.opts);
      if (!outcome.ok) failed++;
      renderOutcome(job, input, line, outcome, acc);
    }
    pos = nl + 1;
  }
  return { out: acc.out, err: acc.err, lines, inputs, failed };
}

/**
 * {@link processBlock} for a block of bytes as bulk mode reads it (whole
 * lines), writing standard output's text into `sink`. The bytes are
 * decoded a segment of whole lines of about 64 KiB at a time: a string of
 * more than about 128 KB is a large object to V8, and the library's scans
 * of slices of it measured about 1.5x slower than of slices of 64 KiB
 * strings. An ASCII segment is read as Latin-1 (one character per byte, so
 * a line's characters are its bytes), and a run of its lines that the
 * operation leaves unchanged (normalize on normal URIs, nearly all of
 * them) is copied from `bytes` in one piece instead of being written line
 * by line; any other segment is decoded from UTF-8 and goes through
 * {@link processBlock}. The result's `out` is empty (it went to the
 * sink); `err` is returned as text.
 *
 * @example
 * ```ts
 * import { ByteSink } from './out.js';
 * let written = '';
 * const sink = new ByteSink((b) => { written += b.toString(); }, () => true);
 * const job: BlockJob = { op: 'normalize', opts: {}, json: false, problemsTo: 'stderr', source: '-' };
 * const r = processBytes(job, Buffer.from('\uFEFFhttp://a/\r\nhttp://b/\n\nHTTP://C\nhttp://d/\nhttp://a b/\nhttp://e/'), 1, sink);
 * sink.flush();
 * written // 'http://a/\nhttp://b/\nhttp://c/\nhttp://d/\nhttp://e/\n'
 * r // { out: '', err: '-:6:9: invalid-char: this character is not allowed here at offset 8: U+0020\n', lines: 7, inputs: 6, failed: 1 }
 * ```
 */
export function processBytes(job: BlockJob, bytes: Buffer, firstLine: number, sink: ByteSink): BlockResult {
  return withoutStacks(() => {
    const total: BlockResult = { out: '', err: '', lines: 0, inputs: 0, failed: 0 };
    let base = 0;
    while (base < bytes.length) {
      let stop = Math.min(base + SEGMENT, bytes.length);
      if (stop < bytes.length) {
        const nl = bytes.lastIndexOf(10, stop - 1);
        stop = nl >= base ? nl + 1 : lineEnd(bytes, stop);
      }
      const line = firstLine + total.lines;
      // A byte order mark opens the input, not a line; processBlock skips it in text.
      const skip = line === 1 && base === 0 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
      let r: BlockResult;
      if (isAscii(bytes.subarray(base + skip, stop))) {
        r = asciiBlock(job, bytes.subarray(base + skip, stop), line, sink);
      } else {
        r = blockOfText(job, bytes.toString('utf8', base, stop), line);
        if (typeof r.out === 'string' && r.out) sink.text(r.out);
      }
      total.err += r.err;
      total.lines += r.lines;
      total.inputs += r.inputs;
      total.failed += r.failed;
      base = stop;
    }
    return total;
  });
}

/** An ASCII segment (see {@link processBytes}): its standard output into `sink`. */
function asciiBlock(job: BlockJob, bytes: Buffer, firstLine: number, sink: ByteSink): BlockResult {
  const op = OPS[job.op];
  if (!op) throw new Error(`unknown operation ${job.op}`);
  const quick = !job.json && !job.prefix && (job.op === 'normalize' || job.silentValid === true) ? quickAscii(job.op, job.opts) : undefined;
  const acc = { out: '', err: '' };
  let lines = 0;
  let inputs = 0;
  let failed = 0;
  /** Start of the run of unchanged lines not yet written, or -1. */
  let run = -1;
  const text = bytes.toString('latin1');
  const n = text.length;
  let pos = 0;
  while (pos < n) {
    let nl = text.indexOf('\n', pos);
    if (nl < 0) nl = n;
    let end = nl;
    if (end > pos && text.charCodeAt(end - 1) === 13) end--;
    const line = firstLine + lines;
    lines++;
    if (end > pos) {
      const input = text.slice(pos, end);
      inputs++;
      let outcome: Outcome | undefined;
      if (quick !== undefined) {
        let answer: string | null | undefined;
        try {
          answer = quick(input);
        } catch (e) {
          // The operations report what the library refuses as invalid (ops/outcome.ts).
          if (e instanceof UriError) outcome = invalid(e);
        }
        // The line as it stands, with its line feed (no CR to drop, not the last line without one).
        if (answer === input && end === nl && nl < n) {
          if (run < 0) run = pos;
          pos = nl + 1;
          continue;
        }
        if (answer !== undefined) {
          if (run >= 0) sink.copy(bytes, run, pos);
          run = -1;
          if (answer !== null) {
            sink.text(answer);
            sink.byte(10);
          }
          pos = nl + 1;
          continue;
        }
      }
      if (run >= 0) sink.copy(bytes, run, pos);
      run = -1;
      outcome ??= runOp(op, input, job.opts);
      if (!outcome.ok) failed++;
      renderOutcome(job, input, line, outcome, acc);
      if (acc.out) {
        sink.text(acc.out);
        acc.out = '';
      }
    } else if (run >= 0) {
      // A blank line has no output: the run ends before it.
      sink.copy(bytes, run, pos);
      run = -1;
    }
    pos = nl + 1;
  }
  if (run >= 0) sink.copy(bytes, run, n);
  return { out: '', err: acc.err, lines, inputs, failed };
}

/** Bytes of text {@link processBytes} decodes at a time (about; a longer line is decoded whole). */
const SEGMENT = 64 * 1024;

/** The end of the line that goes on at `at` (after its line feed), or the end of `bytes`. */
function lineEnd(bytes: Buffer, at: number): number {
  const nl = bytes.indexOf(10, at);
  return nl < 0 ? bytes.length : nl + 1;
}

/**
 * Runs `f` with stack traces off. An invalid line is reported by its
 * error's code, offset and message, a library fault by its message: no
 * stack is ever shown, and capturing one made each error about three
 * times as costly (192 against 73 ms for 34,100 refused normalize calls).
 */
function withoutStacks<T>(f: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return f();
  } finally {
    Error.stackTraceLimit = limit;
  }
}
