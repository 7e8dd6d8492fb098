/**
 * The benchmark harness of urikit: `npm run bench` (builds, then runs this
 * file compiled to bench/dist/run.js). Everything runs in one process so
 * the ratios between urikit and its peers are fair (DESIGN.md,
 * "Performance principles").
 *
 * ## Adding a suite (the convention)
 *
 * Put a module in `bench/src/suites/<name>.ts` that exports
 *
 * ```ts
 * import type { Suite } from '../run.js';
 * export const suite: Suite = {
 *   name: 'hosts',
 *   async run(ctx) {
 *     const sample = ctx.corpus.sample;              // URLs from ../shared/corpus
 *     await ctx.compare('parseHost', [               // first contender = urikit
 *       { name: 'urikit', fn: () => { for (const s of sample) parseHost(s); } },
 *       { name: 'ip-address', fn: () => { ... } },   // peers, when they have the operation
 *     ], { perCall: sample.length });                 // items handled by one call of fn
 *     ctx.table('title', ['col', ...], [['cell', ...]]); // any other table
 *   },
 * };
 * ```
 *
 * The harness finds every module in `suites/` (alphabetical), loads the
 * corpus once (`ctx.corpus`), measures each contender with tinybench,
 * and prints, per operation, ops/s (from the median time of one call) and
 * the ratio of urikit to each peer
 * (`urikit / peer`: above 1 means urikit is faster). Tests never assert a
 * time; this program only reports.
 *
 * Flags: `--suite <name>` (repeatable) runs only those suites; `--quick`
 * shortens every measurement; `--out <file>` also writes the Markdown into
 * that file, replacing the sections this run made and keeping the others
 * (`npm run bench` writes bench/RESULTS.md); `--baseline <dir>` loads a
 * second, older build of urikit (a package directory with `dist/index.js`,
 * such as a checkout of an earlier commit after `tsc -b packages/urikit`)
 * into the same process, and a suite that supports it (core) times that
 * build beside the current one: before and after in one run, the ratio
 * column being after ÷ before. Such a suite's section is headed
 * "<name>, against the baseline <dir>"; a run with `--baseline` writes
 * nothing to `--out`.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { resolve as resolvePath } from 'node:path';
import { Bench } from 'tinybench';
import { loadCorpus, type Corpus } from './corpus.js';
import { BASELINE_PREFIX } from './baseline.js';

export type { Corpus } from './corpus.js';

/** One implementation of an operation. */
export interface Contender {
  name: string;
  fn: () => unknown;
}

/** What a suite may ask of the harness. */
export interface BenchContext {
  corpus: Corpus;
  /** True with `--quick`: suites should keep their own loops short too. */
  quick: boolean;
  /** Measures the contenders (urikit first) of one operation and records the rows. */
  compare(op: string, contenders: Contender[], opts?: { perCall?: number; note?: string }): Promise<void>;
  /** Records a free-form table, printed after the suite. */
  table(title: string, header: string[], rows: string[][]): void;
  /** Nanoseconds per call of `fn`, timed directly (for tables such as time per byte). */
  nsPerCall(fn: () => unknown, minMs?: number): number;
  /**
   * With `--baseline <dir>`: an older build of urikit, loaded beside the
   * current one. A suite that times it names its contenders
   * `${BASELINE_PREFIX}...` (their ratio is after ÷ before).
   */
  baseline?: { label: string; urikit: typeof import('urikit') };
  /**
   * CPU microseconds of one call of `a` and of `b`, the two run in turn
   * (the order swapped every round) for `rounds` rounds after a warm-up:
   * the medians. For before/after on a shared machine, where tinybench's
   * one-after-the-other runs drift with the load.
   */
  paired(a: () => unknown, b: () => unknown, rounds?: number): { a: number; b: number };
}


/** A benchmark suite: `bench/src/suites/<name>.ts` exports `suite`. */
export interface Suite {
  name: string;
  /**
   * The heading of the suite's section in the output, when it is not the
   * name: a suite whose figures depend on the Node version names it here,
   * so that `--out` keeps one section per version.
   */
  heading?: string;
  run(ctx: BenchContext): Promise<void> | void;
}

/**
 * The new output merged into the old file: the lines before the first
 * section come from the new run; a section ("## " heading) of the new run
 * replaces the old one of the same heading where it stood, and old sections
 * this run did not make (other suites, other Node versions, notes written
 * by hand) are kept.
 */
function merge(old: string, fresh: string[]): string {
  const sections = (lines: string[]): { head: string[]; parts: Array<[string, string[]]> } => {
    const head: string[] = [];
    const parts: Array<[string, string[]]> = [];
    for (const line of lines) {
      if (line.startsWith('## ')) parts.push([line, [line]]);
      else if (parts.length > 0) parts[parts.length - 1]![1].push(line);
      else head.push(line);
    }
    return { head, parts };
  };
  const before = sections(old.split('\n'));
  const after = sections(fresh);
  const made = new Map(after.parts);
  const out = [...after.head];
  for (const [heading, lines] of before.parts) {
    out.push(...(made.get(heading) ?? lines));
    made.delete(heading);
  }
  for (const lines of made.values()) out.push(...lines);
  return out.join('\n').replace(/\n+$/, '') + '\n';
}

const here = fileURLToPath(new URL('.', import.meta.url));
const root = fileURLToPath(new URL('../../', import.meta.url));

const fmt = (n: number): string => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toPrecision(3));
const ratio = (a: number, b: number): string => (b > 0 ? `${(a / b).toFixed(2)}×` : 'n/a');

function nsPerCall(fn: () => unknown, minMs = 50): number {
  // Warm up until the JIT has settled, then keep the best of five rounds:
  // the machine may be shared, and interference only ever adds time.
  const warmEnd = performance.now() + Math.max(20, minMs / 2);
  do fn(); while (performance.now() < warmEnd);
  let best = Infinity;
  for (let round = 0; round < 5; round++) {
    let calls = 0;
    const start = process.hrtime.bigint();
    const budget = BigInt(Math.round((minMs / 5) * 1e6));
    let elapsed = 0n;
    do {
      fn();
      calls++;
      elapsed = process.hrtime.bigint() - start;
    } while (elapsed < budget);
    best = Math.min(best, Number(elapsed) / calls);
  }
  return best;
}

function paired(a: () => unknown, b: () => unknown, rounds: number): { a: number; b: number } {
  const cpu = (): number => { const u = process.cpuUsage(); return u.user + u.system; };
  for (let w = 0; w < 5; w++) { a(); b(); }
  const ta: number[] = [];
  const tb: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const first of r % 2 === 0 ? [true, false] : [false, true]) {
      const t0 = cpu();
      (first ? a : b)();
      (first ? ta : tb).push(cpu() - t0);
    }
  }
  const median = (xs: number[]): number => xs.sort((x, y) => x - y)[xs.length >> 1]!;
  return { a: median(ta), b: median(tb) };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const only = args.flatMap((a, i) => (a === '--suite' ? [args[i + 1]!] : []));
  const outIdx = args.indexOf('--out');
  const outFile = outIdx >= 0 ? args[outIdx + 1] : undefined;
  const baselineIdx = args.indexOf('--baseline');
  let baseline: BenchContext['baseline'];
  if (baselineIdx >= 0) {
    const dir = resolvePath(args[baselineIdx + 1] ?? '.');
    const entry = existsSync(`${dir}/dist/index.js`) ? `${dir}/dist/index.js` : `${dir}/packages/urikit/dist/index.js`;
    if (!existsSync(entry)) throw new Error(`--baseline ${dir}: no dist/index.js nor packages/urikit/dist/index.js (build it first: tsc -b packages/urikit)`);
    baseline = { label: dir, urikit: (await import(pathToFileURL(entry).href)) as typeof import('urikit') };
  }
  const lines: string[] = [];
  const print = (s = ''): void => { console.log(s); lines.push(s); };

  const corpus = loadCorpus();
  const require = createRequire(import.meta.url);
  const version = (p: string): string => {
    try {
      return (JSON.parse(readFileSync(require.resolve(`${p}/package.json`), 'utf8')) as { version: string }).version;
    } catch {
      try {
        const main = require.resolve(p);
        const pkg = main.slice(0, main.lastIndexOf('node_modules/') + 13) + p + '/package.json';
        return (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version;
      } catch { return '?'; }
    }
  };
  const urikitVersion = (JSON.parse(readFileSync(root + 'packages/urikit/package.json', 'utf8')) as { version: string }).version;
  print('<!-- Written by `npm run bench` (bench/dist/run.js --out bench/RESULTS.md): a run replaces the sections it makes and keeps the others (other suites, the core-vs-node section of each Node version, notes written by hand). -->');
  print();
  print(`# urikit benchmarks`);
  print();
  print(`- date: ${new Date().toISOString()}`);
  print(`- machine: ${cpus()[0]?.model ?? '?'} × ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB; ${process.platform} ${process.arch}`);
  print(`- node ${process.version} (V8 ${process.versions.v8}, ada ${process.versions.ada ?? '?'} behind Node's URL)`);
  print(`- urikit ${urikitVersion}; fast-uri ${version('fast-uri')}; uri-js ${version('uri-js')}; whatwg-url ${version('whatwg-url')}; tinybench ${version('tinybench')}`);
  print(`- corpus: ../shared/corpus, ${corpus.all.length.toLocaleString('en-US')} URLs (kasztp ${corpus.kasztp.length}, node_files ${corpus.nodeFiles.length}, isaacs_files ${corpus.isaacs.length}); one call handles the items shown`);
  print(`- ops/s from the median time of one call; ratio = urikit ops/s ÷ peer ops/s (above 1: urikit is faster)${quick ? '; --quick run (short measurements)' : ''}`);
  if (baseline) print(`- baseline: the urikit build in ${baseline.label}, timed beside this one where a suite supports it ("${BASELINE_PREFIX}" rows: this build ÷ that one)`);

  const suiteDir = here + 'suites/';
  const files = readdirSync(suiteDir).filter((f) => f.endsWith('.js')).sort();
  for (const file of files) {
    let mod: { suite?: Suite };
    try {
      mod = (await import(new URL(`suites/${file}`, import.meta.url).href)) as { suite?: Suite };
    } catch (e) {
      print();
      print(`## ${file}: could not be loaded (${e instanceof Error ? e.message : String(e)})`);
      continue;
    }
    const suite = mod.suite;
    if (!suite || (only.length > 0 && !only.includes(suite.name))) continue;
    const tables: Array<{ title: string; header: string[]; rows: string[][] }> = [];
    const rows: string[][] = [];
    const ctx: BenchContext = {
      corpus,
      quick,
      ...(baseline ? { baseline } : {}),
      nsPerCall: (fn, minMs) => nsPerCall(fn, quick ? Math.min(minMs ?? 50, 20) : minMs),
      paired: (a, b, rounds) => paired(a, b, quick ? 7 : rounds ?? 41),
      table: (title, header, tableRows) => { tables.push({ title, header, rows: tableRows }); },
      async compare(op, contenders, opts) {
        const perCall = opts?.perCall ?? 1;
        // Both limits are minimums: at least this long and this many calls.
        const bench = new Bench({ time: quick ? 150 : 1000, warmupTime: quick ? 50 : 200, iterations: 5, warmupIterations: 2 });
        for (const c of contenders) bench.add(c.name, c.fn);
        await bench.run();
        // The median time of one call (tinybench's latency p50, in ms): robust
        // to the interference of a shared machine, which only adds time.
        const rates = bench.tasks.map((t) => {
          const r = t.result as { latency?: { p50?: number }; period?: number };
          const ms = r.latency?.p50 ?? r.period ?? 0;
          return ms > 0 ? (perCall * 1000) / ms : 0;
        });
        const ours = rates[0] ?? 0;
        contenders.forEach((c, i) => {
          rows.push([i === 0 ? op + (opts?.note ? ` (${opts.note})` : '') : '', c.name, fmt(rates[i]!), i === 0 ? '—' : ratio(ours, rates[i]!)]);
        });
        process.stderr.write(`  ${suite.name}/${op} done\n`);
      },
    };
    process.stderr.write(`suite ${suite.name}...\n`);
    try {
      await suite.run(ctx);
    } catch (e) {
      // One broken suite must not hide the others' figures.
      tables.push({ title: 'this suite failed', header: ['error'], rows: [[String(e instanceof Error ? e.message : e).replace(/\|/g, '\\|')]] });
    }
    const againstBaseline = baseline !== undefined && rows.some((r) => r[1]!.startsWith(BASELINE_PREFIX));
    print();
    print(`## ${suite.heading ?? suite.name}${againstBaseline ? `, against the baseline ${baseline!.label}` : ''}`);
    if (rows.length > 0) {
      print();
      print('| operation | implementation | ops/s | urikit ÷ this |');
      print('|---|---|---:|---:|');
      for (const r of rows) print(`| ${r.join(' | ')} |`);
    }
    for (const t of tables) {
      print();
      print(`### ${t.title}`);
      print();
      print(`| ${t.header.join(' | ')} |`);
      print(`|${t.header.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`);
      for (const r of t.rows) print(`| ${r.join(' | ')} |`);
    }
  }
  if (outFile && baseline) {
    process.stderr.write(`--baseline: ${outFile} left as it was (a before/after run is read, not kept)\n`);
  } else if (outFile) {
    let old = '';
    try {
      old = readFileSync(outFile, 'utf8');
    } catch {
      // no earlier results
    }
    writeFileSync(outFile, merge(old, lines));
  }
}

await main();
