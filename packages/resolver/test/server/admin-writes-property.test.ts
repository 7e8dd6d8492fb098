/**
 * A law of the admin writes, on both engines: random sequences of PUT,
 * PATCH, move, withdraw, reinstate, reserve and import on a few names leave the
 * store equal to an in-memory reference of what each request names, and
 * nothing more (DESIGN.md: "Admin writes never change what the request
 * did not name"): every answer's status and change, and every record
 * after it, are the reference's. The targets of moves and successors lie
 * outside the names written, so that links between names (links.ts) and
 * cycles (lifecycle.ts) stay out of the reference.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { createToken, LIFECYCLE } from '../../src/store/index.js';
import { applyMergePatch } from '../../src/formats/merge-patch.js';
import { testEngines } from '../helpers/engines.js';

type Status = 'active' | 'moved' | 'withdrawn' | 'reserved';
/** A record as written: the members a client sends, `undefined` when absent. */
interface Rec { status: Status; locations: Array<{ url: string }>; metadata?: Record<string, unknown>; movedTo?: string; permanent?: boolean; successor?: string; reason?: string }
interface Held { rec: Rec; version: number; history: Array<{ op: string; rec: Rec }> }
type Op =
  | { kind: 'put' | 'import'; name: number; body: Partial<Rec> }
  | { kind: 'patch'; name: number; patch: Record<string, unknown> }
  | { kind: 'move'; name: number; to: string; permanent: boolean }
  | { kind: 'withdraw'; name: number; reason?: string }
  | { kind: 'reinstate'; name: number };
/** What the server answers: an HTTP status, and the change or the refusal's code. */
interface Outcome { status: number; op?: string; code?: string }

const NAMES = 3;
const OPS = new Set(['create', 'update', 'move', 'withdraw', 'reinstate']);

// Values from small sets, so that writes often repeat (unchanged) and collide.
const url = fc.constantFrom('http://a.example/1', 'http://a.example/2', 'https://b.example/x');
const elsewhere = fc.constantFrom('urn:example:elsewhere-1', 'urn:example:elsewhere-2', 'http://c.example/moved');
const locations = fc.array(url.map((u) => ({ url: u })), { maxLength: 2 });
const metadata = fc.dictionary(fc.constantFrom('title', 'year', 'lang'), fc.oneof(fc.constantFrom('A', 'B'), fc.integer({ min: 1990, max: 1992 })), { maxKeys: 2 });
const reason = fc.constantFrom('retracted', 'renumbered');
const name = fc.integer({ min: 0, max: NAMES - 1 });
const optional = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
/** A status with what it needs (validate.ts: a moved name has "movedTo"), or none. */
const statusFields = fc.oneof(
  fc.constant({}),
  fc.constantFrom('active', 'reserved', 'withdrawn').map((status) => ({ status: status as Status })),
  fc.record({ status: fc.constant('moved' as const), movedTo: elsewhere, permanent: optional(fc.boolean()) }, { requiredKeys: ['status', 'movedTo'] }),
);
const put = fc.record({ kind: fc.constantFrom('put' as const, 'import' as const), name, status: statusFields, locations: optional(locations), metadata: optional(metadata), successor: optional(elsewhere), reason: optional(reason) })
  .map(({ kind, name: n, status, ...rest }): Op => ({ kind, name: n, body: drop({ ...status, ...rest }) }));
const patch = fc.record({
  name,
  status: statusFields,
  locations: optional(fc.oneof(locations, fc.constant(null))),
  metadata: optional(fc.oneof(metadata, fc.constant(null), fc.record({ year: fc.constant(null) }))),
  successor: optional(fc.oneof(elsewhere, fc.constant(null))),
  reason: optional(fc.oneof(reason, fc.constant(null))),
}).map(({ name: n, status, ...rest }): Op => ({ kind: 'patch', name: n, patch: drop({ ...status, ...rest }) }));
const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: put, weight: 3 },
  { arbitrary: patch, weight: 3 },
  fc.record({ name, to: elsewhere, permanent: fc.boolean() }).map((o): Op => ({ kind: 'move', ...o })),
  fc.record({ name, reason: optional(reason) }).map((o): Op => ({ kind: 'withdraw', ...drop(o) })),
  name.map((n): Op => ({ kind: 'reinstate', name: n })),
);

/** `o` without its undefined members. */
function drop<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** A record as the writer compares two (records.ts recordData: status and its data in a fixed order). */
function content(r: Rec): string {
  return JSON.stringify([r.status, drop({ locations: r.locations, metadata: r.metadata, movedTo: r.movedTo, permanent: r.permanent, successor: r.successor, reason: r.reason })]);
}

/** The record a write of `input` gives (store/records.ts nextRecord, validate.ts). */
function recordOf(input: Partial<Rec>): Rec {
  const status = input.status ?? (input.movedTo !== undefined ? 'moved' : 'active');
  return drop({ ...input, status, locations: input.locations ?? [] }) as Rec;
}

/** The reference: what each request does to the names it names, and nothing more. */
class Reference {
  readonly names = new Map<number, Held>();

  apply(o: Op): Outcome {
    const held = this.names.get(o.name);
    switch (o.kind) {
      case 'put':
        // A whole record states the status of a name that is not active (lifecycle.ts checkStatedStatus).
        if (held && o.body.status === undefined && held.rec.status !== 'active') return { status: 409, code: 'status-not-stated' };
        return this.#write(o.name, held, recordOf(o.body), held ? 200 : 201);
      case 'import': {
        // An import line is a PUT of its record; the report counts what it did, or lists why not (422).
        const put = this.apply({ ...o, kind: 'put' });
        if (put.status === 409) return { status: 422, code: put.code! };
        return { status: 200, op: put.op === 'unchanged' ? 'unchanged' : held ? 'updated' : 'created' };
      }
      case 'patch': {
        if (!held) return { status: 404 };
        const merged = applyMergePatch(held.rec, o.patch) as Partial<Rec>;
        if (merged.status === 'moved' && merged.movedTo === undefined) return { status: 400 };
        return this.#write(o.name, held, recordOf(merged), 200);
      }
      case 'move':
        if (!held) return { status: 404 };
        return this.#write(o.name, held, { ...held.rec, status: 'moved', movedTo: o.to, permanent: o.permanent }, 200);
      case 'withdraw':
        if (!held) return { status: 404 };
        return this.#write(o.name, held, drop({ ...held.rec, status: 'withdrawn' as const, ...(o.reason !== undefined ? { reason: o.reason } : {}) }), 200);
      case 'reinstate': {
        if (!held) return { status: 404 };
        if (held.rec.status !== 'withdrawn') return { status: 409, code: 'not-withdrawn' };
        // The record before the last withdrawal (writer.ts reinstate).
        const prior = held.history.filter((h) => h.op !== 'withdraw').at(-1);
        if (!prior) return { status: 409, code: 'nothing-to-reinstate' };
        return this.#commit(o.name, held, prior.rec, 'reinstate', 200);
      }
    }
  }

  #write(n: number, held: Held | undefined, next: Rec, created: number): Outcome {
    if (held && content(held.rec) === content(next)) return { status: 200, op: 'unchanged' };
    const change = LIFECYCLE[held?.rec.status ?? 'none'][next.status];
    if (!OPS.has(change)) return { status: 409, code: change };
    return this.#commit(n, held, next, change, created);
  }

  #commit(n: number, held: Held | undefined, rec: Rec, op: string, status: number): Outcome {
    this.names.set(n, { rec, version: (held?.version ?? 0) + 1, history: [...(held?.history ?? []), { op, rec }] });
    return { status, op };
  }
}

/** A record as the admin API shows it, from the reference (render.ts recordJson). */
function shown(h: Held): Record<string, unknown> {
  const r = h.rec;
  return drop({ status: r.status, locations: r.locations, metadata: r.metadata, movedTo: r.movedTo, permanent: r.movedTo !== undefined ? r.permanent ?? false : undefined, successor: r.successor, reason: r.reason, version: h.version });
}

const engines = await testEngines('admin-writes-property.test');
afterAll(async () => { for (const e of engines) await e.cleanup(); });

for (const engine of engines) {
  const suite = engine.unavailable !== undefined ? describe.skip : describe;
  suite(`${engine.name}: admin writes against a reference`, () => {
    let server: RunningServer;
    let token: string;
    let run = 0;

    beforeAll(async () => {
      server = await startServer({ port: 0, db: engine.freshDb(), rateLimit: false, adminRateLimit: false, checkLinks: false });
      token = (await createToken(server.store, { authority: 'urn:example' })).token;
    });
    afterAll(async () => { await server?.close(); });

    /** Sends one request; its answer as an outcome, and the record it left. */
    const send = async (prefix: string, o: Op): Promise<Outcome> => {
      const urn = `${prefix}${o.name}`;
      if (o.kind === 'import') {
        const r = await server.app.inject({ method: 'POST', url: '/admin/import', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson' }, payload: `${JSON.stringify({ urn, ...o.body })}\n` });
        const j = r.json() as { created: number; updated: number; errors: Array<{ code?: string }> };
        return r.statusCode === 200 ? { status: 200, op: j.created > 0 ? 'created' : j.updated > 0 ? 'updated' : 'unchanged' } : drop({ status: r.statusCode, code: j.errors[0]?.code });
      }
      const [method, path, body, type] =
        o.kind === 'put' ? ['PUT', `/admin/names/${urn}`, o.body, 'application/json']
          : o.kind === 'patch' ? ['PATCH', `/admin/names/${urn}`, o.patch, 'application/merge-patch+json']
            : o.kind === 'move' ? ['POST', `/admin/move/${urn}`, { to: o.to, permanent: o.permanent }, 'application/json']
              : ['POST', `/admin/${o.kind}/${urn}`, o.kind === 'withdraw' && o.reason !== undefined ? { reason: o.reason } : {}, 'application/json'];
      const r = await server.app.inject({ method: method as 'PUT', url: path, headers: { authorization: `Bearer ${token}`, 'content-type': type }, payload: JSON.stringify(body) });
      const j = r.json() as { op?: string; code?: string };
      return drop({ status: r.statusCode, op: r.statusCode < 300 ? j.op : undefined, code: r.statusCode === 409 ? j.code : undefined });
    };

    it('every answer and every record is the reference\'s', async () => {
      await fc.assert(fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), async (ops) => {
        const prefix = `urn:example:run${++run}-n`;
        const ref = new Reference();
        for (const [i, o] of ops.entries()) {
          const expected = ref.apply(o);
          expect(await send(prefix, o), `step ${i}: ${JSON.stringify(o)}`).toEqual(expected);
          for (let n = 0; n < NAMES; n++) {
            const r = await server.app.inject({ url: `/admin/names/${prefix}${n}`, headers: { authorization: `Bearer ${token}` } });
            const held = ref.names.get(n);
            if (!held) { expect(r.statusCode).toBe(404); continue; }
            const { urn: _urn, key: _key, created: _c, updated: _u, ...got } = r.json() as Record<string, unknown>;
            expect(got, `name ${n} after step ${i}: ${JSON.stringify(o)}`).toEqual(shown(held));
          }
        }
      }), { numRuns: engine.name === 'sqlite' ? 60 : 30 });
    }, 300_000);
  });
}
