/**
 * Resolution statistics in the store: the sink of the counter's bulk
 * flushes (stats/counter.ts), summed per name, UTC day and service, and
 * the reports by authority prefix and date range, summed in SQL.
 *
 * A flush appends its cells to `resolution_stats_pending` (no index to
 * keep in order: an append touches the table's last pages only; on a
 * SQLite file in the store's statistics thread, so that the inserts, 0.8
 * to 2.4 µs a cell, do not stop the answers), and the
 * pending rows are folded into `resolution_stats` later, off the busy
 * path: when the counter finds the server idle, when this process has
 * appended {@link FOLD_AT} cells since its last fold, or when asked. A
 * report reads both tables, so it is exact whenever the fold runs.
 */
import { Worker } from 'node:worker_threads';
import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { StatsRow, StatsSink } from '../stats/counter.js';
import type { StatsGrouping, StatsReport } from '../stats/report.js';
import { prefixEnd, type StoreDb } from './db.js';
import type { Database } from './schema.js';

/** Rows per multi-row insert: 5 values each, far below SQLite's bound-parameter limit. */
const BATCH = 500;

/**
 * Cells appended by this process that make it fold at the end of a flush,
 * idle or not: bounds the pending table (what a report scans besides the
 * sums) under a load that never pauses.
 *
 * @example
 * ```ts
 * FOLD_AT; // 250000
 * ```
 */
export const FOLD_AT = 250_000;

/**
 * The fold on a SQLite file, run by a worker thread on a connection of its
 * own: one statement that sorts the pending rows into key order and adds
 * them to the sums, about a second for 250,000 rows, which would stop this
 * process's requests for as long if its own thread ran it. One statement, not
 * chunks: each chunk would dirty most of the table's pages again (measured
 * on 250,000 pending rows: 2.9 µs a row in one statement, 10.6 µs in
 * chunks of 10,000, 22 µs with a million rows summed already). Plain
 * JavaScript run by `eval` (it needs node:sqlite only), so that it runs
 * the same from the sources and the built files.
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
    db.exec('begin immediate');
    try {
      if (Array.isArray(m)) for (const q of m) db.prepare(q.sql).run(...q.parameters);
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
    parentPort.postMessage({ ok: true });
  } catch (e) {
    parentPort.postMessage({ error: String(e && e.message || e) });
  }
});
`;

/**
 * The statistics thread on one SQLite file (the appends of the flushes
 * and the folds), started at the first and kept (a start costs about 100
 * ms of CPU, more than a fold of a few thousand rows); it keeps no process
 * alive, and leaves when the store closes. Its work is done in the order
 * asked, one transaction at a time.
 */
class StatsWorker {
  readonly #file: string;
  #worker: Worker | undefined;
  /** The work asked so far: each waits for the one before (one reply listener at a time). */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(file: string) {
    this.#file = file;
  }

  /** Runs compiled statements in one write transaction. */
  run(statements: ReadonlyArray<{ sql: string; parameters: readonly unknown[] }>): Promise<void> {
    return this.#post(statements, 'fold');
  }

  /** Appends pending cells in one write transaction. */
  append(rows: readonly StatsRow[]): Promise<void> {
    // Columns, not row objects: five arrays cost less to copy to the thread.
    const [keys, days, services, humans, robots] = columnsOf(rows);
    return this.#post({ keys, days, services, humans, robots }, 'append');
  }

  #post(message: unknown, what: string): Promise<void> {
    const next = this.#queue.catch(() => undefined).then(() => {
      const worker = this.#worker ??= this.#start();
      return new Promise<void>((resolve, reject) => {
        const done = (m: { ok?: true; error?: string }) => { worker.off('exit', exited); if (m.ok) resolve(); else reject(new Error(`the statistics ${what} failed: ${m.error}`)); };
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

/** The fold of the pending rows up to id `end`: the sums added to, the rows removed. */
function foldStatements(end: number) {
  // SQLite's upsert (lang_upsert, "Parsing Ambiguity"): the SELECT of an INSERT ... SELECT ... ON CONFLICT needs a WHERE (it has one).
  return [
    sql`insert into resolution_stats (key, day, service, human, robot)
      select key, day, service, sum(human), sum(robot) from resolution_stats_pending where id <= ${end} group by key, day, service
      on conflict (key, day, service) do update set human = resolution_stats.human + excluded.human, robot = resolution_stats.robot + excluded.robot`,
    sql`delete from resolution_stats_pending where id <= ${end}`,
  ];
}

/**
 * The append on PostgreSQL: the cells as five arrays, one statement and
 * five parameters whatever their number, where a multi-row VALUES of 500
 * rows binds 2,500. Measured in pairs under I2L load on a million names
 * (nearly every answer a new cell): the resolver's CPU an answer 39.5 →
 * 36.1 µs, PostgreSQL's 7.2 → 6.4 µs.
 */
const APPEND_UNNEST = `insert into resolution_stats_pending (key, day, service, human, robot)
  select * from unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::bigint[])`;

/** The five columns of `rows`, as {@link APPEND_UNNEST} takes them. */
function columnsOf(rows: readonly StatsRow[]): unknown[][] {
  return [rows.map((r) => r.key), rows.map((r) => r.day), rows.map((r) => r.service), rows.map((r) => r.human), rows.map((r) => r.robot)];
}

/** The multi-row insert of `n` pending cells. */
function appendSql(trx: Kysely<Database>, n: number): string {
  return trx.insertInto('resolution_stats_pending').values(Array.from({ length: n }, () => ({ key: '', day: '', service: '', human: 0, robot: 0 }))).compile().sql;
}

/**
 * Which counts a report covers: names under `prefix` (or exactly `key`),
 * UTC days from `from` to `until` inclusive (`YYYY-MM-DD`), and at most
 * `limit` groups, largest first.
 *
 * @example
 * ```ts
 * const q: StatsSelection = { prefix: 'urn:nbn:de:', from: '2026-11-01', until: '2026-11-30', limit: 100 };
 * q.limit; // 100
 * ```
 */
export interface StatsSelection {
  prefix?: string;
  key?: string;
  from?: string;
  until?: string;
  limit?: number;
}

/**
 * The resolution counts of a store.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * const stats: ResolutionStats = store.stats;
 * await stats.add([{ day: '2026-11-24', key: 'urn:ex:a', service: 'I2L', human: 2, robot: 1 }]);
 * await stats.add([{ day: '2026-11-24', key: 'urn:ex:a', service: 'I2L', human: 1, robot: 0 }]);
 * (await stats.report({ prefix: 'urn:ex:' }, 'name')).groups; // [{ group: 'urn:ex:a', human: 3, robot: 1 }]
 * await store.close();
 * ```
 */
export class ResolutionStats implements StatsSink {
  readonly #db: StoreDb;
  /** The SQL of a full batch, compiled by kysely once: a flush then binds parameters only. */
  #batchSql: string | undefined;
  /** Cells this process appended since its last fold. */
  #unfolded = 0;
  #folding: Promise<void> | undefined;
  readonly #worker: StatsWorker | undefined;

  constructor(db: StoreDb) {
    this.#db = db;
    this.#worker = db.file !== undefined ? new StatsWorker(db.file) : undefined;
  }

  /**
   * Adds flushed counts: appends them to the pending rows in one
   * transaction (all or nothing: a failed flush is retried whole).
   * Several rows of one cell may come in one call or many: the fold and
   * the reports sum them.
   */
  async add(rows: readonly StatsRow[]): Promise<void> {
    if (rows.length === 0) return;
    if (this.#worker !== undefined) await this.#worker.append(rows);
    else if (this.#db.engine === 'postgres') await this.#db.write(({ trx }) => trx.executeQuery(CompiledQuery.raw(APPEND_UNNEST, columnsOf(rows))));
    else await this.#db.write(async ({ trx }) => {
      this.#batchSql ??= appendSql(trx, BATCH);
      for (let i = 0; i < rows.length; i += BATCH) {
        const end = Math.min(i + BATCH, rows.length);
        const params: unknown[] = [];
        for (let j = i; j < end; j++) {
          const r = rows[j]!;
          params.push(r.key, r.day, r.service, r.human, r.robot);
        }
        await trx.executeQuery(CompiledQuery.raw(end - i === BATCH ? this.#batchSql : appendSql(trx, end - i), params));
      }
    });
    this.#unfolded += rows.length;
    if (this.#unfolded >= FOLD_AT) await this.fold();
  }

  /** The counter saw no resolution for a while: fold what this process appended. */
  async idle(): Promise<void> {
    if (this.#unfolded > 0) await this.fold();
  }

  /**
   * Folds every pending row (this process's and any other's) into the
   * sums, in one write transaction (sums up, rows gone, under the store's
   * write lock), so that no row is counted twice or lost, whichever
   * process folds; on a SQLite file in the store's statistics thread (StatsWorker).
   */
  fold(): Promise<void> {
    this.#folding ??= this.#foldAll().finally(() => { this.#folding = undefined; });
    return this.#folding;
  }

  /** Waits for a fold in progress and lets the fold's worker go (the store closes). */
  async close(): Promise<void> {
    await this.#folding?.catch(() => undefined);
    await this.#worker?.close();
  }

  async #foldAll(): Promise<void> {
    this.#unfolded = 0;
    // The rows pending now, not those appended while it folds: a fold ends.
    const last = await this.#db.readDb.selectFrom('resolution_stats_pending').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst();
    if (last?.id === undefined || last.id === null) return;
    const statements = foldStatements(Number(last.id));
    if (this.#worker !== undefined) return this.#worker.run(statements.map((q) => q.compile(this.#db.db)));
    await this.#db.write(async ({ trx }) => {
      for (const q of statements) await q.execute(trx);
    });
  }

  /** The counts of a selection, summed per name, day or service, with the totals over the whole selection. */
  async report(sel: StatsSelection, by: StatsGrouping): Promise<StatsReport> {
    const column = by === 'name' ? 'key' : by;
    const limit = Math.max(1, Math.min(sel.limit ?? 1000, 100_000));
    const where = this.#where(sel);
    const groups = await where.select([
      sql<string>`${sql.ref(column)}`.as('g'),
      sql<number>`sum(human)`.as('human'),
      sql<number>`sum(robot)`.as('robot'),
    ]).groupBy(column).orderBy(sql`sum(human) + sum(robot)`, 'desc').orderBy(column).limit(limit).execute();
    const totals = await this.#where(sel).select([sql<number>`coalesce(sum(human), 0)`.as('human'), sql<number>`coalesce(sum(robot), 0)`.as('robot')]).executeTakeFirst();
    return {
      by,
      totals: { human: Number(totals?.human ?? 0), robot: Number(totals?.robot ?? 0) },
      groups: groups.map((g) => ({ group: g.g, human: Number(g.human), robot: Number(g.robot) })),
    };
  }

  /** The cells of a selection: the sums and the pending rows, both (a report is exact whenever the fold runs). */
  #where(sel: StatsSelection) {
    const db = this.#db.readDb;
    const part = (table: 'resolution_stats' | 'resolution_stats_pending') => {
      let q = db.selectFrom(table).select(['key', 'day', 'service', 'human', 'robot']);
      if (sel.key !== undefined) q = q.where('key', '=', sel.key);
      else if (sel.prefix !== undefined && sel.prefix !== '') q = q.where('key', '>=', sel.prefix).where('key', '<', prefixEnd(sel.prefix));
      if (sel.from !== undefined) q = q.where('day', '>=', sel.from);
      if (sel.until !== undefined) q = q.where('day', '<=', sel.until);
      return q;
    };
    return db.selectFrom(part('resolution_stats').unionAll(part('resolution_stats_pending')).as('cells'));
  }
}
