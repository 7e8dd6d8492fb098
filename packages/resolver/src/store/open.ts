/**
 * Opening a store: SQLite embedded through better-sqlite3 (WAL, the
 * default: one file, zero set-up) or PostgreSQL through pg, migrated to
 * the latest schema (issue 7 item 6).
 */
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, sql, PostgresDialect, SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';
import pg from 'pg';
import { migrationProvider, type Database } from './schema.js';
import { Store } from './store.js';

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

async function openSqlite(file: string): Promise<Store> {
  const writer = new Kysely<Database>({ dialect: new SqliteDialect({ database: cachedStatements(sqliteConnection(file)) }) });
  await migrate(writer, 'sqlite');
  // A second connection for reads: under WAL, readers do not wait for a
  // long write (a bulk import). ':memory:' databases are per connection.
  const reader = file === ':memory:'
    ? writer
    : new Kysely<Database>({ dialect: new SqliteDialect({ database: cachedStatements(sqliteConnection(file)) }) });
  return new Store(writer, reader, 'sqlite', async () => {
    if (reader !== writer) await reader.destroy();
    await writer.destroy();
  });
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
