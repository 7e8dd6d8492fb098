/**
 * The process that teardown.test.ts runs (bundled, under `node
 * --expose-gc`): it opens, uses and drops many stores and statements
 * under memory pressure with forced collections, in the main thread and
 * in worker threads (half of them terminated while they work), then ends
 * with stores and statements still alive, the way `mode` says:
 *
 * - `exit`: `process.exit(0)` at once;
 * - `drain`: the event loop runs dry;
 * - `close`: every store closed, a last collection, then the loop runs dry.
 *
 * Prints `teardown ok` just before the end. A SQLite driver whose
 * statements are finalized by the collector during or after the
 * environment's cleanup aborts here (better-sqlite3 12 on Node 24.19+:
 * `Assertion failed: (env) != nullptr` in `Statement::~Statement`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { importNames, openStore, type Store } from '../../src/store/index.js';
import { openSqliteFile } from '../../src/store/sqlite-driver.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const { mode, dir, rounds } = (isMainThread
  ? { mode: process.argv[2] ?? 'exit', dir: mkdtempSync(join(tmpdir(), 'urikit-teardown-')), rounds: Number(process.argv[3] ?? 40) }
  : workerData) as { mode: string; dir: string; rounds: number };

/** Stores and raw connections kept alive to the end. */
const alive: Array<Store | { prepare: unknown }> = [];

async function round(i: number): Promise<void> {
  const file = join(dir, `s${i % 5}.sqlite`);
  const store = await openStore(file, i % 2 === 0 ? { nameCacheBytes: 1 << 20 } : {});
  const urn = `urn:example:t${i}`;
  await store.writer.put(urn, { urn, locations: [{ url: `http://a.example/${i}` }] });
  if (i % 4 === 0) await importNames(store, Array.from({ length: 600 }, (_, j) => `{"urn":"urn:example:b${i}-${j}","locations":["http://a.example/${j}"]}`).join('\n'), { format: 'ndjson' });
  await store.names.get(urn);
  await store.names.get('urn:example:absent');
  await store.listing.count('urn:example:');
  // A raw connection with statements that are never finalized by hand.
  const raw = openSqliteFile(file);
  const statements = Array.from({ length: 20 }, (_, j) => raw.prepare(`select key from names where id > ${j} limit 1`));
  for (const s of statements) s.get();
  // Memory pressure: garbage the collector must trace.
  const garbage: string[] = [];
  for (let j = 0; j < 5000; j++) garbage.push(`${j}`.repeat(20));
  if (i % 3 === 0) await store.close();
  if (i % 3 === 1) alive.push(store);
  if (i % 2 === 0) raw.close();
  else if (i % 5 === 1) alive.push(raw);
  if (i % 4 === 0) gc!();
}

async function work(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await round(i);
}

if (!isMainThread) {
  await work(rounds);
  parentPort!.postMessage('done');
} else {
  await work(rounds);
  // Worker threads: their environments are torn down with statements alive; half are terminated mid-work.
  const workers = Array.from({ length: 4 }, (_, w) => new Promise<void>((resolve) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: { mode, dir, rounds: rounds / 2 } });
    worker.on('error', (e) => { console.error(e); process.exitCode = 1; });
    worker.on('exit', () => resolve());
    if (w % 2 === 1) setTimeout(() => void worker.terminate(), 50 + 40 * w);
  }));
  await Promise.all(workers);
  gc();
  await work(rounds / 4);
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  if (mode === 'close') {
    for (const s of alive) if ('close' in s && typeof s.close === 'function') await s.close();
    alive.length = 0;
    gc();
  }
  console.log(`teardown ok (${mode}, ${alive.length} kept alive, Node ${process.version})`);
  if (mode === 'exit') process.exit(0);
}
