/**
 * Admin bearer tokens (DESIGN.md: "bearer tokens, stored hashed"): `uk_<id>_<secret>`, the secret
 * stored only as its SHA-256, scoped to one naming-authority prefix and
 * compared in constant time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { StoreDb } from './db.js';
import { authorityPrefix } from './keys.js';

/**
 * The stored tokens: id, the SHA-256 of the secret, the authority prefix.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * const tokens: TokenTable = store.tokens;
 * await tokens.insert('3f9a0c1d2b4e', '00'.repeat(32), 'urn:isbn');
 * (await tokens.get('3f9a0c1d2b4e'))?.authority; // 'urn:isbn'
 * await store.close();
 * ```
 */
export class TokenTable {
  readonly #db: StoreDb;

  constructor(db: StoreDb) {
    this.#db = db;
  }

  /** Stores a token's id, the SHA-256 of its secret and its authority prefix. */
  async insert(id: string, hash: string, authority: string): Promise<void> {
    await this.#db.write(async ({ trx }) => { await trx.insertInto('tokens').values({ id, hash, authority, created: Date.now(), revoked: null }).execute(); });
  }

  /** A valid token's stored hash and scope, by id (undefined when unknown or revoked). */
  async get(id: string): Promise<{ hash: string; authority: string } | undefined> {
    return this.#db.readDb.selectFrom('tokens').select(['hash', 'authority']).where('id', '=', id).where('revoked', 'is', null).executeTakeFirst();
  }

  /** Every token, valid and revoked, oldest first: id, scope and dates, never the hash. */
  async list(): Promise<TokenInfo[]> {
    const rows = await this.#db.readDb.selectFrom('tokens').select(['id', 'authority', 'created', 'revoked']).orderBy('created').orderBy('id').execute();
    return rows.map((r) => ({ id: r.id, authority: r.authority, created: Number(r.created), ...(r.revoked !== null ? { revoked: Number(r.revoked) } : {}) }));
  }

  /** Revokes a token by id: true if it was valid and is revoked now, false if unknown or revoked already. */
  async revoke(id: string): Promise<boolean> {
    return this.#db.write(async ({ trx }) => {
      const r = await trx.updateTable('tokens').set({ revoked: Date.now() }).where('id', '=', id).where('revoked', 'is', null).executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    });
  }
}

/**
 * A token as listed: its id, the authority prefix it may write under
 * ('' for every name), when it was created and, if so, revoked (ms
 * since the epoch). The secret is never kept, the hash never shown.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * const { id } = await createToken(store, { authority: 'urn:isbn' });
 * await store.tokens.revoke(id); // true
 * const [info]: TokenInfo[] = await store.tokens.list();
 * info!.authority; // 'urn:isbn'
 * typeof info!.revoked; // 'number'
 * await store.close();
 * ```
 */
export interface TokenInfo {
  id: string;
  authority: string;
  created: number;
  revoked?: number;
}

/**
 * A token as created: `token` is shown once and never stored.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * const t: CreatedToken = await createToken(store, { authority: 'urn:ISBN' });
 * t.authority // 'urn:isbn'
 * t.token.startsWith(`uk_${t.id}_`) // true
 * await verifyToken(store, `Bearer ${t.token}`) // { id: t.id, authority: 'urn:isbn' }
 * await store.close();
 * ```
 */
export interface CreatedToken {
  id: string;
  /** The canonical authority prefix it may write under ('' = every name). */
  authority: string;
  /** The bearer token to send as `Authorization: Bearer <token>`. */
  token: string;
}

function sha256(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}

/**
 * Creates an admin token allowed to write names under `authority` (a URN
 * prefix such as `urn:isbn` or `urn:dns:library.bigstate.edu`; `*` for
 * all) and stores its hash; what `urikit token create --authority` runs.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * const created = await createToken(store, { authority: 'URN:DNS:Library.BigState.EDU' });
 * created.authority; // 'urn:dns:library.bigstate.edu'
 * /^uk_[0-9a-f]{12}_[\w-]{43}$/.test(created.token); // true
 * await store.close();
 * ```
 */
export async function createToken(store: { tokens: TokenTable }, opts: { authority: string }): Promise<CreatedToken> {
  const authority = authorityPrefix(opts.authority);
  const id = randomBytes(6).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  await store.tokens.insert(id, sha256(secret).toString('hex'), authority);
  return { id, authority, token: `uk_${id}_${secret}` };
}

const DUMMY = sha256('no such token');

/**
 * Checks an `Authorization` header value; returns the token's id and
 * scope, or undefined. The secret's hash is compared with
 * `timingSafeEqual`, and an unknown id costs the same comparison.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * const { id, token } = await createToken(store, { authority: 'urn:isbn' });
 * await verifyToken(store, `Bearer ${token}`); // { id, authority: 'urn:isbn' }
 * await verifyToken(store, `Bearer ${token}x`); // undefined
 * await store.close();
 * ```
 */
export async function verifyToken(store: { tokens: TokenTable }, header: string | undefined): Promise<{ id: string; authority: string } | undefined> {
  if (header === undefined || header.length > 200) return undefined;
  // RFC 9110 §11.1: the auth-scheme is case-insensitive; credentials = auth-scheme 1*SP token68 (§11.4).
  const m = header.slice(0, 6).toLowerCase() === 'bearer' ? /^ +uk_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/.exec(header.slice(6)) : null;
  const presented = sha256(m ? m[2]! : '');
  const row = m ? await store.tokens.get(m[1]!) : undefined;
  const stored = row ? Buffer.from(row.hash, 'hex') : DUMMY;
  const ok = stored.length === presented.length && timingSafeEqual(stored, presented);
  return ok && row && m ? { id: m[1]!, authority: row.authority } : undefined;
}
