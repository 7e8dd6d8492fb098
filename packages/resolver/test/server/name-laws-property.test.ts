/**
 * Laws of names and moves between them, on both engines: random sequences
 * of PUT, import lines, moves (to another name in any case, to this
 * resolver's own URL for it in each request form, or away), withdrawals
 * and reinstatements on a few urn:dns: names written in random case.
 * After every request:
 *
 * - no name resolves in a loop: a client following each name's redirects
 *   through the server ends (1995 draft §4; lifecycle.ts, the cycle check);
 * - one name, one key (1995 draft §2.3.1, store/keys.ts): the store holds
 *   at most one spelling of each name, the first one written;
 * - every refusal is one the reference calls for: a move refused as a
 *   `redirect-cycle` would have closed a loop, a write refused as a
 *   `case-variant` named a spelling other than the one held;
 * - the store equals the reference, which takes every write the server
 *   acknowledged: each name's status, target and locations, and nothing
 *   else changed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { createToken } from '../../src/store/index.js';
import { testEngines } from '../helpers/engines.js';
import { get } from '../helpers/http.js';

const AUTHORITY = 'urn:dns:laws.example';
const ELEMENTS = ['alpha', 'beta', 'gamma'];

type Target = { kind: 'name'; name: number; caseOf: number[]; form: 'urn' | 'own-urn' | 'own-n2l' | 'own-element' } | { kind: 'away' };
type Op =
  | { kind: 'put' | 'import'; name: number; caseOf: number[]; moveTo?: Target }
  | { kind: 'move'; name: number; caseOf: number[]; to: Target }
  | { kind: 'withdraw' | 'reinstate'; name: number; caseOf: number[] };

/** `s` with the letters at the positions `flips` names in upper case. */
const spell = (s: string, flips: number[]): string => [...s].map((c, i) => (flips.includes(i % 8) ? c.toUpperCase() : c)).join('');
/** Name `name` of run `tag`, spelled with the letters at `caseOf` in upper case ("urn:DNS:" when the authority is). */
const urnOf = (name: number, caseOf: number[], tag: string): string => {
  const authority = spell(AUTHORITY.slice(8), caseOf);
  return `${authority === AUTHORITY.slice(8) ? 'urn:dns' : 'urn:DNS'}:${authority}:${spell(`${tag}-${ELEMENTS[name]}`, caseOf)}`;
};
/** The key of name `name` of run `tag` (store/keys.ts: a urn:dns: name in lower case). */
const keyOf = (name: number, tag: string): string => `${AUTHORITY}:${tag}-${ELEMENTS[name]}`;

const caseOf = fc.array(fc.integer({ min: 0, max: 7 }), { maxLength: 3 });
const name = fc.integer({ min: 0, max: ELEMENTS.length - 1 });
const target: fc.Arbitrary<Target> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('name' as const), name, caseOf, form: fc.constantFrom('urn' as const, 'own-urn' as const, 'own-n2l' as const, 'own-element' as const) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'away' as const }) },
);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constantFrom('put' as const, 'import' as const), name, caseOf, moveTo: fc.option(target, { nil: undefined }) }, { requiredKeys: ['kind', 'name', 'caseOf'] }),
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('move' as const), name, caseOf, to: target }) },
  fc.record({ kind: fc.constantFrom('withdraw' as const, 'reinstate' as const), name, caseOf }),
);

/** A name as the reference holds it: the spelling first written, its state, where it moved (a name's index, or away). */
interface Held { spelling: string; status: 'active' | 'moved' | 'withdrawn'; to?: number | 'away'; before?: Omit<Held, 'before'> }

/** Where a move leads, for the reference: another of the names (whatever the URL's form), or away. */
const leadsTo = (t: Target): number | 'away' => (t.kind === 'name' ? t.name : 'away');

/** True if `from` moving to `to` closes a loop among the names the reference holds. */
function closesLoop(names: Map<number, Held>, from: number, to: number | 'away'): boolean {
  const seen = new Set([from]);
  for (let at = to; at !== 'away';) {
    if (seen.has(at)) return true;
    seen.add(at);
    const h = names.get(at);
    if (h?.status !== 'moved' || h.to === undefined) return false;
    at = h.to;
  }
  return false;
}

const engines = await testEngines('name-laws-property.test');
afterAll(async () => { for (const e of engines) await e.cleanup(); });

for (const engine of engines) {
  const suite = engine.unavailable !== undefined ? describe.skip : describe;
  suite(`${engine.name}: names, case and moves against a reference`, () => {
    let server: RunningServer;
    let token: string;
    let run = 0;

    beforeAll(async () => {
      server = await startServer({ port: 0, db: engine.freshDb(), rateLimit: false, adminRateLimit: false, checkLinks: false, authority: AUTHORITY });
      token = (await createToken(server.store, { authority: '*' })).token;
    });
    afterAll(async () => { await server?.close(); });

    const auth = () => ({ authorization: `Bearer ${token}` });
    /** The URL or URN a move is sent with. */
    const sent = (t: Target, tag: string): string => {
      if (t.kind === 'away') return 'https://elsewhere.example/moved';
      const urn = urnOf(t.name, t.caseOf, tag);
      if (t.form === 'urn') return urn;
      if (t.form === 'own-urn') return `${server.url}/${urn}`;
      if (t.form === 'own-n2l') return `${server.url}/uri-res/N2L?${urn}`;
      return `${server.url}/${urn.slice(urn.lastIndexOf(':') + 1)}`;
    };

    /** Sends one request; its status and the refusal's code. */
    const send = async (o: Op, tag: string): Promise<{ status: number; code?: string }> => {
      const urn = urnOf(o.name, o.caseOf, tag);
      const headers = { ...auth(), 'content-type': 'application/json' };
      const record = (moveTo?: Target) => (moveTo === undefined ? { status: 'active', locations: [`http://a.example/${o.name}`] } : { status: 'moved', movedTo: sent(moveTo, tag) });
      let r;
      if (o.kind === 'put') r = await get(server.url, `/admin/names/${urn}`, headers, { method: 'PUT', body: JSON.stringify(record(o.moveTo)) });
      else if (o.kind === 'import') {
        r = await get(server.url, '/admin/import', { ...headers, 'content-type': 'application/x-ndjson' }, { method: 'POST', body: `${JSON.stringify({ urn, ...record(o.moveTo) })}\n` });
        const j = JSON.parse(r.text) as { ok: boolean; errors?: Array<{ code?: string }> };
        return j.ok ? { status: 200 } : { status: 409, ...(j.errors?.[0]?.code !== undefined ? { code: j.errors[0].code } : {}) };
      } else if (o.kind === 'move') r = await get(server.url, `/admin/move/${urn}`, headers, { method: 'POST', body: JSON.stringify({ to: sent(o.to, tag) }) });
      else r = await get(server.url, `/admin/${o.kind}/${urn}`, headers, { method: 'POST', body: '{}' });
      return r.status < 300 ? { status: r.status } : { status: r.status, code: (JSON.parse(r.text) as { code?: string }).code! };
    };

    /** The URLs a client visits following the redirects of `path` on this server, to the first one elsewhere. */
    const follow = async (path: string): Promise<string[]> => {
      const seen: string[] = [];
      let url = new URL(path, server.url).href;
      while (url.startsWith(server.url)) {
        if (seen.includes(url)) throw new Error(`a redirect loop: ${[...seen, url].join(' -> ')}`);
        seen.push(url);
        const r = await get(server.url, url.slice(server.url.length));
        const location = r.headers.get('location');
        if (r.status < 300 || r.status > 399 || location === null) break;
        url = new URL(location, url).href;
      }
      return seen;
    };

    it('no loop, one key, every refusal called for, the store as the reference', async () => {
      await fc.assert(fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
        // Each run writes names of its own: ElementIDs that begin with the run's number.
        const tag = `r${++run}`;
        const names = new Map<number, Held>();
        for (const [i, o] of ops.entries()) {
          const step = `step ${i}: ${JSON.stringify(o)}`;
          const got = await send(o, tag);
          const held = names.get(o.name);
          const spelling = urnOf(o.name, o.caseOf, tag);
          if (got.status >= 300) {
            // A refusal the reference calls for.
            if (got.code === 'case-variant') expect(held !== undefined && held.spelling !== spelling, step).toBe(true);
            else if (got.code === 'redirect-cycle') {
              // A reinstatement brings back the record before the withdrawal: a move, if it was one, may close a loop.
              const to = o.kind === 'move' ? leadsTo(o.to)
                : o.kind === 'reinstate' ? (held?.before?.status === 'moved' ? held.before.to! : 'away')
                  : o.kind !== 'withdraw' && o.moveTo !== undefined ? leadsTo(o.moveTo) : 'away';
              expect(closesLoop(names, o.name, to), step).toBe(true);
            } else expect(['not-withdrawn', 'nothing-to-reinstate', 'status-not-stated', 'withdrawn-name', 'never-active', undefined], `${step}: ${got.status} ${got.code}`).toContain(got.code);
            if (got.status === 404) expect(held, step).toBeUndefined();
          } else if (o.kind === 'put' || o.kind === 'import') {
            names.set(o.name, { spelling: held?.spelling ?? spelling, ...(o.moveTo === undefined ? { status: 'active' } : { status: 'moved', to: leadsTo(o.moveTo) }) });
          } else if (o.kind === 'move') names.set(o.name, { spelling: held!.spelling, status: 'moved', to: leadsTo(o.to), before: held! });
          // A withdrawal keeps the record before the first one: a reinstatement brings that back (writer.ts reinstate).
          else if (o.kind === 'withdraw') { if (held!.status !== 'withdrawn') names.set(o.name, { spelling: held!.spelling, status: 'withdrawn', before: held! }); }
          else names.set(o.name, { ...held!.before!, spelling: held!.spelling });
          // After every request: no loop from any name, one spelling a key, the store as the reference.
          for (let n = 0; n < ELEMENTS.length; n++) await follow(`/${keyOf(n, tag)}`);
          const listed = JSON.parse((await get(server.url, `/admin/names?prefix=${AUTHORITY}:${tag}-`, auth())).text) as { items: Array<{ urn: string; status: string; movedTo?: string }> };
          const mine = listed.items;
          expect(new Set(mine.map((r) => r.urn.toLowerCase())).size, step).toBe(mine.length);
          for (const [n, h] of names) {
            const r = mine.find((x) => x.urn.toLowerCase() === keyOf(n, tag));
            expect(r, `${step}: name ${n}`).toMatchObject({ urn: h.spelling, status: h.status });
          }
          expect(mine.length, step).toBe(names.size);
        }
      }), { numRuns: engine.name === 'sqlite' ? 40 : 20 });
    }, 300_000);
  });
}
