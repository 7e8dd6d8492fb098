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
 *
 * While the database is away (a restart, a failover, a network fault),
 * a batch cannot be checked: its cached names are answered as the
 * database last confirmed them, marked stale (`StaleFetched`), for at
 * most `staleIfErrorMs` after that confirmation (RFC 5861 §4
 * stale-if-error, applied to the database: DESIGN.md, "When the database
 * is away"); names not cached fail. After a failed batch, the batches of
 * the next second answer from the cache without asking, so that a
 * server that does not answer at all holds one batch, not all of them.
 */
import type { NameCacheControl } from './cached-reader.js';
import { NameCache } from './name-cache.js';
import type { PgEndpoint } from './postgres-pool.js';
import { NAME_COLUMNS, readRouted, StaleFetched, type BatchSource, type Fetched } from './postgres-reader.js';
import type { NamesTable } from './schema.js';
import { StoreFault } from './store-fault.js';

/** After a failed batch, how long the cache answers without asking the server that failed. */
const PROBE_MS = 1000;
/** How long a page of the warm-up may take. */
const WARM_PAGE_TIMEOUT_MS = 60_000;

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
 * How the cache of a PostgreSQL store is made: the server its batches go
 * to (`at()`: the replica, or the primary while the replica is away), its
 * memory, and how long it may answer while that server is away.
 */
export interface CheckedNameCacheOptions {
  at: () => PgEndpoint;
  maxBytes: number;
  /** How long after the database last confirmed it a cached row may answer while the database is away (0: never). */
  staleIfErrorMs: number;
  now?: () => number;
}

/**
 * The name cache of a PostgreSQL store, as the source of its batches.
 *
 * @example
 * ```ts
 * const availability = new StoreAvailability(['primary']);
 * const primary = new PgEndpoint({ url: new URL('postgres://user@db.example/names'), max: 2, part: 'primary', options: '', availability });
 * const cache = new CheckedNameCache({ at: () => primary, maxBytes: 256 * 1024 * 1024, staleIfErrorMs: 300_000 }); // connects on the first batch
 * cache.size; // 0
 * await primary.end();
 * ```
 */
export class CheckedNameCache implements BatchSource, NameCacheControl {
  readonly #at: () => PgEndpoint;
  readonly #cache: NameCache;
  readonly #staleIfErrorMs: number;
  readonly #now: () => number;
  /** The highest history id the cache is exact for. */
  #seen = -1;
  #closed = false;
  /** When the database last confirmed the cache (the start of the last batch that was checked). */
  #confirmedAt = 0;
  /** The server whose last batch failed, the fault, and until when the cache answers without asking it. */
  #failed: { at: PgEndpoint; fault: StoreFault; until: number } | undefined;
  /** Batches answered from the cache alone while the database was away. */
  staleBatches = 0;

  constructor(opts: CheckedNameCacheOptions) {
    this.#at = opts.at;
    this.#cache = new NameCache(opts.maxBytes);
    this.#staleIfErrorMs = opts.staleIfErrorMs;
    this.#now = opts.now ?? Date.now;
  }

  get size(): number {
    return this.#cache.size;
  }

  async fetch(keys: string[]): Promise<Fetched> {
    const at = this.#at();
    const now = this.#now();
    if (this.#failed !== undefined && this.#failed.at === at && now < this.#failed.until) return this.#stale(keys, this.#failed.fault, now);
    try {
      return await readRouted(this.#at, (endpoint) => this.#fetchChecked(endpoint, keys, now));
    } catch (e) {
      if (!(e instanceof StoreFault)) throw e;
      const failed = this.#at();
      this.#failed = { at: failed, fault: e, until: now + PROBE_MS };
      return this.#stale(keys, e, this.#now());
    }
  }

  /** What the cache holds of `keys`, as the database last confirmed it: none past the stale bound. */
  #stale(keys: string[], fault: StoreFault, now: number): StaleFetched {
    const age = now - this.#confirmedAt;
    const out = new StaleFetched(age, fault);
    this.staleBatches++;
    if (this.#seen < 0 || age > this.#staleIfErrorMs) return out;
    for (const key of keys) {
      const row = this.#cache.get(key);
      if (row !== undefined) out.set(key, row);
    }
    return out;
  }

  async #fetchChecked(at: PgEndpoint, keys: string[], now: number): Promise<Fetched> {
    const misses = this.#seen < 0 ? keys : keys.filter((k) => !this.#cache.has(k));
    let rows: NamesTable[] = [];
    if (misses.length === 0) await this.#checkFeed(at);
    else rows = await this.#check(at, BY_KEYS, [misses]);
    this.#confirmedAt = now;
    this.#failed = undefined;
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
  async #check(at: PgEndpoint, statement: { name: string; text: string }, params: unknown[], timeoutMs?: number): Promise<NamesTable[]> {
    const since = this.#seen;
    const result = (await at.read<CheckedRow>({ ...statement, values: [since, ...params] }, timeoutMs)).rows;
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
  async #checkFeed(at: PgEndpoint): Promise<void> {
    const since = this.#seen;
    const changes = (await at.read<{ id: number; key: string }>({ ...FEED, values: [since] })).rows;
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
      const started = this.#now();
      // A page of thousands of rows of a cold store may take longer than a resolution's read is given.
      const rows = await this.#check(this.#at(), PAGE, [after, pageSize], WARM_PAGE_TIMEOUT_MS);
      // The page's statement brought the cache up to its snapshot: a confirmation.
      if (this.#failed === undefined) this.#confirmedAt = Math.max(this.#confirmedAt, started);
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
