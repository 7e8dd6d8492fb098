/**
 * The resolution read on PostgreSQL (postgres-reader.ts, postgres-cache.ts):
 * the keys of one turn go in one batch and each gets its own row; the
 * name cache in front stays exact under writes by other stores on the
 * same database (other processes, other machines: nothing but the
 * database connects them), through a bulk import that outruns its
 * change list, and while writes and reads race.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { importNames, openStore, type Store } from '../../src/store/index.js';
import { TurnBatcher, type BatchSource, type Fetched } from '../../src/store/postgres-reader.js';
import { testEngines } from '../helpers/engines.js';

describe('TurnBatcher', () => {
  /** A source that records its batches and finds the names in `held`. */
  const recording = (held: Set<string>, batches: string[][], retryOnce = new Set<string>()): BatchSource => ({
    async fetch(keys) {
      batches.push(keys);
      const found: Fetched = new Map();
      for (const k of keys) {
        if (retryOnce.delete(k)) continue; // left out: asked again
        found.set(k, held.has(k) ? { key: k, urn: k, status: 'active', data: '{"locations":[]}', version: 1, created: 0, updated: 0 } : null);
      }
      return found;
    },
  });

  it('sends the keys of one turn together, once each, and answers every caller', async () => {
    const batches: string[][] = [];
    const b = new TurnBatcher(recording(new Set(['urn:ex:a', 'urn:ex:c']), batches), 2);
    const got = await Promise.all(['urn:ex:a', 'urn:ex:b', 'urn:ex:a', 'urn:ex:c'].map((k) => b.row(k)));
    expect(got.map((r) => r?.key)).toEqual(['urn:ex:a', undefined, 'urn:ex:a', 'urn:ex:c']);
    expect(batches).toEqual([['urn:ex:a', 'urn:ex:b', 'urn:ex:c']]);
  });

  it('keeps at most its batches in flight; the keys asked meanwhile wait for the next; a key left out is asked again', async () => {
    const batches: string[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    const source = recording(new Set(['urn:ex:a', 'urn:ex:b', 'urn:ex:c']), batches, new Set(['urn:ex:c']));
    const slow: BatchSource = { fetch: async (keys) => { await gate; return source.fetch(keys); } };
    const b = new TurnBatcher(slow, 1);
    const first = b.row('urn:ex:a');
    await new Promise((r) => setImmediate(r));
    const later = [b.row('urn:ex:b'), b.row('urn:ex:c')];
    await new Promise((r) => setImmediate(r));
    release();
    expect((await first)?.key).toBe('urn:ex:a');
    expect((await Promise.all(later)).map((r) => r?.key)).toEqual(['urn:ex:b', 'urn:ex:c']);
    expect(batches).toEqual([['urn:ex:a'], ['urn:ex:b', 'urn:ex:c'], ['urn:ex:c']]);
  });

  it('passes a failed batch\'s error to each of its callers, and goes on with the next', async () => {
    let fail = true;
    const b = new TurnBatcher({ fetch: async (keys) => { if (fail) throw new Error('connection lost'); return new Map(keys.map((k) => [k, null])); } }, 2);
    await expect(Promise.all([b.row('urn:ex:a'), b.row('urn:ex:b')])).rejects.toThrow('connection lost');
    fail = false;
    expect(await b.row('urn:ex:a')).toBeUndefined();
  });
});

const engines = await testEngines('postgres-reader.test');
const postgres = engines.find((e) => e.name === 'postgres')!;
afterAll(async () => { for (const e of engines) await e.cleanup(); });

const suite = postgres.unavailable !== undefined ? describe.skip : describe;
const put = (store: Store, key: string, url: string) => store.writer.put(key, { urn: key, locations: [{ url }] });
const urlOf = async (store: Store, key: string) => (await store.names.get(key))?.locations[0]?.url;

suite('postgres: the resolution read', () => {
  it('answers each key of a batch with its own row, and nothing for names it does not hold', async () => {
    const store = await openStore(postgres.freshDb());
    try {
      for (let i = 0; i < 50; i++) await put(store, `urn:example:b${i}`, `http://a.example/${i}`);
      const keys = Array.from({ length: 300 }, (_, i) => `urn:example:b${i % 60}`);
      const got = await Promise.all(keys.map((k) => urlOf(store, k)));
      expect(got).toEqual(keys.map((_, i) => (i % 60 < 50 ? `http://a.example/${i % 60}` : undefined)));
    } finally { await store.close(); }
  });

  for (const cached of [false, true]) {
    it(`${cached ? 'through the name cache: ' : ''}sees another store's writes at once, moves and withdrawals included`, async () => {
      const db = postgres.freshDb();
      const writer = await openStore(db);
      const reader = await openStore(db, { nameCacheBytes: cached ? 1 << 24 : 0 });
      try {
        for (let i = 0; i < 20; i++) await put(writer, `urn:example:s${i}`, `http://a.example/s${i}/0`);
        expect(await reader.nameCache?.warm()).toBe(cached ? 20 : undefined);
        for (let v = 1; v <= 10; v++) {
          await put(writer, 'urn:example:s3', `http://a.example/s3/${v}`);
          expect(await urlOf(reader, 'urn:example:s3')).toBe(`http://a.example/s3/${v}`);
        }
        await writer.writer.move('urn:example:s4', { to: 'urn:example:s5' });
        expect((await reader.names.get('urn:example:s4'))).toMatchObject({ status: 'moved', movedTo: 'urn:example:s5' });
        await writer.writer.withdraw('urn:example:s5', { reason: 'gone' });
        expect((await reader.names.get('urn:example:s5'))).toMatchObject({ status: 'withdrawn', reason: 'gone' });
        // Its own writes too.
        await put(reader, 'urn:example:s6', 'http://a.example/own');
        expect(await urlOf(reader, 'urn:example:s6')).toBe('http://a.example/own');
        expect(await urlOf(writer, 'urn:example:s6')).toBe('http://a.example/own');
      } finally { await reader.close(); await writer.close(); }
    });
  }

  it('through the name cache: after an import of more names than one batch lists as changed, every name reads as the table holds it', async () => {
    const db = postgres.freshDb();
    const writer = await openStore(db);
    const reader = await openStore(db, { nameCacheBytes: 1 << 24 });
    try {
      const lines = (v: number) => Array.from({ length: 3000 }, (_, i) => JSON.stringify({ urn: `urn:example:i${i}`, locations: [`http://a.example/i${i}/${v}`] })).join('\n');
      expect(await importNames(writer, lines(0), { format: 'ndjson' })).toMatchObject({ ok: true, created: 3000 });
      expect(await reader.nameCache?.warm()).toBe(3000);
      expect(await importNames(writer, lines(1), { format: 'ndjson' })).toMatchObject({ ok: true, updated: 3000 });
      const got = await Promise.all(Array.from({ length: 3000 }, (_, i) => urlOf(reader, `urn:example:i${i}`)));
      expect(got.filter((u, i) => u !== `http://a.example/i${i}/1`)).toEqual([]);
    } finally { await reader.close(); await writer.close(); }
  });

  it('through the name cache: a read that starts after a write was acknowledged never answers an older version, while writes and reads race', async () => {
    const db = postgres.freshDb();
    const writer = await openStore(db);
    const reader = await openStore(db, { nameCacheBytes: 1 << 24 });
    const keys = Array.from({ length: 8 }, (_, i) => `urn:example:r${i}`);
    try {
      for (const k of keys) await put(writer, k, 'http://a.example/0');
      await reader.nameCache?.warm();
      const acked = new Map(keys.map((k) => [k, 1]));
      let writing = true;
      const writes = (async () => {
        for (let n = 1; n <= 100; n++) {
          const k = keys[n % keys.length]!;
          const w = await put(writer, k, `http://a.example/${n}`);
          acked.set(k, w.record.version);
        }
        writing = false;
      })();
      const stale: string[] = [];
      const readLoop = async () => {
        while (writing) {
          const k = keys[Math.floor(Math.random() * keys.length)]!;
          const floor = acked.get(k)!;
          const r = await reader.names.get(k);
          if ((r?.version ?? 0) < floor) stale.push(`${k}: version ${r?.version} after ${floor} was acknowledged`);
        }
      };
      await Promise.all([writes, ...Array.from({ length: 16 }, readLoop)]);
      expect(stale).toEqual([]);
      for (const k of keys) expect((await reader.names.get(k))?.version).toBe(acked.get(k));
    } finally { await reader.close(); await writer.close(); }
  }, 120_000);
});
