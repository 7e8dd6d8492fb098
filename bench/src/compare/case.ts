/**
 * The shape of one comparison case and the helpers cases are written
 * with. A case names the specification section that defines the right
 * answer, the acceptable answers, and how to ask a library for its
 * answer; the runner (run.ts) asks every library and marks the result.
 */
import type { Lib } from './peers.js';

/** Thrown (or returned) when a library has no such feature: the cell shows "—". */
export class NoFeature {
  constructor(readonly reason: string) {}
}

/** One row of the appendix: one input, one right answer, asked of every library. */
export interface Case {
  /** The feature row of the summary table this case rolls up into. */
  feature: string;
  /** The document and section that defines the right answer. */
  section: string;
  /** The input as shown in the appendix (base and reference, text, ...). */
  input: string;
  /** The acceptable answers; the first is shown as "expected". */
  expected: readonly string[];
  /** A custom test of an answer (default: one of `expected`, exactly). */
  accepts?: (answer: string) => boolean;
  /**
   * Only these libraries are judged: the others have no such feature, are
   * marked "—", and their answer (from their nearest operation) is shown
   * for information.
   */
  judgeOnly?: readonly string[];
  /** The library's answer, as a string. Throwing is an answer too ("throws: ..."). */
  run(lib: Lib): string | Promise<string>;
}

/** The operation `key` of `lib`, or a NoFeature throw when the library has none. */
export function need<K extends keyof Lib>(lib: Lib, key: K): NonNullable<Lib[K]> {
  const f = lib[key];
  if (f === undefined) throw new NoFeature(`no ${String(key)} operation`);
  return f as NonNullable<Lib[K]>;
}

/** Runs the library-specific function for `lib`, or throws NoFeature when the map has none. */
export function per(lib: Lib, fns: Record<string, () => string>, reason = 'no such feature'): string {
  const f = fns[lib.name];
  if (f === undefined) throw new NoFeature(reason);
  return f();
}

/** A value for an answer string: undefined (absent) stays apart from "" (empty). */
export function show(v: string | undefined): string {
  return v === undefined ? 'undefined' : JSON.stringify(v);
}
