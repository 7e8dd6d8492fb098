/**
 * The resolution read on PostgreSQL: one query by primary key, compiled
 * once. No cache: another process or machine may write at any time, and
 * PostgreSQL tells no connection when (a cache would answer stale).
 */
import { CompiledQuery, type Kysely } from 'kysely';
import type { NameReader } from './reader.js';
import { rowToRecord } from './records.js';
import type { Database, NamesTable } from './schema.js';
import type { NameRecord } from './types.js';

/** {@link NameReader} on PostgreSQL. */
export class PostgresNameReader implements NameReader {
  readonly #db: Kysely<Database>;
  readonly #byKey: string;

  constructor(db: Kysely<Database>) {
    this.#db = db;
    this.#byKey = db.selectFrom('names').selectAll().where('key', '=', '').compile().sql;
  }

  async get(key: string): Promise<NameRecord | undefined> {
    const row = (await this.#db.executeQuery<NamesTable>(CompiledQuery.raw(this.#byKey, [key]))).rows[0];
    return row ? rowToRecord(row) : undefined;
  }
}
