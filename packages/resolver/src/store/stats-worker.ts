/**
 * The statistics thread of a SQLite file: the appends of the counters'
 * flushes and the fold and merge of their cells (resolution-stats.ts), on
 * a connection of its own, so that none of it stops this process's
 * answers.
 */
import { Worker } from 'node:worker_threads';
import type { StatsRow } from '../stats/counter.js';

/**
 * The thread's code. Plain JavaScript run by `eval` (it needs node:sqlite
 * only), so that it runs the same from the sources and the built files.
 * A list of statements runs in one write transaction, and the reply
 * carries what the last one gave: its rows if it is a `select`, else the
 * number of rows it changed.
 */
const STATS_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const emit = process.emitWarning;
process.emitWarning = (w, ...rest) => { if (!String(w && w.message || w).startsWith('SQLite is an experimental feature')) emit.call(process, w, ...rest); };
const { DatabaseSync } = require('node:sqlite');
process.emitWarning = emit;
const db = new DatabaseSync(workerData.file);
db.exec('pragma busy_timeout = 60000');
db.exec('pragma synchronous = FULL');
db.exec('pragma cache_size = -65536');
// Appends 100 cells a statement (0.5 µs a cell, against 0.8 µs one a statement), the rest one by one.
const ROWS = 100;
const appendSql = (n) => 'insert into resolution_stats_pending (key, day, service, human, robot) values ' + Array(n).fill('(?, ?, ?, ?, ?)').join(', ');
let appendMany, appendOne;
parentPort.on('message', (m) => {
  if (m === 'close') { db.close(); parentPort.close(); return; }
  try {
    let last = {};
    db.exec('begin immediate');
    try {
      if (Array.isArray(m)) for (const q of m) {
        const st = db.prepare(q.sql);
        last = /^\\s*select\\b/i.test(q.sql) ? { rows: st.all(...q.parameters) } : { changes: Number(st.run(...q.parameters).changes) };
      }
      else {
        appendMany ??= db.prepare(appendSql(ROWS));
        appendOne ??= db.prepare(appendSql(1));
        const params = new Array(ROWS * 5);
        let i = 0;
        for (; i + ROWS <= m.keys.length; i += ROWS) {
          for (let j = 0; j < ROWS; j++) { const p = j * 5; params[p] = m.keys[i + j]; params[p + 1] = m.days[i + j]; params[p + 2] = m.services[i + j]; params[p + 3] = m.humans[i + j]; params[p + 4] = m.robots[i + j]; }
          appendMany.run(...params);
        }
        for (; i < m.keys.length; i++) appendOne.run(m.keys[i], m.days[i], m.services[i], m.humans[i], m.robots[i]);
      }
      db.exec('commit');
    } catch (e) {
      db.exec('rollback');
      throw e;
    }
    parentPort.postMessage({ ok: true, ...last });
  } catch (e) {
    parentPort.postMessage({ error: String(e && e.message || e) });
  }
});
`;

/**
 * What the last statement of a transaction gave: its rows if it read,
 * else the number of rows it changed.
 *
 * @example
 * ```ts
 * const r: StatementsResult = { changes: 5000 };
 * r.rows; // undefined
 * ```
 */
export interface StatementsResult {
  rows?: Array<Record<string, unknown>>;
  changes?: number;
}

/** A compiled statement, as kysely's `compile` gives it. */
export interface CompiledStatement {
  sql: string;
  parameters: readonly unknown[];
}

/**
 * The five columns of `rows`: what the thread appends, and what
 * PostgreSQL's `unnest` append binds (resolution-stats.ts).
 *
 * @example
 * ```ts
 * columnsOf([{ key: 'urn:ex:a', day: '2026-11-26', service: 'I2L', human: 1, robot: 0 }]);
 * // [['urn:ex:a'], ['2026-11-26'], ['I2L'], [1], [0]]
 * ```
 */
export function columnsOf(rows: readonly StatsRow[]): unknown[][] {
  return [rows.map((r) => r.key), rows.map((r) => r.day), rows.map((r) => r.service), rows.map((r) => r.human), rows.map((r) => r.robot)];
}

/**
 * The statistics thread on one SQLite file, started at the first work
 * and kept (a start costs about 100 ms of CPU, more than a fold of a few
 * thousand rows); it keeps no process alive, and leaves when the store
 * closes. Its work is done in the order asked, one transaction at a
 * time, so that other work (an append) can come between the
 * transactions of a long task (the chunks of a merge).
 *
 * @example
 * ```ts
 * import { mkdtempSync } from 'node:fs';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import { openStore } from './open.js';
 * const file = join(mkdtempSync(join(tmpdir(), 'stats-')), 'names.sqlite');
 * // the tables made by a store opened once
 * await (await openStore(file)).close();
 * const worker = new StatsWorker(file);
 * await worker.append([{ key: 'urn:ex:a', day: '2026-11-26', service: 'I2L', human: 1, robot: 0 }]);
 * await worker.run([{ sql: 'select count(*) as n from resolution_stats_pending', parameters: [] }]); // { rows: [{ n: 1 }] }
 * await worker.run([{ sql: 'delete from resolution_stats_pending', parameters: [] }]); // { changes: 1 }
 * await worker.close();
 * ```
 */
export class StatsWorker {
  readonly #file: string;
  #worker: Worker | undefined;
  /** The work asked so far: each waits for the one before (one reply listener at a time). */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(file: string) {
    this.#file = file;
  }

  /** Runs compiled statements in one write transaction. */
  run(statements: readonly CompiledStatement[]): Promise<StatementsResult> {
    return this.#post(statements, 'fold');
  }

  /** Appends pending cells in one write transaction. */
  async append(rows: readonly StatsRow[]): Promise<void> {
    // Columns, not row objects: five arrays cost less to copy to the thread.
    const [keys, days, services, humans, robots] = columnsOf(rows);
    await this.#post({ keys, days, services, humans, robots }, 'append');
  }

  #post(message: unknown, what: string): Promise<StatementsResult> {
    const next = this.#queue.catch(() => undefined).then(() => {
      const worker = this.#worker ??= this.#start();
      return new Promise<StatementsResult>((resolve, reject) => {
        const done = (m: StatementsResult & { ok?: true; error?: string }) => {
          worker.off('exit', exited);
          if (m.ok) resolve({ ...(m.rows ? { rows: m.rows } : {}), ...(m.changes !== undefined ? { changes: m.changes } : {}) });
          else reject(new Error(`the statistics ${what} failed: ${m.error}`));
        };
        const exited = (code: number) => { worker.off('message', done); reject(new Error(`the statistics thread stopped (exit code ${code})`)); };
        worker.once('message', done);
        worker.once('exit', exited);
        worker.ref();
        worker.postMessage(message);
      }).finally(() => worker.unref());
    });
    this.#queue = next;
    return next;
  }

  #start(): Worker {
    const worker = new Worker(STATS_WORKER, { eval: true, workerData: { file: this.#file } });
    worker.unref();
    worker.on('error', () => undefined); // a run in progress fails by 'exit'
    worker.once('exit', () => { if (this.#worker === worker) this.#worker = undefined; });
    return worker;
  }

  /** Closes the worker's connection and waits for it to leave. */
  async close(): Promise<void> {
    await this.#queue.catch(() => undefined);
    const worker = this.#worker;
    if (worker === undefined) return;
    this.#worker = undefined;
    const exited = new Promise((r) => worker.once('exit', r));
    // Held until it has left: an unreferenced thread would let the process end with this close unsettled.
    worker.ref();
    worker.postMessage('close');
    await exited;
  }
}
