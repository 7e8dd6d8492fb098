/**
 * Values every process of a store shares, each made once (migration
 * 0014): the secret key that authenticates OAI-PMH resumption tokens
 * (oai/token.ts), so that a harvest begun on one server process goes on
 * at any other of the same store, and a token of another store is
 * refused. The first process to need a secret writes one drawn at random
 * in the write transaction (which holds the store's write lock from its
 * start, db.ts) unless one is there: every process then reads the same.
 * Migration 0014 makes the key of the resumption tokens with the table,
 * so a store served from a read-only file system has it too.
 */
import { randomBytes } from 'node:crypto';
import type { StoreDb } from './db.js';

/** RFC 2104 §3: a key of the hash's output length (32 bytes for SHA-256); a longer one adds no strength. */
const SECRET_BYTES = 32;

/**
 * The name of the secret that authenticates OAI-PMH resumption tokens.
 *
 * @example
 * ```ts
 * OAI_TOKEN_KEY; // 'oai-resumption-token-key'
 * ```
 */
export const OAI_TOKEN_KEY = 'oai-resumption-token-key';

/**
 * A new secret as the table keeps it: {@link SECRET_BYTES} random bytes, base64url.
 *
 * @example
 * ```ts
 * Buffer.from(newSecretText(), 'base64url').length; // 32
 * ```
 */
export function newSecretText(): string {
  return randomBytes(SECRET_BYTES).toString('base64url');
}

/**
 * The shared settings of an open store.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * const key = await store.settings.secret('oai-token-key');
 * key.length; // 32
 * (await store.settings.secret('oai-token-key')).equals(key); // true
 * (await store.settings.secret('another')).equals(key); // false
 * await store.close();
 * ```
 */
export class StoreSettings {
  readonly #db: StoreDb;
  /** A secret never changes once written: each is read once per process. */
  readonly #secrets = new Map<string, Promise<Buffer>>();

  constructor(db: StoreDb) {
    this.#db = db;
  }

  /**
   * The secret named `name`: 32 random bytes, made by the first process
   * that asks and the same for every process of the store from then on.
   */
  secret(name: string): Promise<Buffer> {
    let s = this.#secrets.get(name);
    if (s === undefined) {
      s = this.#readOrMake(name);
      this.#secrets.set(name, s);
      // a failed read (the store away) is asked again next time, not kept
      s.catch(() => this.#secrets.delete(name));
    }
    return s;
  }

  async #readOrMake(name: string): Promise<Buffer> {
    const found = await this.#db.db.selectFrom('store_settings').select('value').where('name', '=', name).executeTakeFirst();
    if (found !== undefined) return Buffer.from(found.value, 'base64url');
    // Two processes may both find none: the insert of the second does nothing, and both read the first's.
    const value = await this.#db.write(async ({ trx }) => {
      await trx.insertInto('store_settings').values({ name, value: newSecretText(), created: Date.now() })
        .onConflict((oc) => oc.column('name').doNothing()).execute();
      return (await trx.selectFrom('store_settings').select('value').where('name', '=', name).executeTakeFirstOrThrow()).value;
    });
    return Buffer.from(value, 'base64url');
  }
}
