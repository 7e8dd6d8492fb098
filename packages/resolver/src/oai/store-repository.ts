/**
 * The names of a store as an OAI-PMH repository (§2): each name an item
 * whose identifier is its canonical URN and whose datestamp is its last
 * change; withdrawn names are deleted records (§2.5.1, kept forever, as
 * the store keeps every tombstone); reserved names, held but not yet
 * public, are not disseminated. Sets (§2.6) are the naming authorities:
 * `urn:<nid>`, `urn:dns:<host>` for the 1995 draft's names, and
 * `urn:nbn:<country>` for National Bibliography Numbers (RFC 8458 §4.2),
 * each under its parents (`urn:nbn`, `urn`).
 */
import { nameKey } from '../store/keys.js';
import type { HarvestQuery, NameHarvest } from '../store/harvest.js';
import type { NameRecord } from '../store/types.js';
import type { OaiItem } from './formats.js';
import type { OaiListQuery, OaiRepository } from './provider.js';

const NBN_COUNTRY = /^urn:nbn:([a-z]{2})[:-]/i;

/**
 * The set a name is in: its naming authority, for National Bibliography
 * Numbers the country's.
 *
 * @example
 * ```ts
 * setOfKey('urn:nbn:de:101-2020071401'); // 'urn:nbn:de'
 * setOfKey('urn:nbn:fi-fe19981001'); // 'urn:nbn:fi'
 * setOfKey('urn:dns:library.bigstate.edu:aj17-mcc'); // 'urn:dns:library.bigstate.edu'
 * setOfKey('urn:isbn:0451450523'); // 'urn:isbn'
 * ```
 */
export function setOfKey(key: string): string {
  const nbn = NBN_COUNTRY.exec(key);
  if (nbn !== null) return `urn:nbn:${nbn[1]!.toLowerCase()}`;
  return nameKey(key).authority;
}

/** The key ranges of a set and every set below it (a country's NBNs are written `cc:` or `cc-`). */
function setPrefixes(set: string): string[] {
  if (set === 'urn') return [''];
  return /^urn:nbn:[a-z]{2}$/.test(set) ? [`${set}:`, `${set}-`] : [`${set}:`];
}

/** A record as an item. */
function itemOf(r: NameRecord): OaiItem {
  const item: OaiItem = {
    identifier: r.key, datestamp: r.updated, sets: [setOfKey(r.key)], status: r.status,
    locations: r.locations.map((l) => ({ ...l })),
    created: r.created,
  };
  if (r.metadata !== undefined) item.metadata = r.metadata;
  if (r.movedTo !== undefined) item.movedTo = r.movedTo;
  if (r.permanent !== undefined) item.permanent = r.permanent;
  if (r.successor !== undefined) item.successor = r.successor;
  if (r.movedFrom !== undefined) item.movedFrom = r.movedFrom;
  if (r.predecessors !== undefined) item.predecessors = r.predecessors;
  item.version = r.version;
  if (r.reason !== undefined) item.reason = r.reason;
  return item;
}

/**
 * Reserved names are held, not public: a harvester of Dublin Core or
 * epicur does not see them; a format stating every state (a mirror's)
 * does, as `urn+a?list` and `?info` show them.
 */
const SKIP = ['reserved'] as const;

/** How long the list of sets is kept before it is looked for again. */
const SETS_TTL_MS = 60_000;

/**
 * The repository over a store's harvest reads.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * await loadDemoData(store);
 * const repo = new StoreOaiRepository(store.harvest);
 * (await repo.get('URN:ISBN:0451450523'))?.sets; // ['urn:isbn']
 * (await repo.sets()).map((s) => s.spec).includes('urn:dns:library.bigstate.edu'); // true
 * const provider = new OaiProvider(repo, { repositoryName: 'demo', baseUrl: 'http://r.example/oai', adminEmails: ['a@r.example'], pageSize: 100 });
 * (await provider.respond([['verb', 'GetRecord'], ['identifier', 'urn:isbn:0451450523'], ['metadataPrefix', 'oai_dc']])).includes('<dc:identifier>urn:isbn:0451450523</dc:identifier>'); // true
 * await store.close();
 * ```
 */
export class StoreOaiRepository implements OaiRepository {
  #sets: { at: number; list: Array<{ spec: string; name: string }> } | undefined;

  constructor(readonly harvest: NameHarvest, readonly now: () => number = Date.now) {}

  #query(q: Omit<OaiListQuery, 'limit' | 'after'>): Omit<HarvestQuery, 'limit'> {
    return {
      ...(q.everyState === true ? {} : { skip: SKIP }),
      ...(q.from !== undefined ? { from: q.from } : {}),
      ...(q.until !== undefined ? { until: q.until } : {}),
      ...(q.set !== undefined ? { prefixes: setPrefixes(q.set) } : {}),
    };
  }

  async earliestDatestamp(): Promise<number> {
    return (await this.harvest.earliest({ skip: SKIP })) ?? 0;
  }

  async list(q: OaiListQuery): Promise<OaiItem[]> {
    const page = await this.harvest.page({ ...this.#query(q), limit: q.limit, ...(q.after !== undefined ? { after: q.after } : {}) });
    return this.#withChanges(page, q.everyState === true);
  }

  /** The items of `records`; for a format stating every state (a mirror's), each with the kind of change that made its version. */
  async #withChanges(records: readonly NameRecord[], everyState: boolean): Promise<OaiItem[]> {
    const changes = everyState && records.length > 0 ? await this.harvest.changesOf(records) : undefined;
    return records.map((r) => {
      const item = itemOf(r);
      const change = changes?.get(r.key);
      if (change !== undefined) item.change = change;
      return item;
    });
  }

  async count(q: OaiListQuery): Promise<number> {
    return this.harvest.count(this.#query(q));
  }

  async get(identifier: string, everyState = false): Promise<OaiItem | undefined> {
    let key: string;
    try { key = nameKey(identifier).key; } catch { return undefined; }
    const r = await this.harvest.get(key);
    return r === undefined || (r.status === 'reserved' && !everyState) ? undefined : (await this.#withChanges([r], everyState))[0];
  }

  /**
   * The sets there are, each with its parents: one indexed seek per
   * authority (skipping from the first key of one to past its last).
   */
  async sets(): Promise<Array<{ spec: string; name: string }>> {
    if (this.#sets !== undefined && this.now() - this.#sets.at < SETS_TTL_MS) return this.#sets.list;
    const specs = new Set<string>();
    for (let key = await this.harvest.firstKeyAfter(''); key !== undefined;) {
      let set: string;
      try { set = setOfKey(key); } catch { set = 'urn'; }
      set.split(':').forEach((_, i, parts) => specs.add(parts.slice(0, i + 1).join(':')));
      // past every key of this set: its `set:` and (a country's) `set-` names sort before `set:\x7f`
      key = await this.harvest.firstKeyAfter(set === 'urn' ? `${key}` : `${set}:\x7f`);
    }
    const list = [...specs].sort().map((spec) => ({ spec, name: spec === 'urn' ? 'every name' : `names under ${spec}` }));
    this.#sets = { at: this.now(), list };
    return list;
  }
}
