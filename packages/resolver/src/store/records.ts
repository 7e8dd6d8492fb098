/**
 * Conversions between the store's rows and its records, and the equality
 * that makes writes idempotent (a write that changes nothing adds no
 * history).
 */
import type { NamesTable } from './schema.js';
import type { NameInput, NameRecord, NameStatus } from './types.js';

/** The JSON-carried fields of a record, in a fixed order so equal records serialize equally. */
export function recordData(r: NameInput | NameRecord): string {
  const d: Record<string, unknown> = { locations: r.locations ?? [] };
  if (r.metadata !== undefined) d.metadata = r.metadata;
  if (r.movedTo !== undefined) d.movedTo = r.movedTo;
  if (r.permanent !== undefined) d.permanent = r.permanent;
  if (r.successor !== undefined) d.successor = r.successor;
  if (r.reason !== undefined) d.reason = r.reason;
  return JSON.stringify(d);
}

/** A names row back to its record. */
export function rowToRecord(row: NamesTable): NameRecord {
  const d = JSON.parse(row.data) as Partial<NameRecord>;
  const r: NameRecord = {
    key: row.key,
    urn: row.urn,
    status: row.status as NameStatus,
    locations: d.locations ?? [],
    version: Number(row.version),
    created: Number(row.created),
    updated: Number(row.updated),
  };
  if (d.metadata !== undefined) r.metadata = d.metadata;
  if (d.movedTo !== undefined) r.movedTo = d.movedTo;
  if (d.permanent !== undefined) r.permanent = d.permanent;
  if (d.successor !== undefined) r.successor = d.successor;
  if (d.reason !== undefined) r.reason = d.reason;
  return r;
}

/** A record to its names row. */
export function recordToRow(r: NameRecord): NamesTable {
  return { key: r.key, urn: r.urn, status: r.status, data: recordData(r), version: r.version, created: r.created, updated: r.updated };
}

/** The record a write would produce over `current` (undefined: a new name). */
export function nextRecord(key: string, input: NameInput, current: NameRecord | undefined, now: number): NameRecord {
  const r: NameRecord = {
    key,
    urn: input.urn,
    status: input.status ?? 'active',
    locations: input.locations ?? [],
    version: current ? current.version + 1 : 1,
    created: current ? current.created : now,
    updated: now,
  };
  if (input.metadata !== undefined) r.metadata = input.metadata;
  if (input.movedTo !== undefined) r.movedTo = input.movedTo;
  if (input.permanent !== undefined) r.permanent = input.permanent;
  if (input.successor !== undefined) r.successor = input.successor;
  if (input.reason !== undefined) r.reason = input.reason;
  return r;
}

/** True if writing `next` over `current` would change nothing a client can see. */
export function sameContent(current: NameRecord, next: NameRecord): boolean {
  return current.urn === next.urn && current.status === next.status && recordData(current) === recordData(next);
}
