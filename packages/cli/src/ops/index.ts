/**
 * The per-input operations behind the commands: one function per command
 * that takes one input (a URI, a host, a URN, a pair) and returns its
 * outcome as text and as a JSON record. They are pure and their options
 * are plain data, so the same code runs in the main thread and in the
 * worker threads of `--jobs`.
 */
import { type Op, type OpOptions, type Outcome, type Problem } from './outcome.js';
import type { OpName } from '../command-table.js';
import { compareOp, lintOp, normalizeOp, parseOp, resolveOp, validateOp } from './uri.js';
import { hostOp } from './host.js';
import { urnDisplayOp, urnEquivalentOp, urnNormalizeOp, urnParseOp, urnValidateOp } from './urn.js';

export type { Op, OpOptions, Outcome, Problem } from './outcome.js';
export { toProblem } from './outcome.js';
export { componentsLine } from './uri.js';

/**
 * Runs `op` on one input. A fault of the library on that input (anything
 * but a {@link UriError}, which the operations turn into an invalid
 * outcome) is reported as an `internal-error` of that input, so one bad
 * line never stops a bulk run.
 *
 * @example
 * ```ts
 * runOp(OPS.normalize!, 'HTTP://A', {}).text // 'http://a/'
 * ```
 */
export function runOp(op: Op, input: string, o: OpOptions): Outcome {
  try {
    return op(input, o);
  } catch (e) {
    const problem: Problem = { code: 'internal-error', offset: 0, message: `urikit failed on this input: ${e instanceof Error ? e.message : String(e)}` };
    return { ok: false, record: { valid: false, error: problem }, problem };
  }
}

/**
 * Every operation by the name the command table gives it
 * (command-table.ts), for the commands and the worker threads.
 *
 * @example
 * ```ts
 * OPS['urn normalize']!('URN:EXAMPLE:a%2c', {}).text // 'urn:example:a%2C'
 * ```
 */
export const OPS: Readonly<Record<OpName, Op>> = {
  parse: parseOp,
  validate: validateOp,
  normalize: normalizeOp,
  resolve: resolveOp,
  compare: compareOp,
  lint: lintOp,
  host: hostOp,
  'urn parse': urnParseOp,
  'urn validate': urnValidateOp,
  'urn normalize': urnNormalizeOp,
  'urn display': urnDisplayOp,
  'urn equivalent': urnEquivalentOp,
};
