// The store's link health and resolution statistics (migration 0003), on
// both engines: what the link checker and the statistics counter write,
// and the reports the admin API reads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { initialHealth, MemoryStatsStore, openStore, summarizeStats, type LinkHealth, type StatsRow, type Store } from '@urikit/resolver';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { MERGE_AT, MERGE_CHUNK } from '../../src/store/resolution-stats.js';
import { testEngines, type TestEngine } from '../helpers/engines.js';

const engines = await testEngines('health-and-stats.test');
afterAll(async () => { for (const e of engines) await e.cleanup(); });

/** The rows of the three tables the statistics move through (store/resolution-stats.ts). */
async function statsTables(engine: TestEngine, url: string): Promise<{ sums: number; recent: number; pending: number }> {
  const count = 'select (select count(*) from resolution_stats) as sums, (select count(*) from resolution_stats_recent) as recent, (select count(*) from resolution_stats_pending) as pending';
  if (engine.name === 'sqlite') {
    const db = new DatabaseSync(url, { readOnly: true });
    try { return db.prepare(count).get() as { sums: number; recent: number; pending: number }; } finally { db.close(); }
  }
  const c = new pg.Client({ connectionString: url.slice(0, url.lastIndexOf('?')) });
  await c.connect();
  try {
    await c.query(`set search_path to "${new URL(url).searchParams.get('schema')}"`);
    const row = (await c.query(count)).rows[0] as Record<string, string>;
    return { sums: Number(row.sums), recent: Number(row.recent), pending: Number(row.pending) };
  } finally {
    await c.end();
  }
}

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
      const flush = fc.record({ rows: fc.array(row, { maxLength: 20 }), then: fc.constantFrom('nothing', 'fold', 'merge') });
      await fc.assert(fc.asyncProperty(fc.array(flush, { maxLength: 4 }), sel, fc.constantFrom('name', 'day', 'service') as fc.Arbitrary<'name' | 'day' | 'service'>, async (flushes, s, by) => {
        // a fresh namespace per run: the store is shared by the runs
        const tag = `urn:t${n++}`;
        const rename = (r: StatsRow): StatsRow => ({ ...r, key: `${tag}:${r.key}` });
        const memory = new MemoryStatsStore();
        for (const f of flushes) {
          await store.stats.add(f.rows.map(rename));
          await memory.add(f.rows.map(rename));
          // a fold or a merge now and then: the report reads the sums, the recent sums and the pending rows alike
          if (f.then === 'fold') await store.stats.fold();
          if (f.then === 'merge') await store.stats.merge();
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

    it('merges the recent sums into resolution_stats a chunk at a time, adding to the sums there, every report the same before and after', async () => {
      const url = engine.freshDb();
      const fresh = await openStore(url);
      try {
        // 2.5 chunks of distinct cells, then the same cells again: the second merge adds to sums already there
        const cells = Math.round(MERGE_CHUNK * 2.5);
        const batch = (human: number): StatsRow[] => Array.from({ length: cells }, (_, i) => ({ day: i % 2 ? '2026-11-25' : '2026-11-26', key: `urn:merge:${String(i).padStart(6, '0')}`, service: 'I2L', human, robot: i % 3 }));
        const report = async () => JSON.stringify([await fresh.stats.report({ prefix: 'urn:merge:', limit: 5 }, 'name'), await fresh.stats.report({ prefix: 'urn:merge:00001' }, 'day')]);
        await fresh.stats.add(batch(1));
        await fresh.stats.fold();
        expect(await statsTables(engine, url)).toEqual({ sums: 0, recent: cells, pending: 0 });
        const folded = await report();
        await fresh.stats.merge();
        expect(await statsTables(engine, url)).toEqual({ sums: cells, recent: 0, pending: 0 });
        expect(await report()).toBe(folded);
        await fresh.stats.add(batch(2));
        await fresh.stats.merge();
        expect(await statsTables(engine, url)).toEqual({ sums: cells, recent: 0, pending: 0 });
        const robots = Array.from({ length: cells }, (_, i) => i % 3).reduce((a, b) => a + b, 0);
        expect((await fresh.stats.report({ prefix: 'urn:merge:' }, 'name')).totals).toEqual({ human: 3 * cells, robot: 2 * robots });
        expect((await fresh.stats.report({ key: 'urn:merge:000001' }, 'day')).groups).toEqual([{ group: '2026-11-25', human: 3, robot: 2 }]);
      } finally {
        await fresh.close();
      }
    });

    it('counts every cell once while two stores on one database fold and merge at the same time', async () => {
      const url = engine.freshDb();
      const [a, b] = [await openStore(url), await openStore(url)];
      try {
        const cells = (n: number, human: number): StatsRow[] => Array.from({ length: n }, (_, i) => ({ day: '2026-11-26', key: `urn:both:${i % 15_000}`, service: i % 2 ? 'I2C' : 'I2L', human, robot: 0 }));
        await a.stats.add(cells(20_000, 1));
        await a.stats.fold();
        await b.stats.add(cells(20_000, 2));
        await Promise.all([a.stats.merge(), b.stats.merge(), a.stats.add(cells(5_000, 4)), b.stats.fold(), b.stats.add(cells(3_000, 8))]);
        const want = { human: 20_000 + 40_000 + 20_000 + 24_000, robot: 0 };
        expect((await a.stats.report({ prefix: 'urn:both:' }, 'service')).totals).toEqual(want);
        await b.stats.merge();
        expect((await a.stats.report({ prefix: 'urn:both:' }, 'service')).totals).toEqual(want);
        expect(await statsTables(engine, url)).toMatchObject({ recent: 0, pending: 0 });
      } finally {
        await a.close();
        await b.close();
      }
    });

    // SQLite only: the count that starts a merge is the same statement on both
    // engines, and a million cells through PostgreSQL would take the suite's time.
    if (engine.name === 'sqlite') it('merges by itself once a fold leaves the recent sums at MERGE_AT cells (the statistics thread of a SQLite file)', async () => {
      const url = engine.freshDb();
      const fresh = await openStore(url);
      try {
        const cells = MERGE_AT + 1234;
        const rows: StatsRow[] = Array.from({ length: cells }, (_, i) => ({ day: '2026-11-26', key: `urn:auto:${i}`, service: 'I2L', human: 1, robot: 0 }));
        await fresh.stats.add(rows.slice(0, MERGE_AT - 1));
        await fresh.stats.fold();
        expect(await statsTables(engine, url)).toEqual({ sums: 0, recent: MERGE_AT - 1, pending: 0 });
        // the fold that brings them to MERGE_AT merges all there are, a chunk at a time
        await fresh.stats.add(rows.slice(MERGE_AT - 1));
        await fresh.stats.fold();
        expect(await statsTables(engine, url)).toEqual({ sums: cells, recent: 0, pending: 0 });
        expect((await fresh.stats.report({ prefix: 'urn:auto:' }, 'day')).totals).toEqual({ human: cells, robot: 0 });
      } finally {
        await fresh.close();
      }
    }, 60_000);

    if (engine.name === 'sqlite') it('keeps the sums and the pending rows of a store made before the recent sums (migration 0009)', async () => {
      const url = engine.freshDb();
      const cells = (human: number): StatsRow[] => Array.from({ length: 300 }, (_, i) => ({ day: '2026-11-26', key: `urn:old:${i % 200}`, service: 'I2L', human, robot: 1 }));
      let old = await openStore(url);
      await old.stats.add(cells(1));
      await old.stats.merge();
      await old.stats.add(cells(2));
      await old.close();
      const db = new DatabaseSync(url);
      db.exec("drop table resolution_stats_recent; drop table store_changes; delete from kysely_migration where name >= '0009'");
      db.close();
      old = await openStore(url);
      try {
        expect(await statsTables(engine, url)).toEqual({ sums: 200, recent: 0, pending: 300 });
        const want = { human: 900, robot: 600 };
        expect((await old.stats.report({ prefix: 'urn:old:' }, 'name')).totals).toEqual(want);
        await old.stats.fold();
        expect(await statsTables(engine, url)).toEqual({ sums: 200, recent: 200, pending: 0 });
        await old.stats.merge();
        expect((await old.stats.report({ prefix: 'urn:old:' }, 'name')).totals).toEqual(want);
        expect((await old.stats.report({ key: 'urn:old:7' }, 'day')).groups).toEqual([{ group: '2026-11-26', human: 6, robot: 4 }]);
      } finally {
        await old.close();
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
