/**
 * A SQLite store's connections (WAL, one writer and one reader), and the
 * synchronous statements of the resolution hot path (sqlite-reader.ts).
 * Everything that knows the driver is here and in sqlite-driver.ts.
 */
import { accessSync, constants } from 'node:fs';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { Kysely, SqliteDialect } from 'kysely';
import { StoreAvailability } from './availability.js';
import { storeDb, type StoreDb } from './db.js';
import { StoreFault, sqliteWriteFault } from './store-fault.js';
import type { Database, NamesTable } from './schema.js';
import { nameSlot } from './slots.js';
import { ImmediateSqliteDialect, isBusy, kyselySqlite, openSqliteFile, StoreInUseError } from './sqlite-driver.js';
import { WalIndexWatch } from './wal-index-watch.js';

function sqliteConnection(file: string): DatabaseSync {
  const db = openSqliteFile(file);
  db.exec('pragma busy_timeout = 10000');
  if (file !== ':memory:') db.exec('pragma journal_mode = WAL');
  // FULL: a write acknowledged to a client is on disk (WAL fsync at commit).
  db.exec('pragma synchronous = FULL');
  db.exec('pragma foreign_keys = ON');
  // 64 MiB of page cache: a bulk import of a million names then updates its
  // B-trees in memory instead of spilling pages to the WAL mid-transaction.
  db.exec('pragma cache_size = -65536');
  // Reads of a large store through the OS page cache without a syscall each.
  if (file !== ':memory:') db.exec('pragma mmap_size = 1073741824');
  return db;
}

/**
 * A store held exclusively (`urikit import --exclusive`): the file's lock is kept
 * from the first read to the close (`locking_mode = EXCLUSIVE`), and the
 * transaction keeps a rollback journal instead of the WAL (`journal_mode
 * = DELETE`, SQLite's "Atomic Commit": the journal holds the pages as
 * they were, so a crash or a kill still leaves the store as before). The
 * pages of a bulk import are then written once, into the database file,
 * instead of into the WAL and again by the checkpoint; and its reads of
 * the pages it wrote look in the file, not through the WAL's index, whose
 * search grows with the WAL. SQLite leaves the WAL only when no other
 * connection has the file open; otherwise this throws {@link StoreInUseError}.
 */
function holdExclusively(db: DatabaseSync, file: string): void {
  db.exec('pragma locking_mode = EXCLUSIVE');
  let mode: unknown;
  try {
    mode = (db.prepare('pragma journal_mode = DELETE').get() as { journal_mode?: unknown } | undefined)?.journal_mode;
  } catch (e) {
    if (!isBusy(e)) throw e;
  }
  if (mode !== 'delete') {
    db.close();
    throw new StoreInUseError(file);
  }
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
 * const rows: SqliteRows = { get: () => undefined, begin: () => undefined, end: () => undefined, scan: () => [], foreignCommits: () => 0, namesGeneration: () => 0 };
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
  /** The count of write transactions that changed names (schema.ts `names_generation`), in the read snapshot. */
  namesGeneration(): number;
}

/** The columns of a names row, in the order of {@link namesRow}. */
const COLUMNS = '"key", "urn", "status", "data", "version", "created", "updated"';

/** A statement whose rows come back as arrays: node:sqlite builds an array faster than an object (one property definition per column). */
function arrayStatement(db: DatabaseSync, sqlText: string): StatementSync {
  const stmt = db.prepare(sqlText);
  stmt.setReturnArrays(true);
  return stmt;
}

/** A row of {@link COLUMNS} as an array, to its object (one shape for rowToRecord wherever the row came from). */
function namesRow(r: unknown[] | undefined): NamesTable | undefined {
  if (r === undefined) return undefined;
  return { key: r[0] as string, urn: r[1] as string, status: r[2] as string, data: r[3] as string, version: r[4] as number, created: r[5] as number, updated: r[6] as number };
}

/**
 * The hot path straight on node:sqlite: one prepared statement called
 * synchronously, without kysely's per-query connection hand-over (which
 * costs more than the B-tree lookup itself).
 */
function sqliteRows(db: DatabaseSync, writer: DatabaseSync, walIndex: WalIndexWatch): SqliteRows {
  const bySlot = arrayStatement(db, `select ${COLUMNS} from "names" where "id" = ?`);
  const byKey = arrayStatement(db, `select ${COLUMNS} from "names" where "key" = ?`);
  const inIdOrder = arrayStatement(db, `select ${COLUMNS}, "id" from "names" where "id" > ? order by "id" limit ?`);
  const dataVersion = arrayStatement(writer, 'pragma data_version');
  const generation = arrayStatement(db, 'select "n" from "names_generation" where "id" = 1');
  const begin = db.prepare('begin');
  const commit = db.prepare('commit');
  let dataVersionSeen = 0;
  return {
    // slots.ts: an empty slot means the name is not held; another key in it, a collision.
    get: (key) => {
      const row = bySlot.get(nameSlot(key)) as unknown[] | undefined;
      return row === undefined || row[0] === key ? namesRow(row) : namesRow(byKey.get(key) as unknown[] | undefined);
    },
    begin: () => { if (!db.isTransaction) begin.run(); },
    end: () => { if (db.isTransaction) commit.run(); },
    scan: (after, limit) => (inIdOrder.all(after, limit) as unknown as unknown[][]).map((r) => ({ ...namesRow(r)!, id: r[7] as number })),
    // Asked of SQLite only when the wal-index header moved (wal-index-watch.ts): nobody committed otherwise.
    foreignCommits: () => {
      if (walIndex.moved()) dataVersionSeen = (dataVersion.get() as unknown as [number])[0];
      return dataVersionSeen;
    },
    namesGeneration: () => Number((generation.get() as unknown as [number] | undefined)?.[0] ?? 0),
  };
}

/** True when `file`'s directory is on a file system mounted read-only (EROFS): nothing there can be written by anyone. */
function onReadOnlyFileSystem(file: string): boolean {
  try {
    accessSync(dirname(file), constants.W_OK);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EROFS';
  }
}

/**
 * A store on a read-only file system (a medium mounted read-only, a file
 * system the kernel remounted read-only after an error): opened as
 * immutable (sqlite.org/uri.html: "immutable=1", no lock and no WAL index
 * needed, which could not be created there; nobody can change the file),
 * with one connection that reads. Resolutions are answered; every write
 * fails with SQLITE_READONLY, answered 503 store-read-only; the store's
 * availability says so from the start. Its schema must be current: a
 * migration cannot be written.
 */
async function openReadOnly(file: string, assertMigrated: (db: Kysely<Database>) => Promise<void>): Promise<{ db: StoreDb; rows: undefined }> {
  const uri = `${pathToFileURL(file).href}?immutable=1`;
  const raw = openSqliteFile(uri, { readOnly: true });
  const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: kyselySqlite(raw) }) });
  try {
    await assertMigrated(db);
  } catch (e) {
    await db.destroy();
    if (raw.isOpen) raw.close();
    throw e;
  }
  const availability = new StoreAvailability(['primary']);
  availability.wrote(new StoreFault('store-read-only', 'primary', { detail: `the file system of the store is read-only` }));
  const close = async () => {
    await db.destroy();
    if (raw.isOpen) raw.close();
  };
  return { db: storeDb('sqlite', db, db, close, { fault: sqliteWriteFault, availability }), rows: undefined };
}

/**
 * Opens a SQLite file (or `:memory:`): its connections, migrated by
 * `migrate`, and its hot-path statements (none for `:memory:` or a file
 * held exclusively, where the reader is the writer's own connection).
 */
export async function openSqlite(file: string, migrate: (db: Kysely<Database>) => Promise<void>, opts: { exclusive?: boolean; assertMigrated?: (db: Kysely<Database>) => Promise<void> } = {}): Promise<{ db: StoreDb; rows: SqliteRows | undefined }> {
  if (file !== ':memory:' && opts.exclusive !== true && onReadOnlyFileSystem(file)) return openReadOnly(file, opts.assertMigrated ?? migrate);
  const writerDb = sqliteConnection(file);
  const exclusive = opts.exclusive === true && file !== ':memory:';
  if (exclusive) holdExclusively(writerDb, file);
  const writer = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: kyselySqlite(writerDb) }) });
  try {
    await migrate(writer);
  } catch (e) {
    await writer.destroy();
    if (writerDb.isOpen) writerDb.close();
    throw e;
  }
  // From now on the writer waits for the lock in beginTransaction, without blocking the event loop.
  writerDb.exec('pragma busy_timeout = 0');
  // SQLite checkpoints the WAL only when a writer commits or the last
  // connection closes; a process killed after a bulk import leaves the
  // whole import in the WAL, and a resolver that never writes would then
  // search the WAL index on every page read. Copy it into the database
  // now, without waiting for anyone (PASSIVE).
  if (file !== ':memory:' && !exclusive) writerDb.exec('pragma wal_checkpoint(PASSIVE)');
  // A second connection for reads: under WAL, readers do not wait for a
  // long write (a bulk import). ':memory:' databases are per connection;
  // a store held exclusively has no other reader to let through.
  const oneConnection = file === ':memory:' || exclusive;
  const readerDb = oneConnection ? writerDb : sqliteConnection(file);
  const reader = oneConnection ? writer : new Kysely<Database>({ dialect: new SqliteDialect({ database: kyselySqlite(readerDb) }) });
  const walIndex = oneConnection ? undefined : WalIndexWatch.open(file);
  const close = async () => {
    walIndex?.close();
    if (reader !== writer) await reader.destroy();
    // Back to WAL, as every other opener expects the file (servers read while another process writes).
    if (exclusive && writerDb.isOpen) writerDb.exec('pragma journal_mode = WAL');
    await writer.destroy();
    // kysely closes a connection only if it ever ran a query on it; the last
    // connection to close checkpoints the WAL into the database and removes it.
    if (readerDb.isOpen) readerDb.close();
    if (writerDb.isOpen) writerDb.close();
  };
  const made = storeDb('sqlite', writer, reader, close, { fault: sqliteWriteFault, availability: new StoreAvailability(['primary']) });
  // No file for a second connection (the statistics thread's) to open: none could open it.
  return { db: oneConnection ? made : { ...made, file }, rows: walIndex === undefined ? undefined : sqliteRows(readerDb, writerDb, walIndex) };
}
