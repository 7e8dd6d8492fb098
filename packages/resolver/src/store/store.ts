/**
 * A store of names: the parts of an open store, composed. Each part is
 * its own module over the same connections (db.ts): the read of the
 * resolution hot path (reader.ts, one implementation per engine, the name
 * cache optional behind the same interface), the writes with the
 * lifecycle of a name (writer.ts, lifecycle.ts), listing, history,
 * partial-redirect rules, the authority registry, admin tokens, and what
 * the link checker, the statistics counter and the minter keep.
 *
 * ```
 *                 resolution                         admin API, import, CLI
 *                     |                                         |
 *              NameReader.get(key)             NameWriter  NameListing  NameHistory
 *             /                   \            (lifecycle) PrefixRules  Authorities
 *   CachedNameReader        PostgresNameReader             TokenTable   LinkHealthRecords
 *    (name cache)            TurnBatcher: a turn's names   ResolutionStats  NameMinter
 *        |                   in one statement                   |
 *        |                                         StoreDb.write(): one transaction,
 *   SqliteNameReader          CheckedNameCache      the write lock taken up front
 *        |                    or tableBatches        /                        \
 *   sqlite.ts rows           (replica.ts: replica  sqlite.ts (BEGIN IMMEDIATE)  postgres.ts (advisory lock)
 *   (read connection)         reads, own writes on the primary)
 * ```
 */
import { AuthorityRegistry } from './authorities.js';
import { StoreChanges } from './changes.js';
import type { AvailabilitySnapshot, StoreAvailability } from './availability.js';
import { CachedNameReader, type NameCacheControl } from './cached-reader.js';
import type { StoreDb } from './db.js';
import { NameHarvest } from './harvest.js';
import { HarvestLog } from './harvest-log.js';
import { NameHistory } from './history.js';
import { LinkHealthRecords } from './link-health.js';
import { NameListing } from './listing.js';
import { NameMinter } from './minter.js';
import { NameHealth } from './name-health.js';
import { PrefixRules } from './prefix-rules.js';
import { KyselyNameReader, type NameReader } from './reader.js';
import type { PgEndpoint } from './postgres-pool.js';
import type { ReplicaLag, ReplicaMonitor } from './replica.js';
import { ResolutionStats } from './resolution-stats.js';
import { StoreSettings } from './settings.js';
import type { Engine } from './schema.js';
import type { SqliteRows } from './sqlite.js';
import { SqliteNameReader } from './sqlite-reader.js';
import { TokenTable } from './tokens.js';
import { NameWriter } from './writer.js';

/**
 * An open store: its parts, each a module of its own. Open one with
 * {@link openStore}.
 *
 * @example
 * ```ts
 * const store: Store = await openStore(':memory:');
 * await store.writer.put('urn:ex:a', { urn: 'urn:ex:a', locations: [{ url: 'https://example.org/a' }] });
 * (await store.names.get('urn:ex:a'))?.locations[0]?.url; // 'https://example.org/a'
 * await store.listing.count(); // 1
 * await store.close();
 * ```
 */
export interface Store {
  readonly engine: Engine;
  /** The resolution read. */
  readonly names: NameReader;
  /** The name cache in front of `names`, when there is one (SQLite files and PostgreSQL opened with `nameCacheBytes`). */
  readonly nameCache: NameCacheControl | undefined;
  /** PostgreSQL with a streaming replica (`OpenStoreOptions.replica`): how far behind the primary it is, measured. */
  readonly replica: ReplicaLag | undefined;
  readonly writer: NameWriter;
  /** Minting the next free name under a prefix, in the write's transaction. */
  readonly minter: NameMinter;
  readonly listing: NameListing;
  readonly history: NameHistory;
  readonly prefixRules: PrefixRules;
  readonly authorities: AuthorityRegistry;
  readonly tokens: TokenTable;
  /** The health of the locations, as the link checker found it. */
  readonly linkHealth: LinkHealthRecords;
  /** The names by the health of their locations (browsing by link health). */
  readonly nameHealth: NameHealth;
  /** The names in the order of their changes, for harvesters (OAI-PMH). */
  readonly harvest: NameHarvest;
  /** What the OAI-PMH harvester keeps of the repositories it harvests. */
  readonly harvestLog: HarvestLog;
  /** Resolution counts per name, day and service. */
  readonly stats: ResolutionStats;
  /** The counters of what servers keep in memory (link health, authorities), raised by every process's writes. */
  readonly changes: StoreChanges;
  /** Values every process of the store shares, each made once (the key of OAI-PMH resumption tokens). */
  readonly settings: StoreSettings;
  /** Answers a trivial query: the engine is up (and the replica it reads from, if any). */
  ping(): Promise<void>;
  /** Which parts of the store answer, as the last statements found (availability.ts). */
  readonly availability: StoreAvailability;
  /**
   * Asks every part of the store a trivial query (each given `timeoutMs`),
   * then says which answer, where resolution reads go, and what the
   * store's faults have cost so far: what `/healthz` and `/metrics` show.
   */
  check(timeoutMs?: number): Promise<StoreCheck>;
  /** What the faults of the store have cost so far, without asking it anything. */
  faultCounts(): StoreFaultCounts;
  /** Closes the connections. */
  close(): Promise<void>;
}

/**
 * What the faults of a store have cost so far: idle connections the
 * server ended, reads sent again after their connection died, and
 * batches of resolution reads the name cache answered alone while the
 * database was away.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * store.faultCounts(); // { lostConnections: 0, retriedReads: 0, staleBatches: 0 }
 * await store.close();
 * ```
 */
export interface StoreFaultCounts {
  lostConnections: number;
  retriedReads: number;
  staleBatches: number;
}

/**
 * A store's parts as {@link Store.check} found them: which answer (each
 * asked within the time given), and where resolution reads go now
 * (`replica`, `primary`, or `cache` when neither answers).
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * const c: StoreCheck = await store.check();
 * [c.primary.up, c.reads, c.writes]; // [true, 'primary', 'ok']
 * await store.close();
 * ```
 */
export interface StoreCheck extends AvailabilitySnapshot {
  reads: 'primary' | 'replica' | 'cache';
}

/** A promise's outcome, or `timeout` after `ms`. */
async function within(p: Promise<unknown>, ms: number): Promise<'ok' | 'failed' | 'timeout'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'timeout'>((r) => { timer = setTimeout(() => r('timeout'), ms); });
  try {
    return await Promise.race([p.then(() => 'ok' as const, () => 'failed' as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The resolution read of an open store: its reader, the name cache in
 * front of it if any, the replica it reads from if any, and what to close.
 */
export interface ReadPath {
  names: NameReader;
  nameCache?: NameCacheControl & { readonly staleBatches?: number };
  replica?: ReplicaMonitor;
  /** PostgreSQL: the servers of the store (their counts of faults). */
  endpoints?: readonly PgEndpoint[];
  close?(): void;
}

/**
 * SQLite's read path: `rows` are the hot-path statements (sqlite.ts; none
 * on `:memory:`, whose reads go through kysely), `nameCacheBytes` > 0
 * puts the name cache in front.
 */
export function sqliteReadPath(db: StoreDb, rows: SqliteRows | undefined, nameCacheBytes: number): ReadPath {
  if (!rows) return { names: new KyselyNameReader(db) };
  const sqlite = new SqliteNameReader(rows);
  const cached = nameCacheBytes > 0 ? new CachedNameReader(sqlite, nameCacheBytes) : undefined;
  // After a write of this process: a read from now on sees it (a new snapshot, its names out of the cache).
  db.onWrite((keys, committed, many) => {
    sqlite.endTurn();
    cached?.forget(keys, committed, many);
  });
  return {
    names: cached ?? sqlite,
    ...(cached ? { nameCache: cached } : {}),
    close() {
      cached?.close();
      sqlite.endTurn();
    },
  };
}

/** The store over open connections and its read path. */
export function composeStore(db: StoreDb, read: ReadPath): Store {
  const writer = new NameWriter(db);
  const listing = new NameListing(db);
  const linkHealth = new LinkHealthRecords(db);
  const stats = new ResolutionStats(db);
  return {
    engine: db.engine,
    names: read.names,
    nameCache: read.nameCache,
    replica: read.replica?.lag,
    writer,
    minter: new NameMinter(db, writer),
    listing,
    history: new NameHistory(db),
    prefixRules: new PrefixRules(db),
    authorities: new AuthorityRegistry(db),
    tokens: new TokenTable(db),
    linkHealth,
    nameHealth: new NameHealth(listing, linkHealth),
    harvest: new NameHarvest(db),
    harvestLog: new HarvestLog(db),
    stats,
    changes: new StoreChanges(db),
    settings: new StoreSettings(db),
    async ping() {
      await db.readDb.selectFrom('names').select('key').limit(1).execute();
      await read.replica?.ping();
    },
    availability: db.availability,
    async check(timeoutMs = 2000) {
      const [primary, replica] = await Promise.all([
        within(db.readDb.selectFrom('names').select('key').limit(1).execute(), timeoutMs),
        read.replica !== undefined ? within(read.replica.ping(), timeoutMs) : Promise.resolve('ok'),
      ]);
      const snapshot = db.availability.snapshot();
      // A server that did not answer in time is away for this check, whatever its last statement found.
      if (primary === 'timeout') snapshot.primary.up = false;
      if (replica === 'timeout' && snapshot.replica !== undefined) snapshot.replica.up = false;
      const reads = read.replica?.readingReplica === true && snapshot.replica?.up === true ? 'replica' : snapshot.primary.up ? 'primary' : 'cache';
      return { ...snapshot, reads };
    },
    faultCounts() {
      const counts = { lostConnections: 0, retriedReads: 0, staleBatches: read.nameCache?.staleBatches ?? 0 };
      for (const e of read.endpoints ?? []) {
        counts.lostConnections += e.lostConnections;
        counts.retriedReads += e.retriedReads;
      }
      return counts;
    },
    async close() {
      read.close?.();
      await stats.close();
      await db.close();
    },
  };
}
