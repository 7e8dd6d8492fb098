/**
 * The name cache (name-cache.ts) in front of PostgreSQL, exact under
 * writes from any process on any machine: no answer comes from it before
 * the database has said, after the request arrived, which names changed
 * since the cache last looked.
 *
 * Each batch is one statement, one snapshot: the history entries after
 * the last one the cache has seen (the change feed: every write of a name
 * adds one, and writers take the store's one write lock, so ids commit in
 * increasing order and "after id n" misses nothing), the highest history
 * id, and the rows of the keys the cache lacks (a batch whose keys are
 * all cached asks for the change feed alone, a third of the cost). The changed names leave
 * the cache, the rows read come in, and only then are the batch's keys
 * answered: a cached row is the current row as of a snapshot taken after
 * the request arrived, the same guarantee as reading the table. A name
 * that was cached when the batch left and changed meanwhile is read in
 * the next batch; after more changes than one batch lists (a bulk
 * import), the cache starts empty.
 *
 * What it saves: the index probes, the rows on the wire and their
 * decoding in the driver; PostgreSQL's work per batch stays. Within a
 * large store that the database's buffers do not hold, that is most of a
 * read (bench/RESULTS-server.md).
 */
import type pg from 'pg';
import type { NameCacheControl } from './cached-reader.js';
import { NameCache } from './name-cache.js';
import { NAME_COLUMNS, type BatchSource, type Fetched } from './postgres-reader.js';
import type { NamesTable } from './schema.js';

/** The most changes one batch lists; past that the cache empties and starts again. */
const MAX_CHANGES = 1000;

/** One row of the checked statement: `kind` 0 a change, 1 a names row, 2 the highest history id. */
interface CheckedRow extends NamesTable {
  kind: number;
  id: number | null;
}

/**
 * The change feed since `$1`, the highest history id, and names rows:
 * `rows` selects them (its parameters from `$2`). Postgres plans a
 * prepared statement for any `$1`: the LIMIT keeps it an index scan.
 */
function checked(rows: string): string {
  // The first branch names the columns of all three.
  const named = 'null::text as "urn", null::text as "status", null::text as "data", null::integer as "version", null::bigint as "created", null::bigint as "updated"';
  const nulls = 'null, null, null, null, null, null';
  return `select 0 as kind, c.id, c.key, ${named} from (select "id", "key" from "history" where "id" > $1 order by "id" limit ${MAX_CHANGES + 1}) c
union all select 2, (select coalesce(max("id"), 0) from "history"), null, ${nulls}
union all select 1, null, ${NAME_COLUMNS} from (${rows}) n`;
}

const BY_KEYS = { name: 'urikit_names_checked', text: checked(`select ${NAME_COLUMNS} from "names" where "key" = any($2::text[])`) };
/**
 * The change feed alone, for a batch the cache answers whole (the common
 * case once it is warm): a third of the checked statement's cost to
 * PostgreSQL (8.4 against 22.9 µs of a backend's CPU a statement,
 * pgbench, a million names), since it needs neither the highest history
 * id nor the names branch. Listed in full, the changes themselves say how
 * far the snapshot goes: to the last one listed, or to where the cache
 * was if none is.
 */
const FEED = { name: 'urikit_names_feed', text: `select "id", "key" from "history" where "id" > $1 order by "id" limit ${MAX_CHANGES + 1}` };
const PAGE = { name: 'urikit_names_page_checked', text: checked(`select ${NAME_COLUMNS} from "names" where "key" > $2 order by "key" limit $3`) };

/**
 * The name cache of a PostgreSQL store, as the source of its batches.
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * const pool = new pg.Pool({ connectionString: 'postgres://user@db.example/names' }); // connects on the first query
 * const cache = new CheckedNameCache(pool, 256 * 1024 * 1024);
 * cache.size; // 0
 * await pool.end();
 * ```
 */
export class CheckedNameCache implements BatchSource, NameCacheControl {
  readonly #pool: pg.Pool;
  readonly #cache: NameCache;
  /** The highest history id the cache is exact for. */
  #seen = -1;
  #closed = false;

  constructor(pool: pg.Pool, maxBytes: number) {
    this.#pool = pool;
    this.#cache = new NameCache(maxBytes);
  }

  get size(): number {
    return this.#cache.size;
  }

  async fetch(keys: string[]): Promise<Fetched> {
    const misses = this.#seen < 0 ? keys : keys.filter((k) => !this.#cache.has(k));
    let rows: NamesTable[] = [];
    if (misses.length === 0) await this.#checkFeed();
    else rows = await this.#check(BY_KEYS, [misses]);
    const found: Fetched = new Map();
    for (const row of rows) found.set(row.key, row);
    for (const key of misses) if (!found.has(key)) found.set(key, null);
    // Cached when the batch left: answered from the cache as it is now, unless the name changed meanwhile (then asked again).
    for (const key of keys) {
      if (found.has(key)) continue;
      const row = this.#cache.get(key);
      if (row !== undefined) found.set(key, row);
    }
    return found;
  }

  /** Runs a checked statement from the position the cache has seen; brings the cache up to the statement's snapshot; its names rows. */
  async #check(statement: { name: string; text: string }, params: unknown[]): Promise<NamesTable[]> {
    const since = this.#seen;
    const result = (await this.#pool.query<CheckedRow>({ ...statement, values: [since, ...params] })).rows;
    let top = 0;
    let changes = 0;
    const rows: NamesTable[] = [];
    for (const r of result) {
      if (r.kind === 2) top = r.id ?? 0;
      else if (r.kind === 0) changes++;
      else rows.push({ key: r.key, urn: r.urn, status: r.status, data: r.data, version: r.version, created: r.created, updated: r.updated });
    }
    // Every change after `since` up to `top`, listed in full or not at all.
    if (since < 0 || changes > MAX_CHANGES) this.#cache.clear();
    else for (const r of result) if (r.kind === 0) this.#cache.delete(r.key);
    // The cache is now exact as of max(seen, top); the rows read are current
    // as of `top`, and go in only if that is not older than what it holds.
    if (top >= this.#seen) {
      this.#seen = top;
      if (!this.#closed) for (const row of rows) if (!this.#cache.set(row)) break;
    }
    return rows;
  }

  /**
   * Brings the cache up to a snapshot taken now, by the change feed
   * alone. After more changes than it lists, the cache empties and forgets
   * where it was: the next batch asks for every key with the checked
   * statement, which says how far the feed goes.
   */
  async #checkFeed(): Promise<void> {
    const since = this.#seen;
    const changes = (await this.#pool.query<{ id: number; key: string }>({ ...FEED, values: [since] })).rows;
    if (changes.length > MAX_CHANGES) {
      this.#cache.clear();
      this.#seen = -1;
      return;
    }
    for (const c of changes) this.#cache.delete(c.key);
    // Ids commit in increasing order (writers hold the store's write lock): the last listed is the snapshot's newest.
    const top = changes.length > 0 ? changes[changes.length - 1]!.id : since;
    if (top > this.#seen) this.#seen = top;
  }

  /** This process's writes: their names leave the cache now (the change feed will say so too, a batch later). */
  forget(keys: readonly string[]): void {
    for (const key of keys) this.#cache.delete(key);
  }

  async warm(pageSize = 5000): Promise<number> {
    let after = '';
    while (!this.#closed && !this.#cache.full) {
      const rows = await this.#check(PAGE, [after, pageSize]);
      if (rows.length === 0) break;
      for (const row of rows) if (row.key > after) after = row.key;
    }
    return this.#cache.size;
  }

  close(): void {
    this.#closed = true;
    this.#cache.clear();
  }
}
