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
 * from), `redirect-cycle` (the move's chain of URNs leads back, or
 * through this resolver's own URL for a name), `chain-too-long` (the move
 * puts a name on a chain of more than {@link MAX_CHAIN} names),
 * `not-withdrawn` and `nothing-to-reinstate` (a reinstate of a name that
 * is not withdrawn, or that never was anything else), `case-variant` (a
 * record written under another spelling of a name the store holds: one
 * name under the 1995 draft §2.3.1 case rule, keys.ts), `status-not-stated`
 * (a whole record without a status over a name that is not active: its
 * status never changes implicitly).
 *
 * @example
 * ```ts
 * const code: LifecycleRefusal = 'withdrawn-name';
 * LIFECYCLE.withdrawn.active === code; // true
 * ```
 */
export type LifecycleRefusal = 'withdrawn-name' | 'name-exists' | 'never-active' | 'redirect-cycle' | 'chain-too-long' | 'not-withdrawn' | 'nothing-to-reinstate' | 'case-variant' | 'status-not-stated';

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
  'chain-too-long': (key, detail) => `moving ${key} would make a chain of redirects longer than ${MAX_CHAIN} names: ${detail}`,
  'not-withdrawn': (key) => `${key} is not withdrawn: there is nothing to reinstate`,
  'nothing-to-reinstate': (key) => `${key} was withdrawn when it was registered: it had no earlier record to reinstate`,
  'case-variant': (key, detail) => `${detail} is already registered, and is the same name as ${key} (1995 draft §2.3.1: ElementIDs of urn:dns: names are not case-sensitive): write it as ${detail}`,
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

/**
 * The most names a chain of moves may hold, from the first name a client
 * asks for to the name it ends at (999 redirects): a longer one is
 * refused, through the admin API and a bulk import alike.
 *
 * @example
 * ```ts
 * MAX_CHAIN; // 1000
 * ```
 */
export const MAX_CHAIN = 1000;

/**
 * What the cycle check reads besides the record written: other names'
 * records (as the write transaction sees them), the names moved to a
 * name, and the URN a URL of this resolver stands for.
 *
 * @example
 * ```ts
 * const names = new Map<string, NameRecord>();
 * const chain: ChainReader = { lookup: async (k) => names.get(k), movedHere: async () => new Map(), ownUrn: (url) => url.startsWith('http://127.0.0.1:4500/urn:') ? url.slice(22) : undefined };
 * chain.ownUrn?.('http://127.0.0.1:4500/urn:example:a'); // 'urn:example:a'
 * ```
 */
export interface ChainReader {
  lookup(key: string): Promise<NameRecord | undefined>;
  /** For each of `keys`, the keys of the names whose move points at it (store/links.ts: `name_links`). */
  movedHere(keys: readonly string[]): Promise<Map<string, string[]>>;
  /**
   * The URN that a URL at this resolver's own origins asks for
   * (`http://127.0.0.1:4500/urn:example:a`, `/uri-res/N2L?urn:…`): a move
   * there is a move to that name, and a client that follows it comes back
   * here. Undefined for any other URL (server/resolution/own-urls.ts).
   */
  ownUrn?: ((url: string) => string | undefined) | undefined;
}

/** The key of the name a move to `to` sends a client to next, if it is a name: a URN, or a URL of this resolver for one. */
function nextKey(to: string, ownUrn: ChainReader['ownUrn']): string | undefined {
  const urn = to.slice(0, 4).toLowerCase() === 'urn:' ? to : ownUrn?.(to);
  if (urn === undefined) return undefined;
  try { return nameKey(urn).key; } catch { return undefined; }
}

/**
 * The chain of names that a move of `key` to `movedTo` would send a
 * client through, if it comes back to `key` or to any name on it (a loop
 * a client would follow forever); undefined if it ends. A URL ends a
 * chain, unless it is this resolver's own URL for a name.
 */
async function cycleOf(key: string, movedTo: string, chain: ChainReader): Promise<string[] | undefined> {
  const path = [key];
  const seen = new Set(path);
  let to: string | undefined = movedTo;
  while (to !== undefined) {
    const next = nextKey(to, chain.ownUrn);
    if (next === undefined) return undefined;
    path.push(next);
    if (seen.has(next)) return path;
    // Past the longest chain allowed: chainTooLong refuses it after the write, with its length.
    if (path.length > MAX_CHAIN) return undefined;
    seen.add(next);
    const r = await chain.lookup(next);
    to = r?.status === 'moved' ? r.movedTo : undefined;
  }
  return undefined;
}

/** A long chain, told short: its first and last names around the name written. */
function describeChain(names: readonly string[]): string {
  const shown = names.length <= 7 ? names : [...names.slice(0, 3), `... (${names.length - 6} more) ...`, ...names.slice(-3)];
  return `${shown.join(' -> ')} (${names.length} names)`;
}

/**
 * After moves were written (the store holds them, in the write's
 * transaction): the first of `keys` that is now on a chain of more than
 * {@link MAX_CHAIN} names, as the error to throw, or undefined. The
 * chain through a name is the longest chain of moves into it (every name
 * moves to one place, so the names moved to it, and to those, are a tree)
 * and the chain on from it. What it learns of one name serves the others
 * (a bulk import checks each batch's moves at once, in time linear in
 * the chains).
 *
 * @example
 * ```ts
 * const rec = (key: string, movedTo?: string): NameRecord => ({ key, urn: key, status: movedTo ? 'moved' : 'active', locations: [], version: 1, created: 0, updated: 0, ...(movedTo ? { movedTo } : {}) });
 * const names = new Map([['urn:ex:a', rec('urn:ex:a', 'urn:ex:b')], ['urn:ex:b', rec('urn:ex:b')]]);
 * const chain: ChainReader = { lookup: async (k) => names.get(k), movedHere: async (keys) => new Map(keys.map((k) => [k, k === 'urn:ex:b' ? ['urn:ex:a'] : []])) };
 * await chainTooLong(['urn:ex:a'], chain); // undefined
 * ```
 */
export async function chainTooLong(keys: readonly string[], chain: ChainReader): Promise<LifecycleError | undefined> {
  const walk: ChainWalk = { chain, into: new Map(), sources: new Map(), onward: new Map() };
  // The names moved to the names written, asked at once (an import's batch is one query, not one a name).
  const direct = await chain.movedHere(keys);
  for (const key of keys) walk.sources.set(key, (direct.get(key) ?? []).filter((s) => s !== key));
  for (const key of keys) {
    const before = await namesInto(key, walk);
    const after = await namesOnward(key, walk);
    if (before + 1 + after > MAX_CHAIN) return new LifecycleError('chain-too-long', key, 'moved', 'moved', describeChain(await chainThrough(key, walk)));
  }
  return undefined;
}

/** What {@link chainTooLong} has learnt: per name, the names before it on its longest chain in, its sources, the names after it. */
interface ChainWalk {
  chain: ChainReader;
  into: Map<string, number>;
  sources: Map<string, string[]>;
  onward: Map<string, number>;
}

/** How many names are before `key` on the longest chain of moves into it (more than MAX_CHAIN: MAX_CHAIN + 1). */
async function namesInto(key: string, walk: ChainWalk): Promise<number> {
  // Depth first, without recursion: a name's count is known once its sources' are.
  const stack: Array<{ key: string; depth: number; expanded?: boolean }> = [{ key, depth: 0 }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (walk.into.has(top.key)) { stack.pop(); continue; }
    let sources = walk.sources.get(top.key);
    if (sources === undefined) {
      sources = ((await walk.chain.movedHere([top.key])).get(top.key) ?? []).filter((s) => s !== top.key);
      walk.sources.set(top.key, sources);
    }
    if (top.expanded !== true) {
      top.expanded = true;
      // A tree deeper than the limit: too long, whatever else it holds.
      if (top.depth > MAX_CHAIN) return MAX_CHAIN + 1;
      const open = sources.filter((s) => !walk.into.has(s));
      if (open.length > 0) { stack.push(...open.map((s) => ({ key: s, depth: top.depth + 1 }))); continue; }
    }
    let most = 0;
    for (const s of sources) most = Math.max(most, (walk.into.get(s) ?? 0) + 1);
    walk.into.set(top.key, Math.min(most, MAX_CHAIN + 1));
    stack.pop();
  }
  return walk.into.get(key)!;
}

/** How many names a client is sent through after `key`, the name the chain ends at included (more than MAX_CHAIN: MAX_CHAIN + 1). */
async function namesOnward(key: string, walk: ChainWalk): Promise<number> {
  const path: string[] = [];
  const seen = new Set<string>();
  let at = key;
  // What follows the last name of `path`: the count known for `at`, or -1 when that name ends the chain.
  let rest: number;
  for (;;) {
    const known = walk.onward.get(at);
    if (known !== undefined) { rest = known; break; }
    // Back to a name (the cycle check keeps this from being written) or past the limit: too long.
    if (seen.has(at) || path.length > MAX_CHAIN) { rest = MAX_CHAIN + 1; break; }
    seen.add(at);
    path.push(at);
    const r = await walk.chain.lookup(at);
    const next = r?.status === 'moved' && r.movedTo !== undefined ? nextKey(r.movedTo, walk.chain.ownUrn) : undefined;
    if (next === undefined) { rest = -1; break; }
    at = next;
  }
  for (let i = 0; i < path.length; i++) walk.onward.set(path[i]!, Math.min(rest + path.length - i, MAX_CHAIN + 1));
  return walk.onward.get(key)!;
}

/** The longest chain through `key`, for the message: the deepest way in, and on to its end (each cut after MAX_CHAIN). */
async function chainThrough(key: string, walk: ChainWalk): Promise<string[]> {
  const before: string[] = [];
  for (let at = key; before.length <= MAX_CHAIN;) {
    const deepest = (walk.sources.get(at) ?? []).reduce<string | undefined>((best, s) => (best === undefined || (walk.into.get(s) ?? 0) > (walk.into.get(best) ?? 0) ? s : best), undefined);
    if (deepest === undefined) break;
    before.unshift(deepest);
    at = deepest;
  }
  const after: string[] = [];
  const seen = new Set([key]);
  for (let r = await walk.chain.lookup(key); after.length <= MAX_CHAIN && r?.status === 'moved' && r.movedTo !== undefined;) {
    const next = nextKey(r.movedTo, walk.chain.ownUrn);
    if (next === undefined || seen.has(next)) break;
    seen.add(next);
    after.push(next);
    r = await walk.chain.lookup(next);
  }
  return [...before, key, ...after];
}

/**
 * Checks the write of `next` over `current` (undefined: a new name)
 * against the table and the redirect chain, reading other names through
 * `chain` in the same transaction; returns the change to record, or
 * throws {@link LifecycleError}. `reinstate` is the explicit way back from
 * withdrawn. (The length of the chain is checked once the move is
 * written: {@link chainTooLong}.)
 *
 * @example
 * ```ts
 * const rec = (status: NameStatus, movedTo?: string): NameRecord => ({ key: 'urn:ex:a', urn: 'urn:ex:a', status, locations: [], version: 1, created: 0, updated: 0, ...(movedTo ? { movedTo } : {}) });
 * const chain: ChainReader = { lookup: async () => undefined, movedHere: async () => new Map() };
 * await checkTransition(rec('active'), rec('moved', 'urn:ex:b'), chain); // 'move'
 * await checkTransition(rec('active'), rec('moved', 'URN:EX:a'), chain); // throws LifecycleError redirect-cycle
 * ```
 */
export async function checkTransition(current: NameRecord | undefined, next: NameRecord, chain: ChainReader, reinstate = false): Promise<ChangeOp> {
  const from: NameState = current?.status ?? 'none';
  let op = LIFECYCLE[from][next.status];
  if (reinstate) {
    if (from !== 'withdrawn') throw new LifecycleError('not-withdrawn', next.key, from, next.status);
    op = 'reinstate';
  }
  if (!isChangeOp(op)) throw new LifecycleError(op, next.key, from, next.status);
  // A name keeps the spelling it was registered with: another spelling of its key names it, never replaces it (keys.ts).
  if (current && current.urn !== next.urn && nameKey(current.urn).spelling !== nameKey(next.urn).spelling) {
    throw new LifecycleError('case-variant', next.urn, from, next.status, current.urn);
  }
  if (next.status === 'moved' && next.movedTo !== undefined) {
    const cycle = await cycleOf(next.key, next.movedTo, chain);
    if (cycle) throw new LifecycleError('redirect-cycle', next.key, from, next.status, cycle.join(' -> '));
  }
  return op;
}

const OPS: ReadonlySet<string> = new Set<ChangeOp>(['create', 'update', 'move', 'withdraw', 'reinstate']);

function isChangeOp(v: ChangeOp | LifecycleRefusal): v is ChangeOp {
  return OPS.has(v);
}
