/**
 * SQLite through better-sqlite3: the file's connections (WAL, one writer
 * and one reader), the write transaction that takes the write lock up
 * front, and the synchronous statements of the resolution hot path
 * (sqlite-reader.ts). Everything that knows the driver is here, so that
 * another driver replaces this module and nothing else.
 */
import BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery, Kysely, SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type SqliteDatabase, type SqliteDialectConfig, type SqliteStatement } from 'kysely';
import { storeDb, type StoreDb } from './db.js';
import type { Database, NamesTable } from './schema.js';
import { nameSlot } from './slots.js';

/** How long a write waits for another process's write lock before it fails (a bulk import holds it for its whole transaction). */
const WRITE_WAIT_MS = 60_000;

/**
 * A write that could not take SQLite's write lock in time: another
 * process held it throughout. The HTTP layer answers 503.
 *
 * @example
 * ```ts
 * new StoreBusyError(60_000).statusCode; // 503
 * ```
 */
export class StoreBusyError extends Error {
  readonly statusCode = 503;
  readonly code = 'store-busy';
  constructor(waitedMs: number) {
    super(`the store's write lock stayed taken for ${waitedMs} ms (another process is writing, perhaps a bulk import)`);
  }
}

function isBusy(e: unknown): boolean {
  const code = (e as { code?: unknown }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_RECOVERY' || code === 'SQLITE_LOCKED';
}

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
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}

/**
 * better-sqlite3 behind kysely's SqliteDatabase interface, with each SQL
 * text prepared once: the hot path runs the same few statements forever.
 */
function cachedStatements(db: BetterSqlite3.Database): SqliteDatabase {
  const cache = new Map<string, BetterSqlite3.Statement>();
  return {
    prepare(sqlText: string): SqliteStatement {
      let stmt = cache.get(sqlText);
      if (!stmt) {
        stmt = db.prepare(sqlText);
        if (cache.size > 500) cache.clear();
        cache.set(sqlText, stmt);
      }
      return stmt as unknown as SqliteStatement;
    },
    close: () => db.close(),
  };
}

function sqliteConnection(file: string): BetterSqlite3.Database {
  const db = new BetterSqlite3(file);
  db.pragma('busy_timeout = 10000');
  if (file !== ':memory:') db.pragma('journal_mode = WAL');
  // FULL: a write acknowledged to a client is on disk (WAL fsync at commit).
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  // 64 MiB of page cache: a bulk import of a million names then updates its
  // B-trees in memory instead of spilling pages to the WAL mid-transaction.
  db.pragma('cache_size = -65536');
  // Reads of a large store through the OS page cache without a syscall each.
  if (file !== ':memory:') db.pragma('mmap_size = 1073741824');
  return db;
}

/**
 * Synchronous reads on SQLite's read connection, for the resolution hot
 * path (sqlite-reader.ts): the current row of a key, the read transaction
 * that lets the reads of one turn of the event loop share one snapshot,
 * the rows in table order (to fill the name cache), and the count of
 * commits made by other processes (to know when the cache is stale).
 *
 * @example
 * ```ts
 * import { SqliteNameReader } from './sqlite-reader.js';
 * const rows: SqliteRows = { get: () => undefined, begin: () => undefined, end: () => undefined, scan: () => [], foreignCommits: () => 0 };
 * new SqliteNameReader(rows).get('urn:ex:a'); // undefined
 * ```
 */
export interface SqliteRows {
  get(key: string): NamesTable | undefined;
  begin(): void;
  end(): void;
  /** Up to `limit` rows after the row id `after`, in row id order. */
  scan(after: number, limit: number): Array<NamesTable & { id: number }>;
  /** `PRAGMA data_version` of the write connection: it changes when any other connection (another process) commits. */
  foreignCommits(): number;
}

/**
 * The hot path straight on better-sqlite3: one prepared statement called
 * synchronously, without kysely's per-query connection hand-over (which
 * costs more than the B-tree lookup itself).
 */
function sqliteRows(db: BetterSqlite3.Database, writer: BetterSqlite3.Database): SqliteRows {
  const columns = '"key", "urn", "status", "data", "version", "created", "updated"';
  const bySlot = db.prepare<[number], NamesTable>(`select ${columns} from "names" where "id" = ?`);
  const byKey = db.prepare<[string], NamesTable>(`select ${columns} from "names" where "key" = ?`);
  const inIdOrder = db.prepare<[number, number], NamesTable & { id: number }>(`select "id", ${columns} from "names" where "id" > ? order by "id" limit ?`);
  const dataVersion = writer.prepare<[], number>('pragma data_version').pluck();
  const begin = db.prepare('begin');
  const commit = db.prepare('commit');
  return {
    // slots.ts: an empty slot means the name is not held; another key in it, a collision.
    get: (key) => {
      const row = bySlot.get(nameSlot(key));
      return row === undefined || row.key === key ? row : byKey.get(key);
    },
    begin: () => { if (!db.inTransaction) begin.run(); },
    end: () => { if (db.inTransaction) commit.run(); },
    scan: (after, limit) => inIdOrder.all(after, limit),
    foreignCommits: () => dataVersion.get()!,
  };
}

/**
 * Opens a SQLite file (or `:memory:`): its connections, migrated by
 * `migrate`, and its hot-path statements (none for `:memory:`, where the
 * reader is the writer's own connection).
 */
export async function openSqlite(file: string, migrate: (db: Kysely<Database>) => Promise<void>): Promise<{ db: StoreDb; rows: SqliteRows | undefined }> {
  const writerDb = sqliteConnection(file);
  const writer = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: cachedStatements(writerDb) }) });
  try {
    await migrate(writer);
  } catch (e) {
    await writer.destroy();
    if (writerDb.open) writerDb.close();
    throw e;
  }
  // From now on the writer waits for the lock in beginTransaction, without blocking the event loop.
  writerDb.pragma('busy_timeout = 0');
  // SQLite checkpoints the WAL only when a writer commits or the last
  // connection closes; a process killed after a bulk import leaves the
  // whole import in the WAL, and a resolver that never writes would then
  // search the WAL index on every page read. Copy it into the database
  // now, without waiting for anyone (PASSIVE).
  if (file !== ':memory:') writerDb.pragma('wal_checkpoint(PASSIVE)');
  // A second connection for reads: under WAL, readers do not wait for a
  // long write (a bulk import). ':memory:' databases are per connection.
  const memory = file === ':memory:';
  const readerDb = memory ? writerDb : sqliteConnection(file);
  const reader = memory ? writer : new Kysely<Database>({ dialect: new SqliteDialect({ database: cachedStatements(readerDb) }) });
  const close = async () => {
    if (reader !== writer) await reader.destroy();
    await writer.destroy();
    // kysely closes a connection only if it ever ran a query on it; the last
    // connection to close checkpoints the WAL into the database and removes it.
    if (readerDb.open) readerDb.close();
    if (writerDb.open) writerDb.close();
  };
  return { db: storeDb('sqlite', writer, reader, close), rows: memory ? undefined : sqliteRows(readerDb, writerDb) };
}
