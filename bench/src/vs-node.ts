/**
 * urikit against Node's own `URL` class (ada, in C++) per operation and
 * per corpus: nanoseconds per call of each side, measured in interleaved
 * passes in the same process, and the ratio (above 1: urikit is faster).
 * Suites add rows with {@link vsNode}; inputs either side rejects are left
 * out before timing.
 */
import type { BenchContext, Corpus } from './run.js';

/** One row: an operation on one corpus, each side doing `n` calls per run of its function. */
export interface VsNodeRow {
  op: string;
  corpus: string;
  n: number;
  urikit: () => unknown;
  node: () => unknown;
}

/** The three corpora of ../shared/corpus by the names the tables use. */
export function corpora(corpus: Corpus): Array<[string, string[]]> {
  return [['web (kasztp)', corpus.kasztp], ['node_files', corpus.nodeFiles], ['isaacs', corpus.isaacs]];
}

/** At most `max` items of `list`, taken evenly, that `keep` accepts. */
export function evenly(list: string[], max: number, keep: (s: string) => boolean): string[] {
  const ok = list.filter(keep);
  if (ok.length <= max) return ok;
  const out: string[] = [];
  for (let i = 0; i < max; i++) out.push(ok[Math.floor((i * ok.length) / max)]!);
  return out;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
};

/**
 * Times every row (after a warm-up, 7 passes alternating the two sides;
 * the median pass of each) and records one table.
 */
export function vsNode(ctx: BenchContext, title: string, rows: VsNodeRow[]): void {
  const passes = ctx.quick ? 3 : 7;
  const ms = ctx.quick ? 15 : 60;
  const out: string[][] = [];
  for (const r of rows) {
    const ours: number[] = [];
    const theirs: number[] = [];
    for (let p = 0; p < passes; p++) {
      ours.push(ctx.nsPerCall(r.urikit, ms) / r.n);
      theirs.push(ctx.nsPerCall(r.node, ms) / r.n);
    }
    const a = median(ours);
    const b = median(theirs);
    out.push([r.op, r.corpus, String(r.n), a.toFixed(0), b.toFixed(0), `${(b / a).toFixed(2)}×`]);
    process.stderr.write(`  ${r.op} / ${r.corpus}: ${a.toFixed(0)} vs ${b.toFixed(0)} ns\n`);
  }
  ctx.table(title, ['operation', 'corpus', 'inputs', 'urikit ns/call', "Node's URL ns/call", 'ratio (Node ÷ urikit)'], out);
}
