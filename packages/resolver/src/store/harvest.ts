/**
 * Reading names in the order a harvester asks for them (OAI-PMH §3.5:
 * by datestamp, then identifier): the current records whose last change
 * lies in a time range, under a key prefix, a page at a time after a
 * position, on the index `names_by_datestamp` (migration 0007); and the
 * distinct authorities there are, found by skipping from one to the next.
 */
import { prefixEnd, type StoreDb } from './db.js';
import { rowToRecord } from './records.js';
import type { ChangeOp, NameRecord } from './types.js';

/**
 * Which names a harvest page covers: changed from `from` to `until`
 * (ms, inclusive), keys under one of `prefixes` (all when absent),
 * statuses other than `skip`, after the position `after` (datestamp,
 * key), at most `limit`.
 *
 * @example
 * ```ts
 * const q: HarvestQuery = { prefixes: ['urn:nbn:de:', 'urn:nbn:de-'], skip: ['reserved'], limit: 100 };
 * q.limit; // 100
 * ```
 */
export interface HarvestQuery {
  from?: number;
  until?: number;
  prefixes?: readonly string[];
  skip?: readonly string[];
  after?: [number, string];
  limit: number;
}

/**
 * The harvest reads of a store.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * await store.writer.put('urn:example:b', { urn: 'urn:example:b' });
 * await store.writer.put('urn:example:a', { urn: 'urn:example:a' });
 * (await store.harvest.page({ limit: 10 })).length; // 2
 * await store.harvest.count({ prefixes: ['urn:example:'] }); // 2
 * await store.harvest.firstKeyAfter(''); // 'urn:example:a'
 * await store.close();
 * ```
 */
export class NameHarvest {
  readonly #db: StoreDb;

  constructor(db: StoreDb) {
    this.#db = db;
  }

  #select(q: Omit<HarvestQuery, 'limit' | 'after'>) {
    let s = this.#db.readDb.selectFrom('names');
    if (q.from !== undefined) s = s.where('updated', '>=', q.from);
    if (q.until !== undefined) s = s.where('updated', '<=', q.until);
    const ranges = q.prefixes;
    if (ranges !== undefined && !ranges.includes('')) s = s.where((eb) => eb.or(ranges.map((p) => eb.and([eb('key', '>=', p), eb('key', '<', prefixEnd(p))]))));
    if (q.skip !== undefined && q.skip.length > 0) s = s.where('status', 'not in', q.skip);
    return s;
  }

  /** A page of current records in (updated, key) order. */
  async page(q: HarvestQuery): Promise<NameRecord[]> {
    let s = this.#select(q).selectAll();
    if (q.after !== undefined) {
      const [at, key] = q.after;
      s = s.where((eb) => eb.or([eb('updated', '>', at), eb.and([eb('updated', '=', at), eb('key', '>', key)])]));
    }
    const rows = await s.orderBy('updated').orderBy('key').limit(Math.max(1, q.limit)).execute();
    return rows.map(rowToRecord);
  }

  /** How many records a query selects (without `after` and `limit`). */
  async count(q: Omit<HarvestQuery, 'limit' | 'after'>): Promise<number> {
    const row = await this.#select(q).select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** The earliest change of a record a query selects (ms), or undefined when it selects none. */
  async earliest(q: Omit<HarvestQuery, 'limit' | 'after'> = {}): Promise<number | undefined> {
    const row = await this.#select(q).select('updated').orderBy('updated').limit(1).executeTakeFirst();
    return row === undefined ? undefined : Number(row.updated);
  }

  /** The smallest key greater than `key`, or undefined (a skip scan: one indexed seek per distinct authority). */
  async firstKeyAfter(key: string): Promise<string | undefined> {
    const row = await this.#db.readDb.selectFrom('names').select('key').where('key', '>', key).orderBy('key').limit(1).executeTakeFirst();
    return row?.key;
  }

  /** The record of one key. */
  /**
   * The kind of change (create, update, move, withdraw, reinstate) that
   * made each record's current version, from the history: what a mirror
   * writes into its own history (server/mirror.ts).
   *
   * @example
   * ```ts
   * const store = await openStore(':memory:');
   * await store.writer.put('urn:ex:a', { urn: 'urn:ex:a', status: 'moved', movedTo: 'urn:ex:b' });
   * const r = (await store.harvest.get('urn:ex:a'))!;
   * (await store.harvest.changesOf([r])).get('urn:ex:a'); // 'move'
   * await store.close();
   * ```
   */
  async changesOf(records: readonly NameRecord[]): Promise<Map<string, ChangeOp>> {
    const out = new Map<string, ChangeOp>();
    for (let i = 0; i < records.length; i += 500) {
      const part = records.slice(i, i + 500);
      const version = new Map(part.map((r) => [r.key, r.version]));
      // the keys and the versions there are (a page's versions are few), the exact pairs kept
      const rows = await this.#db.readDb.selectFrom('history').select(['key', 'version', 'op'])
        .where('key', 'in', [...version.keys()]).where('version', 'in', [...new Set(version.values())]).execute();
      for (const row of rows) if (Number(row.version) === version.get(row.key)) out.set(row.key, row.op as ChangeOp);
    }
    return out;
  }

  async get(key: string): Promise<NameRecord | undefined> {
    const row = await this.#db.readDb.selectFrom('names').selectAll().where('key', '=', key).executeTakeFirst();
    return row ? rowToRecord(row) : undefined;
  }
}
