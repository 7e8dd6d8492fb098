/**
 * The laws of the lifecycle (lifecycle.ts), for any sequence of admin
 * writes over a few names (under the 1995 draft's dns SchemeID, in any
 * case, and another NID), on both engines: no chain of moves ever comes
 * back on itself, through case variants of a name (one key, store/keys.ts)
 * or this resolver's own URL for it, a withdrawn name is never given new locations (only a
 * reinstatement follows a withdrawal, and it brings back the record from
 * before), and a refused write changes nothing.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LifecycleError, nameKey, openStore, type NameRecord, type Store } from '../../src/store/index.js';
import { testEngines } from '../helpers/engines.js';
import { storeSnapshot } from '../helpers/snapshot.js';

/** Names are picked by index; each run of the property gets names of its own (one store serves every run). */
type Op =
  | { op: 'put'; key: number; url: number; upper: boolean }
  | { op: 'reserve'; key: number }
  | { op: 'move'; key: number; to: { key: number; upper: boolean; own: boolean } | 'url' }
  | { op: 'withdraw'; key: number }
  | { op: 'reinstate'; key: number };

const key = fc.integer({ min: 0, max: 3 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('put' as const), key, url: fc.integer({ min: 0, max: 2 }), upper: fc.boolean() }),
  fc.record({ op: fc.constant('reserve' as const), key }),
  fc.record({ op: fc.constant('move' as const), key, to: fc.oneof(fc.record({ key, upper: fc.boolean(), own: fc.boolean() }), fc.constant('url' as const)) }),
  fc.record({ op: fc.constant('withdraw' as const), key }),
  fc.record({ op: fc.constant('reinstate' as const), key }),
);

/** This resolver's own URL for a name, in the tests: a move there is a move to the name. */
const OWN = 'http://self.example/';
const ownUrn = (url: string) => (url.startsWith(OWN) ? url.slice(OWN.length) : undefined);

async function apply(store: Store, names: string[], o: Op): Promise<void> {
  const n = names[o.key]!;
  const k = nameKey(n).key;
  if (o.op === 'put') await store.writer.put(k, { urn: o.upper ? n.toUpperCase() : n, locations: [{ url: `http://a.example/${o.url}` }] });
  else if (o.op === 'reserve') await store.writer.put(k, { urn: n, status: 'reserved' });
  else if (o.op === 'move') {
    const to = o.to === 'url' ? 'http://elsewhere.example/' : o.to.upper ? names[o.to.key]!.toUpperCase() : names[o.to.key]!;
    await store.writer.move(k, { to: o.to !== 'url' && o.to.own ? OWN + to : to });
  }
  else if (o.op === 'withdraw') await store.writer.withdraw(k);
  else await store.writer.reinstate(k);
}

/** A chain of moves from `start` that visits a name twice, if there is one. */
async function cycleFrom(store: Store, start: string): Promise<string[] | undefined> {
  const seen: string[] = [start];
  let r: NameRecord | undefined = await store.names.get(start);
  while (r?.status === 'moved' && r.movedTo !== undefined && (r.movedTo.toLowerCase().startsWith('urn:') || ownUrn(r.movedTo) !== undefined)) {
    const next = nameKey(ownUrn(r.movedTo) ?? r.movedTo).key;
    if (seen.includes(next)) return [...seen, next];
    seen.push(next);
    r = await store.names.get(next);
  }
  return undefined;
}

const engines = await testEngines('lifecycle-property.test');
afterAll(async () => { for (const e of engines) await e.cleanup(); });

for (const engine of engines) {
  const suite = engine.unavailable !== undefined ? describe.skip : describe;
  suite(`${engine.name}: the lifecycle under any sequence of admin writes`, () => {
    let store: Store;
    beforeAll(async () => {
      store = await openStore(engine.freshDb(), { nameCacheBytes: 1 << 22 });
      store.writer.addOwnUrls(ownUrn);
    });
    afterAll(async () => { await store?.close(); });

    it('leaves a withdrawn name as it was when another name moves to it, and gives the reinstated name that link', async () => {
      const [b, d] = ['urn:example:fixed-b', 'urn:example:fixed-d'];
      await store.writer.put(b, { urn: b, locations: [{ url: 'http://a.example/0' }] });
      await store.writer.put(d, { urn: d, status: 'reserved' });
      await store.writer.withdraw(d);
      await store.writer.move(b, { to: d });
      expect((await store.history.versions(d)).map((v) => v.op)).toEqual(['create', 'withdraw']);
      await expect(store.writer.reinstate(d)).resolves.toMatchObject({ op: 'reinstate', record: { status: 'reserved', movedFrom: [b] } });
    });

    it('leaves no redirect cycle, no withdrawn name with new locations, and nothing of a refused write', async () => {
      let run = 0;
      await fc.assert(fc.asyncProperty(fc.array(op, { maxLength: 25 }), async (ops) => {
        const keys = [`urn:example:p${run}-a`, `urn:example:p${run}-b`, `urn:dns:lib.example:P${run}-Cc`, `urn:dns:lib.example:p${run}-dd`];
        run++;
        for (const o of ops) {
          const before = await storeSnapshot(store);
          try {
            await apply(store, keys, o);
          } catch (e) {
            if (!(e instanceof LifecycleError)) throw e;
            expect(await storeSnapshot(store)).toBe(before);
          }
          for (const k of keys) expect(await cycleFrom(store, nameKey(k).key)).toBeUndefined();
        }
        for (const k of keys.map((n) => nameKey(n).key)) {
          const versions = await store.history.versions(k);
          versions.forEach((v, i) => {
            if (i === 0 || versions[i - 1]!.record.status !== 'withdrawn') return;
            // After a withdrawal: only a reinstatement, to the record from before it.
            expect(v.op).toBe('reinstate');
            const prior = versions.slice(0, i).reverse().find((p) => p.record.status !== 'withdrawn');
            expect(v.record.locations).toEqual(prior?.record.locations);
          });
        }
      }), { numRuns: engine.name === 'postgres' ? 30 : 60 });
    }, 300_000);
  });
}
