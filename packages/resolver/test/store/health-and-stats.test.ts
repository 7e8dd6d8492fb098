// The store's link health and resolution statistics (migration 0003), on
// both engines: what the link checker and the statistics counter write,
// and the reports the admin API reads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { initialHealth, MemoryStatsStore, openStore, summarizeStats, type LinkHealth, type StatsRow, type Store } from '@urikit/resolver';
import { testEngines } from '../helpers/engines.js';

const engines = await testEngines('health-and-stats.test');
afterAll(async () => { for (const e of engines) await e.cleanup(); });

const DAY = 86_400_000;
const T = Date.UTC(2026, 10, 24);

function health(url: string, state: LinkHealth['state'], at: number, extra: Partial<LinkHealth> = {}): LinkHealth {
  return { ...initialHealth(url), state, lastCheck: at, nextCheck: at + DAY, consecutiveFailures: state === 'failing' ? 1 : 0, ...extra };
}

for (const engine of engines) {
  const suite = engine.unavailable !== undefined ? describe.skip : describe;
  suite(`${engine.name}: link health`, () => {
    let store: Store;
    beforeAll(async () => { store = await openStore(engine.freshDb()); });
    afterAll(async () => { await store?.close(); });

    it('keeps one record per URL, whatever its length, and reads many at once', async () => {
      const long = `https://a.example/${'x'.repeat(6000)}`;
      await store.linkHealth.putMany([health(long, 'ok', T, { status: 200, finalUrl: long, elapsedMs: 12 }), health('https://b.example/', 'failing', T, { status: 404, error: 'http-404', failingSince: T })]);
      expect(await store.linkHealth.get(long)).toEqual({ ...health(long, 'ok', T, { status: 200, finalUrl: long, elapsedMs: 12 }), changed: 0 });
      const many = await store.linkHealth.getMany([long, 'https://b.example/', 'https://never.example/']);
      expect([...many.keys()].sort()).toEqual([long, 'https://b.example/']);
      expect(many.get('https://b.example/')).toMatchObject({ state: 'failing', status: 404, error: 'http-404', failingSince: T, changed: T });
    });

    it('moves `changed` only when the state changes: what resolution reloads', async () => {
      const url = 'https://c.example/';
      await store.linkHealth.put(health(url, 'ok', T));
      expect((await store.linkHealth.get(url))?.changed).toBe(0);
      await store.linkHealth.put(health(url, 'failing', T + DAY));
      await store.linkHealth.put(health(url, 'failing', T + 3 * DAY, { consecutiveFailures: 2 }));
      expect(await store.linkHealth.get(url)).toMatchObject({ state: 'failing', consecutiveFailures: 2, changed: T + DAY });
      await store.linkHealth.put(health(url, 'ok', T + 5 * DAY));
      expect(await store.linkHealth.get(url)).toMatchObject({ state: 'ok', changed: T + 5 * DAY });
      // every location not healthy, and the one that recovered after the time asked
      const urls = (since: number) => store.linkHealth.changedSince(since).then((hs) => hs.map((h) => h.url).sort());
      expect(await urls(T + 4 * DAY)).toEqual(['https://b.example/', url]);
      expect(await urls(T + 6 * DAY)).toEqual(['https://b.example/']);
      expect(await store.linkHealth.countByState()).toEqual({ ok: 2, failing: 1 });
    });

    it('reports the locations of the active names under a prefix, with their health, page by page', async () => {
      for (let i = 0; i < 5; i++) {
        await store.writer.put(`urn:example:r${i}`, { urn: `urn:example:r${i}`, locations: [{ url: `https://r.example/${i}` }, { url: 'https://b.example/' }] });
      }
      await store.writer.put('urn:example:rw', { urn: 'urn:example:rw', locations: [{ url: 'https://r.example/w' }] });
      await store.writer.withdraw('urn:example:rw');
      await store.writer.put('urn:other:r', { urn: 'urn:other:r', locations: [{ url: 'https://r.example/other' }] });
      await store.linkHealth.put(health('https://r.example/2', 'retry', T));
      const first = await store.linkHealth.report({ prefix: 'urn:example:', names: 3 });
      expect(first.lines.map((l) => `${l.key} ${l.url} ${l.health.state}`)).toEqual([
        'urn:example:r0 https://r.example/0 unchecked', 'urn:example:r0 https://b.example/ failing',
        'urn:example:r1 https://r.example/1 unchecked', 'urn:example:r1 https://b.example/ failing',
        'urn:example:r2 https://r.example/2 retry', 'urn:example:r2 https://b.example/ failing',
      ]);
      const rest = await store.linkHealth.report({ prefix: 'urn:example:', names: 3, after: first.next! });
      expect([rest.lines.length, rest.next]).toEqual([4, undefined]);
      const failing = await store.linkHealth.report({ prefix: 'urn:example:', states: new Set(['failing', 'retry']) });
      expect(failing.lines.map((l) => l.key)).toEqual(['urn:example:r0', 'urn:example:r1', 'urn:example:r2', 'urn:example:r2', 'urn:example:r3', 'urn:example:r4']);
    });
  });

  suite(`${engine.name}: resolution statistics`, () => {
    let store: Store;
    let url: string;
    beforeAll(async () => { store = await openStore(url = engine.freshDb()); });
    afterAll(async () => { await store?.close(); });

    it('sums flushes, folded or still pending, and reports by name, day and service over a prefix and a date range as the in-memory reference does', async () => {
      const row = fc.record({
        day: fc.constantFrom('2026-11-23', '2026-11-24', '2026-11-25', '2026-12-01'),
        key: fc.constantFrom('urn:nbn:de:101-1', 'urn:nbn:de:101-2', 'urn:nbn:de:102-1', 'urn:nbn:fi-fe1', 'urn:isbn:0451450523'),
        service: fc.constantFrom('I2L', 'I2C', 'I2Ls'),
        human: fc.nat(1000), robot: fc.nat(1000),
      });
      const sel = fc.record({ prefix: fc.constantFrom('', 'urn:nbn:', 'urn:nbn:de:101-', 'urn:isbn:'), from: fc.option(fc.constantFrom('2026-11-24', '2026-11-25'), { nil: undefined }), until: fc.option(fc.constantFrom('2026-11-24', '2026-11-30'), { nil: undefined }) });
      let n = 0;
      const flush = fc.record({ rows: fc.array(row, { maxLength: 20 }), fold: fc.boolean() });
      await fc.assert(fc.asyncProperty(fc.array(flush, { maxLength: 4 }), sel, fc.constantFrom('name', 'day', 'service') as fc.Arbitrary<'name' | 'day' | 'service'>, async (flushes, s, by) => {
        // a fresh namespace per run: the store is shared by the runs
        const tag = `urn:t${n++}`;
        const rename = (r: StatsRow): StatsRow => ({ ...r, key: `${tag}:${r.key}` });
        const memory = new MemoryStatsStore();
        for (const f of flushes) {
          await store.stats.add(f.rows.map(rename));
          await memory.add(f.rows.map(rename));
          // a fold now and then: the report reads the sums and the pending rows alike
          if (f.fold) await store.stats.fold();
        }
        const prefix = `${tag}:${s.prefix}`;
        const expected = summarizeStats(await memory.rows({ ...(s.from ? { from: s.from } : {}), ...(s.until ? { until: s.until } : {}), match: (k) => k.startsWith(prefix) }), by);
        const got = await store.stats.report({ prefix, ...(s.from ? { from: s.from } : {}), ...(s.until ? { until: s.until } : {}) }, by);
        expect(got).toEqual(expected);
      }), { numRuns: 40 });
    });

    it('counts every pending row once when two stores on one database fold at the same time', async () => {
      const other = await openStore(url);
      try {
        const cells = (n: number, human: number): StatsRow[] => Array.from({ length: n }, (_, i) => ({ day: '2026-11-26', key: `urn:fold:${i % 700}`, service: i % 3 === 0 ? 'I2C' : 'I2L', human, robot: i % 2 }));
        await store.stats.add(cells(1500, 1));
        await other.stats.add(cells(1500, 2));
        await Promise.all([store.stats.fold(), other.stats.fold(), store.stats.add(cells(300, 4)), other.stats.fold()]);
        const want = { human: 1500 + 3000 + 1200, robot: 750 + 750 + 150 };
        expect((await store.stats.report({ prefix: 'urn:fold:' }, 'name')).totals).toEqual(want);
        await other.stats.fold();
        expect((await store.stats.report({ prefix: 'urn:fold:' }, 'name')).totals).toEqual(want);
        // urn:fold:0 is i = 0 (I2C), 700 and 1400 (I2L) of each batch of 1,500, i = 0 of the batch of 300
        expect((await store.stats.report({ key: 'urn:fold:0' }, 'service')).groups).toEqual([{ group: 'I2C', human: 1 + 2 + 4, robot: 0 }, { group: 'I2L', human: 2 + 4, robot: 0 }]);
      } finally {
        await other.close();
      }
    });

    it('reports one name exactly, and at most `limit` groups with the totals of all', async () => {
      await store.stats.add([
        { day: '2026-11-24', key: 'urn:example:one', service: 'I2L', human: 5, robot: 2 },
        { day: '2026-11-24', key: 'urn:example:one-more', service: 'I2L', human: 7, robot: 0 },
        { day: '2026-11-25', key: 'urn:example:one', service: 'I2C', human: 1, robot: 0 },
      ]);
      expect(await store.stats.report({ key: 'urn:example:one' }, 'service')).toEqual({ by: 'service', totals: { human: 6, robot: 2 }, groups: [{ group: 'I2L', human: 5, robot: 2 }, { group: 'I2C', human: 1, robot: 0 }] });
      expect(await store.stats.report({ prefix: 'urn:example:', limit: 1 }, 'name')).toEqual({ by: 'name', totals: { human: 13, robot: 2 }, groups: [{ group: 'urn:example:one', human: 6, robot: 2 }] });
    });
  });
}
