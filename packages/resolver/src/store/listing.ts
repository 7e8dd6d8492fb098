/**
 * Listing the current records by key prefix, in pages (the admin API's
 * listing, bulk export, and the 1995 draft's urn+a, §3.5).
 */
import { prefixEnd, type StoreDb } from './db.js';
import { rowToRecord } from './records.js';
import type { NameRecord, NameStatus, Page } from './types.js';

/**
 * The names of a store by prefix: pages, the whole export, the count.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * await loadDemoData(store);
 * const listing: NameListing = store.listing;
 * (await listing.list({ prefix: 'urn:isbn:', limit: 1 })).items.length; // 1
 * (await listing.list({ prefix: 'urn:dns:library.bigstate.edu:', status: 'withdrawn' })).items.map((r) => r.status); // ['withdrawn']
 * await store.close();
 * ```
 */
export class NameListing {
  readonly #db: StoreDb;

  constructor(db: StoreDb) {
    this.#db = db;
  }

  /** Current records whose key starts with `prefix` (and whose status is `status`), in key order, `limit` at a time after the cursor `after`. */
  async list(opts: { prefix?: string; after?: string; limit?: number; status?: NameStatus } = {}): Promise<Page<NameRecord>> {
    const limit = Math.max(1, Math.min(opts.limit ?? 100, 10_000));
    const prefix = opts.prefix ?? '';
    let q = this.#db.readDb.selectFrom('names').selectAll().where('key', '>=', prefix).where('key', '<', prefixEnd(prefix));
    if (opts.after !== undefined) q = q.where('key', '>', opts.after);
    if (opts.status !== undefined) q = q.where('status', '=', opts.status);
    const rows = await q.orderBy('key').limit(limit + 1).execute();
    const items = rows.slice(0, limit).map(rowToRecord);
    return rows.length > limit ? { items, next: items[items.length - 1]!.key } : { items };
  }

  /** Every current record under `prefix`, page by page (bulk export). */
  async *exportAll(prefix = '', pageSize = 1000): AsyncGenerator<NameRecord> {
    let after: string | undefined;
    for (;;) {
      const page: Page<NameRecord> = await this.list({ prefix, limit: pageSize, ...(after !== undefined ? { after } : {}) });
      yield* page.items;
      if (page.next === undefined) return;
      after = page.next;
    }
  }

  /** How many names are stored (under `prefix`); with `resolvable`, only those not withdrawn (the 1995 draft's urn+a list, §3.5.2). */
  async count(prefix = '', opts: { resolvable?: boolean } = {}): Promise<number> {
    let q = this.#db.readDb.selectFrom('names').select((eb) => eb.fn.countAll().as('n'))
      .where('key', '>=', prefix).where('key', '<', prefixEnd(prefix));
    if (opts.resolvable) q = q.where('status', '!=', 'withdrawn');
    const row = await q.executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /**
   * The names that became one key under the 1995 draft §2.3.1 case rule
   * when the store's `urn:dns:` keys were folded (migration 0011,
   * case-fold-migration.ts): none of them was merged or moved; each group
   * shares `key`, each name is still stored under `storedAs`. Empty in a
   * store that had no such names.
   *
   * @example
   * ```ts
   * const store = await openStore(':memory:');
   * await store.listing.keyCollisions(); // []
   * await store.close();
   * ```
   */
  async keyCollisions(): Promise<Array<{ key: string; storedAs: string[] }>> {
    const rows = await this.#db.readDb.selectFrom('name_key_collisions').select(['key', 'old_key']).orderBy('key').orderBy('old_key').execute();
    const out: Array<{ key: string; storedAs: string[] }> = [];
    for (const r of rows) {
      const last = out[out.length - 1];
      if (last?.key === r.key) last.storedAs.push(r.old_key);
      else out.push({ key: r.key, storedAs: [r.old_key] });
    }
    return out;
  }
}
