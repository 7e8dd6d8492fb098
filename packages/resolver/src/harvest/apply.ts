/**
 * Applying a page of harvested records to the store, in the caller's
 * write transaction, through the lifecycle (store/lifecycle.ts), as
 * DESIGN.md rules for harvested names: a record states all current URLs
 * of its URN (URLs no longer delivered are removed); a deleted record
 * withdraws the name with a reason, never erases it; a repository writes
 * only under the authority it is allowed, as a scoped token does. Each
 * record that cannot be applied is refused with its reason, and the
 * others go on.
 */
import { parseUrn, UriError } from 'urikit';
import type { WriteScope } from '../store/db.js';
import type { HarvestRefusal } from '../store/harvest-log.js';
import { inAuthority, nameKey } from '../store/keys.js';
import { recordToInput, rowToRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import type { ChangeOp, NameInput, NameLocation, NameRecord } from '../store/types.js';
import { checkNewName, InputError, validateNameInput } from '../store/validate.js';
import type { HarvestedRecord } from './oai-page.js';
import { recordName, urnLocationsState, type HarvestFormat } from './record-names.js';

/**
 * What applying a page needs: the repository, its format and authority,
 * the bound of URLs a record, the location schemes allowed, the actor the
 * history names.
 *
 * @example
 * ```ts
 * const c: ApplyContext = { repo: 'https://repo.example/oai epicur', baseUrl: 'https://repo.example/oai', format: 'epicur', authority: 'urn:nbn:de:101', maxUrls: 100, actor: 'harvest https://repo.example/oai', now: Date.now };
 * c.maxUrls; // 100
 * ```
 */
export interface ApplyContext {
  repo: string;
  baseUrl: string;
  format: HarvestFormat;
  authority: string;
  maxUrls: number;
  schemes?: ReadonlySet<string>;
  actor: string;
  now: () => number;
  /**
   * A mirror's harvest of `urn_locations`: each record is taken whole, as
   * the source holds it (status, move, successor, locations with their
   * metainformation, metadata, version, times), not only its URLs.
   */
  mirror?: boolean;
}

/**
 * What a page did.
 *
 * @example
 * ```ts
 * const r: PageResult = { applied: 1, unchanged: 0, refused: 0 };
 * r.applied; // 1
 * ```
 */
export interface PageResult {
  applied: number;
  unchanged: number;
  refused: number;
}

type Plan = { kind: 'put'; key: string; urn: string; locations: NameLocation[]; identifier: string }
  | { kind: 'withdraw'; key: string; identifier: string; datestamp: string }
  | { kind: 'mirror'; key: string; record: NameRecord; op?: ChangeOp; identifier: string };

/** A mirrored record, checked as a write of the admin API is (validate.ts), or the refusal. */
function mirroredRecord(key: string, md: HarvestedRecord['metadata'], schemes: ReadonlySet<string> | undefined): { record: NameRecord; op?: ChangeOp } | { code: string; reason: string; urn?: string } {
  const s = urnLocationsState(md);
  if ('refused' in s) return { code: s.refused, reason: s.reason, ...(s.urn !== undefined ? { urn: s.urn } : {}) };
  let input: NameInput;
  try {
    input = validateNameInput(s.input, schemes !== undefined ? { schemes } : {}).input;
  } catch (e) {
    if (e instanceof InputError) return { code: e.code ?? 'invalid-record', reason: e.message };
    throw e;
  }
  const r: NameRecord = { key, urn: input.urn, status: input.status ?? 'active', locations: input.locations ?? [], version: s.version, created: s.created, updated: s.updated };
  if (input.metadata !== undefined) r.metadata = input.metadata;
  if (input.movedTo !== undefined) r.movedTo = input.movedTo;
  if (input.permanent !== undefined) r.permanent = input.permanent;
  if (input.successor !== undefined) r.successor = input.successor;
  if (input.reason !== undefined) r.reason = input.reason;
  // the names pointing at this one go into Link fields: each must be a name, as the source's writer keeps them (its keys)
  for (const n of [...s.movedFrom, ...s.predecessors]) {
    try {
      if (checkNewName(n).key !== n) return { code: 'bad-link', reason: `${n}, a name pointing at ${key}, is not a key of a name` };
    } catch (e) {
      if (e instanceof InputError || e instanceof UriError) return { code: 'bad-link', reason: `${n.slice(0, 200)}, a name pointing at ${key}, is not a name: ${e.message}` };
      throw e;
    }
  }
  if (s.movedFrom.length > 0) r.movedFrom = s.movedFrom;
  if (s.predecessors.length > 0) r.predecessors = s.predecessors;
  return { record: r, ...(s.change !== undefined ? { op: s.change } : {}) };
}

/**
 * True if the repository may write `key`: under its authority as a scoped
 * token is (keys.ts `inAuthority`), or, for a National Bibliography
 * Number, under the prefix before the "-" that begins its NBN string
 * (RFC 8458 §4.2: `urn:nbn:de:101` and `urn:nbn:de:101-` both hold
 * `urn:nbn:de:101-2020071401`).
 */
function mayWrite(key: string, authority: string): boolean {
  if (inAuthority(key, authority)) return true;
  if (!authority.startsWith('urn:nbn:') || !key.startsWith(authority)) return false;
  return authority.endsWith('-') ? key.length > authority.length : key.charCodeAt(authority.length) === 0x2d;
}

/** The key of a URN, checked against its namespace (RFC 8458: an NBN's check digit), or the refusal. */
function keyOf(urn: string): { key: string } | { code: string; reason: string } {
  try {
    parseUrn(urn, { checkNamespace: true });
    return { key: nameKey(urn).key };
  } catch (e) {
    if (e instanceof UriError) return { code: e.code, reason: `${urn} is not a valid URN: ${e.message}` };
    throw e;
  }
}

/**
 * Applies `records` (one page, in order: a later record of the same name
 * wins) in the write transaction `w`; the refusals are recorded there too.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * const ctx: ApplyContext = { repo: 'r', baseUrl: 'https://repo.example/oai', format: 'oai_dc', authority: 'urn:nbn:de:101', maxUrls: 100, actor: 'harvest', now: Date.now };
 * const dc = (text: string) => ({ path: 'dc/identifier', ns: 'http://purl.org/dc/elements/1.1/', attrs: new Map<string, string>(), text });
 * const root = { path: 'dc', ns: 'http://www.openarchives.org/OAI/2.0/oai_dc/', attrs: new Map<string, string>(), text: '' };
 * const rec = { identifier: 'oai:r:1', datestamp: '2026-11-28', deleted: false, sets: [], metadata: [dc('urn:nbn:de:101-2020071401'), dc('https://repo.example/1'), root] };
 * await store.writer.transaction((w) => applyPage(w, store, ctx, [rec])); // { applied: 1, unchanged: 0, refused: 0 }
 * (await store.names.get('urn:nbn:de:101-2020071401'))?.locations; // [{ url: 'https://repo.example/1' }]
 * await store.close();
 * ```
 */
export async function applyPage(w: WriteScope, store: Store, ctx: ApplyContext, records: readonly HarvestedRecord[]): Promise<PageResult> {
  const at = ctx.now();
  const refusals: HarvestRefusal[] = [];
  const refuse = (r: HarvestedRecord, code: string, reason: string, urn?: string) => {
    refusals.push({ at, identifier: r.identifier, ...(urn !== undefined ? { urn } : {}), code, reason });
  };
  const deleted = records.filter((r) => r.deleted).map((r) => r.identifier);
  const known = deleted.length > 0 ? await store.harvestLog.itemsIn(w, ctx.repo, deleted) : new Map<string, string>();
  const plans = new Map<string, Plan>();
  const items = new Map<string, string>();
  let unchanged = 0;
  for (const r of records) {
    if (r.identifier === '') { refuse(r, 'no-identifier', 'the record header has no identifier'); continue; }
    if (r.tooLarge !== undefined) { refuse(r, 'record-too-large', `${r.tooLarge}: at most ${ctx.maxUrls} URLs a record are taken`); continue; }
    if (r.deleted) {
      // OAI-PMH §2.5.1: a deleted record has no metadata: the name is the one its live record named, or its identifier if that is a URN
      let key = known.get(r.identifier);
      if (key === undefined && r.identifier.slice(0, 4).toLowerCase() === 'urn:') {
        const k = keyOf(r.identifier);
        if ('key' in k) key = k.key;
      }
      if (key === undefined) { unchanged++; continue; }
      if (!mayWrite(key, ctx.authority)) { refuse(r, 'outside-authority', `${key} is outside the authority ${ctx.authority || '(all)'} this repository may write`, key); continue; }
      plans.delete(key);
      plans.set(key, { kind: 'withdraw', key, identifier: r.identifier, datestamp: r.datestamp });
      continue;
    }
    const named = recordName(ctx.format, r.metadata, (urn) => { const k = keyOf(urn); return 'key' in k && mayWrite(k.key, ctx.authority); });
    if ('refused' in named) { refuse(r, named.refused, named.reason, named.urn); continue; }
    const k = keyOf(named.urn);
    if (!('key' in k)) { refuse(r, k.code, k.reason, named.urn); continue; }
    // a mirror follows one authority of a resolver that may hold others: their names are not its to take, nor refusals
    if (!mayWrite(k.key, ctx.authority) && ctx.mirror === true) { unchanged++; continue; }
    if (!mayWrite(k.key, ctx.authority)) { refuse(r, 'outside-authority', `${k.key} is outside the authority ${ctx.authority || '(all)'} this repository may write`, named.urn); continue; }
    if (ctx.mirror === true && ctx.format === 'urn_locations') {
      const m = mirroredRecord(k.key, r.metadata, ctx.schemes);
      if ('code' in m) { refuse(r, m.code, m.reason, named.urn); continue; }
      plans.delete(k.key);
      plans.set(k.key, { kind: 'mirror', key: k.key, record: m.record, ...(m.op !== undefined ? { op: m.op } : {}), identifier: r.identifier });
      items.set(r.identifier, k.key);
      continue;
    }
    // urn_locations states every state: a withdrawn name is its tombstone (a deleted record elsewhere), a reserved one is not resolvable yet
    if (named.status === 'withdrawn') {
      plans.delete(k.key);
      plans.set(k.key, { kind: 'withdraw', key: k.key, identifier: r.identifier, datestamp: r.datestamp });
      continue;
    }
    if (named.status === 'reserved') { unchanged++; continue; }
    // a record states every current URL: one with none would strip the name of its locations (a deleted record withdraws it)
    if (named.locations.length === 0) { refuse(r, 'no-urls', `the record delivers no URL for ${named.urn}: a name is withdrawn by a deleted record, not emptied`, named.urn); continue; }
    if (named.locations.length > ctx.maxUrls) { refuse(r, 'too-many-urls', `the record delivers ${named.locations.length} URLs: at most ${ctx.maxUrls} a record are taken`, named.urn); continue; }
    let locations: NameLocation[];
    try {
      locations = validateNameInput({ urn: named.urn, locations: named.locations }, ctx.schemes !== undefined ? { schemes: ctx.schemes } : {}).input.locations ?? [];
    } catch (e) {
      if (e instanceof InputError) { refuse(r, e.code ?? 'invalid-location', e.message, named.urn); continue; }
      throw e;
    }
    plans.delete(k.key);
    plans.set(k.key, { kind: 'put', key: k.key, urn: named.urn, locations, identifier: r.identifier });
    items.set(r.identifier, k.key);
  }
  const current = new Map<string, NameRecord>();
  const keys = [...plans.keys()];
  for (let i = 0; i < keys.length; i += 500) {
    for (const row of await w.trx.selectFrom('names').selectAll().where('key', 'in', keys.slice(i, i + 500)).execute()) current.set(row.key, rowToRecord(row));
  }
  const batch: Array<{ key: string; input: NameInput }> = [];
  const mirrored: NameRecord[] = [];
  const ops = new Map<string, ChangeOp>();
  for (const p of plans.values()) {
    const cur = current.get(p.key);
    if (p.kind === 'mirror') {
      mirrored.push(p.record);
      if (p.op !== undefined) ops.set(p.key, p.op);
    } else if (p.kind === 'withdraw') {
      if (cur === undefined || cur.status === 'withdrawn') { unchanged++; continue; }
      batch.push({ key: p.key, input: { ...recordToInput(cur), status: 'withdrawn', reason: `deleted in the OAI-PMH repository ${ctx.baseUrl} (record ${p.identifier}, ${p.datestamp})` } });
    } else if (cur === undefined) {
      batch.push({ key: p.key, input: { urn: p.urn, locations: p.locations } });
    } else {
      // the delivered URLs replace the name's locations; what else it has stays (a reserved name becomes active: it has URLs now)
      batch.push({ key: p.key, input: { ...recordToInput(cur), locations: p.locations, status: cur.status === 'reserved' ? 'active' : cur.status } });
    }
  }
  const result = await store.writer.writeBatchIn(w, batch, ctx.actor);
  const mirror = await store.writer.mirrorIn(w, mirrored, ctx.actor, ops);
  result.created += mirror.created;
  result.updated += mirror.updated;
  result.unchanged += mirror.unchanged;
  for (const e of result.refused) {
    const identifier = plans.get(e.key)?.identifier;
    refusals.push({ at, ...(identifier !== undefined ? { identifier } : {}), urn: e.key, code: e.code, reason: e.message });
  }
  if (items.size > 0) await store.harvestLog.putItemsIn(w, ctx.repo, items);
  if (refusals.length > 0) await store.harvestLog.refuseIn(w, ctx.repo, refusals);
  return { applied: result.created + result.updated, unchanged: unchanged + result.unchanged, refused: refusals.length };
}

