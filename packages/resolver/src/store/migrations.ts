/**
 * The migrations of the store, written once through kysely for both
 * engines (SQLite and PostgreSQL); the two differ only in how an
 * increasing id and a byte-ordered text key are declared. A migration
 * stays as it was written.
 */
import { CompiledQuery, sql, type CreateTableBuilder, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { foldDnsKeys } from './case-fold-migration.js';
import { nameKey } from './keys.js';
import type { Engine, NamesTable } from './schema.js';
import { nameSlot } from './slots.js';

function migrations(engine: Engine): Record<string, Migration> {
  // Keys compare byte by byte on both engines (URNs are US-ASCII), so a
  // prefix is a key range: PostgreSQL needs the "C" collation for that.
  const keyType = engine === 'postgres' ? sql`text collate "C"` : sql`text`;
  // The columns of a table of statistics cells: a name, a UTC day, a service, two counts.
  const statsCells = (table: CreateTableBuilder<string>) => table
    .addColumn('key', keyType, (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('service', 'text', (c) => c.notNull())
    .addColumn('human', 'bigint', (c) => c.notNull())
    .addColumn('robot', 'bigint', (c) => c.notNull());
  return {
    '0001_names': {
      async up(db: Kysely<any>) {
        // SQLite: WITHOUT ROWID keeps each row in the key's B-tree, so a
        // resolution is one B-tree descent instead of index + table.
        await db.schema.createTable('names')
          .addColumn('key', keyType, (c) => c.primaryKey())
          .addColumn('urn', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('data', 'text', (c) => c.notNull())
          .addColumn('version', 'integer', (c) => c.notNull())
          .addColumn('created', 'bigint', (c) => c.notNull())
          .addColumn('updated', 'bigint', (c) => c.notNull())
          .modifyEnd(engine === 'sqlite' ? sql`without rowid` : sql``)
          .execute();
        let history = db.schema.createTable('history');
        history = engine === 'postgres'
          ? history.addColumn('id', 'bigserial', (c) => c.primaryKey())
          : history.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
        await history
          .addColumn('key', keyType, (c) => c.notNull())
          .addColumn('version', 'integer', (c) => c.notNull())
          .addColumn('op', 'text', (c) => c.notNull())
          .addColumn('at', 'bigint', (c) => c.notNull())
          .addColumn('actor', 'text')
          .addColumn('record', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('history_key').on('history').columns(['key', 'version']).unique().execute();
        await db.schema.createIndex('history_at').on('history').column('at').execute();
        await db.schema.createTable('prefix_rules')
          .addColumn('prefix', keyType, (c) => c.primaryKey())
          .addColumn('target', 'text', (c) => c.notNull())
          .addColumn('created', 'bigint', (c) => c.notNull())
          .addColumn('updated', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createTable('tokens')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('hash', 'text', (c) => c.notNull())
          .addColumn('authority', 'text', (c) => c.notNull())
          .addColumn('created', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createTable('authorities')
          .addColumn('name', keyType, (c) => c.primaryKey())
          .addColumn('data', 'text', (c) => c.notNull())
          .execute();
      },
    },
    '0002_name_slots': {
      // SQLite: `names` keyed by slot (slots.ts) with a unique index on the
      // key, rebuilt row by row in key order. PostgreSQL keeps its text key.
      // One transaction (kysely runs SQLite migrations outside one): a crash
      // leaves the old table, and a re-run after the commit rebuilds the same.
      async up(db: Kysely<any>) {
        if (engine !== 'sqlite') return;
        await db.transaction().execute(async (trx) => {
          await trx.schema.dropTable('names_slotted').ifExists().execute();
          // The columns of 0001, spelled out again: a migration stays as it was written.
          await trx.schema.createTable('names_slotted')
            .addColumn('id', 'integer', (c) => c.primaryKey())
            .addColumn('key', 'text', (c) => c.notNull())
            .addColumn('urn', 'text', (c) => c.notNull())
            .addColumn('status', 'text', (c) => c.notNull())
            .addColumn('data', 'text', (c) => c.notNull())
            .addColumn('version', 'integer', (c) => c.notNull())
            .addColumn('created', 'bigint', (c) => c.notNull())
            .addColumn('updated', 'bigint', (c) => c.notNull())
            .execute();
          const columns = 'key, urn, status, data, version, created, updated';
          const inSlot = `insert into names_slotted (id, ${columns}) select ?, ${columns} from names where key = ? on conflict (id) do nothing`;
          const elsewhere = `insert into names_slotted (${columns}) select ${columns} from names where key = ?`;
          let after = '';
          for (;;) {
            const page = await trx.selectFrom('names').select('key').where('key', '>', after).orderBy('key').limit(5000).execute() as Array<{ key: string }>;
            for (const { key } of page) {
              const res = await trx.executeQuery(CompiledQuery.raw(inSlot, [nameSlot(key), key]));
              if (Number(res.numAffectedRows ?? 0) === 0) await trx.executeQuery(CompiledQuery.raw(elsewhere, [key]));
            }
            if (page.length < 5000) break;
            after = page[page.length - 1]!.key;
          }
          await trx.schema.dropIndex('names_key').ifExists().execute();
          await trx.schema.createIndex('names_key').on('names_slotted').column('key').unique().execute();
          await trx.schema.dropTable('names').execute();
          await trx.schema.alterTable('names_slotted').renameTo('names').execute();
        });
      },
    },
    '0003_token_revocation': {
      // A revoked token is kept (the history names tokens as actors) and refused.
      async up(db: Kysely<any>) {
        await db.schema.alterTable('tokens').addColumn('revoked', 'bigint').execute();
      },
    },
    '0004_name_links': {
      // Every link between names, by target (store/links.ts), filled from the
      // records there are; each target's record gets the names pointing at it.
      async up(db: Kysely<any>) {
        await db.schema.createTable('name_links')
          .addColumn('target', keyType, (c) => c.notNull())
          .addColumn('source', keyType, (c) => c.notNull())
          .addColumn('rel', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('name_links_pk', ['target', 'source', 'rel'])
          .execute();
        await backfillLinks(db);
      },
    },
    '0005_link_health_and_stats': {
      // Written by the link checker and the statistics counter's flushes,
      // never on the resolution path.
      async up(db: Kysely<any>) {
        let health = db.schema.createTable('link_health')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('url', 'text', (c) => c.notNull())
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('last_check', 'bigint', (c) => c.notNull())
          .addColumn('next_check', 'bigint', (c) => c.notNull())
          .addColumn('status', 'integer')
          .addColumn('final_url', 'text')
          .addColumn('elapsed_ms', 'integer')
          .addColumn('failures', 'integer', (c) => c.notNull())
          .addColumn('error', 'text')
          .addColumn('failing_since', 'bigint')
          .addColumn('changed', 'bigint', (c) => c.notNull());
        if (engine === 'sqlite') health = health.modifyEnd(sql`without rowid`);
        await health.execute();
        await db.schema.createIndex('link_health_state').on('link_health').columns(['state', 'changed']).execute();
        // One row per (name, day, service); the key first, so that a name or an
        // authority's prefix is a range of the primary key.
        let stats = statsCells(db.schema.createTable('resolution_stats'))
          .addPrimaryKeyConstraint('resolution_stats_pk', ['key', 'day', 'service']);
        if (engine === 'sqlite') stats = stats.modifyEnd(sql`without rowid`);
        await stats.execute();
        await db.schema.createIndex('resolution_stats_day').on('resolution_stats').column('day').execute();
        if (engine === 'sqlite') {
          await db.schema.createTable('names_generation').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('n', 'bigint', (c) => c.notNull()).execute();
          await db.insertInto('names_generation').values({ id: 1, n: 0 }).execute();
        }
      },
    },
    '0006_mint_counters': {
      async up(db: Kysely<any>) {
        await db.schema.createTable('mint_counters')
          .addColumn('prefix', keyType, (c) => c.primaryKey())
          .addColumn('next', 'bigint', (c) => c.notNull())
          .execute();
      },
    },
    '0007_names_by_datestamp': {
      // A harvest reads names in the order of their last change (store/harvest.ts).
      async up(db: Kysely<any>) {
        await db.schema.createIndex('names_by_datestamp').on('names').columns(['updated', 'key']).execute();
      },
    },
    '0008_resolution_stats_pending': {
      // A flush appends here, in id order, with no index but the id's
      // (resolution_stats's upsert visits a B-tree page per cell).
      async up(db: Kysely<any>) {
        await statsCells(db.schema.createTable('resolution_stats_pending')
          .addColumn('id', engine === 'postgres' ? 'bigserial' : 'integer', (c) => c.primaryKey()))
          .execute();
      },
    },
    '0009_resolution_stats_recent': {
      // The sums the folds add to, merged into resolution_stats a key range
      // at a time (store/resolution-stats.ts); the sums so far stay there.
      async up(db: Kysely<any>) {
        let recent = statsCells(db.schema.createTable('resolution_stats_recent'))
          .addPrimaryKeyConstraint('resolution_stats_recent_pk', ['key', 'day', 'service']);
        if (engine === 'sqlite') recent = recent.modifyEnd(sql`without rowid`);
        await recent.execute();
      },
    },
    '0010_store_changes': {
      // What servers keep in memory from the store, and reload when its row moves (store/changes.ts).
      async up(db: Kysely<any>) {
        await db.schema.createTable('store_changes')
          .addColumn('topic', 'text', (c) => c.primaryKey())
          .addColumn('n', 'bigint', (c) => c.notNull())
          .execute();
        await db.insertInto('store_changes').values([{ topic: 'link_health', n: 0 }, { topic: 'authorities', n: 0 }]).execute();
      },
    },
    '0011_dns_case_keys': {
      // The 1995 draft §2.3.1 case rule in the keys of urn:dns: names (keys.ts); collisions listed, never merged.
      async up(db: Kysely<any>) {
        await foldDnsKeys(db, engine);
      },
    },
    '0012_harvests': {
      // What the OAI-PMH harvester keeps of each repository (store/harvest-log.ts): where
      // the next harvest starts, the token of one interrupted, what it applied and refused;
      // and which name each of the repository's records named (a deleted record has no metadata).
      // Its tables may be there already: a store rolled back past 0004 runs the later migrations again (as 0011 does).
      async up(db: Kysely<any>) {
        await db.schema.createTable('harvest_repositories').ifNotExists()
          .addColumn('repo', 'text', (c) => c.primaryKey())
          .addColumn('data', 'text', (c) => c.notNull())
          .addColumn('updated', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createTable('harvest_refusals').ifNotExists()
          .addColumn('id', engine === 'postgres' ? 'bigserial' : 'integer', (c) => c.primaryKey())
          .addColumn('repo', 'text', (c) => c.notNull())
          .addColumn('at', 'bigint', (c) => c.notNull())
          .addColumn('identifier', 'text')
          .addColumn('urn', 'text')
          .addColumn('code', 'text', (c) => c.notNull())
          .addColumn('reason', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('harvest_refusals_repo').ifNotExists().on('harvest_refusals').columns(['repo', 'id']).execute();
        let items = db.schema.createTable('harvest_items').ifNotExists()
          .addColumn('repo', 'text', (c) => c.notNull())
          .addColumn('identifier', 'text', (c) => c.notNull())
          .addColumn('key', keyType, (c) => c.notNull())
          .addPrimaryKeyConstraint('harvest_items_pk', ['repo', 'identifier']);
        if (engine === 'sqlite') items = items.modifyEnd(sql`without rowid`);
        await items.execute();
      },
    },
    '0014_harvest_leases': {
      // One harvest of a repository at a time across every process of a store (harvest-log.ts):
      // the holder of the lease applies pages; a lease not renewed expires, and another may resume.
      async up(db: Kysely<any>) {
        await db.schema.createTable('harvest_leases').ifNotExists()
          .addColumn('repo', 'text', (c) => c.primaryKey())
          .addColumn('holder', 'text', (c) => c.notNull())
          .addColumn('expires', 'bigint', (c) => c.notNull())
          .execute();
      },
    },
  };
}

/**
 * The links of the records a store holds when `name_links` is made, and
 * the lists of their targets (store/links.ts), page by page. Written out
 * here as it was when the table was made: a migration stays as it was.
 */
async function backfillLinks(db: Kysely<any>): Promise<void> {
  const keyOf = (uri: unknown): string | undefined => {
    if (typeof uri !== 'string' || uri.slice(0, 4).toLowerCase() !== 'urn:') return undefined;
    try { return nameKey(uri).key; } catch { return undefined; }
  };
  const incoming = new Map<string, { movedFrom: string[]; predecessors: string[] }>();
  let after = '';
  for (;;) {
    const page = await db.selectFrom('names').select(['key', 'status', 'data']).where('key', '>', after).orderBy('key').limit(5000).execute() as NamesTable[];
    const rows: Array<{ target: string; source: string; rel: string }> = [];
    for (const row of page) {
      const d = JSON.parse(row.data) as { movedTo?: unknown; successor?: unknown };
      const moved = row.status === 'moved' ? keyOf(d.movedTo) : undefined;
      const successor = keyOf(d.successor);
      for (const [target, rel] of [[moved, 'moved'], [successor, 'successor']] as const) {
        if (target === undefined || target === row.key) continue;
        rows.push({ target, source: row.key, rel });
        let e = incoming.get(target);
        if (!e) incoming.set(target, (e = { movedFrom: [], predecessors: [] }));
        (rel === 'moved' ? e.movedFrom : e.predecessors).push(row.key);
      }
    }
    for (let i = 0; i < rows.length; i += 500) await db.insertInto('name_links').values(rows.slice(i, i + 500)).onConflict((oc) => oc.doNothing()).execute();
    if (page.length < 5000) break;
    after = page[page.length - 1]!.key;
  }
  for (const [key, e] of incoming) {
    const row = await db.selectFrom('names').select(['data']).where('key', '=', key).executeTakeFirst() as { data: string } | undefined;
    if (!row) continue;
    // The record's JSON with the lists last, as records.ts writes them.
    const d = JSON.parse(row.data) as Record<string, unknown>;
    delete d.movedFrom;
    delete d.predecessors;
    if (e.movedFrom.length > 0) d.movedFrom = e.movedFrom.sort();
    if (e.predecessors.length > 0) d.predecessors = e.predecessors.sort();
    await db.updateTable('names').set({ data: JSON.stringify(d) }).where('key', '=', key).execute();
  }
}

/**
 * The migrations of the store, in order, for one engine.
 *
 * @example
 * ```ts
 * import { Kysely, Migrator, SqliteDialect } from 'kysely';
 * import { kyselySqlite, openSqliteFile } from './sqlite-driver.js';
 * import type { Database } from './schema.js';
 * const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: kyselySqlite(openSqliteFile(':memory:')) }) });
 * const { error, results } = await new Migrator({ db, provider: migrationProvider('sqlite') }).migrateToLatest();
 * error; // undefined
 * results?.map((r) => r.migrationName);
 * // ['0001_names', '0002_name_slots', '0003_token_revocation', '0004_name_links', '0005_link_health_and_stats',
 * //   '0006_mint_counters', '0007_names_by_datestamp', '0008_resolution_stats_pending',
 * //   '0009_resolution_stats_recent', '0010_store_changes', '0011_dns_case_keys', '0012_harvests', '0014_harvest_leases']
 * await db.destroy();
 * ```
 */
export function migrationProvider(engine: Engine): MigrationProvider {
  return { getMigrations: async () => migrations(engine) };
}
