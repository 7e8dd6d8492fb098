/**
 * The registry of naming authorities behind the reserved requests of the
 * 1995 draft §3.5 (urn+m, urn+a, urn+c, urn+p).
 */
import { noteChange } from './changes.js';
import type { StoreDb } from './db.js';
import type { Authority } from './types.js';

/**
 * The authority registry of a store.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * const registry: AuthorityRegistry = store.authorities;
 * await registry.put({ name: 'urn:dns:flixco.com', contact: 'mailto:admin@flixco.com', children: [], parents: [] });
 * (await registry.get('urn:dns:flixco.com'))?.contact; // 'mailto:admin@flixco.com'
 * await store.close();
 * ```
 */
export class AuthorityRegistry {
  readonly #db: StoreDb;

  constructor(db: StoreDb) {
    this.#db = db;
  }

  /** The entry of a naming authority. */
  async get(name: string): Promise<Authority | undefined> {
    const row = await this.#db.readDb.selectFrom('authorities').selectAll().where('name', '=', name).executeTakeFirst();
    return row ? (JSON.parse(row.data) as Authority) : undefined;
  }

  /** Creates or replaces an entry. */
  async put(a: Authority): Promise<void> {
    const data = JSON.stringify(a);
    await this.#db.write(async ({ trx }) => {
      const cur = await trx.selectFrom('authorities').select('name').where('name', '=', a.name).executeTakeFirst();
      if (cur) await trx.updateTable('authorities').set({ data }).where('name', '=', a.name).execute();
      else await trx.insertInto('authorities').values({ name: a.name, data }).execute();
      await noteChange(trx, 'authorities');
    });
  }

  /** Every entry, by name. */
  async list(): Promise<Authority[]> {
    const rows = await this.#db.readDb.selectFrom('authorities').selectAll().orderBy('name').execute();
    return rows.map((r) => JSON.parse(r.data) as Authority);
  }
}
