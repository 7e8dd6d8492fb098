/**
 * Inserting many rows at once (the writer's single writes and bulk
 * imports): multi-row INSERTs whose SQL kysely compiles once per engine
 * (only the parameters change), and on SQLite each name in its slot
 * (slots.ts).
 */
import { CompiledQuery, type Kysely } from 'kysely';
import type { Database, Engine, HistoryTable, NamesTable } from './schema.js';
import { nameSlot } from './slots.js';

/** Rows per multi-row INSERT. SQLite allows 32766 bound values per statement; 8 columns x 500 rows stays far below. */
const BATCH = 500;

/** A names row's values, in the column order of the compiled INSERT. */
function namesParams(r: NamesTable): unknown[] {
  return [r.key, r.urn, r.status, r.data, r.version, r.created, r.updated];
}

/** A history row's values, in the column order of the compiled INSERT. */
function historyParams(h: HistoryTable): unknown[] {
  return [h.key, h.version, h.op, h.at, h.actor, h.record];
}

/** The rows a write appends: new names rows and history rows. */
export class RowInserter {
  readonly #engine: Engine;
  #sql: { names: string; slotted: string; history: string } | undefined;

  constructor(engine: Engine) {
    this.#engine = engine;
  }

  /** The SQL of a full batch of inserts, compiled by kysely once. */
  #bulkSql(trx: Kysely<Database>): { names: string; slotted: string; history: string } {
    if (!this.#sql) {
      const n: NamesTable = { key: '', urn: '', status: '', data: '', version: 0, created: 0, updated: 0 };
      const h = { key: '', version: 0, op: '', at: 0, actor: null, record: '' };
      this.#sql = {
        names: trx.insertInto('names').values(Array.from({ length: BATCH }, () => n)).compile().sql,
        slotted: trx.insertInto('names').values(Array.from({ length: BATCH }, () => ({ id: 0, ...n }))).onConflict((oc) => oc.column('id').doNothing()).compile().sql,
        history: trx.insertInto('history').values(Array.from({ length: BATCH }, () => h)).compile().sql,
      };
    }
    return this.#sql;
  }

  /**
   * Inserts new names rows. SQLite: each in its slot; a row whose slot is
   * taken (another key with the same 52-bit hash) is inserted again with
   * the id left to SQLite.
   */
  async names(trx: Kysely<Database>, rows: NamesTable[]): Promise<void> {
    for (let i = 0; i < rows.length; i += BATCH) {
      const chunk = rows.slice(i, i + BATCH);
      if (this.#engine === 'postgres') {
        if (chunk.length === BATCH) await trx.executeQuery(CompiledQuery.raw(this.#bulkSql(trx).names, chunk.flatMap(namesParams)));
        else await trx.insertInto('names').values(chunk).execute();
        continue;
      }
      const slotted = chunk.map((r) => ({ id: nameSlot(r.key), ...r }));
      const res = chunk.length === BATCH
        ? await trx.executeQuery(CompiledQuery.raw(this.#bulkSql(trx).slotted, slotted.flatMap((r) => [r.id, ...namesParams(r)])))
        : await trx.executeQuery(trx.insertInto('names').values(slotted).onConflict((oc) => oc.column('id').doNothing()).compile());
      if (Number(res.numAffectedRows ?? 0) === chunk.length) continue;
      const placed = new Set((await trx.selectFrom('names').select('key').where('key', 'in', chunk.map((r) => r.key)).execute()).map((r) => r.key));
      for (const r of chunk) if (!placed.has(r.key)) await trx.insertInto('names').values(r).execute();
    }
  }

  /** Appends history rows. */
  async history(trx: Kysely<Database>, rows: HistoryTable[]): Promise<void> {
    for (let i = 0; i < rows.length; i += BATCH) {
      const chunk = rows.slice(i, i + BATCH);
      if (chunk.length === BATCH) await trx.executeQuery(CompiledQuery.raw(this.#bulkSql(trx).history, chunk.flatMap(historyParams)));
      else await trx.insertInto('history').values(chunk.map(({ id: _id, ...h }) => h)).execute();
    }
  }
}
