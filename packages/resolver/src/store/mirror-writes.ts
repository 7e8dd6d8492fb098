/**
 * Writing names as another resolver holds them: a mirror's harvest
 * (docs/resolver.md, "Mirrors"). Each record is taken whole (its version,
 * times and the names pointing at it, as the source's lifecycle made
 * them); the history gets each version with the kind of change the
 * source recorded, or the one the lifecycle gives (lifecycle.ts).
 */
import { noteWritten, type WriteScope } from './db.js';
import type { RowInserter } from './insert.js';
import { LIFECYCLE } from './lifecycle.js';
import { applyLinks } from './links.js';
import { historyJson, recordToRow, rowToRecord } from './records.js';
import type { Engine, HistoryTable, NamesTable } from './schema.js';
import type { ChangeOp, NameRecord } from './types.js';

/**
 * The kind of change a mirrored version is from the one held before, when
 * the source does not say: the lifecycle's (lifecycle.ts `LIFECYCLE`); a
 * transition it refuses in one step was several at the source (versions
 * between two harvests), named by where it ended.
 */
function mirroredOp(cur: NameRecord | undefined, next: NameRecord): ChangeOp {
  if (cur?.status === 'withdrawn' && next.status !== 'withdrawn') return 'reinstate';
  const op = LIFECYCLE[cur?.status ?? 'none'][next.status];
  if (op === 'create' || op === 'update' || op === 'move' || op === 'withdraw' || op === 'reinstate') return op;
  return next.status === 'moved' ? 'move' : next.status === 'withdrawn' ? 'withdraw' : 'update';
}

/**
 * The history row of a change to `next`, whose names row (the same `data`) is `row`.
 *
 * @example
 * ```ts
 * import { recordToRow } from './records.js';
 * const next: NameRecord = { key: 'urn:ex:a', urn: 'urn:ex:a', status: 'active', locations: [], version: 2, created: 1, updated: 5 };
 * historyRow(next, recordToRow(next), 'update', 'tok-1').version; // 2
 * ```
 */
export /** The history row of a change to `next`, whose names row (the same `data`) is `row`. */
function historyRow(next: NameRecord, row: NamesTable, op: ChangeOp, actor: string | undefined): HistoryTable {
  return { id: undefined, key: next.key, version: next.version, op, at: next.updated, actor: actor ?? null, record: historyJson(next, row.data) };
}

/**
 * Writes `records` whole, inside the caller's write transaction (one
 * whose version is not newer than the one held is unchanged: a harvest
 * reads a record again from an inclusive `from`); NameWriter.mirrorIn.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * const r: NameRecord = { key: 'urn:ex:a', urn: 'urn:ex:a', status: 'active', locations: [{ url: 'http://a/' }], version: 4, created: 1000, updated: 2000 };
 * (await store.writer.transaction((w) => store.writer.mirrorIn(w, [r, r], 'mirror'))).created; // 1
 * await store.close();
 * ```
 */
export async function writeMirroredIn(w: WriteScope, via: { engine: Engine; insert: RowInserter }, records: readonly NameRecord[], actor?: string, ops: ReadonlyMap<string, ChangeOp> = new Map()): Promise<{ created: number; updated: number; unchanged: number }> {
  const counts = { created: 0, updated: 0, unchanged: 0 };
  if (records.length === 0) return counts;
  const current = new Map<string, NameRecord>();
  for (let i = 0; i < records.length; i += 500) {
    for (const row of await w.trx.selectFrom('names').selectAll().where('key', 'in', records.slice(i, i + 500).map((r) => r.key)).execute()) current.set(row.key, rowToRecord(row));
  }
  const inserts: NamesTable[] = [];
  const history: HistoryTable[] = [];
  for (const next of records) {
    const cur = current.get(next.key);
    if (cur !== undefined && cur.version >= next.version) { counts.unchanged++; continue; }
    noteWritten(via.engine, w, next.key);
    const row = recordToRow(next);
    if (cur !== undefined) {
      await w.trx.updateTable('names').set(row).where('key', '=', next.key).execute();
      counts.updated++;
    } else {
      inserts.push(row);
      counts.created++;
    }
    await applyLinks(w.trx, [{ key: next.key, before: cur, after: next }]);
    current.set(next.key, next);
    history.push(historyRow(next, row, ops.get(next.key) ?? mirroredOp(cur, next), actor));
  }
  await via.insert.names(w.trx, inserts);
  await via.insert.history(w.trx, history);
  return counts;
}
