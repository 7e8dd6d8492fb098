/**
 * The links between names the store keeps both ways: a name that moved
 * to another URN, or names another its successor, is a predecessor of it
 * (RFC 5829 §3.4 `predecessor-version`; a name that moved there also
 * names the same resource, RFC 2483 I2Ns). The `name_links` table holds
 * every link by its target, so that a name learns of the names pointing
 * at it even when they were written before it existed; the writer folds
 * them into the target's record (`movedFrom`, `predecessors`) inside the
 * same transaction, and the read path costs nothing more.
 */
import type { Kysely } from 'kysely';
import { nameKey } from './keys.js';
import type { Database } from './schema.js';
import type { NameRecord } from './types.js';

/**
 * Why one name points at another: it moved there, or names it its successor.
 *
 * @example
 * ```ts
 * const r: NameRecord = { key: 'urn:ex:a', urn: 'urn:ex:a', status: 'moved', movedTo: 'urn:ex:b', locations: [], version: 2, created: 0, updated: 0 };
 * const rel = [...outLinks(r)][0]!.split('|')[1] as LinkRel;
 * rel; // 'moved'
 * ```
 */
export type LinkRel = 'moved' | 'successor';

/** The canonical key of a URN, or undefined for a URL (or a URN the parser refuses). */
function keyOfUrn(uri: string): string | undefined {
  if (uri.slice(0, 4).toLowerCase() !== 'urn:') return undefined;
  try { return nameKey(uri).key; } catch { return undefined; }
}

/**
 * The links a record makes to other names: `target|rel` strings.
 *
 * @example
 * ```ts
 * const r: NameRecord = { key: 'urn:ex:a', urn: 'urn:ex:a', status: 'moved', movedTo: 'URN:EX:b', successor: 'urn:ex:c',
 *   locations: [], version: 2, created: 0, updated: 0 };
 * [...outLinks(r)]; // ['urn:ex:b|moved', 'urn:ex:c|successor']
 * outLinks(undefined).size; // 0
 * ```
 */
export function outLinks(r: NameRecord | undefined): Set<string> {
  const out = new Set<string>();
  if (!r) return out;
  const moved = r.status === 'moved' && r.movedTo !== undefined ? keyOfUrn(r.movedTo) : undefined;
  if (moved !== undefined && moved !== r.key) out.add(`${moved}|moved`);
  const successor = r.successor !== undefined ? keyOfUrn(r.successor) : undefined;
  if (successor !== undefined && successor !== r.key) out.add(`${successor}|successor`);
  return out;
}

/**
 * What points at a name: the names that moved to it and those that name
 * it their successor, each sorted.
 *
 * @example
 * ```ts
 * const r: NameRecord = { key: 'urn:ex:b', urn: 'urn:ex:b', status: 'active', locations: [], version: 1, created: 0, updated: 0 };
 * const i: Incoming = { movedFrom: ['urn:ex:a'], predecessors: ['urn:ex:0'] };
 * withIncoming(r, i).predecessors; // ['urn:ex:0']
 * ```
 */
export interface Incoming {
  movedFrom: string[];
  predecessors: string[];
}

/**
 * Changes `name_links` for the writes of one transaction (each source's
 * links before and after), and returns the targets whose incoming links
 * changed.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * await store.writer.put('urn:ex:b', { urn: 'urn:ex:b', locations: [{ url: 'http://b.example/' }] });
 * // The writer applies the links of every write in its transaction:
 * await store.writer.put('urn:ex:a', { urn: 'urn:ex:a', status: 'moved', movedTo: 'urn:ex:b' });
 * (await store.names.get('urn:ex:b'))?.movedFrom; // ['urn:ex:a']
 * await store.close();
 * ```
 */
export async function applyLinks(trx: Kysely<Database>, changes: ReadonlyArray<{ key: string; before: NameRecord | undefined; after: NameRecord }>): Promise<Set<string>> {
  const touched = new Set<string>();
  const added: Array<{ target: string; source: string; rel: string }> = [];
  for (const c of changes) {
    const before = outLinks(c.before);
    const after = outLinks(c.after);
    for (const l of before) {
      if (after.has(l)) continue;
      const [target, rel] = l.split('|') as [string, string];
      await trx.deleteFrom('name_links').where('target', '=', target).where('source', '=', c.key).where('rel', '=', rel).execute();
      touched.add(target);
    }
    for (const l of after) {
      if (before.has(l)) continue;
      const [target, rel] = l.split('|') as [string, string];
      added.push({ target, source: c.key, rel });
      touched.add(target);
    }
  }
  for (let i = 0; i < added.length; i += 500) {
    await trx.insertInto('name_links').values(added.slice(i, i + 500)).onConflict((oc) => oc.columns(['target', 'source', 'rel']).doNothing()).execute();
  }
  return touched;
}

/**
 * The incoming links of `keys`, as the transaction sees them.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * // A name learns of the names that pointed at it before it existed:
 * await store.writer.put('urn:ex:a', { urn: 'urn:ex:a', locations: [{ url: 'http://a.example/' }], successor: 'urn:ex:b' });
 * await store.writer.put('urn:ex:b', { urn: 'urn:ex:b', locations: [{ url: 'http://b.example/' }] });
 * (await store.names.get('urn:ex:b'))?.predecessors; // ['urn:ex:a']
 * await store.close();
 * ```
 */
export async function incomingLinks(trx: Kysely<Database>, keys: readonly string[]): Promise<Map<string, Incoming>> {
  const m = new Map<string, Incoming>();
  for (let i = 0; i < keys.length; i += 500) {
    const rows = await trx.selectFrom('name_links').select(['target', 'source', 'rel']).where('target', 'in', keys.slice(i, i + 500)).execute();
    for (const row of rows) {
      let e = m.get(row.target);
      if (!e) m.set(row.target, (e = { movedFrom: [], predecessors: [] }));
      (row.rel === 'moved' ? e.movedFrom : e.predecessors).push(row.source);
    }
  }
  for (const e of m.values()) { e.movedFrom.sort(); e.predecessors.sort(); }
  return m;
}

/**
 * `r` with its incoming links set to `incoming` (none: the fields absent).
 *
 * @example
 * ```ts
 * const r: NameRecord = { key: 'urn:ex:b', urn: 'urn:ex:b', status: 'active', locations: [], version: 1, created: 0, updated: 0 };
 * withIncoming(r, { movedFrom: ['urn:ex:a'], predecessors: [] }).movedFrom; // ['urn:ex:a']
 * withIncoming(r, undefined).movedFrom; // undefined
 * ```
 */
export function withIncoming(r: NameRecord, incoming: Incoming | undefined): NameRecord {
  // Nothing to set or clear (a new name of a bulk import): the record as it is, not a copy.
  if (incoming === undefined && r.movedFrom === undefined && r.predecessors === undefined) return r;
  const out: NameRecord = { ...r };
  delete out.movedFrom;
  delete out.predecessors;
  if (incoming && incoming.movedFrom.length > 0) out.movedFrom = incoming.movedFrom;
  if (incoming && incoming.predecessors.length > 0) out.predecessors = incoming.predecessors;
  return out;
}
