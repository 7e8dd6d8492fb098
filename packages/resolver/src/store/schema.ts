/**
 * The tables of the store and their migrations, written once through
 * kysely for both engines (SQLite and PostgreSQL); the two differ only in
 * how an increasing id and a byte-ordered text key are declared.
 */
import { CompiledQuery, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { nameKey } from './keys.js';
import { nameSlot } from './slots.js';

/** `names`: one row per name, the current record (hot path: one lookup by slot on SQLite, by key on PostgreSQL). */
export interface NamesTable {
  /** SQLite only: the row id, the key's slot (slots.ts) or, for a key whose slot was taken, an id SQLite chose. */
  id?: number | null;
  key: string;
  urn: string;
  status: string;
  /** JSON: locations, metadata, movedTo, permanent, successor, reason. */
  data: string;
  version: number;
  created: number;
  updated: number;
}

/** `history`: every version of every name, append-only; its id is the change feed's seq. */
export interface HistoryTable {
  id: number | undefined;
  key: string;
  version: number;
  op: string;
  at: number;
  actor: string | null;
  /** JSON of the whole record after the change. */
  record: string;
}

/** `prefix_rules`: partial redirects. */
export interface PrefixRulesTable {
  prefix: string;
  target: string;
  created: number;
  updated: number;
}

/** `tokens`: admin bearer tokens, the secret kept only as its SHA-256. */
export interface TokensTable {
  id: string;
  hash: string;
  authority: string;
  created: number;
  /** When it was revoked (ms since the epoch); null while it is valid. A revoked token stays listed. */
  revoked: number | null;
}

/** `authorities`: the registry behind the reserved requests of 1995 draft §3.5. */
export interface AuthoritiesTable {
  name: string;
  /** JSON of the Authority. */
  data: string;
}

/** `name_links`: every link a name makes to another (it moved there, or names it its successor), by target (store/links.ts). */
export interface NameLinksTable {
  target: string;
  source: string;
  /** `moved` or `successor`. */
  rel: string;
}

/** The whole database, as kysely sees it. */
export interface Database {
  names: NamesTable;
  name_links: NameLinksTable;
  history: HistoryTable;
  prefix_rules: PrefixRulesTable;
  tokens: TokensTable;
  authorities: AuthoritiesTable;
}

/** Which engine a migration is running on. */
export type Engine = 'sqlite' | 'postgres';

function migrations(engine: Engine): Record<string, Migration> {
  // Keys compare byte by byte on both engines (URNs are US-ASCII), so a
  // prefix is a key range: PostgreSQL needs the "C" collation for that.
  const keyType = engine === 'postgres' ? sql`text collate "C"` : sql`text`;
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
 * const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: kyselySqlite(openSqliteFile(':memory:')) }) });
 * const { error, results } = await new Migrator({ db, provider: migrationProvider('sqlite') }).migrateToLatest();
 * error; // undefined
 * results?.map((r) => r.migrationName); // ['0001_names', '0002_name_slots', '0003_token_revocation', '0004_name_links']
 * await db.destroy();
 * ```
 */
export function migrationProvider(engine: Engine): MigrationProvider {
  return { getMigrations: async () => migrations(engine) };
}
