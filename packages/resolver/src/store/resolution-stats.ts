/**
 * Resolution statistics in the store: the sink of the counter's bulk
 * flushes (stats/counter.ts), summed per name, UTC day and service, and
 * the reports by authority prefix and date range, summed in SQL.
 */
import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { StatsRow, StatsSink } from '../stats/counter.js';
import type { StatsGrouping, StatsReport } from '../stats/report.js';
import { prefixEnd, type StoreDb } from './db.js';
import type { Database } from './schema.js';

/** Rows per multi-row upsert: 5 values each, far below SQLite's bound-parameter limit. */
const BATCH = 500;

/** One cell of the table, as a flush writes it. */
interface Cell { key: string; day: string; service: string; human: number; robot: number }

/** The upsert of `rows` (adding to the sums of the cells that exist). */
function upsert(trx: Kysely<Database>, rows: Cell[]) {
  return trx.insertInto('resolution_stats').values(rows)
    .onConflict((oc) => oc.columns(['key', 'day', 'service']).doUpdateSet((eb) => ({
      human: eb('resolution_stats.human', '+', eb.ref('excluded.human')),
      robot: eb('resolution_stats.robot', '+', eb.ref('excluded.robot')),
    })));
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

  constructor(db: StoreDb) {
    this.#db = db;
  }

  /**
   * Adds flushed counts to the stored sums, in one transaction (all or
   * nothing: a failed flush is retried whole), in key order (each B-tree
   * page is visited once).
   */
  async add(rows: readonly StatsRow[]): Promise<void> {
    if (rows.length === 0) return;
    // One row per cell: an upsert may not touch one row twice in a statement.
    const cells = new Map<string, Cell>();
    for (const r of rows) {
      const id = `${r.key}\t${r.day}\t${r.service}`;
      const have = cells.get(id);
      if (have === undefined) cells.set(id, { key: r.key, day: r.day, service: r.service, human: r.human, robot: r.robot });
      else { have.human += r.human; have.robot += r.robot; }
    }
    const ids = [...cells.keys()].sort();
    await this.#db.write(async ({ trx }) => {
      this.#batchSql ??= upsert(trx, Array.from({ length: BATCH }, () => ({ key: '', day: '', service: '', human: 0, robot: 0 }))).compile().sql;
      let i = 0;
      for (; i + BATCH <= ids.length; i += BATCH) {
        const params: unknown[] = [];
        for (let j = i; j < i + BATCH; j++) {
          const c = cells.get(ids[j]!)!;
          params.push(c.key, c.day, c.service, c.human, c.robot);
        }
        await trx.executeQuery(CompiledQuery.raw(this.#batchSql, params));
      }
      if (i < ids.length) await upsert(trx, ids.slice(i).map((id) => cells.get(id)!)).execute();
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

  #where(sel: StatsSelection) {
    let q = this.#db.readDb.selectFrom('resolution_stats');
    if (sel.key !== undefined) q = q.where('key', '=', sel.key);
    else if (sel.prefix !== undefined && sel.prefix !== '') q = q.where('key', '>=', sel.prefix).where('key', '<', prefixEnd(sel.prefix));
    if (sel.from !== undefined) q = q.where('day', '>=', sel.from);
    if (sel.until !== undefined) q = q.where('day', '<=', sel.until);
    return q;
  }
}
