/**
 * `npm run bench:stats`: what the resolution statistics cost a store that
 * has counted for years. A SQLite store is given `--small` and then
 * `--large` cells summed already (one a name, an old day), and the same
 * work is timed on each: `--cells` new cells (distinct names of new days,
 * as robots walking a namespace make them) flushed and folded in batches
 * of the fold's size, the merges they start included
 * (store/resolution-stats.ts). Beside it, another connection takes the
 * store's write lock every 20 ms, as an admin write would, and the longest
 * wait is kept.
 *
 * The goal: the longest wait of the other writer over the large store at
 * most 1.5 times that over the small one (the statistics must not hold
 * the store's writes back longer as the counts of years pile up). The CPU
 * a cell is reported beside it, without a goal: a merge rewrites the
 * pages of the large table its cells land on, so its share grows with the
 * table (store/resolution-stats.ts). Bytes written are the process's own
 * (`wchar` of /proc/self/io: the WAL and the database file, through the
 * page cache). Options: `--small`, `--large`, `--cells`, `--dir`, `--out`
 * (default bench/RESULTS-stats.md).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { FOLD_AT, MERGE_AT, openStore, type StatsRow } from '@urikit/resolver';
import { urnOf } from './server-children.js';

const argv = process.argv.slice(2);
const flag = (name: string, dflt: string) => { const i = argv.indexOf(`--${name}`); return i >= 0 ? argv[i + 1]! : dflt; };

/** What one store's folds cost. */
interface FoldRun {
  summed: number;
  cells: number;
  wallMs: number;
  cpuMicros: number;
  /** Wall time of each batch: the append, then the fold (with any merge it starts). */
  batchMs: number[];
  longestLockWaitMs: number;
  writtenBytes: number;
}

/** Bytes this process has written through system calls so far. */
function bytesWritten(): number {
  const line = readFileSync('/proc/self/io', 'utf8').split('\n').find((l) => l.startsWith('wchar:'));
  return Number(line?.slice(6).trim() ?? 0);
}

/** A store at `file` with `summed` cells in resolution_stats: name i, day 2020-01-01, I2L. */
async function storeWithSums(file: string, summed: number): Promise<void> {
  await (await openStore(file)).close();
  const db = new DatabaseSync(file);
  db.exec('begin');
  const insert = db.prepare("insert into resolution_stats (key, day, service, human, robot) values (?, '2020-01-01', 'I2L', 1, 0)");
  for (let i = 0; i < summed; i++) insert.run(urnOf(i));
  db.exec('commit');
  db.close();
}

/** `count` distinct names out of [0, summed), in random order. */
function distinctNames(summed: number, count: number): string[] {
  const picked = new Set<number>();
  while (picked.size < count) picked.add(Math.floor(Math.random() * summed));
  return [...picked].map(urnOf);
}

async function foldRun(dir: string, summed: number, cells: number): Promise<FoldRun> {
  const file = join(dir, `stats-${summed}.sqlite`);
  await storeWithSums(file, summed);
  const store = await openStore(file);
  const other = new DatabaseSync(file);
  other.exec('pragma busy_timeout = 600000');
  let longestLockWaitMs = 0;
  let probing = true;
  const probe = (async () => {
    while (probing) {
      const t = performance.now();
      other.exec('begin immediate');
      other.exec('commit');
      longestLockWaitMs = Math.max(longestLockWaitMs, performance.now() - t);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  // The batches made before the clock starts: what is timed is the store's work alone.
  const batches: StatsRow[][] = [];
  for (let done = 0, day = 1; done < cells; done += FOLD_AT, day++) {
    batches.push(distinctNames(summed, Math.min(FOLD_AT, cells - done)).map((key) => ({ key, day: `2026-11-${String(day).padStart(2, '0')}`, service: 'I2L', human: 1, robot: 0 })));
  }
  const batchMs: number[] = [];
  const written0 = bytesWritten();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  try {
    for (const rows of batches) {
      const t = performance.now();
      await store.stats.add(rows);
      await store.stats.fold();
      batchMs.push(performance.now() - t);
    }
  } finally {
    probing = false;
    await probe;
    other.close();
  }
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const writtenBytes = bytesWritten() - written0;
  const totals = (await store.stats.report({ prefix: 'urn:' }, 'day')).totals;
  await store.close();
  if (totals.human !== summed + cells) throw new Error(`the report counts ${totals.human} resolutions, not ${summed + cells}`);
  return { summed, cells, wallMs, cpuMicros: cpu.user + cpu.system, batchMs, longestLockWaitMs, writtenBytes };
}

const n = (x: number) => Math.round(x).toLocaleString('en');

async function main(): Promise<void> {
  const small = Number(flag('small', '1000000'));
  const large = Number(flag('large', '20000000'));
  const cells = Number(flag('cells', '2000000'));
  const out = flag('out', fileURLToPath(new URL('../RESULTS-stats.md', import.meta.url)));
  const dir = mkdtempSync(join(flag('dir', tmpdir()), 'urikit-bench-stats-'));
  const lines: string[] = [];
  const log = (s = '') => { console.log(s); lines.push(s); };
  try {
    log('# Resolution statistics over years of counts (`npm run bench:stats`)');
    log();
    log(`${new Date().toISOString()} · load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} at the start · Node ${process.version} · ${cpus().length} × ${cpus()[0]?.model.trim()} · ${Math.round(totalmem() / 2 ** 30)} GiB`);
    log();
    log(`${n(cells)} new cells (distinct names of new days) flushed and folded ${n(FOLD_AT)} at a time into a SQLite store that has summed ${n(small)}, then ${n(large)} cells already; a merge into the large table of sums starts whenever the recent sums reach ${n(MERGE_AT)}. Another connection takes the write lock every 20 ms meanwhile.`);
    log();
    log('| cells summed already | seconds | CPU µs a cell | batch ms (median / longest) | longest wait for the write lock, ms | MB written |');
    log('|---:|---:|---:|---:|---:|---:|');
    const runs: FoldRun[] = [];
    for (const summed of [small, large]) {
      const r = await foldRun(dir, summed, cells);
      runs.push(r);
      const sorted = [...r.batchMs].sort((a, b) => a - b);
      log(`| ${n(summed)} | ${(r.wallMs / 1000).toFixed(1)} | ${(r.cpuMicros / cells).toFixed(1)} | ${n(sorted[Math.floor(sorted.length / 2)]!)} / ${n(sorted.at(-1)!)} | ${n(r.longestLockWaitMs)} | ${n(r.writtenBytes / 1e6)} |`);
    }
    const wait = runs[1]!.longestLockWaitMs / runs[0]!.longestLockWaitMs;
    log();
    log(`Goal: the longest wait for the write lock over ${n(large)} cells summed at most 1.5 times that over ${n(small)}: ${wait.toFixed(2)} (${wait <= 1.5 ? 'met' : 'MISSED'}).`);
    log(`CPU a cell, ${n(large)} to ${n(small)} cells summed: ${(runs[1]!.cpuMicros / runs[0]!.cpuMicros).toFixed(2)} (no goal: the merges rewrite more of a larger table).`);
    log(`Load average at the end: ${loadavg().map((x) => x.toFixed(1)).join(' ')}.`);
    writeFileSync(out, `${lines.join('\n')}\n`);
    console.log(`\nwritten to ${out}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
