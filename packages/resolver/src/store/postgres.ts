/**
 * PostgreSQL through pg: a pool of connections, optionally in a schema of
 * its own, the write transaction's lock, and the resolution read
 * (postgres-reader.ts) on the primary or on a streaming replica
 * (replica.ts). Everything that knows the driver is here and in those two.
 */
import { Kysely, sql } from 'kysely';
import pg from 'pg';
import { storeDb, type StoreDb } from './db.js';
import { CurrentSchemaPostgresDialect } from './postgres-dialect.js';
import { CheckedNameCache } from './postgres-cache.js';
import { PostgresNameReader, tableBatches, TurnBatcher } from './postgres-reader.js';
import { ReplicaMonitor } from './replica.js';
import type { Database } from './schema.js';

/**
 * Batches of the resolution read in flight at once, per process: a
 * second lets one be answered while the other is on the wire; more only
 * split the same keys into smaller batches.
 */
const READ_BATCHES = 2;


/** PostgreSQL int8 (OID 20) as a JS number: our ids and milliseconds stay below 2^53. */
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20 && format !== 'binary') return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

/** A `postgres://` URL without its `schema` parameter, and that schema. */
function splitSchema(dbUrl: string): { url: URL; schema: string | null } {
  const url = new URL(dbUrl);
  const schema = url.searchParams.get('schema');
  url.searchParams.delete('schema');
  if (schema !== null && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`invalid PostgreSQL schema name: ${schema}`);
  return { url, schema };
}

/**
 * An open PostgreSQL store: its connections, its resolution read, and
 * the replica it reads from, if any.
 */
export interface PostgresStore {
  db: StoreDb;
  names: PostgresNameReader;
  nameCache: CheckedNameCache | undefined;
  replica: ReplicaMonitor | undefined;
  /** Stops what the read path runs (the cache, the replica's monitor). */
  closeReads(): void;
}

/**
 * How a PostgreSQL store is opened: a streaming replica to read from, and
 * the bytes of the name cache (0: none).
 */
export interface PostgresOptions {
  replica?: string | undefined;
  nameCacheBytes: number;
}

/**
 * Opens `postgres://...` (with `?schema=name`: the tables in that schema,
 * created if missing), migrated by `migrate` (given the schema the
 * migrator must keep its own tables in). With `replicaUrl`, a streaming
 * replica of that database: the resolution read goes there (replica.ts).
 */
export async function openPostgres(dbUrl: string, migrate: (db: Kysely<Database>, schema: string) => Promise<void>, opts: PostgresOptions): Promise<PostgresStore> {
  const replicaUrl = opts.replica;
  const { url, schema } = splitSchema(dbUrl);
  if (schema) {
    const c = new pg.Client({ connectionString: url.toString() });
    await c.connect();
    try { await c.query(`create schema if not exists "${schema}"`); } finally { await c.end(); }
  }
  const connect = (at: URL, max: number) => new pg.Pool({
    connectionString: at.toString(),
    max,
    types: pgTypes,
    // The prepared statements of the read path (postgres-reader.ts,
    // postgres-cache.ts) are planned once per connection: their best plan
    // does not depend on the keys, and planning costs more than running.
    options: `-c plan_cache_mode=force_generic_plan${schema ? ` -c search_path="${schema}"` : ''}`,
  });
  const pool = connect(url, 10);
  const db = new Kysely<Database>({ dialect: new CurrentSchemaPostgresDialect({ pool }) });
  let replicaPool: pg.Pool | undefined;
  let replica: ReplicaMonitor | undefined;
  let writeLock = '';
  try {
    // The store's advisory lock: its own for each schema, so that stores
    // sharing a database do not wait for each other's writers.
    const current = await sql<{ schema: string; lock: string }>`select current_schema() as schema, hashtextextended('urikit write lock ' || current_schema(), 0)::text as lock`.execute(db);
    writeLock = current.rows[0]?.lock ?? '0';
    await migrate(db, current.rows[0]?.schema ?? schema ?? 'public');
    if (replicaUrl !== undefined) {
      // The replica holds the same tables: the primary's schema, whatever its URL says.
      const at = splitSchema(replicaUrl);
      if (at.schema !== null && at.schema !== schema) throw new Error(`the replica's ?schema=${at.schema} is not the primary's (${schema ?? 'none'}): a replica holds the primary's tables`);
      replicaPool = connect(at.url, READ_BATCHES + 1);
      replica = new ReplicaMonitor(pool, replicaPool);
      await replica.start();
    }
  } catch (e) {
    await replica?.close();
    await replicaPool?.end();
    await db.destroy();
    throw e;
  }
  // One writer at a time across every process and machine: history ids
  // (the change feed's seq) are then committed in increasing order, so a
  // harvester reading "since N" never skips a later-committed lower id,
  // and a write's checks (lifecycle.ts) see every earlier write.
  const lock = async (trx: Kysely<Database>) => { await sql`select pg_advisory_xact_lock(${writeLock}::bigint)`.execute(trx); };
  const close = async () => {
    await replica?.close();
    await replicaPool?.end();
    await db.destroy();
  };
  const storeDbOf = storeDb('postgres', db, db, close, lock);
  // The resolution read shares the primary's pool (a few batches in
  // flight); with a replica it reads there (through the cache, if any),
  // and this process's own recent writes from the primary.
  const readPool = replicaPool ?? pool;
  const nameCache = opts.nameCacheBytes > 0 ? new CheckedNameCache(readPool, opts.nameCacheBytes) : undefined;
  const reads = new TurnBatcher(nameCache ?? tableBatches(readPool), READ_BATCHES);
  const names = replica
    ? new PostgresNameReader(reads, new TurnBatcher(tableBatches(pool), READ_BATCHES), replica)
    : new PostgresNameReader(reads);
  storeDbOf.onWrite((keys) => {
    nameCache?.forget(keys);
    replica?.wrote(keys);
  });
  return { db: storeDbOf, names, nameCache, replica, closeReads: () => nameCache?.close() };
}
