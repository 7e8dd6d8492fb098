/**
 * Resolution statistics in the store: the sink of the counter's bulk
 * flushes (stats/counter.ts), summed per name, UTC day and service, and
 * the reports by authority prefix and date range, summed in SQL.
 *
 * The cells move through three tables, each step one write transaction
 * that moves rows without changing a sum, so that a report, which reads
 * all three, is exact whenever it runs:
 *
 * 1. A flush appends its cells to `resolution_stats_pending` (no index to
 *    keep in order: an append touches the table's last pages only; on a
 *    SQLite file in the store's statistics thread, stats-worker.ts, so
 *    that the inserts, 0.8 to 2.4 µs a cell, do not stop the answers).
 * 2. The fold sums the pending rows into `resolution_stats_recent`, off
 *    the busy path: when the counter finds the server idle, when this
 *    process has appended {@link FOLD_AT} cells since its last fold, or
 *    when asked.
 * 3. Once the recent sums reach {@link MERGE_AT} cells, the merge adds
 *    them to `resolution_stats` in key order, {@link MERGE_CHUNK} cells a
 *    transaction.
 *
 * Why two tables of sums: both are in key order, and the cells of a day
 * (new names, robots walking a namespace) land all over the key space. A
 * fold into the large table rewrote most of its pages every time, so the
 * fold's cost, and the time it held the write lock, grew with everything
 * ever counted: measured on 250,000 new cells, 6.2 µs a cell over a
 * million cells summed, 29 µs over 5 million, and about 10 s of write
 * lock (2 × AMD EPYC). The recent table stays small enough for the page
 * cache, so a fold costs the same on the first day and after years; the
 * large table is rewritten once a merge, a chunk at a time, each chunk
 * touching only its own key range. `npm run bench:stats` (2 × Intel
 * Xeon), 2 million new cells in folds of 250,000 over 20 million cells
 * summed, before the recent sums and with them: the longest wait of
 * another writer for the lock 3.4 s and 0.9 s (1.1 and 1.1 s over a
 * million cells summed); a fold 5.2 s and 1.3 s; 16.5 GB written and 7.4;
 * 14.7 and 11.9 µs of CPU a cell. Over a million cells summed the CPU
 * went up, 5.5 to 8.6 µs a cell: the merge rewrites pages a fold into
 * the small table of sums rewrote already, the price of never holding
 * the lock long.
 */
import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { StatsRow, StatsSink } from '../stats/counter.js';
import type { StatsGrouping, StatsReport } from '../stats/report.js';
import { prefixEnd, type StoreDb } from './db.js';
import type { Database } from './schema.js';
import { columnsOf, StatsWorker, type StatementsResult } from './stats-worker.js';

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
 * Cells of the recent sums that start a merge into `resolution_stats` at
 * the end of a fold: about 50 MiB of rows, within the statistics thread's
 * 64 MiB page cache, so that a fold finds the pages it adds to in memory.
 *
 * @example
 * ```ts
 * MERGE_AT; // 1000000
 * ```
 */
export const MERGE_AT = 1_000_000;

/**
 * Cells a merge moves in one write transaction: each touches at most as
 * many pages of `resolution_stats`, which bounds how long it holds the
 * store's write lock however large the table has grown.
 *
 * @example
 * ```ts
 * MERGE_CHUNK; // 10000
 * ```
 */
export const MERGE_CHUNK = 10_000;

/** Adds the `from` cells (a table or subquery of key, day, service, human, robot) to the sums of `into`. */
function addCells(into: 'resolution_stats' | 'resolution_stats_recent', from: ReturnType<typeof sql>) {
  // SQLite's upsert (lang_upsert, "Parsing Ambiguity"): the SELECT of an INSERT ... SELECT ... ON CONFLICT needs a WHERE.
  return sql`insert into ${sql.table(into)} (key, day, service, human, robot)
    select key, day, service, human, robot from ${from} where true
    on conflict (key, day, service) do update set human = ${sql.table(into)}.human + excluded.human, robot = ${sql.table(into)}.robot + excluded.robot`;
}

/**
 * The fold of the pending rows up to id `end` into the recent sums (the
 * rows removed), then the size of the recent sums, counted up to {@link
 * MERGE_AT}. One statement, not chunks: the pending rows are in the order
 * they came, so each chunk would visit most of the recent sums' pages
 * again.
 */
function foldStatements(end: number) {
  return [
    addCells('resolution_stats_recent', sql`(select key, day, service, sum(human) as human, sum(robot) as robot from resolution_stats_pending where id <= ${end} group by key, day, service) as folded`),
    sql`delete from resolution_stats_pending where id <= ${end}`,
    sql`select count(*) as n from (select 1 from resolution_stats_recent limit ${MERGE_AT}) as recent`,
  ];
}

/**
 * One step of a merge: the first {@link MERGE_CHUNK} recent sums in key
 * order added to `resolution_stats` and removed, in one transaction under
 * the write lock (nothing else changes the recent sums between the two
 * statements). The last statement's count of removed rows tells whether
 * any are left.
 */
function mergeChunkStatements() {
  const chunk = sql`(select key, day, service, human, robot from resolution_stats_recent order by key, day, service limit ${MERGE_CHUNK}) as chunk`;
  return [
    addCells('resolution_stats', chunk),
    sql`delete from resolution_stats_recent where (key, day, service) in (select key, day, service from resolution_stats_recent order by key, day, service limit ${MERGE_CHUNK})`,
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
  /** The merges asked for, settled or not (never rejected). */
  #merging: Promise<void> | undefined;
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
   * recent sums, in one write transaction (sums up, rows gone, under the
   * store's write lock), so that no row is counted twice or lost,
   * whichever process folds; then, once the recent sums are
   * {@link MERGE_AT} cells, merges them into `resolution_stats`. On a
   * SQLite file in the store's statistics thread (stats-worker.ts).
   */
  fold(): Promise<void> {
    this.#folding ??= this.#foldAll().finally(() => { this.#folding = undefined; });
    return this.#folding;
  }

  /**
   * Folds the pending rows, then merges every recent sum into
   * `resolution_stats`, however few (a fold merges once they are
   * {@link MERGE_AT}): for a store about to be archived or copied, and
   * for tests of the merge.
   */
  merge(): Promise<void> {
    const merging = (async () => {
      await this.fold();
      const recent = await this.#db.readDb.selectFrom('resolution_stats_recent').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
      await this.#merge(Math.ceil(Number(recent?.n ?? 0) / MERGE_CHUNK) + 1);
    })();
    // close() waits for every merge asked, not only the last.
    this.#merging = Promise.all([this.#merging, merging.catch(() => undefined)]).then(() => undefined);
    return merging;
  }

  /** Waits for a fold or merge in progress and lets the statistics thread go (the store closes). */
  async close(): Promise<void> {
    await this.#folding?.catch(() => undefined);
    await this.#merging;
    await this.#worker?.close();
  }

  async #foldAll(): Promise<void> {
    this.#unfolded = 0;
    // The rows pending now, not those appended while it folds: a fold ends.
    const last = await this.#db.readDb.selectFrom('resolution_stats_pending').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst();
    if (last?.id === undefined || last.id === null) return;
    const folded = await this.#transaction(foldStatements(Number(last.id)));
    if (Number(folded.rows?.[0]?.n ?? 0) >= MERGE_AT) await this.#merge(MERGE_AT / MERGE_CHUNK + 1);
  }

  /**
   * Moves the recent sums into `resolution_stats`, a chunk a transaction,
   * so that appends and other writers come between the chunks. It stops
   * when a chunk finds fewer than {@link MERGE_CHUNK} rows, or after
   * `chunks`: a merge ends while other processes go on folding, and what
   * it leaves waits for the next.
   */
  async #merge(chunks: number): Promise<void> {
    for (let i = 0; i < chunks; i++) {
      const moved = await this.#transaction(mergeChunkStatements());
      if ((moved.changes ?? 0) < MERGE_CHUNK) return;
    }
  }

  /** Runs `statements` in one write transaction (on a SQLite file, in the statistics thread) and gives what the last one gave. */
  async #transaction(statements: ReadonlyArray<ReturnType<typeof sql>>): Promise<StatementsResult> {
    if (this.#worker !== undefined) return this.#worker.run(statements.map((q) => q.compile(this.#db.db)));
    return this.#db.write(async ({ trx }) => {
      let result: StatementsResult = {};
      for (const q of statements) {
        const r = await q.execute(trx);
        result = r.numAffectedRows !== undefined ? { changes: Number(r.numAffectedRows) } : { rows: r.rows as Array<Record<string, unknown>> };
      }
      return result;
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

  /** The cells of a selection: the sums, the recent sums and the pending rows (a report is exact whenever the fold or the merge runs). */
  #where(sel: StatsSelection) {
    const db = this.#db.readDb;
    const part = (table: 'resolution_stats' | 'resolution_stats_recent' | 'resolution_stats_pending') => {
      let q = db.selectFrom(table).select(['key', 'day', 'service', 'human', 'robot']);
      if (sel.key !== undefined) q = q.where('key', '=', sel.key);
      else if (sel.prefix !== undefined && sel.prefix !== '') q = q.where('key', '>=', sel.prefix).where('key', '<', prefixEnd(sel.prefix));
      if (sel.from !== undefined) q = q.where('day', '>=', sel.from);
      if (sel.until !== undefined) q = q.where('day', '<=', sel.until);
      return q;
    };
    return db.selectFrom(part('resolution_stats').unionAll(part('resolution_stats_recent')).unionAll(part('resolution_stats_pending')).as('cells'));
  }
}
