/**
 * The connections of a store and its one way to write: a transaction that
 * holds the store's write lock from its first statement (SQLite: `BEGIN
 * IMMEDIATE`, sqlite.ts; PostgreSQL: an advisory lock, postgres.ts), so
 * that writers in several processes queue for the lock instead of failing
 * each other halfway through. The modules beside this one (writer,
 * listing, history, rules, authorities, tokens) all work through it.
 */
import type { Kysely } from 'kysely';
import type { StoreAvailability } from './availability.js';
import type { Database, Engine } from './schema.js';
import type { StoreFault } from './store-fault.js';

/**
 * Called after every write transaction, committed or rolled back, with
 * the keys of the names it wrote: what a reader that keeps rows or a read
 * snapshot must let go of. `many`: it wrote more names than it listed (a
 * bulk import of millions on SQLite), so any name may have changed.
 */
export type WriteListener = (keys: readonly string[], committed: boolean, many: boolean) => void;

/**
 * One write transaction's handle: the query builder bound to it, and the
 * list of the names it writes (filled by the writer, read by the
 * listeners once the transaction ends).
 */
export interface WriteScope {
  trx: Kysely<Database>;
  written: string[];
  /** Set when the transaction wrote more names than `written` lists (see {@link noteWritten}). */
  many?: boolean;
}

/**
 * The most names a SQLite write transaction lists one by one: past that
 * (a bulk import of millions) the list would cost more memory than the
 * import itself, and the readers of this process let go of every name
 * instead. PostgreSQL lists them all: a replica's reader needs each name.
 *
 * @example
 * ```ts
 * WRITTEN_LIST_MAX; // 100000
 * ```
 */
export const WRITTEN_LIST_MAX = 100_000;

/**
 * Records that `key` was written in `w`.
 *
 * @example
 * ```ts
 * const w: WriteScope = { trx: undefined as never, written: [] };
 * noteWritten('sqlite', w, 'urn:ex:a');
 * w.written; // ['urn:ex:a']
 * ```
 */
export function noteWritten(engine: Engine, w: WriteScope, key: string): void {
  if (engine === 'sqlite' && w.written.length >= WRITTEN_LIST_MAX) w.many = true;
  else w.written.push(key);
}

/**
 * The connections of an open store and its write transaction.
 */
export interface StoreDb {
  readonly engine: Engine;
  /** The SQLite file (not `:memory:`), for work done on a connection of its own in a worker thread. */
  readonly file?: string;
  /** The connection that writes (and, on PostgreSQL, reads too). */
  readonly db: Kysely<Database>;
  /** Reads other than the resolution hot path: listings, history, rules (SQLite: a second connection, never waiting for a writer). */
  readonly readDb: Kysely<Database>;
  /** Runs `fn` in one write transaction that holds the write lock from its start; all or nothing. */
  write<T>(fn: (w: WriteScope) => Promise<T>): Promise<T>;
  /** Registers a listener called after each write transaction ends. */
  onWrite(listener: WriteListener): void;
  /** Which parts of the store answer, as the last statements found (availability.ts). */
  readonly availability: StoreAvailability;
  /** Closes the connections. */
  close(): Promise<void>;
}

/**
 * How a {@link StoreDb} is made: the lock a PostgreSQL transaction takes
 * first (SQLite's `transaction()` takes it itself, sqlite.ts), the
 * engine's classification of its errors (store-fault.ts), and where the
 * outcome of each write is kept.
 */
export interface StoreDbOptions {
  lock?: (trx: Kysely<Database>) => Promise<void>;
  /** The fault `e` means, and what became of the write: `duringCommit`, the error came from the commit itself. */
  fault: (e: unknown, duringCommit: boolean) => StoreFault | undefined;
  availability: StoreAvailability;
}

/**
 * A {@link StoreDb} over kysely connections whose `transaction()` already
 * takes the lock up front (sqlite.ts), or does so with `opts.lock` as its
 * first statement (postgres.ts). A write that fails for the store's sake
 * (the database gone, the disk full) throws a {@link StoreFault} saying
 * whether it was made (the engine's `fault` decides: only a PostgreSQL
 * connection lost during the commit leaves it unknown).
 */
export function storeDb(engine: Engine, db: Kysely<Database>, readDb: Kysely<Database>, close: () => Promise<void>, opts: StoreDbOptions): StoreDb {
  const listeners: WriteListener[] = [];
  const { lock, fault, availability } = opts;
  return {
    engine,
    db,
    readDb,
    availability,
    async write<T>(fn: (w: WriteScope) => Promise<T>): Promise<T> {
      const scope: WriteScope = { trx: db, written: [] };
      const written = scope.written;
      let committed = false;
      // Set once the body has run: an error after it came from the commit.
      let committing = false;
      try {
        const out = await db.transaction().execute(async (trx) => {
          if (lock) await lock(trx);
          scope.trx = trx;
          const result = await fn(scope);
          // SQLite: other processes' name caches see this change of names (cached-reader.ts).
          if (engine === 'sqlite' && written.length > 0) await trx.updateTable('names_generation').set((eb) => ({ n: eb('n', '+', 1) })).where('id', '=', 1).execute();
          committing = true;
          return result;
        });
        committed = true;
        availability.wrote('ok');
        return out;
      } catch (e) {
        const f = fault(e, committing);
        if (f === undefined) throw e;
        availability.wrote(f);
        throw f;
      } finally {
        // After the commit (or the rollback): a read from now on sees the write.
        for (const listener of listeners) listener(written, committed, scope.many === true);
      }
    },
    onWrite(listener: WriteListener): void {
      listeners.push(listener);
    },
    close,
  };
}

/** The highest key that starts with `prefix` (keys are US-ASCII, so DEL bounds them). */
export function prefixEnd(prefix: string): string {
  return `${prefix}\x7f`;
}
