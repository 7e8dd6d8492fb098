/**
 * The tables of the store, as kysely sees them; migrations.ts makes them,
 * once for both engines.
 */
import type { Generated } from 'kysely';

/** `names`: one row per name, the current record (hot path: one lookup by slot on SQLite, by key on PostgreSQL). */
export interface NamesTable {
  /** SQLite only: the row id, the key's slot (slots.ts) or, for a key whose slot was taken, an id SQLite chose. */
  id?: number | null;
  key: string;
  /** The URN as registered, or '' when it is the key (records.ts `recordToRow`). */
  urn: string;
  status: string;
  /** JSON: locations, metadata, movedTo, permanent, successor, reason. */
  data: string;
  version: number;
  created: number;
  updated: number;
}

/** `history`: every version of every name, append-only; its id is the change feed's seq. */
export interface HistoryTable {
  id: number | undefined;
  key: string;
  version: number;
  op: string;
  at: number;
  actor: string | null;
  /**
   * JSON of the record after the change, less what the columns say
   * (records.ts `historyJson`; rows written before it hold the whole
   * record, and `historyToRecord` reads both).
   */
  record: string;
}

/** `prefix_rules`: partial redirects. */
export interface PrefixRulesTable {
  prefix: string;
  target: string;
  created: number;
  updated: number;
}

/** `tokens`: admin bearer tokens, the secret kept only as its SHA-256. */
export interface TokensTable {
  id: string;
  hash: string;
  authority: string;
  created: number;
  /** When it was revoked (ms since the epoch); null while it is valid. A revoked token stays listed. */
  revoked: number | null;
}

/** `authorities`: the registry behind the reserved requests of 1995 draft §3.5. */
export interface AuthoritiesTable {
  name: string;
  /** JSON of the Authority. */
  data: string;
}

/** `name_links`: every link a name makes to another (it moved there, or names it its successor), by target (store/links.ts). */
export interface NameLinksTable {
  target: string;
  source: string;
  /** `moved` or `successor`. */
  rel: string;
}

/** `link_health`: one row per location URL the link checker has probed (links/health.ts). */
export interface LinkHealthRow {
  /** SHA-256 of the URL, base64url: a key of fixed size (a URL may be longer than an index entry can be). */
  id: string;
  url: string;
  state: string;
  last_check: number;
  next_check: number;
  status: number | null;
  final_url: string | null;
  elapsed_ms: number | null;
  failures: number;
  error: string | null;
  failing_since: number | null;
  /** When `state` last changed (ms): what a resolution answer that depends on the health last changed at. */
  changed: number;
}

/** `resolution_stats` and `resolution_stats_recent`: resolution counts per name, UTC day and service, sums of the counters' flushes. */
export interface ResolutionStatsTable {
  key: string;
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  service: string;
  human: number;
  robot: number;
}

/**
 * `resolution_stats_pending`: the counters' flushes as they came, appended
 * in id order with no index to maintain, and folded into
 * `resolution_stats_recent` later, whose sums are merged into
 * `resolution_stats` (store/resolution-stats.ts); reports read all three.
 */
export interface ResolutionStatsPendingTable extends ResolutionStatsTable {
  id: Generated<number>;
}

/**
 * `names_generation` (SQLite): one row, its `n` raised by every write
 * transaction that changes a name, so that a process's name cache is
 * emptied by another process's change of names, not by every commit (a
 * flush of statistics, a link check).
 */
export interface NamesGenerationTable {
  id: number;
  n: number;
}

/** `mint_counters`: the next counter value of each prefix names are minted under. */
export interface MintCountersTable {
  prefix: string;
  next: number;
}

/**
 * `store_changes`: one row per kind of state that servers keep in memory
 * (link health, the authority registry), its `n` raised by every write
 * transaction that changes it, so that every server reloads it within a
 * poll (store/changes.ts) instead of on a timer of minutes.
 */
export interface StoreChangesTable {
  topic: string;
  n: number;
}

/**
 * `name_key_collisions`: names that became one key under the 1995 draft
 * §2.3.1 case rule when migration 0011 folded the keys of `urn:dns:`
 * names (case-fold-migration.ts): each keeps its old key, none is merged.
 */
export interface NameKeyCollisionsTable {
  /** The key the name is stored under. */
  old_key: string;
  /** The key the case rule gives it, shared with the others of its group. */
  key: string;
}

/** `harvest_repositories`: one row per harvested repository, its state as JSON (store/harvest-log.ts). */
export interface HarvestRepositoriesTable {
  repo: string;
  data: string;
  updated: number;
}

/** `harvest_refusals`: a record (or a response) a harvest refused, and why. */
export interface HarvestRefusalsTable {
  id: Generated<number>;
  repo: string;
  at: number;
  identifier: string | null;
  urn: string | null;
  code: string;
  reason: string;
}

/** `harvest_items`: the name each record of a repository named (its OAI identifier to the name's key). */
export interface HarvestItemsTable {
  repo: string;
  identifier: string;
  key: string;
}

/** `harvest_leases`: which process harvests a repository now, and until when its lease holds (store/harvest-log.ts). */
export interface HarvestLeasesTable {
  repo: string;
  holder: string;
  expires: number;
}

/** The whole database, as kysely sees it. */
export interface Database {
  names: NamesTable;
  name_links: NameLinksTable;
  history: HistoryTable;
  prefix_rules: PrefixRulesTable;
  tokens: TokensTable;
  authorities: AuthoritiesTable;
  link_health: LinkHealthRow;
  resolution_stats: ResolutionStatsTable;
  resolution_stats_recent: ResolutionStatsTable;
  resolution_stats_pending: ResolutionStatsPendingTable;
  names_generation: NamesGenerationTable;
  mint_counters: MintCountersTable;
  store_changes: StoreChangesTable;
  name_key_collisions: NameKeyCollisionsTable;
  harvest_repositories: HarvestRepositoriesTable;
  harvest_refusals: HarvestRefusalsTable;
  harvest_items: HarvestItemsTable;
  harvest_leases: HarvestLeasesTable;
}

/** Which engine a migration is running on. */
export type Engine = 'sqlite' | 'postgres';

