/**
 * Opening a store: SQLite embedded (WAL, the default: one file, zero
 * set-up) or PostgreSQL, migrated to the latest schema.
 */
import { Migrator, sql, type Kysely } from 'kysely';
import { openPostgres } from './postgres.js';
import { migrationProvider } from './migrations.js';
import type { Database, Engine } from './schema.js';
import { openSqlite } from './sqlite.js';
import { composeStore, sqliteReadPath, type Store } from './store.js';
import { DEFAULT_STALE_IF_ERROR_MS } from '../defaults/index.js';

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
 * Options of {@link openStore}.
 *
 * @example
 * ```ts
 * const opts: OpenStoreOptions = { nameCacheBytes: 256 * 1024 * 1024 };
 * const store = await openStore(':memory:', opts);
 * store.nameCache; // undefined (':memory:' reads have nothing to gain from a cache)
 * await store.close();
 * ```
 */
export interface OpenStoreOptions {
  /**
   * Keep current rows in up to this many bytes outside the JavaScript
   * heap, in front of the resolution read: SQLite files (cached-reader.ts)
   * and PostgreSQL (postgres-cache.ts, exact under every machine's writes).
   * Default 0 (none).
   */
  nameCacheBytes?: number;
  /**
   * PostgreSQL: a streaming replica of the database (`postgres://...`),
   * where the resolution read goes; writes, and every other read, go to
   * the primary (replica.ts).
   */
  replica?: string;
  /**
   * SQLite: hold the file alone until the store closes, for a bulk import
   * into a store no server is using (`urikit import --exclusive`): the
   * import's pages are written once, with a rollback journal instead of
   * the WAL (sqlite.ts). Throws `StoreInUseError` if another process has
   * the file open; while it is held, other processes cannot read it.
   */
  exclusive?: boolean;
  /**
   * PostgreSQL with a name cache: while the database is away, a resolution
   * may be answered from the cache, marked stale, for this long after the
   * database last confirmed the cache (RFC 5861 stale-if-error; default
   * {@link DEFAULT_STALE_IF_ERROR_MS}; 0: never).
   */
  staleIfErrorMs?: number;
  /** Where warnings about the configuration go (default: standard error). */
  warn?: (message: string) => void;
}

// The default lives in defaults.ts (one place, read by the command line too).
export { DEFAULT_STALE_IF_ERROR_MS };

/** Throws unless every migration of the store has run: for a store that cannot be written (sqlite.ts, a read-only file system). */
async function assertMigrated(db: Kysely<Database>, engine: Engine): Promise<void> {
  const done = new Set((await sql<{ name: string }>`select name from kysely_migration`.execute(db)).rows.map((r) => r.name));
  const pending = Object.keys(await migrationProvider(engine).getMigrations()).filter((m) => !done.has(m));
  if (pending.length > 0) throw new Error(`the store is on a read-only file system and its schema is older than this version's (${pending.join(', ')} not run): open it once where it can be written`);
}

async function migrate(db: Kysely<Database>, engine: Engine, schema?: string): Promise<void> {
  // On PostgreSQL the migrator must look for its own tables in our schema,
  // not in any schema of the database.
  const { error } = await new Migrator({ db, provider: migrationProvider(engine), ...(schema !== undefined ? { migrationTableSchema: schema } : {}) }).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
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
export async function openStore(dbUrl: string = defaultDbUrl(), opts: OpenStoreOptions = {}): Promise<Store> {
  if (/^postgres(ql)?:\/\//i.test(dbUrl)) {
    // PostgreSQL's writers already write each page once (no WAL of SQLite's to copy back), and other processes keep reading.
    if (opts.exclusive === true) throw new Error('holding the store exclusively (--exclusive) is for a SQLite store');
    const pgStore = await openPostgres(dbUrl, (k, schema) => migrate(k, 'postgres', schema), {
      replica: opts.replica,
      nameCacheBytes: opts.nameCacheBytes ?? 0,
      staleIfErrorMs: opts.staleIfErrorMs ?? DEFAULT_STALE_IF_ERROR_MS,
      warn: opts.warn ?? ((message) => { process.stderr.write(`urikit: ${message}\n`); }),
    });
    const { db, names, nameCache, replica, endpoints } = pgStore;
    return composeStore(db, { names, ...(nameCache ? { nameCache } : {}), ...(replica ? { replica } : {}), endpoints, close: pgStore.closeReads });
  }
  if (opts.replica !== undefined) throw new Error('a replica (--db-replica) is for a PostgreSQL store');
  const { db, rows } = await openSqlite(dbUrl.replace(/^sqlite:(\/\/)?/i, ''), (k) => migrate(k, 'sqlite'), { exclusive: opts.exclusive === true, assertMigrated: (k) => assertMigrated(k, 'sqlite') });
  return composeStore(db, sqliteReadPath(db, rows, opts.nameCacheBytes ?? 0));
}
