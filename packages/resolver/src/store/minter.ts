/**
 * Minting: the next free name under a prefix, from a counter kept per
 * prefix or at random, with the NBN check digit appended where the
 * country's registration defines one (the core's `mintNbn`), written in
 * the same transaction that moves the counter, so that two minters (two
 * requests, two processes, two machines on PostgreSQL) never get one name;
 * the mints that arrive together share one transaction (a group commit).
 * As EZID mints on its shoulders and CZIDLO assigns per registrar.
 */
import { mintNbn, UriError } from 'urikit';
import type { StoreDb, WriteScope } from './db.js';
import { rowToRecord } from './records.js';
import type { NameInput, NameRecord } from './types.js';
import { checkNewName, InputError } from './validate.js';
import type { NameWriter, WriteResult } from './writer.js';

/**
 * How to mint: under `prefix` (everything before the local part:
 * `urn:nbn:de:101-`, `urn:example:item-`), from the prefix's counter
 * (zero-padded to `width`; `start` is the first value of a new counter) or
 * `length` random characters of `alphabet` (default the digits); the new
 * name gets `record` (active unless it says otherwise, as a write does),
 * or without one is reserved (held before it resolves).
 *
 * @example
 * ```ts
 * const req: MintRequest = { prefix: 'urn:nbn:de:101-', mode: 'counter', start: 202007140 };
 * const store = await openStore(':memory:');
 * (await store.minter.mint(req)).record.urn; // 'urn:nbn:de:101-2020071401'
 * (await store.minter.mint(req)).record.urn; // 'urn:nbn:de:101-2020071413'
 * await store.close();
 * ```
 */
export interface MintRequest {
  prefix: string;
  mode: 'counter' | 'random';
  width?: number;
  start?: number;
  length?: number;
  alphabet?: string;
  record?: Omit<NameInput, 'urn'>;
}

/** Random names tried before a mint gives up (a namespace that full is a sign the length is too short). */
const RANDOM_TRIES = 100;
/** Taken names skipped by a counter before a mint gives up (names registered by hand under the prefix). */
const COUNTER_SKIPS = 100_000;

/**
 * A mint that cannot succeed: the prefix cannot make a valid name (a
 * `UriError` from the core is the cause), or no free name was found.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * await store.minter.mint({ prefix: 'urn:nbn:de:101-x~', mode: 'counter' }); // throws MintError
 * await store.close();
 * ```
 */
export class MintError extends Error {
  override readonly name = 'MintError';
  constructor(message: string, readonly code: string, readonly offset?: number) {
    super(message);
  }
}

const DIGITS = '0123456789';

function randomChars(length: number, alphabet: string): string {
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    for (const b of globalThis.crypto.getRandomValues(new Uint8Array(length))) if (b < limit && out.length < length) out += alphabet[b % alphabet.length];
  }
  return out;
}

/** The name minted from `n` (counter) or at random; throws the core's `UriError` for a prefix that makes no valid name. */
function candidate(req: MintRequest, n: number): string {
  const nbn = req.prefix.slice(0, 8).toLowerCase() === 'urn:nbn:';
  if (req.mode === 'counter') {
    if (nbn) return mintNbn(req.prefix, { counter: n, ...(req.width !== undefined ? { width: req.width } : {}) });
    return req.prefix + String(n).padStart(req.width ?? 0, '0');
  }
  const opts = { length: req.length ?? 8, alphabet: req.alphabet ?? DIGITS };
  if (nbn) return mintNbn(req.prefix, { random: true, ...opts });
  return req.prefix + randomChars(opts.length, opts.alphabet);
}

/** A mint waiting for the next write transaction. */
interface Pending {
  req: MintRequest;
  actor: string | undefined;
  resolve: (r: WriteResult) => void;
  reject: (e: unknown) => void;
}

/** Mints per write transaction at most. */
const GROUP = 1000;

/**
 * The minter of a store. Mints that arrive while a mint transaction runs
 * are written together in the next one (a group commit: one commit, one
 * fsync, for all of them), each as it would be alone.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * const minter: NameMinter = store.minter;
 * await store.writer.put('urn:example:item-2', { urn: 'urn:example:item-2' });
 * const first = await minter.mint({ prefix: 'urn:example:item-', mode: 'counter', record: { locations: [{ url: 'https://example.org/1' }] } });
 * [first.op, first.record.urn, first.record.status]; // ['create', 'urn:example:item-1', 'active']
 * (await minter.mint({ prefix: 'urn:example:item-', mode: 'counter' })).record.urn; // 'urn:example:item-3' (2 was taken)
 * (await Promise.all([1, 2, 3].map(() => minter.mint({ prefix: 'urn:example:item-', mode: 'counter' })))).map((r) => r.record.urn);
 * // ['urn:example:item-4', 'urn:example:item-5', 'urn:example:item-6']
 * await store.close();
 * ```
 */
export class NameMinter {
  readonly #db: StoreDb;
  readonly #writer: NameWriter;
  #queue: Pending[] = [];
  #draining = false;

  constructor(db: StoreDb, writer: NameWriter) {
    this.#db = db;
    this.#writer = writer;
  }

  /** Mints and writes one name; throws {@link MintError}, or the writer's `LifecycleError`. */
  mint(req: MintRequest, actor?: string): Promise<WriteResult> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ req, actor, resolve, reject });
      if (!this.#draining) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#draining = true;
    try {
      while (this.#queue.length > 0) {
        const group = this.#queue.splice(0, GROUP);
        let outcomes: Array<WriteResult | Error>;
        try {
          outcomes = await this.#db.write((w) => this.#mintGroup(w, group));
        } catch (e) {
          for (const m of group) m.reject(e);
          continue;
        }
        group.forEach((m, i) => {
          const o = outcomes[i]!;
          if (o instanceof Error) m.reject(o);
          else m.resolve(o);
        });
      }
    } finally {
      this.#draining = false;
    }
  }

  /**
   * Mints a group in one transaction, with few statements whatever its
   * size: each prefix's counter read once and written once, the candidates
   * checked against the store at once, the new names written as a batch.
   * A mint refused before anything is written (a prefix that makes no
   * valid name, no free name) does not stop the others.
   */
  async #mintGroup(w: WriteScope, group: Pending[]): Promise<Array<WriteResult | Error>> {
    const refused: Array<Error | undefined> = group.map(() => undefined);
    const picked: Array<{ urn: string; key: string } | undefined> = group.map(() => undefined);
    const counters = new Map<string, { next: number; stored: boolean }>();
    for (const { req } of group) {
      if (req.mode !== 'counter' || counters.has(req.prefix)) continue;
      const row = await w.trx.selectFrom('mint_counters').select('next').where('prefix', '=', req.prefix).executeTakeFirst();
      counters.set(req.prefix, row !== undefined ? { next: Number(row.next), stored: true } : { next: Math.max(0, req.start ?? 1), stored: false });
    }
    // Candidates, checked against the store and against each other, until
    // every mint has a free one or is refused.
    const tries = group.map(() => 0);
    const claimed = new Set<string>();
    let open = group.map((_, i) => i);
    while (open.length > 0) {
      const proposed: number[] = [];
      for (const i of open) {
        const req = group[i]!.req;
        if (req.mode === 'random' && (req.alphabet ?? DIGITS).length === 0) { refused[i] = new MintError('the alphabet is empty', 'bad-alphabet'); continue; }
        if (tries[i]!++ >= (req.mode === 'counter' ? COUNTER_SKIPS : RANDOM_TRIES)) { refused[i] = new MintError(`no free name under "${req.prefix}" after ${tries[i]! - 1} tries`, 'no-free-name'); continue; }
        try {
          const c = counters.get(req.prefix);
          const urn = candidate(req, c !== undefined ? c.next++ : 0);
          picked[i] = { urn, key: checkNewName(urn).key };
          proposed.push(i);
        } catch (e) {
          // A prefix that makes no name the store takes (validate.ts: reserved, too long) or no valid URN.
          if (e instanceof InputError) refused[i] = new MintError(`no name the store takes under "${req.prefix}": ${e.message}`, e.code ?? 'invalid-name', e.offset);
          else if (e instanceof UriError) refused[i] = new MintError(`no valid name under "${req.prefix}": ${e.message}`, e.code, e.offset);
          else throw e;
        }
      }
      const taken = await this.#existing(w, proposed.map((i) => picked[i]!.key));
      open = [];
      for (const i of proposed) {
        const { key } = picked[i]!;
        if (taken.has(key) || claimed.has(key)) open.push(i);
        else claimed.add(key);
      }
    }
    // The free names, written as one batch per actor.
    const byActor = new Map<string | undefined, Array<{ i: number; key: string; input: NameInput }>>();
    group.forEach((m, i) => {
      const p = picked[i];
      if (refused[i] !== undefined || p === undefined) return;
      const input: NameInput = m.req.record !== undefined ? { ...m.req.record, urn: p.urn } : { status: 'reserved', urn: p.urn };
      byActor.set(m.actor, [...(byActor.get(m.actor) ?? []), { i, key: p.key, input }]);
    });
    for (const [actor, entries] of byActor) {
      const res = await this.#writer.writeBatchIn(w, entries, actor);
      // A batch whose moves made a chain too long stops half written (writer.ts): the group's transaction rolls back.
      const stopped = res.refused.find((r) => r.code === 'chain-too-long');
      if (stopped) throw stopped;
      for (const r of res.refused) refused[entries.find((e) => e.key === r.key)!.i] = r;
    }
    for (const [prefix, c] of counters) {
      if (c.stored) await w.trx.updateTable('mint_counters').set({ next: c.next }).where('prefix', '=', prefix).execute();
      else await w.trx.insertInto('mint_counters').values({ prefix, next: c.next }).execute();
    }
    const written = await this.#records(w, group.flatMap((_, i) => (refused[i] === undefined ? [picked[i]!.key] : [])));
    return group.map((_, i) => refused[i] ?? { op: 'create' as const, record: written.get(picked[i]!.key)! });
  }

  /** The keys of `keys` the store holds. */
  async #existing(w: WriteScope, keys: string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let i = 0; i < keys.length; i += 500) {
      for (const r of await w.trx.selectFrom('names').select('key').where('key', 'in', keys.slice(i, i + 500)).execute()) found.add(r.key);
    }
    return found;
  }

  /** The records of `keys`, as just written. */
  async #records(w: WriteScope, keys: string[]): Promise<Map<string, NameRecord>> {
    const found = new Map<string, NameRecord>();
    for (let i = 0; i < keys.length; i += 500) {
      for (const r of await w.trx.selectFrom('names').selectAll().where('key', 'in', keys.slice(i, i + 500)).execute()) found.set(r.key, rowToRecord(r));
    }
    return found;
  }
}
