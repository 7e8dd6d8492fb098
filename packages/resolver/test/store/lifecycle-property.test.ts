/**
 * The laws of the lifecycle (lifecycle.ts), for any sequence of admin
 * writes over a few names: no chain of moves ever comes back on itself,
 * a withdrawn name is never given new locations (only a reinstatement
 * follows a withdrawal, and it brings back the record from before), and
 * a refused write changes nothing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LifecycleError, nameKey, openStore, type NameRecord, type Store } from '../../src/store/index.js';
import { storeSnapshot } from '../helpers/snapshot.js';

const KEYS = ['urn:example:a', 'urn:example:b', 'urn:example:c', 'urn:example:d'];

type Op =
  | { op: 'put'; key: string; url: number }
  | { op: 'reserve'; key: string }
  | { op: 'move'; key: string; to: string }
  | { op: 'withdraw'; key: string }
  | { op: 'reinstate'; key: string };

const key = fc.constantFrom(...KEYS);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('put' as const), key, url: fc.integer({ min: 0, max: 2 }) }),
  fc.record({ op: fc.constant('reserve' as const), key }),
  fc.record({ op: fc.constant('move' as const), key, to: fc.oneof(key, key.map((k) => k.toUpperCase()), fc.constant('http://elsewhere.example/')) }),
  fc.record({ op: fc.constant('withdraw' as const), key }),
  fc.record({ op: fc.constant('reinstate' as const), key }),
);

async function apply(store: Store, o: Op): Promise<void> {
  if (o.op === 'put') await store.writer.put(o.key, { urn: o.key, locations: [{ url: `http://a.example/${o.url}` }] });
  else if (o.op === 'reserve') await store.writer.put(o.key, { urn: o.key, status: 'reserved' });
  else if (o.op === 'move') await store.writer.move(o.key, { to: o.to });
  else if (o.op === 'withdraw') await store.writer.withdraw(o.key);
  else await store.writer.reinstate(o.key);
}

/** A chain of moves from `start` that visits a name twice, if there is one. */
async function cycleFrom(store: Store, start: string): Promise<string[] | undefined> {
  const seen: string[] = [start];
  let r: NameRecord | undefined = await store.names.get(start);
  while (r?.status === 'moved' && r.movedTo?.toLowerCase().startsWith('urn:')) {
    const next = nameKey(r.movedTo).key;
    if (seen.includes(next)) return [...seen, next];
    seen.push(next);
    r = await store.names.get(next);
  }
  return undefined;
}

describe('sqlite: the lifecycle under any sequence of admin writes', () => {
  it('leaves no redirect cycle, no withdrawn name with new locations, and nothing of a refused write', async () => {
    await fc.assert(fc.asyncProperty(fc.array(op, { maxLength: 25 }), async (ops) => {
      const store = await openStore(':memory:');
      try {
        for (const o of ops) {
          const before = await storeSnapshot(store);
          try {
            await apply(store, o);
          } catch (e) {
            if (!(e instanceof LifecycleError)) throw e;
            expect(await storeSnapshot(store)).toBe(before);
          }
          for (const k of KEYS) expect(await cycleFrom(store, k)).toBeUndefined();
        }
        for (const k of KEYS) {
          const versions = await store.history.versions(k);
          versions.forEach((v, i) => {
            if (i === 0 || versions[i - 1]!.record.status !== 'withdrawn') return;
            // After a withdrawal: only a reinstatement, to the record from before it.
            expect(v.op).toBe('reinstate');
            const prior = versions.slice(0, i).reverse().find((p) => p.record.status !== 'withdrawn');
            expect(v.record.locations).toEqual(prior?.record.locations);
          });
        }
      } finally {
        await store.close();
      }
    }), { numRuns: 60 });
  }, 120_000);
});
