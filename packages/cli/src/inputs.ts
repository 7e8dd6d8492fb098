/**
 * How a per-input command gets its inputs: from its arguments, or, when
 * there are none, one per line from `--input` files or standard input
 * (bulk mode, see bulk.ts).
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { isatty } from 'node:tty';
import { EXIT_INVALID, EXIT_OK, UsageError, intOption, type Args } from './command.js';
import { renderOutcome, type BlockJob } from './block.js';
import { runBulk } from './bulk.js';
import { OPS, runOp, type OpOptions } from './ops/index.js';
import type { OpName } from './command-table.js';

/**
 * What a per-input command runs and how its text output looks.
 *
 * @example
 * ```ts
 * import { parseCommandLine } from './command.js';
 * import { normalizeCommand } from './commands/uri.js';
 * const p: PerInput = { command: 'normalize', op: 'normalize', opts: { level: 'syntax' } };
 * await runPerInput(p, parseCommandLine(normalizeCommand, []), ['HTTP://A:80/']) // 0 (prints "http://a:80/")
 * ```
 */
export interface PerInput {
  command: string;
  op: OpName;
  opts: OpOptions;
  /** Report invalid inputs on standard output (validate) instead of standard error. */
  problemsTo?: 'stdout' | 'stderr';
  silentValid?: boolean;
  prefix?: boolean;
}

/**
 * Writes text to standard output, respecting backpressure.
 *
 * @example
 * ```ts
 * await writeOut('') // undefined (nothing to write)
 * await writeOut('http://a/\n') // undefined (written, after the 'drain' event when the pipe was full)
 * ```
 */
export async function writeOut(text: string): Promise<void> {
  if (text && !process.stdout.write(text)) await new Promise<void>((r) => process.stdout.once('drain', () => r()));
}

/**
 * Runs the operation over the given inputs, or in bulk mode when `inputs` is empty; returns the exit code.
 *
 * @example
 * ```ts
 * import { parseCommandLine } from './command.js';
 * import { parseCommand } from './commands/uri.js';
 * const args = parseCommandLine(parseCommand, ['--json', 'http://a b/']);
 * await runPerInput({ command: 'parse', op: 'parse', opts: {} }, args, args.positionals) // 1 (prints the record with its error)
 * await runPerInput({ command: 'parse', op: 'parse', opts: {} }, parseCommandLine(parseCommand, ['-i', 'urls.txt']), ['http://a/']) // throws UsageError
 * ```
 */
export async function runPerInput(p: PerInput, args: Args, inputs: string[]): Promise<number> {
  const json = args.values.json === true;
  const files = (args.values.input as string[] | undefined) ?? [];
  const base: Omit<BlockJob, 'source'> = {
    op: p.op,
    opts: p.opts,
    json,
    problemsTo: p.problemsTo ?? 'stderr',
    ...(p.silentValid ? { silentValid: true } : {}),
    ...(p.prefix ? { prefix: true } : {}),
  };
  if (inputs.length > 0) {
    if (files.length > 0) throw new UsageError('give inputs as arguments or with --input, not both', p.command);
    const op = OPS[p.op]!;
    const job: BlockJob = { ...base, source: 'argument' };
    let failed = 0;
    const acc = { out: '', err: '' };
    for (const input of inputs) {
      const outcome = runOp(op, input, p.opts);
      if (!outcome.ok) failed++;
      renderOutcome(job, input, undefined, outcome, acc);
    }
    if (acc.err) process.stderr.write(acc.err);
    await writeOut(acc.out);
    return failed > 0 ? EXIT_INVALID : EXIT_OK;
  }
  // isatty, not process.stdin.isTTY: making the stdin stream would set a pipe non-blocking, and bulk mode reads it with blocking reads.
  if (files.length === 0 && isatty(0)) {
    throw new UsageError('no input: give it as an argument, with --input FILE, or pipe one per line on standard input', p.command);
  }
  const sources = files.length > 0 ? files : ['-'];
  for (const f of sources) {
    if (f !== '-' && !existsSync(f)) throw new UsageError(`cannot read ${f}: no such file`, p.command);
  }
  const totals = await runBulk({
    job: base,
    sources,
    jobs: args.values.jobs === 'auto' ? availableParallelism() : intOption(args, 'jobs', 1, 1, 256),
    progress: args.values['no-progress'] !== true,
    stats: args.values.stats === true,
    maxLine: intOption(args, 'max-line', 16 * 1024 * 1024),
  });
  return totals.failed > 0 ? EXIT_INVALID : EXIT_OK;
}
