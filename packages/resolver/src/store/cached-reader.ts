/**
 * The name cache (name-cache.ts) as a {@link NameReader} in front of
 * SQLite's: a resolution in a store of millions of names then costs what
 * it costs in a store of a thousand (a hash lookup instead of a B-tree
 * descent through cold pages). It stays exact: this process's writes drop
 * their keys when they end (forget), and a commit by another process that
 * changed names empties it before the next turn's first read (SQLite's
 * data_version, asked when the wal-index header moved (wal-index-watch.ts),
 * says another process committed; the names generation,
 * read in the turn's snapshot, says whether that commit changed names or
 * only statistics or link health).
 * On PostgreSQL, which tells no one of other machines' commits, the
 * cache checks the change feed instead (postgres-cache.ts).
 */
import { NameCache } from './name-cache.js';
import type { NameLookup, NameReader } from './reader.js';
import { rowToRecord } from './records.js';
import type { NamesTable } from './schema.js';
import type { SqliteNameReader } from './sqlite-reader.js';
import type { NameRecord } from './types.js';

/**
 * What a server may ask of a store's name cache: how many names it holds
 * and to fill it.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:', { nameCacheBytes: 1 << 20 }); // ':memory:' has nothing to gain: no cache
 * store.nameCache; // undefined
 * await store.close();
 * ```
 */
export interface NameCacheControl {
  /** How many names the cache holds now. */
  readonly size: number;
  /** Fills the cache from the table, a page per turn of the event loop (resolutions go on meanwhile); resolves to the number of names cached. */
  warm(pageSize?: number): Promise<number>;
}

/** How many decoded records a {@link CachedNameReader} keeps (emptied when full), and the longest JSON data of one kept: at most about 40 MB in all. */
const RECORDS_KEPT = 4096;
const RECORD_DATA_KEPT = 4096;

/**
 * A record shared by every request, frozen with its lists and locations
 * (not its metadata: an arbitrary JSON value, which a store may hold
 * nested thousands deep, and which JSON.stringify then writes more slowly
 * and with more stack frozen than not).
 */
function frozen(r: NameRecord): NameRecord {
  for (const l of r.locations) Object.freeze(l);
  Object.freeze(r.locations);
  if (r.movedFrom !== undefined) Object.freeze(r.movedFrom);
  if (r.predecessors !== undefined) Object.freeze(r.predecessors);
  return Object.freeze(r);
}

/** {@link NameReader} answering from the name cache, SQLite behind it. */
export class CachedNameReader implements NameReader, NameCacheControl {
  readonly #source: SqliteNameReader;
  readonly #cache: NameCache;
  #foreignCommits: number;
  #generation: number;
  #closed = false;
  /**
   * The records of the names asked last, decoded (a row of the cache is
   * bytes: decoding it and its JSON cost more than the rest of an
   * answer), frozen since every request shares them. They leave with
   * their rows: {@link forget} and every emptying of the cache.
   */
  readonly #records = new Map<string, NameRecord>();

  /** `maxBytes` bounds the rows kept; the index takes 16 to 32 bytes a name besides. */
  constructor(source: SqliteNameReader, maxBytes: number) {
    this.#source = source;
    this.#cache = new NameCache(maxBytes);
    this.#foreignCommits = source.rows.foreignCommits();
    this.#generation = source.rows.namesGeneration();
  }

  get size(): number {
    return this.#cache.size;
  }

  /** A new turn: another process committed since the last one, so any cached row may be stale. */
  #openTurn(): void {
    if (!this.#source.openTurn()) return;
    // data_version first, then the generation in this turn's snapshot (taken
    // by that read): every commit data_version counts is in the snapshot.
    const commits = this.#source.rows.foreignCommits();
    if (commits === this.#foreignCommits) return;
    this.#foreignCommits = commits;
    this.#source.begin();
    const generation = this.#source.rows.namesGeneration();
    if (generation !== this.#generation) {
      this.#cache.clear();
      this.#records.clear();
      this.#generation = generation;
    }
  }

  /** The row of `key`, from the cache or, once, from SQLite (in a turn {@link #openTurn} opened). */
  #row(key: string): NamesTable | undefined {
    let row = this.#cache.get(key);
    if (row === undefined) {
      row = this.#source.row(key);
      if (row !== undefined) this.#cache.set(row);
    }
    return row;
  }

  #record(key: string): NameRecord | undefined {
    this.#openTurn();
    const known = this.#records.get(key);
    if (known !== undefined) return known;
    const row = this.#row(key);
    if (row === undefined) return undefined;
    const record = frozen(rowToRecord(row));
    // Bounded in count and size (the cache's bytes bound the rows; a record's metadata may be large).
    if (row.data.length > RECORD_DATA_KEPT) return record;
    if (this.#records.size >= RECORDS_KEPT) this.#records.clear();
    this.#records.set(key, record);
    return record;
  }

  async get(key: string): Promise<NameRecord | undefined> {
    return this.#record(key);
  }

  peek(key: string): NameRecord | undefined {
    this.#openTurn();
    return this.#records.get(key);
  }

  async lookup(key: string): Promise<NameLookup> {
    return { record: this.#record(key) };
  }

  /**
   * After a write of this process ended: its names leave the cache, and a
   * committed change of names raised the names generation by one (db.ts),
   * which is then not another process's change. `many`: it wrote more
   * names than it listed (db.ts), so all leave.
   */
  forget(keys: readonly string[], committed: boolean, many = false): void {
    if (many) {
      this.#cache.clear();
      this.#records.clear();
    } else {
      for (const key of keys) {
        this.#cache.delete(key);
        this.#records.delete(key);
      }
    }
    if (committed && keys.length > 0) this.#generation++;
  }

  async warm(pageSize = 5000): Promise<number> {
    let after = -1;
    while (!this.#closed) {
      this.#openTurn();
      this.#source.begin();
      const rows = this.#source.rows.scan(after, pageSize);
      for (const row of rows) {
        after = row.id;
        if (!this.#cache.has(row.key)) this.#cache.set(row);
      }
      if (this.#cache.full || rows.length === 0) break;
      await new Promise((r) => setImmediate(r));
    }
    return this.#cache.size;
  }

  close(): void {
    this.#closed = true;
    this.#cache.clear();
    this.#records.clear();
  }
}
