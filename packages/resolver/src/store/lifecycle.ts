/**
 * The lifecycle of a name, as a table, checked by the writer inside the
 * write transaction on both engines (writer.ts): a refused transition
 * throws before anything is written, and the transaction rolls back.
 *
 * The rules (DESIGN.md, "The name lifecycle"): a withdrawn name is never
 * given to another resource, nor new locations (only an explicit
 * `reinstate` brings back the record it had before it was withdrawn); a
 * move never closes a cycle of redirects; `reserved` is only for a name
 * that does not exist yet. The table has the shape of EZID's status
 * transitions (reserved -> public -> unavailable) and PURL's types.
 */
import { nameKey } from './keys.js';
import type { ChangeOp, NameInput, NameRecord, NameStatus } from './types.js';

/**
 * Where a name stands before a write: one of its statuses, or `none`
 * when the store does not hold it.
 *
 * @example
 * ```ts
 * const s: NameState = 'none';
 * LIFECYCLE[s].reserved; // 'create'
 * ```
 */
export type NameState = NameStatus | 'none';

/**
 * Why the lifecycle refuses a write: `withdrawn-name` (a withdrawn name
 * keeps its tombstone), `name-exists` (`reserved` over a name that
 * exists), `never-active` (a reserved name has no location to move
 * from), `redirect-cycle` (the move's chain of URNs leads back),
 * `not-withdrawn` and `nothing-to-reinstate` (a reinstate of a name that
 * is not withdrawn, or that never was anything else), `status-not-stated`
 * (a whole record without a status over a name that is not active: its
 * status never changes implicitly).
 *
 * @example
 * ```ts
 * const code: LifecycleRefusal = 'withdrawn-name';
 * LIFECYCLE.withdrawn.active === code; // true
 * ```
 */
export type LifecycleRefusal = 'withdrawn-name' | 'name-exists' | 'never-active' | 'redirect-cycle' | 'not-withdrawn' | 'nothing-to-reinstate' | 'status-not-stated';

/**
 * The transition table: for each state a name is in and each status a
 * write gives it, the kind of change the history records, or why it is
 * refused. A write that changes nothing is never a transition (it is
 * `unchanged`, whatever the state).
 *
 * @example
 * ```ts
 * LIFECYCLE.active.moved;     // 'move'
 * LIFECYCLE.withdrawn.active; // 'withdrawn-name'
 * LIFECYCLE.active.reserved;  // 'name-exists'
 * ```
 */
export const LIFECYCLE: Readonly<Record<NameState, Readonly<Record<NameStatus, ChangeOp | LifecycleRefusal>>>> = {
  // A new name may start in any state: a resolver taking over another's
  // names registers its moved names and tombstones as they are.
  none: { reserved: 'create', active: 'create', moved: 'move', withdrawn: 'withdraw' },
  reserved: { reserved: 'update', active: 'update', moved: 'never-active', withdrawn: 'withdraw' },
  active: { reserved: 'name-exists', active: 'update', moved: 'move', withdrawn: 'withdraw' },
  // moved -> active: the name's own authority takes it back (admin tokens
  // are scoped to it); the history keeps the move.
  moved: { reserved: 'name-exists', active: 'update', moved: 'move', withdrawn: 'withdraw' },
  withdrawn: { reserved: 'withdrawn-name', active: 'withdrawn-name', moved: 'withdrawn-name', withdrawn: 'withdrawn-name' },
};

const MESSAGES: Record<LifecycleRefusal, (key: string, detail: string) => string> = {
  'withdrawn-name': (key) => `${key} is withdrawn: a withdrawn name is never given new locations or to another resource (POST /admin/reinstate/${key} brings back the record it had)`,
  'name-exists': (key) => `${key} exists: only a name that does not exist yet can be reserved`,
  'never-active': (key) => `${key} is reserved and has never resolved: make it active before moving it`,
  'redirect-cycle': (key, detail) => `moving ${key} would close a cycle of redirects: ${detail}`,
  'not-withdrawn': (key) => `${key} is not withdrawn: there is nothing to reinstate`,
  'nothing-to-reinstate': (key) => `${key} was withdrawn when it was registered: it had no earlier record to reinstate`,
  'status-not-stated': (key, detail) => `${key} is ${detail}`,
};

/** What to send instead of a record without a status, by the status a name has. */
const STATE_THE_STATUS: Readonly<Record<Exclude<NameStatus, 'active'>, (key: string) => string>> = {
  moved: (key) => 'moved: a record without "status" would make it active and lose the move. Send "status": "moved" with its "movedTo" to keep it moved, '
    + `"status": "active" to take it back, POST /admin/move/${key} to move it elsewhere, or PATCH /admin/names/${key} to change only some fields`,
  withdrawn: (key) => `withdrawn: a record without "status" would make it active. POST /admin/reinstate/${key} brings back the record it had`,
  reserved: (key) => 'reserved: a record without "status" would make it active. Send "status": "active" to make it resolve, '
    + `"status": "reserved" to keep it reserved, or PATCH /admin/names/${key} to change only some fields`,
};

/**
 * A whole record written over a name (PUT, an import line) replaces what
 * it states but never changes the name's status implicitly (DESIGN.md,
 * "Admin writes never change what the request did not name"): over a
 * name that is moved, withdrawn or reserved, a record without a status
 * is refused with the way to make the change meant.
 *
 * @example
 * ```ts
 * const moved: NameRecord = { key: 'urn:ex:a', urn: 'urn:ex:a', status: 'moved', movedTo: 'urn:ex:b', locations: [], version: 2, created: 0, updated: 0 };
 * checkStatedStatus(moved, { urn: 'urn:ex:a', status: 'moved', movedTo: 'urn:ex:b' }); // undefined
 * checkStatedStatus(undefined, { urn: 'urn:ex:a' }); // undefined (a new name is active)
 * checkStatedStatus(moved, { urn: 'urn:ex:a', locations: [{ url: 'http://a/' }] }); // throws LifecycleError status-not-stated
 * ```
 */
export function checkStatedStatus(current: NameRecord | undefined, input: NameInput): void {
  if (current === undefined || input.status !== undefined || current.status === 'active') return;
  throw new LifecycleError('status-not-stated', current.key, current.status, 'active', STATE_THE_STATUS[current.status](current.key));
}

/**
 * A write the lifecycle refuses. Nothing was written; the HTTP layer
 * answers 409 with `code`, `from` and `to`.
 *
 * @example
 * ```ts
 * const e = new LifecycleError('name-exists', 'urn:ex:a', 'active', 'reserved');
 * e.code;    // 'name-exists'
 * e.message; // 'urn:ex:a exists: only a name that does not exist yet can be reserved'
 * ```
 */
export class LifecycleError extends Error {
  override readonly name = 'LifecycleError';
  constructor(readonly code: LifecycleRefusal, readonly key: string, readonly from: NameState, readonly to: NameStatus, detail = '') {
    super(MESSAGES[code](key, detail));
  }
}

/** The longest chain of moves followed before a write is refused as a cycle. */
const MAX_CHAIN = 1000;

/**
 * The chain of URNs that a move of `key` to `movedTo` would send a client
 * through, if it comes back to `key` or to any name on it (a loop a
 * client would follow forever); undefined if it ends. URLs end a chain.
 */
async function cycleOf(key: string, movedTo: string, lookup: (key: string) => Promise<NameRecord | undefined>): Promise<string[] | undefined> {
  const chain = [key];
  const seen = new Set(chain);
  let to: string | undefined = movedTo;
  while (to !== undefined && to.slice(0, 4).toLowerCase() === 'urn:') {
    let next: string;
    try { next = nameKey(to).key; } catch { return undefined; }
    chain.push(next);
    if (seen.has(next) || chain.length > MAX_CHAIN) return chain;
    seen.add(next);
    const r = await lookup(next);
    to = r?.status === 'moved' ? r.movedTo : undefined;
  }
  return undefined;
}

/**
 * Checks the write of `next` over `current` (undefined: a new name)
 * against the table and the redirect chain, reading other names through
 * `lookup` in the same transaction; returns the change to record, or
 * throws {@link LifecycleError}. `reinstate` is the explicit way back from
 * withdrawn.
 *
 * @example
 * ```ts
 * const rec = (status: NameStatus, movedTo?: string): NameRecord => ({ key: 'urn:ex:a', urn: 'urn:ex:a', status, locations: [], version: 1, created: 0, updated: 0, ...(movedTo ? { movedTo } : {}) });
 * await checkTransition(rec('active'), rec('moved', 'urn:ex:b'), async () => undefined); // 'move'
 * await checkTransition(rec('active'), rec('moved', 'URN:EX:a'), async () => undefined); // throws LifecycleError redirect-cycle
 * ```
 */
export async function checkTransition(current: NameRecord | undefined, next: NameRecord, lookup: (key: string) => Promise<NameRecord | undefined>, reinstate = false): Promise<ChangeOp> {
  const from: NameState = current?.status ?? 'none';
  let op = LIFECYCLE[from][next.status];
  if (reinstate) {
    if (from !== 'withdrawn') throw new LifecycleError('not-withdrawn', next.key, from, next.status);
    op = 'reinstate';
  }
  if (!isChangeOp(op)) throw new LifecycleError(op, next.key, from, next.status);
  if (next.status === 'moved' && next.movedTo !== undefined) {
    const cycle = await cycleOf(next.key, next.movedTo, lookup);
    if (cycle) throw new LifecycleError('redirect-cycle', next.key, from, next.status, cycle.join(' -> '));
  }
  return op;
}

const OPS: ReadonlySet<string> = new Set<ChangeOp>(['create', 'update', 'move', 'withdraw', 'reinstate']);

function isChangeOp(v: ChangeOp | LifecycleRefusal): v is ChangeOp {
  return OPS.has(v);
}
