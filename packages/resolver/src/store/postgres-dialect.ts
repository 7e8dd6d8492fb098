/**
 * kysely's PostgreSQL dialect, its introspection kept to the store's own
 * schema (the first of the connection's search_path, postgres.ts).
 *
 * kysely's migrator asks the introspection whether its own tables exist,
 * and kysely's PostgresIntrospector lists every table of every schema of
 * the database, calling has_schema_privilege with each schema's name: a
 * schema that another client drops between the catalog read and that call
 * (another store in the same database, the tests' schemas) fails the
 * listing with invalid_schema_name, and the store does not open. The
 * store's tables are in its own schema, so that is all it reads.
 */
import { PostgresDialect, sql, type DatabaseIntrospector, type DatabaseMetadata, type DatabaseMetadataOptions, type Kysely, type SchemaMetadata, type TableMetadata } from 'kysely';

/** Tables kysely keeps for its migrator (kysely's DEFAULT_MIGRATION_TABLE and DEFAULT_MIGRATION_LOCK_TABLE). */
const KYSELY_TABLES: ReadonlySet<string> = new Set(['kysely_migration', 'kysely_migration_lock']);

interface ColumnRow {
  table: string;
  schema: string;
  kind: string;
  column: string;
  type: string;
  type_schema: string;
  not_null: boolean;
  has_default: boolean;
  serial: string | null;
  identity: string;
  comment: string | null;
}

/** The tables and views of the connection's current schema, with their columns. */
class CurrentSchemaIntrospector implements DatabaseIntrospector {
  readonly #db: Kysely<any>;

  constructor(db: Kysely<any>) {
    this.#db = db;
  }

  async getSchemas(): Promise<SchemaMetadata[]> {
    const r = await sql<{ name: string }>`select current_schema() as name`.execute(this.#db);
    return r.rows;
  }

  async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    const r = await sql<ColumnRow>`
      select c.relname as table, ns.nspname as schema, c.relkind as kind, a.attname as column, typ.typname as type,
        tns.nspname as type_schema, a.attnotnull as not_null, a.atthasdef as has_default, a.attidentity as identity,
        pg_get_serial_sequence(quote_ident(ns.nspname) || '.' || quote_ident(c.relname), a.attname) as serial,
        col_description(a.attrelid, a.attnum) as comment
      from pg_catalog.pg_class c
      join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
      join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      join pg_catalog.pg_type typ on typ.oid = a.atttypid
      join pg_catalog.pg_namespace tns on tns.oid = typ.typnamespace
      where ns.nspname = current_schema() and c.relkind in ('r', 'v', 'p')
      order by c.relname, a.attnum`.execute(this.#db);
    const tables = new Map<string, TableMetadata & { columns: TableMetadata['columns'][number][] }>();
    for (const row of r.rows) {
      if (!options.withInternalKyselyTables && KYSELY_TABLES.has(row.table)) continue;
      let t = tables.get(row.table);
      if (!t) tables.set(row.table, (t = { name: row.table, schema: row.schema, isView: row.kind === 'v', columns: [] }));
      t.columns.push({
        name: row.column,
        dataType: row.type,
        dataTypeSchema: row.type_schema,
        isNullable: !row.not_null,
        hasDefaultValue: row.has_default,
        isAutoIncrementing: row.serial !== null || row.identity !== '',
        ...(row.comment !== null ? { comment: row.comment } : {}),
      });
    }
    return [...tables.values()];
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}

/** kysely's PostgresDialect whose introspection (`db.introspection`) sees only the current schema. */
export class CurrentSchemaPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new CurrentSchemaIntrospector(db);
  }
}
