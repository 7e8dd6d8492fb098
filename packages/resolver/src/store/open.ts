/**
 * Opening a store: SQLite embedded through better-sqlite3 (WAL, the
 * default: one file, zero set-up) or PostgreSQL through pg, migrated to
 * the latest schema when it opens, so that an upgrade needs no step of
 * its own.
 */
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, sql, PostgresDialect, SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';
import pg from 'pg';
import { migrationProvider, type Database, type NamesTable } from './schema.js';
import { Store, type SqliteReads } from './store.js';
import { nameSlot } from './slots.js';

/**
 * The database the store uses when none is named: `URIKIT_DB`, else
 * `./urikit.sqlite`.
 *
 * @example
 * ```ts
 * defaultDbUrl(); // process.env.URIKIT_DB ?? './urikit.sqlite'
 * ```
 */
export function defaultDbUrl(): string {
  return process.env.URIKIT_DB ?? './urikit.sqlite';
}

/**
 * Opens (creating and migrating if needed) the store at `dbUrl`: a SQLite
 * file path (default `./urikit.sqlite`, or env `URIKIT_DB`), `:memory:`,
 * or `postgres://user@host:port/db` (add `?schema=name` to keep the
 * tables in their own PostgreSQL schema, created if missing).
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:'); // or 'postgres://user@host:5432/db?schema=resolver'
 * store.engine; // 'sqlite'
 * await store.close();
 * ```
 */
export async function openStore(dbUrl: string = defaultDbUrl()): Promise<Store> {
  if (/^postgres(ql)?:\/\//i.test(dbUrl)) return openPostgres(dbUrl);
  return openSqlite(dbUrl.replace(/^sqlite:(\/\/)?/i, ''));
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

async function migrate(db: Kysely<Database>, engine: 'sqlite' | 'postgres', schema?: string): Promise<void> {
  // On PostgreSQL the migrator must look for its own tables in our schema,
  // not in any schema of the database.
  const { error } = await new Migrator({ db, provider: migrationProvider(engine), ...(schema !== undefined ? { migrationTableSchema: schema } : {}) }).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

/**
 * The resolution hot path straight on better-sqlite3: one prepared
 * statement called synchronously, without kysely's per-query connection
 * hand-over (which costs more than the B-tree lookup itself).
 */
function sqliteReads(db: BetterSqlite3.Database, writer: BetterSqlite3.Database): SqliteReads {
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

async function openSqlite(file: string): Promise<Store> {
  const writerDb = sqliteConnection(file);
  const writer = new Kysely<Database>({ dialect: new SqliteDialect({ database: cachedStatements(writerDb) }) });
  await migrate(writer, 'sqlite');
  // SQLite checkpoints the WAL only when a writer commits or the last
  // connection closes; a process killed after a bulk import leaves the
  // whole import in the WAL, and a resolver that never writes would then
  // search the WAL index on every page read. Copy it into the database
  // now, without waiting for anyone (PASSIVE).
  if (file !== ':memory:') writerDb.pragma('wal_checkpoint(PASSIVE)');
  // A second connection for reads: under WAL, readers do not wait for a
  // long write (a bulk import). ':memory:' databases are per connection.
  const readerDb = file === ':memory:' ? writerDb : sqliteConnection(file);
  const reader = file === ':memory:'
    ? writer
    : new Kysely<Database>({ dialect: new SqliteDialect({ database: cachedStatements(readerDb) }) });
  return new Store(writer, reader, 'sqlite', async () => {
    if (reader !== writer) await reader.destroy();
    await writer.destroy();
    // kysely closes a connection only if it ever ran a query on it; the last
    // connection to close checkpoints the WAL into the database and removes it.
    if (readerDb.open) readerDb.close();
    if (writerDb.open) writerDb.close();
  }, reader === writer ? undefined : sqliteReads(readerDb, writerDb));
}

/** PostgreSQL int8 (OID 20) as a JS number: our ids and milliseconds stay below 2^53. */
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20 && format !== 'binary') return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

async function openPostgres(dbUrl: string): Promise<Store> {
  const url = new URL(dbUrl);
  const schema = url.searchParams.get('schema');
  url.searchParams.delete('schema');
  if (schema !== null && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`invalid PostgreSQL schema name: ${schema}`);
  if (schema) {
    const c = new pg.Client({ connectionString: url.toString() });
    await c.connect();
    try { await c.query(`create schema if not exists "${schema}"`); } finally { await c.end(); }
  }
  const pool = new pg.Pool({
    connectionString: url.toString(),
    max: 10,
    types: pgTypes,
    ...(schema ? { options: `-c search_path="${schema}"` } : {}),
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const current = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  await migrate(db, 'postgres', current.rows[0]?.schema ?? schema ?? 'public');
  return new Store(db, db, 'postgres', () => db.destroy());
}
