/**
 * The resolution hot path: one narrow interface, one implementation per
 * engine (sqlite-reader.ts, postgres-reader.ts), and the name cache as an
 * optional accelerator behind the same interface (cached-reader.ts).
 * Everything else the store does lives in the modules beside it.
 */
import type { StoreDb } from './db.js';
import { rowToRecord } from './records.js';
import type { NameRecord } from './types.js';

/**
 * Reads the current record of a name by its key (the normalized URN, see
 * `nameKey`): the one read a resolution makes.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * await loadDemoData(store);
 * const reader: NameReader = store.names;
 * (await reader.get('urn:isbn:0451450523'))?.status; // 'active'
 * await reader.get('urn:isbn:0000000000'); // undefined
 * await store.close();
 * ```
 */
export interface NameReader {
  /** The record as the database holds it now; throws a `StoreFault` while the database is away. */
  get(key: string): Promise<NameRecord | undefined>;
  /**
   * The read of a resolution: as `get`, but while the database is away
   * the name cache may answer with the record as the database last
   * confirmed it, within the store's stale bound (postgres-cache.ts).
   */
  lookup(key: string): Promise<NameLookup>;
  /**
   * The record of `key` if it can be had without waiting (a record the
   * name cache decoded for an earlier request, exact as `lookup` is),
   * else undefined: then `lookup`. Readers without such records have none.
   */
  peek?(key: string): NameRecord | undefined;
}

/**
 * A record as a resolution read it: `staleMs` is set when the database
 * was away and the name cache answered with the record as the database
 * last confirmed it, that many milliseconds ago.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * await loadDemoData(store);
 * const found: NameLookup = await store.names.lookup('urn:isbn:0451450523');
 * [found.record?.status, found.staleMs]; // ['active', undefined]
 * await store.close();
 * ```
 */
export interface NameLookup {
  record: NameRecord | undefined;
  staleMs?: number | undefined;
}

/**
 * {@link NameReader} through kysely on the store's read connection: for
 * a SQLite `:memory:` store, which has no hot-path statements of its own.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * store.names instanceof KyselyNameReader; // true
 * await store.close();
 * ```
 */
export class KyselyNameReader implements NameReader {
  readonly #db: StoreDb;

  constructor(db: StoreDb) {
    this.#db = db;
  }

  async get(key: string): Promise<NameRecord | undefined> {
    const row = await this.#db.readDb.selectFrom('names').selectAll().where('key', '=', key).executeTakeFirst();
    return row ? rowToRecord(row) : undefined;
  }

  async lookup(key: string): Promise<NameLookup> {
    return { record: await this.get(key) };
  }
}
