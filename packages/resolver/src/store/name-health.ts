/**
 * The link health of names (the cataloguers' browsing by link health):
 * a name's health is that of its locations, as the link checker last
 * found them (link-health.ts), the worst first. The store keeps health
 * per URL, not per name, so a listing filtered by it reads names in key
 * order and the health of each page's locations in one lookup, up to a
 * bound of names per request; a page may then hold fewer names than asked,
 * with a cursor to go on from.
 */
import type { LinkHealth } from '../links/health.js';
import type { LinkHealthRecords } from './link-health.js';
import type { NameListing } from './listing.js';
import type { NameRecord, NameStatus, Page } from './types.js';

/**
 * The link health of a name: `failing` if one of its locations fails
 * (failing, retry later or blocked), else `unchecked` if one was never
 * checked, else `healthy` (every one answered).
 *
 * @example
 * ```ts
 * const h: NameLinkHealth = 'failing';
 * NAME_LINK_HEALTH.includes(h); // true
 * ```
 */
export type NameLinkHealth = 'healthy' | 'failing' | 'unchecked';

/**
 * The values of {@link NameLinkHealth}, in the order a form offers them.
 *
 * @example
 * ```ts
 * NAME_LINK_HEALTH; // ['healthy', 'failing', 'unchecked']
 * ```
 */
export const NAME_LINK_HEALTH: readonly NameLinkHealth[] = Object.freeze(['healthy', 'failing', 'unchecked']);

/**
 * The link health of `record` from the health of its locations (absent:
 * never checked); undefined for a name that is not active or has no
 * locations: the link checker checks the locations of active names only.
 *
 * @example
 * ```ts
 * const record = { urn: 'urn:ex:a', key: 'urn:ex:a', status: 'active', locations: [{ url: 'https://a.example/' }, { url: 'https://b.example/' }] } as NameRecord;
 * const ok = { ...initialHealth('https://a.example/'), state: 'ok' as const };
 * nameLinkHealth(record, new Map([['https://a.example/', ok]])); // 'unchecked'
 * nameLinkHealth(record, new Map([['https://a.example/', ok], ['https://b.example/', { ...ok, url: 'https://b.example/' }]])); // 'healthy'
 * nameLinkHealth(record, new Map([['https://b.example/', { ...ok, state: 'retry' as const }]])); // 'failing'
 * nameLinkHealth({ ...record, status: 'withdrawn' }, new Map()); // undefined
 * ```
 */
export function nameLinkHealth(record: NameRecord, health: ReadonlyMap<string, LinkHealth>): NameLinkHealth | undefined {
  if (record.status !== 'active' || record.locations.length === 0) return undefined;
  let unchecked = false;
  for (const l of record.locations) {
    const state = health.get(l.url)?.state ?? 'unchecked';
    if (state === 'failing' || state === 'retry' || state === 'blocked') return 'failing';
    if (state === 'unchecked') unchecked = true;
  }
  return unchecked ? 'unchecked' : 'healthy';
}

/** Names read per lookup of their locations' health. */
const SCAN_PAGE = 1000;

/**
 * Names read at most by one filtered listing: a request's cost stays
 * bounded however few names match; the page's cursor goes on from there.
 *
 * @example
 * ```ts
 * SCAN_LIMIT; // 20000
 * ```
 */
export const SCAN_LIMIT = 20_000;

/**
 * The names of a store by link health.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * await store.writer.put('urn:ex:a', { urn: 'urn:ex:a', locations: [{ url: 'https://a.example/' }] });
 * await store.writer.put('urn:ex:b', { urn: 'urn:ex:b', locations: [{ url: 'https://b.example/' }] });
 * await store.linkHealth.put({ ...initialHealth('https://b.example/'), state: 'failing', consecutiveFailures: 1 });
 * (await store.nameHealth.list({ prefix: 'urn:ex:', links: 'failing' })).items.map((r) => r.key); // ['urn:ex:b']
 * [...(await store.nameHealth.of((await store.listing.list()).items))]; // [['urn:ex:a', 'unchecked'], ['urn:ex:b', 'failing']]
 * await store.close();
 * ```
 */
export class NameHealth {
  readonly #listing: NameListing;
  readonly #health: LinkHealthRecords;

  constructor(listing: NameListing, health: LinkHealthRecords) {
    this.#listing = listing;
    this.#health = health;
  }

  /** The link health of each record that has locations, by key. */
  async of(records: readonly NameRecord[]): Promise<Map<string, NameLinkHealth>> {
    const health = await this.#health.getMany(records.flatMap((r) => r.locations.map((l) => l.url)));
    const out = new Map<string, NameLinkHealth>();
    for (const r of records) {
      const h = nameLinkHealth(r, health);
      if (h !== undefined) out.set(r.key, h);
    }
    return out;
  }

  /**
   * Current records under `prefix` (of `status`) whose link health is
   * `links`, in key order, `limit` at a time after the cursor `after`;
   * at most {@link SCAN_LIMIT} names are read, so a page may hold fewer
   * than `limit` records and still have a `next`.
   */
  async list(opts: { links: NameLinkHealth; prefix?: string; after?: string; limit?: number; status?: NameStatus }): Promise<Page<NameRecord>> {
    const limit = Math.max(1, Math.min(opts.limit ?? 100, 10_000));
    const items: NameRecord[] = [];
    let after = opts.after;
    for (let read = 0; read < SCAN_LIMIT;) {
      const page = await this.#listing.list({ ...opts, limit: Math.min(SCAN_PAGE, SCAN_LIMIT - read), ...(after !== undefined ? { after } : {}) });
      read += page.items.length;
      const health = await this.of(page.items);
      for (const r of page.items) {
        if (health.get(r.key) !== opts.links) continue;
        items.push(r);
        // Full: the next page starts after this name, whether or not more of this page match.
        if (items.length === limit) return { items, next: r.key };
      }
      if (page.next === undefined) return { items };
      after = page.next;
    }
    return { items, next: after! };
  }
}
