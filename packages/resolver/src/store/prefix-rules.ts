/**
 * Partial redirects: every name under a prefix that the store does not
 * hold redirects to a target with the rest of the name appended (as
 * purl.org and w3id.org do).
 */
import { prefixEnd, type StoreDb } from './db.js';
import type { PrefixRulesTable } from './schema.js';
import type { PrefixRule } from './types.js';

/** Rules keep prefixes of at most this many characters; a longer key is matched by its first 512. */
const MAX_PREFIX = 512;
const MIN_PREFIX = 5;

function toRule(r: PrefixRulesTable): PrefixRule {
  return { ...r, created: Number(r.created), updated: Number(r.updated) };
}

/**
 * The partial-redirect rules of a store.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * const rules: PrefixRules = store.prefixRules;
 * await rules.put('urn:nbn:de:101-', 'https://d-nb.info/urn/urn:nbn:de:101-');
 * (await rules.match('urn:nbn:de:101-2020'))?.prefix; // 'urn:nbn:de:101-'
 * await store.close();
 * ```
 */
export class PrefixRules {
  readonly #db: StoreDb;

  constructor(db: StoreDb) {
    this.#db = db;
  }

  /** The longest rule whose prefix starts `key`. */
  async match(key: string): Promise<PrefixRule | undefined> {
    const candidates: string[] = [];
    for (let n = Math.min(key.length, MAX_PREFIX); n >= MIN_PREFIX; n--) candidates.push(key.slice(0, n));
    if (candidates.length === 0) return undefined;
    const rows = await this.#db.readDb.selectFrom('prefix_rules').selectAll().where('prefix', 'in', candidates).execute();
    let best: PrefixRule | undefined;
    for (const r of rows) if (!best || r.prefix.length > best.prefix.length) best = toRule(r);
    return best;
  }

  /** Creates or replaces a rule. */
  async put(prefix: string, target: string): Promise<PrefixRule> {
    const now = Date.now();
    return this.#db.write(async ({ trx }) => {
      const cur = await trx.selectFrom('prefix_rules').selectAll().where('prefix', '=', prefix).executeTakeFirst();
      if (cur) await trx.updateTable('prefix_rules').set({ target, updated: now }).where('prefix', '=', prefix).execute();
      else await trx.insertInto('prefix_rules').values({ prefix, target, created: now, updated: now }).execute();
      return { prefix, target, created: cur ? Number(cur.created) : now, updated: now };
    });
  }

  /** All rules under `prefix`. */
  async list(prefix = ''): Promise<PrefixRule[]> {
    const rows = await this.#db.readDb.selectFrom('prefix_rules').selectAll().where('prefix', '>=', prefix).where('prefix', '<', prefixEnd(prefix)).orderBy('prefix').execute();
    return rows.map(toRule);
  }

  /** Removes a rule; true if there was one. */
  async delete(prefix: string): Promise<boolean> {
    return this.#db.write(async ({ trx }) => {
      const res = await trx.deleteFrom('prefix_rules').where('prefix', '=', prefix).executeTakeFirst();
      return Number(res.numDeletedRows) > 0;
    });
  }
}
