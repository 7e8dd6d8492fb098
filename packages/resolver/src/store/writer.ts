/**
 * Writing names: every change of a name is one transaction that checks
 * the lifecycle (lifecycle.ts), updates the name's current row and
 * appends the whole new record to the history, which is also the change
 * feed. A write that changes nothing adds no history.
 */
import { CompiledQuery, type Kysely } from 'kysely';
import { noteWritten, type StoreDb, type WriteScope } from './db.js';
import { RowInserter } from './insert.js';
import { chainTooLong, checkStatedStatus, checkTransition, LifecycleError, type ChainReader } from './lifecycle.js';
import { applyLinks, incomingLinks, withIncoming, type Incoming } from './links.js';
import { historyToRecord, nextRecord, recordData, recordToInput, recordToRow, rowToRecord, sameContent } from './records.js';
import type { Database, HistoryTable, NamesTable } from './schema.js';
import { NameStaging } from './staging.js';
import { requirePrecondition, type Precondition } from './precondition.js';
import { historyRow, writeMirroredIn } from './mirror-writes.js';
import type { ChangeOp, NameInput, NameRecord } from './types.js';

/**
 * The result of a write: the record now stored and whether anything
 * changed (a write that changes nothing adds no history).
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * const input = { urn: 'urn:ex:a', locations: [{ url: 'https://example.org/a' }] };
 * const w: WriteResult = await store.writer.put('urn:ex:a', input);
 * w.op; // 'create'
 * (await store.writer.put('urn:ex:a', input)).op; // 'unchanged'
 * await store.close();
 * ```
 */
export interface WriteResult {
  record: NameRecord;
  op: ChangeOp | 'unchanged';
}

/**
 * What one batch of a bulk write did: counts, and the names the
 * lifecycle refused (nothing of the batch should then be kept: the caller
 * rolls the whole transaction back).
 *
 * @example
 * ```ts
 * const r: BatchResult = { created: 2, updated: 0, unchanged: 1, refused: [] };
 * r.created + r.updated + r.unchanged; // 3
 * ```
 */
export interface BatchResult {
  created: number;
  updated: number;
  unchanged: number;
  refused: LifecycleError[];
}

/**
 * Writes batches of names inside one transaction (see
 * {@link NameWriter.bulk}).
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * const r = await store.writer.bulk((batch: BulkWriter) => batch.write([{ key: 'urn:ex:a', input: { urn: 'urn:ex:a' } }]));
 * r.created; // 1
 * await store.close();
 * ```
 */
export interface BulkWriter {
  write(batch: Array<{ key: string; input: NameInput }>, actor?: string): Promise<BatchResult>;
}

/** The current record of `key` as the write transaction sees it. */
async function currentRecord(db: StoreDb, trx: Kysely<Database>, key: string): Promise<NameRecord | undefined> {
  let q = trx.selectFrom('names').selectAll().where('key', '=', key);
  if (db.engine === 'postgres') q = q.forUpdate();
  const row = await q.executeTakeFirst();
  return row ? rowToRecord(row) : undefined;
}

/** Pages of SQLite's cache during a bulk import, in KiB (1 GiB). */
const BULK_CACHE_KIB = 1 << 20;

/** True if a record or input points at another name, or may: a move, a successor. */
function linksOthers(r: Partial<NameInput>): boolean {
  return r.status === 'moved' || r.movedTo !== undefined || r.successor !== undefined;
}


/**
 * The writes of a store: create or replace, move, withdraw, reinstate,
 * and bulk writes in one transaction.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * const writer: NameWriter = store.writer;
 * await writer.put('urn:ex:a', { urn: 'urn:ex:a', locations: [{ url: 'http://a/' }] });
 * (await writer.withdraw('urn:ex:a', { reason: 'retracted' }))?.record.status; // 'withdrawn'
 * await writer.put('urn:ex:a', { urn: 'urn:ex:a', status: 'active', locations: [{ url: 'http://b/' }] }); // throws LifecycleError withdrawn-name
 * (await writer.reinstate('urn:ex:a'))?.record.locations; // [{ url: 'http://a/' }]
 * await store.close();
 * ```
 */
export class NameWriter {
  readonly #db: StoreDb;
  readonly #insert: RowInserter;
  readonly #ownUrls = new Set<(url: string) => string | undefined>();

  constructor(db: StoreDb) {
    this.#db = db;
    this.#insert = new RowInserter(db.engine);
  }

  /**
   * Tells the cycle check how to read this resolver's own URLs: `ownUrn`
   * gives the URN a URL at one of a server's origins asks for (a move
   * there is a move to that name, lifecycle.ts `ChainReader`). Each server
   * on the store adds its own, and removes it (the function returned)
   * when it closes.
   */
  addOwnUrls(ownUrn: (url: string) => string | undefined): () => void {
    this.#ownUrls.add(ownUrn);
    return () => { this.#ownUrls.delete(ownUrn); };
  }

  /** The URN a URL of any server on this store asks for. */
  readonly #ownUrn = (url: string): string | undefined => {
    for (const f of this.#ownUrls) {
      const urn = f(url);
      if (urn !== undefined) return urn;
    }
    return undefined;
  };

  /** What the lifecycle reads of other names inside the write transaction `w`; `lookup` may see names not written yet. */
  #chain(w: WriteScope, lookup: (key: string) => Promise<NameRecord | undefined> = (k) => currentRecord(this.#db, w.trx, k)): ChainReader {
    return {
      lookup,
      movedHere: async (keys) => {
        const out = new Map<string, string[]>();
        for (let i = 0; i < keys.length; i += 500) {
          const rows = await w.trx.selectFrom('name_links').select(['target', 'source']).where('target', 'in', keys.slice(i, i + 500)).where('rel', '=', 'moved').execute();
          for (const r of rows) out.set(r.target, [...(out.get(r.target) ?? []), r.source]);
        }
        return out;
      },
      ...(this.#ownUrls.size > 0 ? { ownUrn: this.#ownUrn } : {}),
    };
  }

  /**
   * Creates or replaces a name with a whole record; throws {@link
   * LifecycleError} for a transition the lifecycle refuses, and for a
   * record without a status over a name that is not active (its status
   * never changes implicitly: `status-not-stated`).
   */
  async put(key: string, input: NameInput, actor?: string, precondition?: Precondition): Promise<WriteResult> {
    return this.#db.write((w) => this.putIn(w, key, input, actor, precondition));
  }

  /**
   * {@link put} inside a write transaction the caller holds (minting: the
   * counter and the new name are written in the same transaction).
   */
  async putIn(w: WriteScope, key: string, input: NameInput, actor?: string, precondition?: Precondition): Promise<WriteResult> {
    const current = await currentRecord(this.#db, w.trx, key);
    requirePrecondition(key, current, precondition);
    checkStatedStatus(current, input);
    return this.#commit(w, current, nextRecord(key, input, current, Date.now()), actor);
  }

  /** Moves an existing name to a URN or URL; undefined if the name is unknown. */
  async move(key: string, move: { to: string; permanent?: boolean; reason?: string }, actor?: string, precondition?: Precondition): Promise<WriteResult | undefined> {
    const patch: Partial<NameInput> = { status: 'moved', movedTo: move.to, permanent: move.permanent === true, ...(move.reason !== undefined ? { reason: move.reason } : {}) };
    return this.change(key, (cur) => ({ ...recordToInput(cur), ...patch }), actor, precondition);
  }

  /** Withdraws an existing name: its tombstone keeps the reason and the date; undefined if the name is unknown. */
  async withdraw(key: string, opts: { reason?: string } = {}, actor?: string, precondition?: Precondition): Promise<WriteResult | undefined> {
    return this.change(key, (cur) => ({ ...recordToInput(cur), status: 'withdrawn', ...(opts.reason !== undefined ? { reason: opts.reason } : {}) }), actor, precondition);
  }

  /**
   * Brings a withdrawn name back to the record it had before it was
   * withdrawn (the same resource, never another), recorded in the history
   * as `reinstate`; undefined if the name is unknown.
   */
  async reinstate(key: string, opts: { reason?: string } = {}, actor?: string, precondition?: Precondition): Promise<WriteResult | undefined> {
    return this.#db.write(async (w) => {
      const current = await currentRecord(this.#db, w.trx, key);
      if (!current) return undefined;
      requirePrecondition(key, current, precondition);
      if (current.status !== 'withdrawn') throw new LifecycleError('not-withdrawn', key, current.status, 'active');
      const before = await w.trx.selectFrom('history').selectAll().where('key', '=', key).where('op', '!=', 'withdraw').orderBy('version', 'desc').limit(1).executeTakeFirst();
      const prior = before ? historyToRecord(before) : undefined;
      if (!prior || prior.status === 'withdrawn') throw new LifecycleError('nothing-to-reinstate', key, 'withdrawn', 'active');
      const input = { ...recordToInput(prior), ...(opts.reason !== undefined ? { reason: opts.reason } : {}) };
      return this.#commit(w, current, nextRecord(key, input, current, Date.now()), actor, true);
    });
  }

  /**
   * Applies `change` to the current record of an existing name, read in
   * the write transaction (a partial edit: what `change` does not set
   * stays as the transaction found it), checked by the lifecycle as any
   * write is; undefined if the name is unknown. `change` may throw (a
   * patch that makes an invalid record): nothing is written.
   *
   * @example
   * ```ts
   * import { recordToInput } from './records.js';
   * const store = await openStore(':memory:');
   * await store.writer.put('urn:ex:a', { urn: 'urn:ex:a', locations: [{ url: 'http://a/' }], successor: 'urn:ex:b' });
   * const r = await store.writer.change('urn:ex:a', (cur) => ({ ...recordToInput(cur), metadata: { title: 'A' } }));
   * r?.record.successor; // 'urn:ex:b'
   * await store.close();
   * ```
   */
  async change(key: string, change: (current: NameRecord) => NameInput, actor?: string, precondition?: Precondition): Promise<WriteResult | undefined> {
    return this.#db.write(async (w) => {
      const current = await currentRecord(this.#db, w.trx, key);
      if (!current) return undefined;
      requirePrecondition(key, current, precondition);
      return this.#commit(w, current, nextRecord(key, change(current), current, Date.now()), actor);
    });
  }

  async #commit(w: WriteScope, current: NameRecord | undefined, next: NameRecord, actor: string | undefined, reinstate = false): Promise<WriteResult> {
    if (current && sameContent(current, next)) return { record: current, op: 'unchanged' };
    const op = await checkTransition(current, next, this.#chain(w), reinstate);
    // A new name learns of the names that pointed at it before it existed,
    // and a reinstated one of those that came while it was withdrawn (links.ts).
    const record = current && !reinstate ? next : withIncoming(next, (await incomingLinks(w.trx, [next.key])).get(next.key));
    noteWritten(this.#db.engine, w, record.key);
    const row = recordToRow(record);
    if (current) await w.trx.updateTable('names').set(row).where('key', '=', record.key).execute();
    else await this.#insert.names(w.trx, [row]);
    await this.#insert.history(w.trx, [historyRow(record, row, op, actor)]);
    const touched = await applyLinks(w.trx, [{ key: record.key, before: current, after: record }]);
    const tooLong = record.status === 'moved' ? await chainTooLong([record.key], this.#chain(w)) : undefined;
    if (tooLong) throw tooLong;
    await this.#relinkTargets(w, touched, new Set([record.key]), actor, record.updated);
    return { record, op };
  }

  /**
   * Brings the lists of the names other names point at (`targets`, less
   * those this write wrote itself) up to date: each one that changes is a
   * new version with its history row, as any change of what a client sees
   * (its `Link` fields) is. A withdrawn name is left as it was withdrawn:
   * after a withdrawal only a reinstatement is a version of it, and that
   * one takes up the links made in the meantime ({@link #commit}).
   */
  async #relinkTargets(w: WriteScope, targets: ReadonlySet<string>, written: ReadonlySet<string>, actor: string | undefined, now: number): Promise<void> {
    const keys = [...targets].filter((k) => !written.has(k));
    if (keys.length === 0) return;
    const incoming = await incomingLinks(w.trx, keys);
    const history: HistoryTable[] = [];
    for (let i = 0; i < keys.length; i += 500) {
      let q = w.trx.selectFrom('names').selectAll().where('key', 'in', keys.slice(i, i + 500));
      if (this.#db.engine === 'postgres') q = q.forUpdate();
      for (const row of await q.execute()) {
        const current = rowToRecord(row);
        if (current.status === 'withdrawn') continue;
        const linked = withIncoming(current, incoming.get(current.key));
        if (recordData(linked) === recordData(current)) continue;
        const next: NameRecord = { ...linked, version: current.version + 1, updated: now };
        noteWritten(this.#db.engine, w, next.key);
        const nextRow = recordToRow(next);
        await w.trx.updateTable('names').set(nextRow).where('key', '=', next.key).execute();
        history.push(historyRow(next, nextRow, 'update', actor));
      }
    }
    await this.#insert.history(w.trx, history);
  }

  /**
   * Runs `fn` in one write transaction, all or nothing (bulk import): it
   * writes batches of names with multi-row statements, each checked by the
   * lifecycle as a single write would be, against the store and the names
   * written before it in the same transaction. `distinctKeys`: the
   * caller never writes a key twice in it (an import refuses a name that
   * comes twice), which lets SQLite hold the new names back and write
   * them in slot order at the end (staging.ts), with a larger page cache.
   */
  async bulk<T>(fn: (batch: BulkWriter) => Promise<T>, opts: { distinctKeys?: boolean } = {}): Promise<T> {
    if (this.#db.engine !== 'sqlite' || opts.distinctKeys !== true) {
      return this.#db.write((w) => fn({ write: (batch, actor) => this.#writeBatch(w, batch, actor) }));
    }
    return this.#db.write(async (w) => {
      const pragma = async (text: string) => (await w.trx.executeQuery<{ cache_size: number }>(CompiledQuery.raw(text))).rows[0];
      const cacheSize = (await pragma('pragma cache_size'))!.cache_size;
      // 1 GiB of pages for the B-trees (not transactional: set back below); the sorts of the end take less (staging.ts).
      await pragma(`pragma cache_size = ${Math.min(cacheSize, -BULK_CACHE_KIB)}`);
      try {
        const stage = new NameStaging();
        await stage.begin(w.trx);
        const out = await fn({ write: (batch, actor) => this.#writeBatch(w, batch, actor, stage) });
        await stage.finish(w.trx);
        return out;
      } finally {
        await pragma(`pragma cache_size = ${cacheSize}`);
      }
    });
  }

  /**
   * Runs `fn` in one write transaction, all or nothing, for writes that
   * go with other state ({@link putIn}, {@link writeBatchIn} beside a
   * harvest's position, written together).
   */
  async transaction<T>(fn: (w: WriteScope) => Promise<T>): Promise<T> {
    return this.#db.write(fn);
  }

  /**
   * Writes records as another resolver holds them, whole, inside a write
   * transaction the caller holds: a mirror's harvest (mirror-writes.ts).
   *
   * @example
   * ```ts
   * const store = await openStore(':memory:');
   * const r: NameRecord = { key: 'urn:ex:a', urn: 'urn:ex:a', status: 'active', locations: [{ url: 'http://a/' }], version: 4, created: 1000, updated: 2000 };
   * await store.writer.transaction((w) => store.writer.mirrorIn(w, [r], 'mirror'));  // { created: 1, updated: 0, unchanged: 0, refused: [] }
   * (await store.history.versions('urn:ex:a')).map((h) => h.op); // ['create']
   * await store.close();
   * ```
   */
  async mirrorIn(w: WriteScope, records: readonly NameRecord[], actor?: string, ops: ReadonlyMap<string, ChangeOp> = new Map()): Promise<BatchResult> {
    return { ...(await writeMirroredIn(w, { engine: this.#db.engine, insert: this.#insert }, records, actor, ops)), refused: [] };
  }

  /** A batch of {@link bulk} inside a write transaction the caller holds (minting a group of names). */
  async writeBatchIn(w: WriteScope, batch: Array<{ key: string; input: NameInput }>, actor?: string): Promise<BatchResult> {
    return this.#writeBatch(w, batch, actor);
  }

  async #writeBatch(w: WriteScope, batch: Array<{ key: string; input: NameInput }>, actor?: string, stage?: NameStaging): Promise<BatchResult> {
    const counts: BatchResult = { created: 0, updated: 0, unchanged: 0, refused: [] };
    if (batch.length === 0) return counts;
    const rows = stage?.noNames ? [] : await w.trx.selectFrom('names').selectAll().where('key', 'in', batch.map((b) => b.key)).execute();
    const current = new Map(rows.map((r) => [r.key, rowToRecord(r)]));
    // A move's chain and the links between names read other names: the staged ones must be in the table first.
    if (stage && stage.staged > 0 && (batch.some((b) => linksOthers(b.input)) || [...current.values()].some(linksOthers))) await stage.flush(w.trx);
    // Names of this batch written so far, not inserted yet: a move's chain must see them.
    const pending = new Map<string, NameRecord>();
    const chain = this.#chain(w, async (k: string) => pending.get(k) ?? current.get(k) ?? currentRecord(this.#db, w.trx, k));
    const now = Date.now();
    const writes: Array<{ key: string; cur: NameRecord | undefined; next: NameRecord; op: ChangeOp }> = [];
    for (const { key, input } of batch) {
      const cur = current.get(key);
      const next = nextRecord(key, input, cur, now);
      if (cur && sameContent(cur, next)) { counts.unchanged++; continue; }
      let op: ChangeOp;
      try {
        checkStatedStatus(cur, input);
        op = await checkTransition(cur, next, chain);
      } catch (e) {
        if (e instanceof LifecycleError) { counts.refused.push(e); continue; }
        throw e;
      }
      pending.set(key, next);
      writes.push({ key, cur, next, op });
    }
    // The links of the whole batch first, so that a name written in it
    // learns of the names of the same batch that point at it (links.ts).
    const touched = await applyLinks(w.trx, writes.map((x) => ({ key: x.key, before: x.cur, after: x.next })));
    // The chains the batch's moves are on, as they are with the batch (its names through `pending`, its links in the table): the limit of a single write.
    const moved = writes.filter((x) => x.next.status === 'moved').map((x) => x.key);
    const tooLong = moved.length > 0 ? await chainTooLong(moved, chain) : undefined;
    // Its links are in the table, its names not: nothing of the transaction may be kept (the import and the minter roll it back).
    if (tooLong) { counts.refused.push(tooLong); return counts; }
    if (stage && touched.size > 0) stage.noLinks = false;
    const incoming = stage?.noLinks ? new Map<string, Incoming>() : await incomingLinks(w.trx, writes.map((x) => x.key).filter((k) => touched.has(k) || !current.has(k)));
    const inserts: NamesTable[] = [];
    const history: HistoryTable[] = [];
    for (const x of writes) {
      const record = touched.has(x.key) || !x.cur ? withIncoming(x.next, incoming.get(x.key)) : x.next;
      noteWritten(this.#db.engine, w, x.key);
      const row = recordToRow(record);
      if (x.cur) {
        await w.trx.updateTable('names').set(row).where('key', '=', x.key).execute();
        counts.updated++;
      } else {
        inserts.push(row);
        counts.created++;
      }
      history.push(historyRow(record, row, x.op, actor));
    }
    if (stage && touched.size === 0) await stage.add(w.trx, inserts);
    else {
      await this.#insert.names(w.trx, inserts);
      if (stage && inserts.length > 0) stage.noNames = false;
    }
    await this.#insert.history(w.trx, history);
    await stage?.historyWritten(w.trx, history.length);
    await this.#relinkTargets(w, touched, new Set(writes.map((x) => x.key)), actor, now);
    return counts;
  }
}
