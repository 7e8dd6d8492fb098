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
