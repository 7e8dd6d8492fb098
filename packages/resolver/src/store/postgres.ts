/**
 * PostgreSQL through pg: a pool of connections, optionally in a schema of
 * its own, and the write transaction's lock. Everything that knows the
 * driver is here and in postgres-reader.ts.
 */
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { storeDb, type StoreDb } from './db.js';
import type { Database } from './schema.js';

/** The advisory lock that serializes writers ("urikit" in ASCII). */
const WRITE_LOCK = 0x75726b69;

/** PostgreSQL int8 (OID 20) as a JS number: our ids and milliseconds stay below 2^53. */
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20 && format !== 'binary') return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

/**
 * Opens `postgres://...` (with `?schema=name`: the tables in that schema,
 * created if missing), migrated by `migrate` (given the schema the
 * migrator must keep its own tables in).
 */
export async function openPostgres(dbUrl: string, migrate: (db: Kysely<Database>, schema: string) => Promise<void>): Promise<StoreDb> {
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
  try {
    const current = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
    await migrate(db, current.rows[0]?.schema ?? schema ?? 'public');
  } catch (e) {
    await db.destroy();
    throw e;
  }
  // One writer at a time across every process and machine: history ids
  // (the change feed's seq) are then committed in increasing order, so a
  // harvester reading "since N" never skips a later-committed lower id,
  // and a write's checks (lifecycle.ts) see every earlier write.
  const lock = async (trx: Kysely<Database>) => { await sql`select pg_advisory_xact_lock(${WRITE_LOCK})`.execute(trx); };
  return storeDb('postgres', db, db, () => db.destroy(), lock);
}
