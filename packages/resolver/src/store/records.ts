/**
 * Conversions between the store's rows and its records, and the equality
 * that makes writes idempotent (a write that changes nothing adds no
 * history).
 */
import type { HistoryTable, NamesTable } from './schema.js';
import { nameKey } from './keys.js';
import type { NameInput, NameRecord, NameStatus } from './types.js';

/** The optional fields a record takes from its input and keeps in its JSON data, in a fixed order. */
const OPTIONAL_FIELDS = ['metadata', 'movedTo', 'permanent', 'successor', 'reason'] as const;
/** The fields the writer keeps from other names' links (links.ts), after those, in a fixed order: never from an input. */
const LINK_FIELDS = ['movedFrom', 'predecessors'] as const;

/** Copies the link fields set in `from` onto `to`. */
function copyLinks(from: Partial<NameRecord>, to: Partial<NameRecord>): void {
  for (const f of LINK_FIELDS) {
    if (from[f] !== undefined) to[f] = from[f];
  }
}

/** Copies the optional fields that are set in `from` onto `to`. */
function copyOptional(from: Partial<NameInput>, to: Partial<NameInput>): void {
  for (const f of OPTIONAL_FIELDS) {
    if (from[f] !== undefined) (to as Record<string, unknown>)[f] = from[f];
  }
}

/** The JSON-carried fields of a record, in a fixed order so equal records serialize equally. */
export function recordData(r: NameInput | NameRecord): string {
  const d: Partial<NameRecord> = { locations: r.locations ?? [] };
  copyOptional(r, d);
  copyLinks(r as Partial<NameRecord>, d);
  return JSON.stringify(d);
}

/** A names row back to its record. */
export function rowToRecord(row: NamesTable): NameRecord {
  const d = JSON.parse(row.data) as Partial<NameRecord>;
  const r: NameRecord = {
    key: row.key,
    urn: row.urn === '' ? row.key : row.urn,
    status: row.status as NameStatus,
    locations: d.locations ?? [],
    version: Number(row.version),
    created: Number(row.created),
    updated: Number(row.updated),
  };
  copyOptional(d, r);
  copyLinks(d, r);
  return r;
}

/**
 * The JSON a history row keeps of a record: only what its columns do not
 * already say. `key`, `version` and `updated` (= `at`) are columns; `urn`
 * is left out when it is the key, `created` when it is `updated` (a
 * first version). A bulk import of 50 million names writes one history
 * row per name, so the history is half of the store: the full record
 * made it about 270 bytes a row, this about 120. `data` is
 * {@link recordData} of the record (the names row's, computed once).
 * Rows written before keep the whole record, which {@link
 * historyToRecord} reads as well.
 *
 * @example
 * ```ts
 * const r = { key: 'urn:ex:a', urn: 'urn:ex:a', status: 'active' as const, locations: [], version: 1, created: 5, updated: 5 };
 * historyJson(r, recordData(r)); // '{"status":"active","locations":[]}'
 * historyJson({ ...r, urn: 'URN:EX:a', version: 2, updated: 9 }, recordData(r)); // '{"urn":"URN:EX:a","status":"active","created":5,"locations":[]}'
 * ```
 */
export function historyJson(r: NameRecord, data: string): string {
  let head = '{';
  if (r.urn !== r.key) head += `"urn":${JSON.stringify(r.urn)},`;
  head += `"status":${JSON.stringify(r.status)},`;
  if (r.created !== r.updated) head += `"created":${r.created},`;
  return head + data.slice(1);
}

/**
 * The record a history row keeps, whole again: {@link historyJson}'s
 * JSON with the columns it leaves out, or (rows written before it) the
 * whole record's JSON.
 *
 * @example
 * ```ts
 * historyToRecord({ id: 1, key: 'urn:ex:a', version: 1, op: 'create', at: 5, actor: null, record: '{"status":"active","locations":[]}' });
 * // { key: 'urn:ex:a', urn: 'urn:ex:a', status: 'active', locations: [], version: 1, created: 5, updated: 5 }
 * ```
 */
export function historyToRecord(row: HistoryTable): NameRecord {
  const d = JSON.parse(row.record) as Partial<NameRecord>;
  const at = Number(row.at);
  const r: NameRecord = {
    key: row.key,
    urn: d.urn ?? row.key,
    status: d.status as NameStatus,
    locations: d.locations ?? [],
    version: Number(row.version),
    created: d.created ?? at,
    updated: d.updated ?? at,
  };
  copyOptional(d, r);
  copyLinks(d, r);
  return r;
}

/** A record as the input that would write it again (the base of a move or a withdrawal). */
export function recordToInput(r: NameRecord): NameInput {
  const i: NameInput = { urn: r.urn, status: r.status, locations: r.locations };
  copyOptional(r, i);
  return i;
}

/**
 * A record to its names row. A URN registered in its canonical form (the
 * key, as most are) is kept as '' beside the key, not a second copy:
 * about 14% of a row of `names`, the table every resolution reads. A
 * name's URN is never empty (validate.ts), and rows written before keep
 * the URN whole; {@link rowToRecord} reads both.
 *
 * @example
 * ```ts
 * const r = { key: 'urn:ex:a', urn: 'urn:ex:a', status: 'active' as const, locations: [], version: 1, created: 5, updated: 5 };
 * recordToRow(r).urn; // ''
 * recordToRow({ ...r, urn: 'URN:EX:a' }).urn; // 'URN:EX:a'
 * rowToRecord(recordToRow(r)).urn; // 'urn:ex:a'
 * ```
 */
export function recordToRow(r: NameRecord): NamesTable {
  return { key: r.key, urn: r.urn === r.key ? '' : r.urn, status: r.status, data: recordData(r), version: r.version, created: r.created, updated: r.updated };
}

/** The record a write would produce over `current` (undefined: a new name); the links other names make to it stay as they were. */
export function nextRecord(key: string, input: NameInput, current: NameRecord | undefined, now: number): NameRecord {
  const r: NameRecord = {
    key,
    urn: registeredSpelling(input.urn, current),
    status: input.status ?? 'active',
    locations: input.locations ?? [],
    version: current ? current.version + 1 : 1,
    created: current ? current.created : now,
    updated: now,
  };
  copyOptional(input, r);
  if (current) copyLinks(current, r);
  return r;
}

/**
 * The URN a write keeps: the spelling the name was registered with when
 * `urn` differs from it only where the key folds case and the ElementID
 * is spelled alike (keys.ts: the scheme, the NID, a DNS AuthorityID);
 * else `urn`, which the lifecycle refuses as a case variant when its
 * ElementID is spelled otherwise (lifecycle.ts).
 */
function registeredSpelling(urn: string, current: NameRecord | undefined): string {
  if (current === undefined || current.urn === urn) return urn;
  return nameKey(current.urn).spelling === nameKey(urn).spelling ? current.urn : urn;
}

/** True if writing `next` over `current` would change nothing a client can see. */
export function sameContent(current: NameRecord, next: NameRecord): boolean {
  return current.urn === next.urn && current.status === next.status && recordData(current) === recordData(next);
}
