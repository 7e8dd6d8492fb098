/**
 * The store of names: one query layer (kysely) over SQLite or
 * PostgreSQL. Every change of a name is one transaction that updates its
 * current row and appends the whole new record to the history, which is
 * also the change feed (DESIGN.md: "every change kept in a history").
 */
import { CompiledQuery, sql, type Kysely, type Transaction } from 'kysely';
import { changeOp, nextRecord, recordToRow, rowToRecord, sameContent } from './records.js';
import { NameCache } from './name-cache.js';
import type { Database, Engine, NamesTable } from './schema.js';
import { nameSlot } from './slots.js';
import type { Authority, ChangeOp, HistoryEntry, NameInput, NameRecord, Page, PrefixRule } from './types.js';

/**
 * The result of a write: the record now stored and whether anything
 * changed (a write that changes nothing adds no history entry).
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * const input = { urn: 'urn:ex:a', locations: [{ url: 'https://example.org/a' }] };
 * const w: WriteResult = await store.put('urn:ex:a', input);
 * w.op; // 'create'
 * (await store.put('urn:ex:a', input)).op; // 'unchanged'
 * await store.close();
 * ```
 */
export interface WriteResult {
  record: NameRecord;
  op: ChangeOp | 'unchanged';
}

/** The PostgreSQL advisory lock that serializes writers ("urikit" in ASCII). */
const WRITE_LOCK = 0x75726b69;

/** Rows per multi-row INSERT in a bulk write. */
const BATCH = 500;

/** A names row's values, in the column order of the compiled bulk INSERT. */
function namesParams(r: NamesTable): unknown[] {
  return [r.key, r.urn, r.status, r.data, r.version, r.created, r.updated];
}

/** A history row's values, in the column order of the compiled bulk INSERT. */
function historyParams(h: Database['history']): unknown[] {
  return [h.key, h.version, h.op, h.at, h.actor, h.record];
}

/** The highest key that starts with `prefix` (keys are US-ASCII, so DEL bounds them). */
function prefixEnd(prefix: string): string {
  return `${prefix}\x7f`;
}

/**
 * Synchronous reads on SQLite's read connection, for the resolution hot
 * path: the current row of a key, the read transaction that lets the
 * reads of one turn of the event loop share one snapshot, the rows in
 * table order (to fill the name cache), and the count of commits made by
 * other connections (to know when the cache is stale).
 *
 * @example
 * ```ts
 * const reads: SqliteReads = { get: () => undefined, begin: () => undefined, end: () => undefined, scan: () => [], foreignCommits: () => 0 };
 * ```
 */
export interface SqliteReads {
  get(key: string): NamesTable | undefined;
  begin(): void;
  end(): void;
  /** Up to `limit` rows after the row id `after`, in row id order. */
  scan(after: number, limit: number): Array<NamesTable & { id: number }>;
  /** SQLite's `PRAGMA data_version` of the write connection: it changes when any other connection (another process) commits. */
  foreignCommits(): number;
}

/**
 * A store of names on one engine. Open one with {@link openStore}.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * await store.put('urn:ex:a', { urn: 'urn:ex:a', locations: [{ url: 'https://example.org/a' }] });
 * (await store.get('urn:ex:a'))?.locations[0]?.url; // 'https://example.org/a'
 * ```
 */
export class Store {
  readonly #getByKey: string;
  readonly #onClose: () => Promise<void>;
  readonly #fast: SqliteReads | undefined;
  /** SQLite: current rows by key, in memory (see cacheNames). */
  #cache = new NameCache(0);
  #caching = false;
  #foreignCommits = 0;
  /** Keys written by the transaction in progress: dropped from the cache when it ends. */
  #written: string[] = [];

  /**
   * @param db the connection for writes (and reads on PostgreSQL)
   * @param readDb a second connection for reads (SQLite: WAL readers never wait for the writer)
   * @param fast synchronous reads on `readDb`'s SQLite connection (not when it is also the writer's)
   */
  constructor(readonly db: Kysely<Database>, readonly readDb: Kysely<Database>, readonly engine: Engine, onClose: () => Promise<void>, fast?: SqliteReads) {
    this.#getByKey = readDb.selectFrom('names').selectAll().where('key', '=', '').compile().sql;
    this.#onClose = onClose;
    this.#fast = fast;
  }

  #readBatch = false;
  #closed = false;

  /**
   * SQLite: the reads of one turn of the event loop share one read
   * transaction (one snapshot), which halves the cost of a lookup (the
   * WAL read lock is taken once, not per statement). It ends before the
   * next turn, and at once when this store commits a write, so a client
   * reads its own writes; another process's write shows from the next turn.
   */
  #batchReads(fast: SqliteReads): void {
    if (this.#readBatch) return;
    fast.begin();
    this.#readBatch = true;
    setImmediate(() => this.#endReads());
    // Another process committed since the last turn: any cached row may be stale.
    if (this.#caching) {
      const commits = fast.foreignCommits();
      if (commits !== this.#foreignCommits) {
        this.#cache.clear();
        this.#foreignCommits = commits;
      }
    }
  }

  /**
   * SQLite: keeps current rows in up to `maxBytes` of memory outside the
   * JavaScript heap (name-cache.ts; `maxBytes` bounds the rows, the index
   * takes 16 to 32 bytes a name besides), so that a
   * resolution in a store of millions of names costs what it costs in a
   * store of a thousand (a hash lookup instead of a B-tree descent through
   * cold pages: the I2L benchmark, bench/RESULTS-server.md). The cache stays exact: this
   * store's writes drop their keys when they commit, and a commit by any
   * other connection (another process) empties it before the next read.
   * 0 turns it off; PostgreSQL stores read the database every time (two
   * servers on one PostgreSQL see each other's writes at once).
   *
   * @example
   * ```ts
   * const store = await openStore(':memory:'); // a file store caches; ':memory:' has nothing to gain
   * store.cacheNames(256 * 1024 * 1024);
   * await store.warmNameCache(); // 0
   * await store.close();
   * ```
   */
  cacheNames(maxBytes: number): void {
    if (!this.#fast) return;
    this.#cache = new NameCache(maxBytes);
    this.#caching = maxBytes > 0;
    this.#foreignCommits = this.#fast.foreignCommits();
  }

  /** How many names the name cache holds now. */
  get cachedNames(): number {
    return this.#cache.size;
  }

  /**
   * Fills the name cache from the table, a page per turn of the event loop
   * (resolutions go on meanwhile); resolves to the number of names cached.
   */
  async warmNameCache(pageSize = 5000): Promise<number> {
    const fast = this.#fast;
    if (!fast) return 0;
    let after = -1;
    while (this.#caching && !this.#closed) {
      this.#batchReads(fast);
      const rows = fast.scan(after, pageSize);
      for (const row of rows) {
        after = row.id;
        if (!this.#cache.has(row.key)) this.#cache.set(row);
      }
      if (this.#cache.full || rows.length === 0) break;
      await new Promise((r) => setImmediate(r));
    }
    return this.#cache.size;
  }

  #endReads(): void {
    if (!this.#readBatch) return;
    this.#readBatch = false;
    this.#fast?.end();
  }

  /** The current record of a name, by its normalized URN. */
  async get(key: string): Promise<NameRecord | undefined> {
    let row: NamesTable | undefined;
    if (this.#fast) {
      this.#batchReads(this.#fast);
      row = this.#caching ? this.#cache.get(key) : undefined;
      if (row === undefined) {
        row = this.#fast.get(key);
        if (row !== undefined && this.#caching) this.#cache.set(row);
      }
    } else {
      row = (await this.readDb.executeQuery<NamesTable>(CompiledQuery.raw(this.#getByKey, [key]))).rows[0];
    }
    return row ? rowToRecord(row) : undefined;
  }

  /** Runs `fn` in one transaction on the write connection. */
  async transaction<T>(fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        // PostgreSQL: one writer at a time across every process, so history ids
        // (the change feed's seq) are committed in increasing order and a
        // harvester reading "since N" never skips a later-committed lower id.
        if (this.engine === 'postgres') await sql`select pg_advisory_xact_lock(${WRITE_LOCK})`.execute(trx);
        return fn(trx);
      });
    } finally {
      // After the commit (or the rollback): a read from now on sees the write.
      this.#endReads();
      for (const key of this.#written) this.#cache.delete(key);
      this.#written = [];
    }
  }

  /** Creates or replaces a name; a write that changes nothing is `unchanged` and adds no history. */
  async put(key: string, input: NameInput, actor?: string): Promise<WriteResult> {
    return this.transaction(async (trx) => {
      const current = await this.#current(trx, key);
      return this.#write(trx, key, nextRecord(key, input, current, Date.now()), current, changeOp(input, current), actor);
    });
  }

  /** Applies `change` to the current record of an existing name; undefined if the name is unknown. */
  async change(key: string, op: ChangeOp, change: (current: NameRecord) => NameInput, actor?: string): Promise<WriteResult | undefined> {
    return this.transaction(async (trx) => {
      const current = await this.#current(trx, key);
      if (!current) return undefined;
      return this.#write(trx, key, nextRecord(key, change(current), current, Date.now()), current, op, actor);
    });
  }

  async #current(trx: Transaction<Database>, key: string): Promise<NameRecord | undefined> {
    let q = trx.selectFrom('names').selectAll().where('key', '=', key);
    if (this.engine === 'postgres') q = q.forUpdate();
    const row = await q.executeTakeFirst();
    return row ? rowToRecord(row) : undefined;
  }

  async #write(trx: Transaction<Database>, key: string, next: NameRecord, current: NameRecord | undefined, op: ChangeOp, actor?: string): Promise<WriteResult> {
    if (current && sameContent(current, next)) return { record: current, op: 'unchanged' };
    this.#written.push(key);
    const row = recordToRow(next);
    if (current) await trx.updateTable('names').set(row).where('key', '=', key).execute();
    else await this.#insertNames(trx, [row]);
    await trx.insertInto('history').values({ key, version: next.version, op, at: next.updated, actor: actor ?? null, record: JSON.stringify(next) }).execute();
    return { record: next, op };
  }

  /** Writes many new or changed records inside `trx` (bulk import): names rows and history rows in multi-row statements. */
  async writeBatch(trx: Transaction<Database>, batch: Array<{ key: string; input: NameInput }>, actor?: string): Promise<{ created: number; updated: number; unchanged: number }> {
    const counts = { created: 0, updated: 0, unchanged: 0 };
    if (batch.length === 0) return counts;
    const rows = await trx.selectFrom('names').selectAll().where('key', 'in', batch.map((b) => b.key)).execute();
    const current = new Map(rows.map((r) => [r.key, rowToRecord(r)]));
    const now = Date.now();
    const inserts: NamesTable[] = [];
    const history: Database['history'][] = [];
    for (const { key, input } of batch) {
      const cur = current.get(key);
      const next = nextRecord(key, input, cur, now);
      if (cur && sameContent(cur, next)) { counts.unchanged++; continue; }
      this.#written.push(key);
      const row = recordToRow(next);
      if (cur) {
        await trx.updateTable('names').set(row).where('key', '=', key).execute();
        counts.updated++;
      } else {
        inserts.push(row);
        counts.created++;
      }
      history.push({ id: undefined, key, version: next.version, op: changeOp(input, cur), at: now, actor: actor ?? null, record: JSON.stringify(next) });
    }
    await this.#insertNames(trx, inserts);
    for (let i = 0; i < history.length; i += BATCH) {
      const rows = history.slice(i, i + BATCH);
      if (rows.length === BATCH) await trx.executeQuery(CompiledQuery.raw(this.#bulkSql(trx).history, rows.flatMap(historyParams)));
      else await trx.insertInto('history').values(rows.map(({ id: _id, ...h }) => h)).execute();
    }
    return counts;
  }

  /**
   * Inserts new names rows. SQLite: each in its slot (slots.ts); a row
   * whose slot is taken is inserted again with the id left to SQLite.
   */
  async #insertNames(trx: Transaction<Database>, rows: NamesTable[]): Promise<void> {
    // SQLite allows 32766 bound values per statement; 8 columns x 500 rows stays far below.
    for (let i = 0; i < rows.length; i += BATCH) {
      const chunk = rows.slice(i, i + BATCH);
      if (this.engine === 'postgres') {
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

  #bulk: { names: string; slotted: string; history: string } | undefined;

  /** The SQL of a full batch of inserts, compiled by kysely once (only the parameters change). */
  #bulkSql(trx: Transaction<Database>): { names: string; slotted: string; history: string } {
    if (!this.#bulk) {
      const n: NamesTable = { key: '', urn: '', status: '', data: '', version: 0, created: 0, updated: 0 };
      const h = { key: '', version: 0, op: '', at: 0, actor: null, record: '' };
      this.#bulk = {
        names: trx.insertInto('names').values(Array.from({ length: BATCH }, () => n)).compile().sql,
        slotted: trx.insertInto('names').values(Array.from({ length: BATCH }, () => ({ id: 0, ...n }))).onConflict((oc) => oc.column('id').doNothing()).compile().sql,
        history: trx.insertInto('history').values(Array.from({ length: BATCH }, () => h)).compile().sql,
      };
    }
    return this.#bulk;
  }

  /** Every version of a name, oldest first. */
  async history(key: string): Promise<HistoryEntry[]> {
    const rows = await this.readDb.selectFrom('history').selectAll().where('key', '=', key).orderBy('version').execute();
    return rows.map(toEntry);
  }

  /** Current records whose key starts with `prefix`, in key order, `limit` at a time after the cursor `after`. */
  async list(opts: { prefix?: string; after?: string; limit?: number } = {}): Promise<Page<NameRecord>> {
    const limit = Math.max(1, Math.min(opts.limit ?? 100, 10_000));
    const prefix = opts.prefix ?? '';
    let q = this.readDb.selectFrom('names').selectAll().where('key', '>=', prefix).where('key', '<', prefixEnd(prefix));
    if (opts.after !== undefined) q = q.where('key', '>', opts.after);
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

  /** The change feed: history entries with seq greater than `since` (or at or after `sinceTime`), in order. */
  async changes(opts: { since?: number; sinceTime?: number; limit?: number } = {}): Promise<{ items: HistoryEntry[]; next: number }> {
    const limit = Math.max(1, Math.min(opts.limit ?? 1000, 10_000));
    let q = this.readDb.selectFrom('history').selectAll();
    if (opts.since !== undefined) q = q.where('id', '>', opts.since);
    if (opts.sinceTime !== undefined) q = q.where('at', '>=', opts.sinceTime);
    const rows = await q.orderBy('id').limit(limit).execute();
    const items = rows.map(toEntry);
    return { items, next: items.length ? items[items.length - 1]!.seq : opts.since ?? 0 };
  }

  /** How many names are stored (under `prefix`). */
  async count(prefix = ''): Promise<number> {
    const row = await this.readDb.selectFrom('names').select((eb) => eb.fn.countAll().as('n'))
      .where('key', '>=', prefix).where('key', '<', prefixEnd(prefix)).executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** The longest partial-redirect rule whose prefix starts `key`. */
  async prefixRuleFor(key: string): Promise<PrefixRule | undefined> {
    const candidates: string[] = [];
    for (let n = Math.min(key.length, 512); n >= 5; n--) candidates.push(key.slice(0, n));
    if (candidates.length === 0) return undefined;
    const rows = await this.readDb.selectFrom('prefix_rules').selectAll().where('prefix', 'in', candidates).execute();
    let best: PrefixRule | undefined;
    for (const r of rows) if (!best || r.prefix.length > best.prefix.length) best = { ...r, created: Number(r.created), updated: Number(r.updated) };
    return best;
  }

  /** Creates or replaces a partial-redirect rule. */
  async putPrefixRule(prefix: string, target: string): Promise<PrefixRule> {
    const now = Date.now();
    return this.transaction(async (trx) => {
      const cur = await trx.selectFrom('prefix_rules').selectAll().where('prefix', '=', prefix).executeTakeFirst();
      if (cur) await trx.updateTable('prefix_rules').set({ target, updated: now }).where('prefix', '=', prefix).execute();
      else await trx.insertInto('prefix_rules').values({ prefix, target, created: now, updated: now }).execute();
      return { prefix, target, created: cur ? Number(cur.created) : now, updated: now };
    });
  }

  /** All partial-redirect rules under `prefix`. */
  async listPrefixRules(prefix = ''): Promise<PrefixRule[]> {
    const rows = await this.readDb.selectFrom('prefix_rules').selectAll().where('prefix', '>=', prefix).where('prefix', '<', prefixEnd(prefix)).orderBy('prefix').execute();
    return rows.map((r) => ({ ...r, created: Number(r.created), updated: Number(r.updated) }));
  }

  /** Removes a partial-redirect rule; true if there was one. */
  async deletePrefixRule(prefix: string): Promise<boolean> {
    const res = await this.db.deleteFrom('prefix_rules').where('prefix', '=', prefix).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  /** The registry entry of a naming authority (1995 draft §3.5). */
  async getAuthority(name: string): Promise<Authority | undefined> {
    const row = await this.readDb.selectFrom('authorities').selectAll().where('name', '=', name).executeTakeFirst();
    return row ? (JSON.parse(row.data) as Authority) : undefined;
  }

  /** Creates or replaces a registry entry. */
  async putAuthority(a: Authority): Promise<void> {
    const data = JSON.stringify(a);
    await this.transaction(async (trx) => {
      const cur = await trx.selectFrom('authorities').select('name').where('name', '=', a.name).executeTakeFirst();
      if (cur) await trx.updateTable('authorities').set({ data }).where('name', '=', a.name).execute();
      else await trx.insertInto('authorities').values({ name: a.name, data }).execute();
    });
  }

  /** Every registry entry. */
  async listAuthorities(): Promise<Authority[]> {
    const rows = await this.readDb.selectFrom('authorities').selectAll().orderBy('name').execute();
    return rows.map((r) => JSON.parse(r.data) as Authority);
  }

  /** Stores a token's id, the SHA-256 of its secret and its authority prefix. */
  async insertToken(id: string, hash: string, authority: string): Promise<void> {
    await this.db.insertInto('tokens').values({ id, hash, authority, created: Date.now() }).execute();
  }

  /** A token's stored hash and scope, by id. */
  async getToken(id: string): Promise<{ hash: string; authority: string } | undefined> {
    return this.readDb.selectFrom('tokens').select(['hash', 'authority']).where('id', '=', id).executeTakeFirst();
  }

  /** Answers a trivial query: the engine is up. */
  async ping(): Promise<void> {
    await this.readDb.selectFrom('names').select('key').limit(1).execute();
  }

  /** Closes the connections. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#endReads();
    this.#cache.clear();
    await this.#onClose();
  }
}

function toEntry(r: Database['history']): HistoryEntry {
  const e: HistoryEntry = { seq: Number(r.id), key: r.key, version: Number(r.version), op: r.op as ChangeOp, at: Number(r.at), record: JSON.parse(r.record) as NameRecord };
  if (r.actor !== null) e.actor = r.actor;
  return e;
}
