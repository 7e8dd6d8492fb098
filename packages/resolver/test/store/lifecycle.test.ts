/**
 * The lifecycle of a name on both engines: every transition of the table
 * allowed or refused as lifecycle-cases.json says, a refused one leaving
 * the store byte-identical (its export, history, rules and registry).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importNames, LifecycleError, openStore, type NameInput, type Store, type WriteResult } from '../../src/store/index.js';
import { testEngines } from '../helpers/engines.js';
import { storeSnapshot } from '../helpers/snapshot.js';

type Write =
  | { put: Omit<NameInput, 'urn'> }
  | { move: { to: string; permanent?: boolean; reason?: string } }
  | { withdraw: { reason?: string } }
  | { reinstate: { reason?: string } };

interface Cases {
  states: Record<string, Write[]>;
  cases: Array<{ from: string; write: Write; expect: string }>;
  cycles: Array<{ name: string; moves: Array<[string, string]>; expect: string[] }>;
}

const CHANGES = new Set(['create', 'update', 'move', 'withdraw', 'reinstate']);
const data = JSON.parse(readFileSync(new URL('./lifecycle-cases.json', import.meta.url), 'utf8')) as Cases;

/** Runs one write; its outcome as the table names it. */
async function outcome(store: Store, key: string, write: Write): Promise<string> {
  let r: WriteResult | undefined;
  try {
    if ('put' in write) r = await store.writer.put(key, { urn: key, ...write.put });
    else if ('move' in write) r = await store.writer.move(key, write.move);
    else if ('withdraw' in write) r = await store.writer.withdraw(key, write.withdraw);
    else r = await store.writer.reinstate(key, write.reinstate);
  } catch (e) {
    if (e instanceof LifecycleError) return e.code;
    throw e;
  }
  return r === undefined ? 'not-found' : r.op;
}

const engines = await testEngines('lifecycle.test');
afterAll(async () => { for (const e of engines) await e.cleanup(); });

for (const engine of engines) {
  const suite = engine.unavailable !== undefined ? describe.skip : describe;
  suite(`${engine.name}: the lifecycle of a name`, () => {
    let store: Store;
    beforeAll(async () => { store = await openStore(engine.freshDb()); });
    afterAll(async () => { await store?.close(); });

    data.cases.forEach((c, i) => {
      it(`${c.from} + ${JSON.stringify(c.write)} -> ${c.expect}`, async () => {
        const key = `urn:example:t${i}`;
        for (const step of data.states[c.from]!) expect(CHANGES.has(await outcome(store, key, step))).toBe(true);
        const before = await storeSnapshot(store);
        const got = await outcome(store, key, c.write);
        expect(got).toBe(c.expect);
        // A change is recorded as such; anything else (refused, unchanged, not found) leaves the store as it was.
        if (CHANGES.has(got)) expect((await store.history.versions(key)).at(-1)?.op).toBe(got);
        else expect(await storeSnapshot(store)).toBe(before);
      });
    });

    it('a reinstatement brings back the record the name had before it was withdrawn, and keeps the history', async () => {
      const key = 'urn:example:back';
      await store.writer.put(key, { urn: key, locations: [{ url: 'http://a.example/back' }], metadata: { title: 'Back' } });
      await store.writer.withdraw(key, { reason: 'mistake' });
      const r = await store.writer.reinstate(key, { reason: 'withdrawn by mistake' });
      expect(r?.record).toMatchObject({ status: 'active', locations: [{ url: 'http://a.example/back' }], metadata: { title: 'Back' }, reason: 'withdrawn by mistake', version: 3 });
      expect((await store.history.versions(key)).map((e) => e.op)).toEqual(['create', 'withdraw', 'reinstate']);
      // A name registered withdrawn had nothing before: nothing to reinstate.
      await store.writer.put('urn:example:born-dead', { urn: 'urn:example:born-dead', status: 'withdrawn' });
      await expect(store.writer.reinstate('urn:example:born-dead')).rejects.toMatchObject({ code: 'nothing-to-reinstate' });
    });

    for (const c of data.cycles) {
      it(`redirect chains: ${c.name}`, async () => {
        for (const [from] of c.moves) await store.writer.put(from, { urn: from, locations: [{ url: `http://a.example/${from}` }] });
        const got: string[] = [];
        for (const [from, to] of c.moves) {
          const before = await storeSnapshot(store);
          got.push(await outcome(store, from, { move: { to } }));
          if (got.at(-1) === 'redirect-cycle') expect(await storeSnapshot(store)).toBe(before);
        }
        expect(got).toEqual(c.expect);
      });
    }

    it('an import is checked as single writes are, against the store and its own earlier lines, all or nothing', async () => {
      await store.writer.put('urn:example:i1', { urn: 'urn:example:i1', locations: [{ url: 'http://a.example/i1' }] });
      await store.writer.withdraw('urn:example:i1', { reason: 'gone' });
      const before = await storeSnapshot(store);
      const lines = (xs: object[]) => xs.map((x) => JSON.stringify(x)).join('\n');
      const withdrawn = await importNames(store, lines([{ urn: 'urn:example:i2', locations: ['http://a.example/i2'] }, { urn: 'urn:example:i1', status: 'active', locations: ['http://other.example/i1'] }]), { format: 'ndjson' });
      expect(withdrawn).toMatchObject({ ok: false, created: 0, errors: [{ line: 2, code: 'withdrawn-name' }] });
      const cycle = await importNames(store, lines([{ urn: 'urn:example:i3', movedTo: 'urn:example:i4' }, { urn: 'urn:example:i4', movedTo: 'urn:example:i3' }]), { format: 'ndjson' });
      expect(cycle).toMatchObject({ ok: false, errors: [{ line: 2, code: 'redirect-cycle' }] });
      expect(await storeSnapshot(store)).toBe(before);
    });
  });
}
