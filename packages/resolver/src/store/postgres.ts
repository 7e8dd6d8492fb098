/**
 * PostgreSQL through pg: a pool of connections, optionally in a schema of
 * its own, the write transaction's lock, and the resolution read
 * (postgres-reader.ts) on the primary or on a streaming replica
 * (replica.ts). Everything that knows the driver is here and in those two.
 */
import { Kysely, sql } from 'kysely';
import pg from 'pg';
import { StoreAvailability } from './availability.js';
import { storeDb, type StoreDb } from './db.js';
import { CurrentSchemaPostgresDialect } from './postgres-dialect.js';
import { CheckedNameCache } from './postgres-cache.js';
import { CONNECT_TIMEOUT_MS, PgEndpoint } from './postgres-pool.js';
import { PostgresNameReader, tableBatches, TurnBatcher } from './postgres-reader.js';
import { ReplicaMonitor } from './replica.js';
import type { Database } from './schema.js';
import { pgWriteFault } from './store-fault.js';

/**
 * Batches of the resolution read in flight at once, per process: a
 * second lets one be answered while the other is on the wire; more only
 * split the same keys into smaller batches.
 */
const READ_BATCHES = 2;

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
  /** The servers of the store: the primary, and the replica if any. */
  endpoints: readonly PgEndpoint[];
  /** Stops what the read path runs (the cache, the replica's monitor). */
  closeReads(): void;
}

/**
 * How a PostgreSQL store is opened: a streaming replica to read from, the
 * bytes of the name cache (0: none), and how long the cache may answer
 * while the database is away (postgres-cache.ts).
 */
export interface PostgresOptions {
  replica?: string | undefined;
  nameCacheBytes: number;
  staleIfErrorMs: number;
  /** Where a warning about the configuration goes (a replica not in recovery, a copy that cannot be checked). */
  warn: (message: string) => void;
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
    const c = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    // A client's error event with no listener ends the process.
    c.on('error', () => undefined);
    await c.connect();
    try { await c.query(`create schema if not exists "${schema}"`); } finally { await c.end(); }
  }
  const availability = new StoreAvailability(replicaUrl !== undefined ? ['primary', 'replica'] : ['primary']);
  // The prepared statements of the read path (postgres-reader.ts,
  // postgres-cache.ts) are planned once per connection: their best plan
  // does not depend on the keys, and planning costs more than running.
  const options = `-c plan_cache_mode=force_generic_plan${schema ? ` -c search_path="${schema}"` : ''}`;
  const primary = new PgEndpoint({ url, max: 10, part: 'primary', options, availability });
  const db = new Kysely<Database>({ dialect: new CurrentSchemaPostgresDialect({ pool: primary.kyselyPool() }) });
  let replicaEndpoint: PgEndpoint | undefined;
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
      replicaEndpoint = new PgEndpoint({ url: at.url, max: READ_BATCHES + 1, part: 'replica', options, availability });
      replica = new ReplicaMonitor(primary, replicaEndpoint, availability);
      await replica.start(opts.warn);
    }
  } catch (e) {
    await replica?.close();
    await replicaEndpoint?.end();
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
    await replicaEndpoint?.end();
    await db.destroy();
  };
  const storeDbOf = storeDb('postgres', db, db, close, { lock, fault: pgWriteFault, availability });
  // The resolution read goes to the replica while it answers, else to the
  // primary (a few batches in flight, through the cache if any); with a
  // replica, this process's own recent writes are read from the primary.
  const readAt = replica !== undefined ? () => replica.readEndpoint() : () => primary;
  const nameCache = opts.nameCacheBytes > 0 ? new CheckedNameCache({ at: readAt, maxBytes: opts.nameCacheBytes, staleIfErrorMs: opts.staleIfErrorMs }) : undefined;
  const reads = new TurnBatcher(nameCache ?? tableBatches(readAt), READ_BATCHES);
  const names = replica
    ? new PostgresNameReader(reads, new TurnBatcher(tableBatches(() => primary), READ_BATCHES), replica)
    : new PostgresNameReader(reads);
  storeDbOf.onWrite((keys) => {
    nameCache?.forget(keys);
    replica?.wrote(keys);
  });
  const endpoints = replicaEndpoint !== undefined ? [primary, replicaEndpoint] : [primary];
  return { db: storeDbOf, names, nameCache, replica, endpoints, closeReads: () => nameCache?.close() };
}
