/**
 * SQLite through Node's built-in `node:sqlite` (no native addon to
 * compile) and kysely's SQLite dialect over it: each SQL text prepared
 * once per connection, and write transactions that take the write lock up
 * front. docs/architecture.md ("The SQLite engine") records why this
 * engine and not better-sqlite3: the measurements and the teardown test.
 */
import { createRequire } from 'node:module';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { StoreFault } from './store-fault.js';
import { CompiledQuery, SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type SqliteDatabase, type SqliteDialectConfig, type SqliteStatement } from 'kysely';

/**
 * `node:sqlite`, loaded without its ExperimentalWarning: Node 22 prints
 * one when the module loads (the module's own stability, 1.1 on 22 and a
 * release candidate from 24.15), which says nothing to the user of a
 * resolver or of `urikit import`. Every other warning passes through.
 */
function loadNodeSqlite(): typeof import('node:sqlite') {
  const emit = process.emitWarning;
  process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (text.startsWith('SQLite is an experimental feature')) return;
    return (emit as (...args: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    return createRequire(import.meta.url)('node:sqlite') as typeof import('node:sqlite');
  } finally {
    process.emitWarning = emit;
  }
}

const nodeSqlite = loadNodeSqlite();

/**
 * Opens a connection to a SQLite file (or `:memory:`).
 *
 * @example
 * ```ts
 * const db = openSqliteFile(':memory:');
 * db.prepare('select 1 + 1 as two').get(); // { two: 2 }
 * db.close();
 * ```
 */
export function openSqliteFile(file: string, opts: { readOnly?: boolean } = {}): DatabaseSync {
  return new nodeSqlite.DatabaseSync(file, { readOnly: opts.readOnly === true });
}

/**
 * True if `e` is SQLite's "database is locked" (SQLITE_BUSY and its
 * extended codes, SQLITE_LOCKED): another connection holds the lock.
 *
 * @example
 * ```ts
 * isBusy(Object.assign(new Error('database is locked'), { errcode: 5 })); // true
 * isBusy(Object.assign(new Error('database is locked'), { errcode: 261 })); // true (SQLITE_BUSY_RECOVERY)
 * isBusy(new Error('no such table: x')); // false
 * ```
 */
export function isBusy(e: unknown): boolean {
  const code = (e as { errcode?: unknown }).errcode;
  // The primary result code is the low byte of an extended one (sqlite.org/rescode.html).
  return typeof code === 'number' && ((code & 0xff) === 5 || (code & 0xff) === 6);
}

/** A prepared statement as kysely calls it: parameters as one array, `reader` for a statement that returns rows. */
function kyselyStatement(stmt: StatementSync): SqliteStatement {
  // A statement returns rows if it has result columns (SELECT, PRAGMA, ... RETURNING).
  const reader = stmt.columns().length > 0;
  type Param = Parameters<StatementSync['all']>[1];
  return {
    reader,
    all: (params) => stmt.all(...(params as Param[])),
    run: (params) => stmt.run(...(params as Param[])),
    iterate: (params) => stmt.iterate(...(params as Param[])) as IterableIterator<unknown>,
  };
}

/**
 * A connection behind kysely's SqliteDatabase interface, with each SQL
 * text prepared once: the store runs the same few statements forever.
 *
 * @example
 * ```ts
 * const db = kyselySqlite(openSqliteFile(':memory:'));
 * db.prepare('select ? as x').all([7]); // [{ x: 7 }]
 * db.close();
 * ```
 */
export function kyselySqlite(db: DatabaseSync): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    prepare(sqlText: string): SqliteStatement {
      let stmt = cache.get(sqlText);
      if (!stmt) {
        stmt = kyselyStatement(db.prepare(sqlText));
        if (cache.size > 500) cache.clear();
        cache.set(sqlText, stmt);
      }
      return stmt;
    },
    close: () => { if (db.isOpen) db.close(); },
  };
}

/**
 * A write that could not take SQLite's write lock in time: another
 * process held it throughout. Nothing was written; the HTTP layer answers
 * 503 with `Retry-After` (store-fault.ts).
 *
 * @example
 * ```ts
 * const e = new StoreBusyError(60_000);
 * [e.statusCode, e.code, e.outcome]; // [503, 'store-busy', 'not-committed']
 * ```
 */
export class StoreBusyError extends StoreFault {
  constructor(waitedMs: number) {
    super('store-busy', 'primary', { outcome: 'not-committed', detail: `the store's write lock stayed taken for ${waitedMs} ms (another process is writing, perhaps a bulk import)` });
  }
}

/**
 * A store that was to be held exclusively (`urikit import --exclusive`) is open in
 * another process: a server, another import. Nothing was written.
 *
 * @example
 * ```ts
 * new StoreInUseError('names.sqlite').code; // 'store-in-use'
 * ```
 */
export class StoreInUseError extends Error {
  readonly code = 'store-in-use';
  constructor(file: string) {
    super(`${file} is open in another process (a server, another import): stop it first, or import without --exclusive`);
  }
}

/** How long a write waits for another process's write lock before it fails (a bulk import holds it for its whole transaction). */
const WRITE_WAIT_MS = 60_000;

/**
 * kysely's SQLite driver with `BEGIN IMMEDIATE`: the write lock is taken
 * by the first statement, not by the first write inside the transaction,
 * so a transaction never fails halfway with SQLITE_BUSY (a deferred
 * transaction that read first cannot wait for the lock: SQLite would
 * deadlock, so it fails at once, and busy_timeout cannot help). The wait
 * is asynchronous: the writer's busy_timeout is 0 and the attempt is
 * repeated on a timer, so that reads go on while another process writes.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const start = Date.now();
    for (let pause = 0.5; ; pause = Math.min(pause * 2, 4)) {
      try {
        await connection.executeQuery(CompiledQuery.raw('begin immediate'));
        return;
      } catch (e) {
        if (!isBusy(e)) throw e;
        if (Date.now() - start > WRITE_WAIT_MS) throw new StoreBusyError(Date.now() - start);
        // Jitter: two processes that collided do not retry in step.
        await new Promise((r) => setTimeout(r, pause * (0.5 + Math.random())));
      }
    }
  }

  /**
   * SQLite rolls a transaction back by itself after some errors inside it
   * (SQLITE_FULL, SQLITE_IOERR, SQLITE_BUSY, SQLITE_NOMEM: "Response To
   * Errors Within A Transaction", sqlite.org/lang_transaction.html); the
   * ROLLBACK then finds none, and its error would hide the one that
   * mattered (a full disk), which kysely rethrows after the rollback.
   */
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await super.rollbackTransaction(connection);
    } catch (e) {
      if (!/no transaction is active/.test((e as Error).message)) throw e;
    }
  }
}

/**
 * kysely's SQLite dialect whose transactions begin with `BEGIN IMMEDIATE`
 * (see the driver above).
 *
 * @example
 * ```ts
 * import { Kysely, sql } from 'kysely';
 * const db = new Kysely<any>({ dialect: new ImmediateSqliteDialect({ database: kyselySqlite(openSqliteFile(':memory:')) }) });
 * await db.transaction().execute(async (trx) => (await sql<{ n: number }>`select 42 as n`.execute(trx)).rows[0]?.n); // 42
 * await db.destroy();
 * ```
 */
export class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}
