// Resolution statistics through the running server, on both engines: N
// resolutions by a client and M by a robot are reported by /admin/stats as
// exactly N and M, by name, day and service, in JSON and CSV; counts are
// flushed to the store when the server closes; nothing is counted with
// statistics off.
import { afterAll, describe, expect, it } from 'vitest';
import { createToken, openStore, startServer } from '@urikit/resolver';
import { testEngines } from '../helpers/engines.js';
import { get } from '../helpers/http.js';

const engines = await testEngines('server-stats.test');
afterAll(async () => { for (const e of engines) await e.cleanup(); });

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0';
const ROBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const today = () => new Date().toISOString().slice(0, 10);

// RFC 3339 §5.6 full-date, with §5.7's days of each month and Appendix C's leap years
const GOOD_DAYS = ['2024-02-29', '2000-02-29', '1996-02-29', '2026-12-31', '2026-04-30', '2026-01-01', '0000-02-29', '9999-12-31'];
const BAD_DAYS: Array<['from' | 'until', string, 'bad-date' | 'bad-month' | 'bad-day', number]> = [
  ['from', '2026-13-45', 'bad-month', 5],
  ['until', '2026-02-30', 'bad-day', 8],
  ['from', '0000-00-00', 'bad-month', 5],
  ['from', '2026-00-10', 'bad-month', 5],
  ['until', '2026-99-01', 'bad-month', 5],
  ['from', '2026-01-00', 'bad-day', 8],
  ['until', '2026-04-31', 'bad-day', 8],
  ['from', '2026-01-32', 'bad-day', 8],
  ['from', '2023-02-29', 'bad-day', 8],
  ['until', '1900-02-29', 'bad-day', 8],
  ['from', '2100-02-29', 'bad-day', 8],
  ['from', '2026-13', 'bad-date', 7],
  ['from', '2026-1-01', 'bad-date', 6],
  ['until', '26-01-01', 'bad-date', 2],
  ['from', '2026/01/01', 'bad-date', 4],
  ['until', '2026-01-01T00:00:00Z', 'bad-date', 10],
  ['until', '2026-01-01 ', 'bad-date', 10],
  ['from', ' 2026-01-01', 'bad-date', 0],
  ['from', '+2026-01-01', 'bad-date', 0],
  ['from', '', 'bad-date', 0],
  ['from', '２０２６-01-01', 'bad-date', 0],
  ['until', '2026-01-3x', 'bad-date', 9],
];

/** Sends `n` requests, `concurrency` at a time. */
async function many(n: number, concurrency: number, one: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => { while (next < n) await one(next++); }));
}

for (const engine of engines) {
  const suite = engine.unavailable !== undefined ? describe.skip : describe;
  suite(`${engine.name}: statistics of a running server`, () => {
    it('reports exactly N resolutions by a client and M by a robot, per name, day and service', async () => {
      const db = engine.freshDb();
      // a flush every 20 ms: counts cross several flushes while the requests run
      const server = await startServer({ port: 0, db, rateLimit: false, stats: { flushIntervalMs: 20, robotPatterns: ['harvester'] } });
      try {
        for (const n of ['a', 'b']) await server.store.writer.put(`urn:example:${n}`, { urn: `urn:example:${n}`, locations: [{ url: `https://example.org/${n}` }] });
        await server.store.writer.put('urn:other:x', { urn: 'urn:other:x', locations: [{ url: 'https://example.org/x' }] });
        const N = 157;
        const M = 61;
        await many(N, 8, (i) => get(server.url, i % 3 === 0 ? '/urn:example:b' : '/uri-res/I2L?urn:example:a', { 'user-agent': BROWSER }));
        await many(M, 8, (i) => get(server.url, i % 2 === 0 ? '/uri-res/I2C?urn:example:a' : '/urn:example:a', { 'user-agent': i % 5 === 0 ? 'OAI Harvester/2.0' : ROBOT }));
        // neither unknown names nor other authorities count here
        await get(server.url, '/urn:example:unknown', { 'user-agent': BROWSER });
        await get(server.url, '/urn:other:x', { 'user-agent': BROWSER });
        const auth = { authorization: `Bearer ${(await createToken(server.store, { authority: 'urn:example' })).token}` };
        const byName = JSON.parse((await get(server.url, `/admin/stats?from=${today()}&until=${today()}`, auth)).text);
        expect(byName.totals).toEqual({ human: N, robot: M });
        expect(byName).toMatchObject({ prefix: 'urn:example:', by: 'name', groups: [{ group: 'urn:example:a', human: N - Math.ceil(N / 3), robot: M }, { group: 'urn:example:b', human: Math.ceil(N / 3), robot: 0 }] });
        const byService = JSON.parse((await get(server.url, '/admin/stats?by=service&name=URN:EXAMPLE:a', auth)).text);
        expect(byService).toEqual({ name: 'urn:example:a', by: 'service', totals: { human: N - Math.ceil(N / 3), robot: M }, groups: [
          { group: 'I2L', human: N - Math.ceil(N / 3), robot: Math.floor(M / 2) }, { group: 'I2C', human: 0, robot: Math.ceil(M / 2) },
        ] });
        const csv = await get(server.url, '/admin/stats?by=day&format=csv', auth);
        expect(csv.text).toBe(`day,human,robot\r\n${today()},${N},${M}\r\n`);
        // a day range that holds none of them, another authority's names, bad queries
        expect(JSON.parse((await get(server.url, '/admin/stats?from=2000-01-01&until=2000-12-31', auth)).text).totals).toEqual({ human: 0, robot: 0 });
        expect((await get(server.url, '/admin/stats?name=urn:other:x', auth)).status).toBe(403);
        expect((await get(server.url, '/admin/stats?from=2026-13', auth)).status).toBe(400);
        expect((await get(server.url, '/admin/stats?from=2026-02-02&until=2026-02-01', auth)).status).toBe(400);
        expect((await get(server.url, '/admin/stats?by=hour', auth)).status).toBe(400);
        expect((await get(server.url, '/admin/stats')).status).toBe(401);
      } finally {
        await server.close();
      }
      // what was counted after the last report is written when the server closes
      const store = await openStore(db);
      try {
        expect((await store.stats.report({ prefix: 'urn:other:' }, 'name')).totals).toEqual({ human: 1, robot: 0 });
      } finally {
        await store.close();
      }
    });

    it('from and until are calendar dates: a bad one is 400 naming the parameter, the code and the offset of the part at fault', async () => {
      const server = await startServer({ port: 0, db: engine.freshDb(), rateLimit: false });
      try {
        // one count on each good day of the table: each day asked alone finds its own
        for (const [i, day] of GOOD_DAYS.entries()) await server.store.stats.add([{ day, key: 'urn:example:a', service: 'I2L', human: i + 1, robot: 0 }]);
        const auth = { authorization: `Bearer ${(await createToken(server.store, { authority: 'urn:example' })).token}` };
        for (const [i, day] of GOOD_DAYS.entries()) {
          const r = await get(server.url, `/admin/stats?from=${day}&until=${day}`, auth);
          expect([day, r.status, JSON.parse(r.text).totals]).toEqual([day, 200, { human: i + 1, robot: 0 }]);
        }
        for (const [parameter, value, code, offset] of BAD_DAYS) {
          const other = parameter === 'from' ? 'until=2030-01-01' : 'from=2020-01-01';
          const r = await get(server.url, `/admin/stats?${other}&${parameter}=${encodeURIComponent(value)}`, auth);
          expect([value, r.status, r.headers.get('content-type')]).toEqual([value, 400, 'application/problem+json; charset=utf-8']);
          expect(JSON.parse(r.text)).toMatchObject({ type: 'about:blank', title: 'Invalid date', status: 400, code, parameter, offset });
        }
      } finally {
        await server.close();
      }
    });

    it('counts nothing with statistics off', async () => {
      const server = await startServer({ port: 0, db: engine.freshDb(), rateLimit: false, stats: false });
      try {
        await server.store.writer.put('urn:example:a', { urn: 'urn:example:a', locations: [{ url: 'https://example.org/a' }] });
        for (let i = 0; i < 5; i++) expect((await get(server.url, '/urn:example:a')).status).toBe(302);
        expect(server.stats).toBeUndefined();
        expect((await server.store.stats.report({}, 'name')).totals).toEqual({ human: 0, robot: 0 });
      } finally {
        await server.close();
      }
    });
  });
}
