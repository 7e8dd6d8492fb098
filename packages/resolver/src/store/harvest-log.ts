/**
 * What the OAI-PMH harvester keeps of each repository it harvests
 * (migration 0012): where the next harvest starts (`from`), the
 * resumption token of a harvest under way, what the last one applied and
 * refused and why, and which name each of the repository's records named
 * (a deleted record carries no metadata, OAI-PMH §2.5.1, so only this
 * tells which name it withdraws). A page's records and the state after
 * them are written in one transaction (harvest/harvester.ts): a harvest
 * interrupted anywhere resumes after the last page it wrote.
 */
import type { StoreDb, WriteScope } from './db.js';

/**
 * A repository's harvest state.
 *
 * @example
 * ```ts
 * const s: HarvestState = { repo: 'https://repo.example/oai epicur', baseUrl: 'https://repo.example/oai', metadataPrefix: 'epicur', authority: 'urn:nbn:de:101', totals: { harvests: 0, applied: 0, refused: 0 } };
 * s.run; // undefined (no harvest under way)
 * ```
 */
export interface HarvestState {
  /** The repository's key: its base URL, the metadata prefix and the set. */
  repo: string;
  baseUrl: string;
  metadataPrefix: string;
  set?: string;
  /** The authority prefix the repository may write names under (canonical, `authorityPrefix`). */
  authority: string;
  /** Identify's granularity (§4.2). */
  granularity?: 'day' | 'second';
  /** Where the next harvest starts: the repository's responseDate when the last finished one began, in its granularity. */
  nextFrom?: string;
  /** A harvest under way: its `from`, the responseDate it began at, the token of its next page and its counts so far. */
  run?: HarvestRun;
  /** The last harvest that ended, finished or failed. */
  last?: HarvestOutcome;
  totals: { harvests: number; applied: number; refused: number };
  /**
   * When a mirror's harvest of this repository ended with its promotion
   * (ms; server/mirror.ts): the names take writes here, and `serve
   * --mirror` harvests the repository no more.
   */
  promoted?: number;
}

/**
 * A harvest's counts: pages read, records applied (a name created,
 * changed or withdrawn), unchanged (the store held them already), refused.
 *
 * @example
 * ```ts
 * const c: HarvestCounts = { pages: 2, applied: 10, unchanged: 0, refused: 1 };
 * c.applied + c.unchanged + c.refused; // 11
 * ```
 */
export interface HarvestCounts {
  pages: number;
  applied: number;
  unchanged: number;
  refused: number;
}

/**
 * A harvest under way.
 *
 * @example
 * ```ts
 * const r: HarvestRun = { start: '2026-11-28T10:00:00Z', token: 'abc', began: 0, pages: 1, applied: 500, unchanged: 0, refused: 0 };
 * r.token; // 'abc'
 * ```
 */
export interface HarvestRun extends HarvestCounts {
  from?: string;
  start: string;
  token: string;
  /** When it began (ms, this machine's clock). */
  began: number;
}

/**
 * How a harvest ended.
 *
 * @example
 * ```ts
 * const o: HarvestOutcome = { status: 'failed', finished: 0, pages: 0, applied: 0, unchanged: 0, refused: 0, error: { code: 'xml-doctype', message: 'a DTD' } };
 * o.error?.code; // 'xml-doctype'
 * ```
 */
export interface HarvestOutcome extends HarvestCounts {
  status: 'ok' | 'failed';
  /** When it ended (ms). */
  finished: number;
  from?: string;
  error?: { code: string; message: string };
}

/**
 * A record (or a whole response) a harvest refused.
 *
 * @example
 * ```ts
 * const r: HarvestRefusal = { at: 0, identifier: 'oai:repo.example:7', urn: 'urn:nbn:de:101-1', code: 'bad-check-digit', reason: 'the check digit should be 4' };
 * r.code; // 'bad-check-digit'
 * ```
 */
export interface HarvestRefusal {
  at: number;
  identifier?: string;
  urn?: string;
  code: string;
  reason: string;
}

/**
 * The harvest state of the repositories a store harvests.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * await store.harvestLog.save({ repo: 'r', baseUrl: 'https://repo.example/oai', metadataPrefix: 'epicur', authority: 'urn:nbn:de:101', totals: { harvests: 0, applied: 0, refused: 0 } });
 * (await store.harvestLog.get('r'))?.authority; // 'urn:nbn:de:101'
 * (await store.harvestLog.all()).length; // 1
 * await store.close();
 * ```
 */
export class HarvestLog {
  readonly #db: StoreDb;

  constructor(db: StoreDb) {
    this.#db = db;
  }

  async get(repo: string): Promise<HarvestState | undefined> {
    const row = await this.#db.db.selectFrom('harvest_repositories').select('data').where('repo', '=', repo).executeTakeFirst();
    return row === undefined ? undefined : JSON.parse(row.data) as HarvestState;
  }

  /** Every repository, by key. */
  async all(): Promise<HarvestState[]> {
    const rows = await this.#db.readDb.selectFrom('harvest_repositories').select('data').orderBy('repo').execute();
    return rows.map((r) => JSON.parse(r.data) as HarvestState);
  }

  async save(state: HarvestState): Promise<void> {
    await this.#db.write((w) => this.saveIn(w, state));
  }

  /** Writes the state in a write transaction the caller holds (with the page's names). */
  async saveIn(w: WriteScope, state: HarvestState): Promise<void> {
    const row = { repo: state.repo, data: JSON.stringify(state), updated: Date.now() };
    await w.trx.insertInto('harvest_repositories').values(row).onConflict((oc) => oc.column('repo').doUpdateSet({ data: row.data, updated: row.updated })).execute();
  }

  /** Records refusals in the caller's write transaction. */
  async refuseIn(w: WriteScope, repo: string, refusals: readonly HarvestRefusal[]): Promise<void> {
    for (let i = 0; i < refusals.length; i += 200) {
      await w.trx.insertInto('harvest_refusals').values(refusals.slice(i, i + 200).map((r) => ({
        repo, at: r.at, identifier: r.identifier ?? null, urn: r.urn ?? null, code: r.code, reason: r.reason,
      }))).execute();
    }
  }

  /** Records refusals in a transaction of their own (a response refused as a whole). */
  async refuse(repo: string, refusals: readonly HarvestRefusal[]): Promise<void> {
    await this.#db.write((w) => this.refuseIn(w, repo, refusals));
  }

  /** The newest refusals of a repository, newest first. */
  async refusals(repo: string, limit = 100): Promise<HarvestRefusal[]> {
    const rows = await this.#db.readDb.selectFrom('harvest_refusals').selectAll().where('repo', '=', repo).orderBy('id', 'desc').limit(limit).execute();
    return rows.map((r) => ({ at: Number(r.at), ...(r.identifier !== null ? { identifier: r.identifier } : {}), ...(r.urn !== null ? { urn: r.urn } : {}), code: r.code, reason: r.reason }));
  }

  /**
   * Keeps the newest `keep` refusals of a repository and deletes the
   * older ones: a repository that sends the same bad records at every
   * harvest does not grow the table without end.
   */
  async pruneIn(w: WriteScope, repo: string, keep: number): Promise<void> {
    const edge = await w.trx.selectFrom('harvest_refusals').select('id').where('repo', '=', repo).orderBy('id', 'desc').offset(keep).limit(1).executeTakeFirst();
    if (edge !== undefined) await w.trx.deleteFrom('harvest_refusals').where('repo', '=', repo).where('id', '<=', edge.id).execute();
  }

  /**
   * Takes the lease of `repo` for `holder` until `now + ms`: when no one
   * holds it, its holder's lease has expired, or `holder` holds it already
   * (one conditional upsert, atomic on both engines). Otherwise the lease
   * as another holds it.
   */
  async acquireLease(repo: string, holder: string, now: number, ms: number): Promise<{ acquired: true } | { acquired: false; holder: string; expires: number }> {
    const expires = now + ms;
    let other: { holder: string; expires: number } | undefined;
    // A second try when the holder released it between the two statements.
    for (let attempt = 0; attempt < 2; attempt++) {
      const taken = await this.#db.write((w) => w.trx.insertInto('harvest_leases').values({ repo, holder, expires })
        .onConflict((oc) => oc.column('repo').doUpdateSet({ holder, expires })
          .where((eb) => eb.or([eb('harvest_leases.expires', '<', now), eb('harvest_leases.holder', '=', holder)])))
        .returning('holder').executeTakeFirst());
      if (taken !== undefined) return { acquired: true };
      const row = await this.#db.db.selectFrom('harvest_leases').select(['holder', 'expires']).where('repo', '=', repo).executeTakeFirst();
      if (row !== undefined) { other = { holder: row.holder, expires: Number(row.expires) }; break; }
    }
    return { acquired: false, holder: other?.holder ?? 'another process', expires: other?.expires ?? expires };
  }

  /** Renews `holder`'s lease in the caller's write transaction; false when it holds it no longer (it expired and another took it). */
  async renewLeaseIn(w: WriteScope, repo: string, holder: string, now: number, ms: number): Promise<boolean> {
    const r = await w.trx.updateTable('harvest_leases').set({ expires: now + ms }).where('repo', '=', repo).where('holder', '=', holder).executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Gives the lease up (nothing when another holds it now). */
  async releaseLease(repo: string, holder: string): Promise<void> {
    await this.#db.write((w) => w.trx.deleteFrom('harvest_leases').where('repo', '=', repo).where('holder', '=', holder).execute());
  }

  /** The names the records `identifiers` of `repo` named, in the caller's write transaction. */
  async itemsIn(w: WriteScope, repo: string, identifiers: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (let i = 0; i < identifiers.length; i += 500) {
      const rows = await w.trx.selectFrom('harvest_items').select(['identifier', 'key']).where('repo', '=', repo).where('identifier', 'in', identifiers.slice(i, i + 500)).execute();
      for (const r of rows) out.set(r.identifier, r.key);
    }
    return out;
  }

  /** Records which name each record named, in the caller's write transaction. */
  async putItemsIn(w: WriteScope, repo: string, items: ReadonlyMap<string, string>): Promise<void> {
    const rows = [...items].map(([identifier, key]) => ({ repo, identifier, key }));
    for (let i = 0; i < rows.length; i += 300) {
      await w.trx.insertInto('harvest_items').values(rows.slice(i, i + 300)).onConflict((oc) => oc.columns(['repo', 'identifier']).doUpdateSet((eb) => ({ key: eb.ref('excluded.key') }))).execute();
    }
  }
}
