/**
 * The history of names: every version of every name, oldest first, and
 * the change feed over all of them in commit order. Nothing is ever
 * erased; the writer (writer.ts) appends, this module reads.
 */
import type { StoreDb } from './db.js';
import { historyToRecord } from './records.js';
import type { Database } from './schema.js';
import type { ChangeOp, HistoryEntry } from './types.js';

/**
 * Reads the history: of one name, or the change feed of all.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * await store.writer.put('urn:ex:a', { urn: 'urn:ex:a', locations: [{ url: 'http://a/' }] });
 * const history: NameHistory = store.history;
 * (await history.versions('urn:ex:a')).map((e) => e.op); // ['create']
 * (await history.changes({ since: 0 })).next; // 1
 * await store.close();
 * ```
 */
export class NameHistory {
  readonly #db: StoreDb;

  constructor(db: StoreDb) {
    this.#db = db;
  }

  /** Every version of a name, oldest first. */
  async versions(key: string): Promise<HistoryEntry[]> {
    const rows = await this.#db.readDb.selectFrom('history').selectAll().where('key', '=', key).orderBy('version').execute();
    return rows.map(toEntry);
  }

  /** The change feed: history entries with seq greater than `since` (or at or after `sinceTime`), in order. */
  async changes(opts: { since?: number; sinceTime?: number; limit?: number } = {}): Promise<{ items: HistoryEntry[]; next: number }> {
    const limit = Math.max(1, Math.min(opts.limit ?? 1000, 10_000));
    let q = this.#db.readDb.selectFrom('history').selectAll();
    if (opts.since !== undefined) q = q.where('id', '>', opts.since);
    if (opts.sinceTime !== undefined) q = q.where('at', '>=', opts.sinceTime);
    const rows = await q.orderBy('id').limit(limit).execute();
    const items = rows.map(toEntry);
    return { items, next: items.length ? items[items.length - 1]!.seq : opts.since ?? 0 };
  }
}

function toEntry(r: Database['history']): HistoryEntry {
  const e: HistoryEntry = { seq: Number(r.id), key: r.key, version: Number(r.version), op: r.op as ChangeOp, at: Number(r.at), record: historyToRecord(r) };
  if (r.actor !== null) e.actor = r.actor;
  return e;
}
