/**
 * The health of every location the link checker has probed (links/), kept
 * in the store so that every resolver process orders locations by it and
 * the report by authority reads it: one row per URL, written after each
 * probe, never on the resolution path.
 */
import { createHash } from 'node:crypto';
import type { LinkHealthStore } from '../links/checker.js';
import type { LinkHealth, LinkState } from '../links/health.js';
import { noteChange } from './changes.js';
import { prefixEnd, type StoreDb } from './db.js';
import { rowToRecord } from './records.js';
import type { LinkHealthRow } from './schema.js';

/** The row id of a URL: its SHA-256, base64url (43 characters whatever the URL's length). */
function urlId(url: string): string {
  return createHash('sha256').update(url).digest('base64url');
}

function toRow(h: LinkHealth): LinkHealthRow {
  // A location first seen healthy has changed nothing any answer shows.
  const changed = h.state === 'ok' ? 0 : h.lastCheck;
  return {
    id: urlId(h.url), url: h.url, state: h.state, last_check: h.lastCheck, next_check: h.nextCheck,
    status: h.status ?? null, final_url: h.finalUrl ?? null, elapsed_ms: h.elapsedMs ?? null,
    failures: h.consecutiveFailures, error: h.error ?? null, failing_since: h.failingSince ?? null, changed,
  };
}

/**
 * A health record as the store keeps it: the checker's record and when its
 * state last changed.
 *
 * @example
 * ```ts
 * const h: StoredLinkHealth = { ...initialHealth('https://a.example/'), changed: 0 };
 * h.state; // 'unchecked'
 * ```
 */
export type StoredLinkHealth = LinkHealth & { changed: number };

function fromRow(r: LinkHealthRow): StoredLinkHealth {
  const h: StoredLinkHealth = {
    url: r.url, state: r.state as LinkState, lastCheck: Number(r.last_check), nextCheck: Number(r.next_check),
    consecutiveFailures: Number(r.failures), changed: Number(r.changed),
  };
  if (r.status !== null) h.status = Number(r.status);
  if (r.final_url !== null) h.finalUrl = r.final_url;
  if (r.elapsed_ms !== null) h.elapsedMs = Number(r.elapsed_ms);
  if (r.error !== null) h.error = r.error;
  if (r.failing_since !== null) h.failingSince = Number(r.failing_since);
  return h;
}

/**
 * One line of the link report: a location of a name and its health
 * (`unchecked` when it was never probed).
 *
 * @example
 * ```ts
 * const line: LinkReportLine = { key: 'urn:ex:a', url: 'https://a.example/', health: initialHealth('https://a.example/') };
 * line.health.state; // 'unchecked'
 * ```
 */
export interface LinkReportLine {
  key: string;
  url: string;
  health: LinkHealth;
}

/** Rows per `in (...)` lookup: far below SQLite's bound-parameter limit. */
const LOOKUP = 500;

/**
 * The link health of a store: the checker's {@link LinkHealthStore}, the
 * set of unhealthy locations resolution orders by, and the report by
 * authority.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * const health: LinkHealthRecords = store.linkHealth;
 * await health.put({ ...initialHealth('https://a.example/'), state: 'failing', consecutiveFailures: 1, lastCheck: 5 });
 * (await health.get('https://a.example/'))?.state; // 'failing'
 * (await health.changedSince(0)).map((h) => h.url); // ['https://a.example/']
 * await store.close();
 * ```
 */
export class LinkHealthRecords implements LinkHealthStore {
  readonly #db: StoreDb;

  constructor(db: StoreDb) {
    this.#db = db;
  }

  /** The health of one URL. */
  async get(url: string): Promise<StoredLinkHealth | undefined> {
    const row = await this.#db.readDb.selectFrom('link_health').selectAll().where('id', '=', urlId(url)).executeTakeFirst();
    return row ? fromRow(row) : undefined;
  }

  /** The health of many URLs at once (those never probed are absent). */
  async getMany(urls: Iterable<string>): Promise<Map<string, StoredLinkHealth>> {
    const ids = [...new Set([...urls].map(urlId))];
    const out = new Map<string, StoredLinkHealth>();
    for (let i = 0; i < ids.length; i += LOOKUP) {
      const rows = await this.#db.readDb.selectFrom('link_health').selectAll().where('id', 'in', ids.slice(i, i + LOOKUP)).execute();
      for (const r of rows) out.set(r.url, fromRow(r));
    }
    return out;
  }

  /** Keeps one probe's result; `changed` moves only when the state does. */
  async put(health: LinkHealth): Promise<void> {
    await this.putMany([health]);
  }

  /** Keeps several results in one transaction. */
  async putMany(records: readonly LinkHealth[]): Promise<void> {
    if (records.length === 0) return;
    // The last record of a URL wins: an upsert may not touch one row twice in a statement.
    const last = [...new Map(records.map((h) => [h.url, h])).values()];
    await this.#db.write(async ({ trx }) => {
      // Servers reload link health when an answer may show the change: a location not healthy, or one that was not.
      let shown = last.some((h) => h.state !== 'ok');
      for (let i = 0; i < last.length; i += LOOKUP) {
        const rows = last.slice(i, i + LOOKUP).map(toRow);
        if (!shown) shown = (await trx.selectFrom('link_health').select('id').where('id', 'in', rows.map((r) => r.id)).where('state', '<>', 'ok').limit(1).execute()).length > 0;
        await trx.insertInto('link_health').values(rows).onConflict((oc) => oc.column('id').doUpdateSet((eb) => ({
          url: eb.ref('excluded.url'), state: eb.ref('excluded.state'), last_check: eb.ref('excluded.last_check'),
          next_check: eb.ref('excluded.next_check'), status: eb.ref('excluded.status'), final_url: eb.ref('excluded.final_url'),
          elapsed_ms: eb.ref('excluded.elapsed_ms'), failures: eb.ref('excluded.failures'), error: eb.ref('excluded.error'),
          failing_since: eb.ref('excluded.failing_since'),
          changed: eb.case().when('link_health.state', '=', eb.ref('excluded.state')).then(eb.ref('link_health.changed')).else(eb.ref('excluded.last_check')).end(),
        }))).execute();
      }
      if (shown) await noteChange(trx, 'link_health');
    });
  }

  /**
   * The locations that resolution must know about: every one not healthy
   * (failing, retry later, blocked), and those whose state changed after
   * `since` (a recovered one: answers that depended on it changed then).
   */
  async changedSince(since: number): Promise<StoredLinkHealth[]> {
    const rows = await this.#db.readDb.selectFrom('link_health').selectAll()
      .where((eb) => eb.or([eb('state', 'in', ['failing', 'retry', 'blocked']), eb('changed', '>', since)]))
      .execute();
    return rows.map(fromRow);
  }

  /** How many locations are in each state (for /metrics). */
  async countByState(): Promise<Record<string, number>> {
    const rows = await this.#db.readDb.selectFrom('link_health').select((eb) => ['state', eb.fn.countAll().as('n')]).groupBy('state').execute();
    return Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
  }

  /**
   * The locations of the active names under `prefix`, with their health,
   * in key order, a page of names at a time after the cursor `after`;
   * `states` keeps only those lines (`unchecked` for a URL never probed).
   */
  async report(opts: { prefix?: string; states?: ReadonlySet<LinkState>; after?: string; names?: number } = {}): Promise<{ lines: LinkReportLine[]; next?: string }> {
    const prefix = opts.prefix ?? '';
    const names = Math.max(1, Math.min(opts.names ?? 500, 10_000));
    let q = this.#db.readDb.selectFrom('names').selectAll().where('key', '>=', prefix).where('key', '<', prefixEnd(prefix)).where('status', '=', 'active');
    if (opts.after !== undefined) q = q.where('key', '>', opts.after);
    const rows = await q.orderBy('key').limit(names + 1).execute();
    const records = rows.slice(0, names).map(rowToRecord);
    const health = await this.getMany(records.flatMap((r) => r.locations.map((l) => l.url)));
    const lines: LinkReportLine[] = [];
    for (const r of records) {
      for (const l of r.locations) {
        const h = health.get(l.url) ?? { url: l.url, state: 'unchecked' as const, lastCheck: 0, nextCheck: 0, consecutiveFailures: 0 };
        if (opts.states === undefined || opts.states.has(h.state)) lines.push({ key: r.key, url: l.url, health: stripChanged(h) });
      }
    }
    return rows.length > names ? { lines, next: records[records.length - 1]!.key } : { lines };
  }
}

function stripChanged(h: LinkHealth & { changed?: number }): LinkHealth {
  const { changed: _changed, ...rest } = h;
  return rest;
}
