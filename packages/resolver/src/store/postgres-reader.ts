/**
 * The resolution read on PostgreSQL: the names asked for during one turn
 * of the event loop go to the server together, as one prepared statement
 * (`key = any($1)`), on a few connections of their own. A round trip and
 * a statement cost the server and the driver far more than one more key
 * in a batch (bench/RESULTS-server.md: CPU per answer, the resolver's and
 * PostgreSQL's), so under load a read costs a share of a batch; when idle,
 * a read still goes out at the end of its turn, alone.
 *
 * Every batch asks the database after its requests arrived, so it sees
 * every write committed before them, from any process or machine. The
 * name cache in front (postgres-cache.ts) keeps that: its batches check
 * the change feed in the same statement. With a streaming replica
 * (replica.ts) batches go to the replica, and names this process wrote go
 * to the primary until the replica has replayed them.
 */
import type { PgEndpoint } from './postgres-pool.js';
import type { NameLookup, NameReader } from './reader.js';
import { rowToRecord } from './records.js';
import type { NamesTable } from './schema.js';
import { StoreFault } from './store-fault.js';
import type { NameRecord } from './types.js';

/** The most keys one statement carries (a turn that asks for more sends several). */
const MAX_BATCH = 1000;

/**
 * What a batch found: each key's row, `null` for a name the store does
 * not hold; a key left out is asked again in the next batch.
 */
export type Fetched = Map<string, NamesTable | null>;

/**
 * Rows a source answered while the database was away (the name cache,
 * postgres-cache.ts): as the database last confirmed them, `ageMs` ago.
 * Only a read that accepts a possibly stale answer takes them; a key left
 * out, and every read that does not, fails with `fault`.
 *
 * @example
 * ```ts
 * const stale = new StaleFetched(1200, new StoreFault('store-unavailable', 'primary'));
 * stale.set('urn:ex:a', null);
 * stale instanceof Map; // true
 * ```
 */
export class StaleFetched extends Map<string, NamesTable | null> {
  constructor(readonly ageMs: number, readonly fault: StoreFault) {
    super();
  }
}

/**
 * Where the rows of a batch of keys come from (one statement a batch).
 *
 * @example
 * ```ts
 * const none: BatchSource = { fetch: async (keys) => new Map(keys.map((k) => [k, null])) };
 * (await new TurnBatcher(none, 1).row('urn:ex:a')); // undefined
 * ```
 */
export interface BatchSource {
  fetch(keys: string[]): Promise<Fetched>;
}

interface Waiter {
  resolve(row: NamesTable | undefined, ageMs: number | undefined): void;
  reject(e: unknown): void;
  /** Takes a stale answer (a resolution within the stale bound); else only what the database said now. */
  stale: boolean;
}

/**
 * A row as a batch found it, and, when the database was away, how old
 * the cached row answered instead is.
 *
 * @example
 * ```ts
 * const r: BatchRow = { row: undefined, ageMs: undefined };
 * r.ageMs; // undefined
 * ```
 */
export interface BatchRow {
  row: NamesTable | undefined;
  ageMs: number | undefined;
}

/**
 * Collects the keys asked for during a turn of the event loop and sends
 * them as one batch, at most `inFlight` batches at a time; keys asked
 * while all are busy go in the next batch.
 *
 * @example
 * ```ts
 * let batches = 0;
 * const source: BatchSource = { fetch: async (keys) => { batches++; return new Map(keys.map((k) => [k, null])); } };
 * const b = new TurnBatcher(source, 1);
 * await Promise.all([b.row('urn:ex:a'), b.row('urn:ex:b'), b.row('urn:ex:a')]);
 * batches; // 1
 * ```
 */
export class TurnBatcher {
  readonly #source: BatchSource;
  readonly #inFlight: number;
  #pending = new Map<string, Waiter[]>();
  #busy = 0;
  #scheduled = false;

  constructor(source: BatchSource, inFlight: number) {
    this.#source = source;
    this.#inFlight = inFlight;
  }

  /** The current row of `key`, read in the next batch. */
  row(key: string): Promise<NamesTable | undefined> {
    return new Promise((resolve, reject) => this.#ask(key, [{ resolve, reject, stale: false }]));
  }

  /** The row of `key` read in the next batch, or while the database is away the row a stale source still holds (see {@link StaleFetched}). */
  staleRow(key: string): Promise<BatchRow> {
    return new Promise((resolve, reject) => this.#ask(key, [{ resolve: (row, ageMs) => resolve({ row, ageMs }), reject, stale: true }]));
  }

  #ask(key: string, waiters: Waiter[]): void {
    const queued = this.#pending.get(key);
    if (queued) queued.push(...waiters);
    else this.#pending.set(key, waiters);
    // The end of this turn: the requests read in the same poll of the event loop share the batch.
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => { this.#scheduled = false; this.#flush(); });
    }
  }

  #flush(): void {
    while (this.#busy < this.#inFlight && this.#pending.size > 0) {
      let batch = this.#pending;
      if (batch.size <= MAX_BATCH) {
        this.#pending = new Map();
      } else {
        batch = new Map();
        for (const [k, w] of this.#pending) {
          batch.set(k, w);
          this.#pending.delete(k);
          if (batch.size === MAX_BATCH) break;
        }
      }
      this.#send(batch);
    }
  }

  #send(batch: Map<string, Waiter[]>): void {
    this.#busy++;
    this.#source.fetch([...batch.keys()]).then((found) => {
      const stale = found instanceof StaleFetched ? found : undefined;
      for (const [key, waiters] of batch) {
        const row = found.get(key);
        if (stale !== undefined) {
          for (const w of waiters) {
            if (row === undefined || !w.stale) w.reject(stale.fault);
            else w.resolve(row ?? undefined, stale.ageMs);
          }
        } else if (row === undefined) {
          this.#ask(key, waiters);
        } else {
          for (const w of waiters) w.resolve(row ?? undefined, undefined);
        }
      }
    }, (e: unknown) => {
      for (const waiters of batch.values()) for (const w of waiters) w.reject(e);
    }).finally(() => {
      this.#busy--;
      this.#flush();
    });
  }
}

/** The columns of a names row, in SQLite's order (one object shape for rowToRecord). */
export const NAME_COLUMNS = '"key", "urn", "status", "data", "version", "created", "updated"';

/**
 * Runs `read` on the server `at()` names; if it fails because that
 * server is away and the route moved meanwhile (the replica found away:
 * reads go to the primary now, replica.ts), once more on the new one.
 *
 * @example
 * ```ts
 * const availability = new StoreAvailability(['primary']);
 * const primary = new PgEndpoint({ url: new URL('postgres://user@db.example/names'), max: 2, part: 'primary', options: '', availability });
 * await readRouted(() => primary, async (e) => e.part); // 'primary'
 * await primary.end();
 * ```
 */
export async function readRouted<T>(at: () => PgEndpoint, read: (endpoint: PgEndpoint) => Promise<T>): Promise<T> {
  const first = at();
  try {
    return await read(first);
  } catch (e) {
    const next = at();
    if (next === first || !(e instanceof StoreFault)) throw e;
    return read(next);
  }
}

/**
 * Batches read straight from the table of the server `at()` names (the
 * replica, or the primary while the replica is away): one prepared
 * statement (prepared once per connection under its name), sent once
 * more on a fresh connection if its own died (postgres-pool.ts).
 *
 * @example
 * ```ts
 * const availability = new StoreAvailability(['primary']);
 * const primary = new PgEndpoint({ url: new URL('postgres://user@db.example/names'), max: 2, part: 'primary', options: '', availability });
 * const source: BatchSource = tableBatches(() => primary); // connects on the first batch
 * typeof source.fetch; // 'function'
 * await primary.end();
 * ```
 */
export function tableBatches(at: () => PgEndpoint): BatchSource {
  const byKeys = { name: 'urikit_names_by_keys', text: `select ${NAME_COLUMNS} from "names" where "key" = any($1::text[])` };
  return {
    async fetch(keys) {
      const found: Fetched = new Map();
      for (const row of (await readRouted(at, (e) => e.read<NamesTable>({ ...byKeys, values: [keys] }))).rows) found.set(row.key, row);
      for (const key of keys) if (!found.has(key)) found.set(key, null);
      return found;
    },
  };
}

/**
 * Where a read must go while a streaming replica lags: true for a name
 * this process wrote that the replica has not replayed yet (replica.ts).
 */
export interface ReadRouting {
  onPrimary(key: string): boolean;
}

/**
 * {@link NameReader} on PostgreSQL: batched reads (see {@link TurnBatcher})
 * on the replica if there is one, else on the primary.
 *
 * @example
 * ```ts
 * const rows: BatchSource = { fetch: async (keys) => new Map(keys.map((k) => [k, k === 'urn:ex:a'
 *   ? { key: k, urn: k, status: 'active', data: '{"locations":[{"url":"https://example.org/a"}]}', version: 1, created: 0, updated: 0 } : null])) };
 * const reader = new PostgresNameReader(new TurnBatcher(rows, 2));
 * const [a, b] = await Promise.all([reader.get('urn:ex:a'), reader.get('urn:ex:b')]); // one batch
 * [a?.locations[0]?.url, b]; // ['https://example.org/a', undefined]
 * ```
 */
export class PostgresNameReader implements NameReader {
  readonly #reads: TurnBatcher;
  readonly #primary: TurnBatcher | undefined;
  readonly #routing: ReadRouting | undefined;

  /** `reads`: the batches of the read connections; with a replica, `primary` and `routing` for this process's own recent writes. */
  constructor(reads: TurnBatcher, primary?: TurnBatcher, routing?: ReadRouting) {
    this.#reads = reads;
    this.#primary = primary;
    this.#routing = routing;
  }

  /** Whether `key` is read from the primary now: a name this process wrote that the replica has not replayed. */
  #onPrimary(key: string): boolean {
    return this.#primary !== undefined && this.#routing?.onPrimary(key) === true;
  }

  async get(key: string): Promise<NameRecord | undefined> {
    let row: NamesTable | undefined;
    try {
      row = await (this.#onPrimary(key) ? this.#primary! : this.#reads).row(key);
    } catch (e) {
      // The primary away: the replica holds all there is to read.
      if (!(e instanceof StoreFault) || !this.#onPrimary(key)) throw e;
      row = await this.#reads.row(key);
    }
    return row ? rowToRecord(row) : undefined;
  }

  async lookup(key: string): Promise<NameLookup> {
    let found: BatchRow;
    try {
      found = await (this.#onPrimary(key) ? this.#primary! : this.#reads).staleRow(key);
    } catch (e) {
      if (!(e instanceof StoreFault) || !this.#onPrimary(key)) throw e;
      found = await this.#reads.staleRow(key);
    }
    return { record: found.row ? rowToRecord(found.row) : undefined, staleMs: found.ageMs };
  }
}
