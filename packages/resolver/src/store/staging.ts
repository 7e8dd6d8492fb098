/**
 * The new names of a bulk import on SQLite, held back in a temporary
 * table and written into `names` in slot order (slots.ts) at the end.
 *
 * A name's row id is a hash of its key, so names inserted in the order
 * of a file land on random pages of the table: once the table outgrows
 * the page cache every insert reads and rewrites a page of its own (a
 * store of 50 million names is gigabytes). Sorted by slot, the rows are
 * appended in order, page after page. When the import is at least as
 * large as the store, the indexes of `names` are dropped before and
 * built again after (a sort each), instead of being updated row by row
 * in the order of the file. The history's indexes likewise: its rows
 * are appended in id order, cheap, but each also went into the unique
 * (key, version) index at a random place; once the import has written
 * more history rows than the store held, both indexes are dropped and
 * built at the end. All of it happens inside the import's one
 * transaction (SQLite's DDL is transactional): all or nothing, as
 * before, and readers see the indexes throughout.
 *
 * The staged rows are invisible to reads of `names` until {@link
 * NameStaging.flush}: the writer flushes before anything of the
 * transaction reads other names (a move's chain, the links between
 * names), and the caller promises that no key comes twice.
 *
 * Where the time of `urikit import` of 10 million names went (two cores,
 * one busy with other work, load average 1.1-1.8): 57 s reading, checking
 * and staging; 16 s the staged rows into `names`; 13 s the two indexes of
 * `names`; 9 s the history's; 3 s the commit (the WAL written and synced)
 * and 12 s the checkpoint that copies the 4 GB of WAL into the database
 * when the store closes. The checkpoint stays: until it runs, a reader
 * looks every page up in the WAL's index, whose search grows with the WAL.
 * 111 s in all (90,000 names/s), 146 s before the sorts below were tuned.
 * A store held exclusively (sqlite.ts) has no WAL: its pages are written
 * once, and the end of 50 million names took about 6 minutes instead of 22.
 */
import { availableParallelism } from 'node:os';
import { CompiledQuery, type Kysely } from 'kysely';
import type { Database, NamesTable } from './schema.js';
import { nameSlot } from './slots.js';

const TABLE = 'temp.urikit_staged_names';
const COLUMNS = 'id, key, urn, status, data, version, created, updated';
/** Rows per INSERT: 8 columns x 500 rows, far below SQLite's 32766 bound values. */
const ROWS = 500;

function insertSql(rows: number): string {
  return `insert into ${TABLE} (${COLUMNS}) values ${Array.from({ length: rows }, () => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`;
}

const FULL_INSERT = insertSql(ROWS);

async function run(trx: Kysely<Database>, text: string, params: unknown[] = []) {
  return trx.executeQuery<Record<string, unknown>>(CompiledQuery.raw(text, params));
}

/**
 * SQLite's page cache, in KiB, while the flush sorts the staged rows by
 * slot and the entries of an index of `names` (in the order of the
 * slots, random by key). SQLite's sorter sorts runs of up to the page
 * cache's size (at most 512 MiB) in memory, then merges them, 16 at a
 * time, from temporary files; a run that fits in the CPU's caches sorts
 * in a fraction of the time. The key index of 5 million names took 8.3
 * CPU seconds with the bulk write's 1 GiB of cache, 6.1 with 128 MiB, 4.0
 * with 32 MiB, 2.5 with 8 MiB, 2.2 with 4 MiB; smaller runs are more
 * merge passes through temporary files (8 MiB: two passes up to 50
 * million names). The staged rows are about 300 bytes each: runs of 64
 * MiB keep them to two passes. The history's indexes keep the bulk
 * write's cache: their entries come in the order of the file (`at`
 * always, the key when the file is sorted), which the sorter takes in
 * one run, fast; with 4 MiB runs, 10 million names took 7.2 s instead of
 * 4.9 for (key, version). 10 million names, from the start of the flush
 * to the end of the checkpoint: 88 s with the bulk write's cache, 59 s
 * with these, 52 s with {@link SORT_THREADS} too.
 */
const SORT_KIB = { staged: 65536, index: 8192 };

/**
 * Auxiliary threads SQLite's sorter may use (`pragma threads`): runs are
 * sorted and merged beside the thread that reads the table. 10 million
 * names, two cores: the staged rows and the two indexes of `names` in 27
 * s instead of 36, with about the same CPU time.
 */
const SORT_THREADS = availableParallelism() > 1 ? 2 : 0;

/** Runs `text`, a statement that sorts, with a page cache of `kib` and {@link SORT_THREADS}, then sets both back. */
async function sorting(trx: Kysely<Database>, kib: number | undefined, text: string) {
  const pragma = async (name: string, value?: number) => Number((await run(trx, `pragma ${name}${value === undefined ? '' : ` = ${value}`}`)).rows[0]?.[name]);
  const cache = await pragma('cache_size');
  const threads = await pragma('threads');
  if (kib !== undefined) await pragma('cache_size', -kib);
  await pragma('threads', SORT_THREADS);
  try {
    return await run(trx, text);
  } finally {
    await pragma('cache_size', cache);
    await pragma('threads', threads);
  }
}

/** Drops the indexes of `table` (made by the migrations, not a primary key's) and returns the SQL that builds them again. */
async function dropIndexes(trx: Kysely<Database>, table: 'names' | 'history'): Promise<string[]> {
  const rows = (await run(trx, "select name, sql from sqlite_schema where type = 'index' and tbl_name = ? and sql is not null", [table])).rows as Array<{ name: string; sql: string }>;
  for (const ix of rows) await run(trx, `drop index "${ix.name.replaceAll('"', '""')}"`);
  return rows.map((ix) => ix.sql);
}

/**
 * New names rows held back until the end of a bulk write (SQLite).
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * const r = await store.writer.bulk((b) => b.write([{ key: 'urn:ex:a', input: { urn: 'urn:ex:a' } }]), { distinctKeys: true });
 * r.created; // 1
 * (await store.names.get('urn:ex:a'))?.status; // 'active'
 * await store.close();
 * ```
 */
export class NameStaging {
  #made = false;
  #staged = 0;
  /** History rows when the bulk write began (ids are never reused: the largest is the count). */
  #historyHeld = 0;
  #historyWritten = 0;
  /** The SQL of the history indexes dropped, to build them again at the end. */
  #historyIndexes: string[] | undefined;
  /**
   * True while `names` holds no row but staged ones: then no key of a
   * batch can be in it (the caller writes each key once), and the writer
   * skips the lookup of the batch's current rows.
   */
  noNames = false;
  /** True while `name_links` is empty: no new name has incoming links to look up. */
  noLinks = false;

  /** Looks at what the store holds when the bulk write begins. */
  async begin(trx: Kysely<Database>): Promise<void> {
    this.noNames = (await trx.selectFrom('names').select('key').limit(1).execute()).length === 0;
    this.noLinks = (await trx.selectFrom('name_links').select('target').limit(1).execute()).length === 0;
    const max = (await run(trx, 'select max(id) as n from history')).rows[0]?.n;
    this.#historyHeld = Number(max ?? 0);
  }

  /**
   * Counts history rows the bulk write appended; once they outnumber
   * the rows held before, drops the history's indexes (built again by
   * {@link finish}). Nothing of the bulk write reads the history.
   */
  async historyWritten(trx: Kysely<Database>, rows: number): Promise<void> {
    this.#historyWritten += rows;
    if (this.#historyIndexes || this.#historyWritten <= this.#historyHeld) return;
    this.#historyIndexes = await dropIndexes(trx, 'history');
  }

  /** Rows waiting to be written into `names`. */
  get staged(): number {
    return this.#staged;
  }

  /** Holds back new names rows (keys not in `names`, none staged before). */
  async add(trx: Kysely<Database>, rows: readonly NamesTable[]): Promise<void> {
    if (rows.length === 0) return;
    if (!this.#made) {
      // No index: rows go in as they come; the flush sorts them once.
      await trx.executeQuery(CompiledQuery.raw(`create temp table if not exists urikit_staged_names (${COLUMNS})`));
      await trx.executeQuery(CompiledQuery.raw(`delete from ${TABLE}`));
      this.#made = true;
    }
    for (let i = 0; i < rows.length; i += ROWS) {
      const n = Math.min(ROWS, rows.length - i);
      const params: unknown[] = new Array(n * 8);
      for (let j = 0; j < n; j++) {
        const r = rows[i + j]!;
        const p = j * 8;
        params[p] = nameSlot(r.key);
        params[p + 1] = r.key; params[p + 2] = r.urn; params[p + 3] = r.status; params[p + 4] = r.data;
        params[p + 5] = r.version; params[p + 6] = r.created; params[p + 7] = r.updated;
      }
      await trx.executeQuery(CompiledQuery.raw(n === ROWS ? FULL_INSERT : insertSql(n), params));
    }
    this.#staged += rows.length;
  }

  /**
   * Writes the staged rows into `names`, each in its slot, in slot order;
   * a row whose slot another key holds gets an id SQLite chooses (as
   * insert.ts does for a single row).
   */
  async flush(trx: Kysely<Database>): Promise<void> {
    if (this.#staged === 0) return;
    const run = async (text: string, params: unknown[] = []) => trx.executeQuery<Record<string, unknown>>(CompiledQuery.raw(text, params));
    // The store holds fewer names than are staged: build its indexes anew.
    const held = Number((await run('select count(*) as n from (select 1 from names limit ?)', [this.#staged])).rows[0]!.n);
    const indexes = held < this.#staged ? await dropIndexes(trx, 'names') : [];
    const cols = 'key, urn, status, data, version, created, updated';
    // WHERE true: SQLite's grammar needs it between a SELECT and ON CONFLICT.
    // With the indexes still there, the rows go into them as they come: the bulk write's cache serves those B-trees.
    const placed = Number((await sorting(trx, indexes.length > 0 ? SORT_KIB.staged : undefined, `insert into names (${COLUMNS}) select ${COLUMNS} from ${TABLE} where true order by id on conflict (id) do nothing`)).numAffectedRows ?? 0);
    if (placed < this.#staged) {
      await run(`insert into names (${cols}) select ${cols} from ${TABLE} s where not exists (select 1 from names n where n.id = s.id and n.key = s.key) order by s.id`);
    }
    for (const ix of indexes) await sorting(trx, SORT_KIB.index, ix);
    await run(`delete from ${TABLE}`);
    this.#staged = 0;
    this.noNames = false;
  }

  /** Flushes, and drops the temporary table. */
  async finish(trx: Kysely<Database>): Promise<void> {
    await this.flush(trx);
    for (const ix of this.#historyIndexes ?? []) await sorting(trx, undefined, ix);
    this.#historyIndexes = undefined;
    if (this.#made) await trx.executeQuery(CompiledQuery.raw(`drop table ${TABLE}`));
    this.#made = false;
  }
}
