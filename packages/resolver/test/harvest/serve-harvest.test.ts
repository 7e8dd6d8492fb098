/**
 * Harvesting as a job of `urikit serve` (server/harvest-worker.ts), on
 * both engines: the server harvests its repositories in the background,
 * the names resolve and /admin/harvests reports them; a stop ends a
 * harvest between two pages and cuts a repository's Retry-After short, and
 * the next harvest resumes where it stopped.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mintNbn } from 'urikit';
import { startServer } from '../../src/server/index.js';
import { createToken } from '../../src/store/index.js';
import type { HarvestOptions } from '../../src/harvest/index.js';
import { testEngines } from '../helpers/engines.js';
import { epicur, identify, listRecords, oaiFixture } from './oai-fixture.js';

const AUTH = 'urn:nbn:de:101-';
const nbn = (i: number) => mintNbn(AUTH, { counter: 2000 + i });
const NOW = '2026-11-28T10:00:00Z';
const FAST: HarvestOptions = { fetch: { allowAddresses: 'all', timeoutMs: 10_000 }, pageDelayMs: 0 };

const engines = await testEngines('serve-harvest.test');
afterAll(async () => { for (const e of engines) await e.cleanup(); });

for (const engine of engines) {
  const suite = engine.unavailable !== undefined ? describe.skip : describe;
  suite(`${engine.name}: serve harvests its repositories`, () => {
    it('harvests in the background: the names resolve, /admin/harvests reports them, the server stops', async () => {
      const fixture = await oaiFixture((args) => {
        if (args.verb === 'Identify') return identify(NOW);
        if (args.resumptionToken === undefined) return listRecords([{ id: 'oai:s:1', metadata: epicur(nbn(1), ['https://repo.example/1']) }], 't1');
        return listRecords([{ id: 'oai:s:2', metadata: epicur(nbn(2), ['https://repo.example/2']) }], '');
      });
      const server = await startServer({ port: 0, db: engine.freshDb(), rateLimit: false, harvest: { sources: [{ baseUrl: fixture.url, metadataPrefix: 'epicur', authority: AUTH }], everyMs: 3_600_000, harvest: FAST } });
      try {
        let status = 0;
        for (let i = 0; i < 200 && status !== 302; i++) {
          status = (await fetch(`${server.url}/${nbn(2)}`, { redirect: 'manual' })).status;
          if (status !== 302) await new Promise((r) => setTimeout(r, 50));
        }
        expect(status).toBe(302);
        expect((await fetch(`${server.url}/${nbn(1)}`, { redirect: 'manual' })).headers.get('location')).toBe('https://repo.example/1');
        const { token } = await createToken(server.store, { authority: AUTH });
        const report = await (await fetch(`${server.url}/admin/harvests`, { headers: { authorization: `Bearer ${token}` } })).json() as { repositories: Array<{ baseUrl: string; totals: { applied: number } }> };
        expect(report.repositories).toMatchObject([{ baseUrl: fixture.url, totals: { applied: 2 } }]);
      } finally {
        // The next round is an hour away: the stop cuts the wait.
        await server.close();
        await fixture.close();
      }
    });

    it('a stop ends a harvest waiting out a Retry-After, and the next one resumes at the page it had reached', async () => {
      let retry = true;
      const fixture = await oaiFixture((args) => {
        if (args.verb === 'Identify') return identify(NOW);
        if (args.resumptionToken === undefined) return listRecords([{ id: 'oai:s:3', metadata: epicur(nbn(3), ['https://repo.example/3']) }], 't1');
        if (retry) return (res) => { res.writeHead(503, { 'retry-after': '3600' }); res.end(); };
        return listRecords([{ id: 'oai:s:4', metadata: epicur(nbn(4), ['https://repo.example/4']) }], '');
      });
      const db = engine.freshDb();
      const job = { sources: [{ baseUrl: fixture.url, metadataPrefix: 'epicur' as const, authority: AUTH }], everyMs: 3_600_000, harvest: FAST };
      let server = await startServer({ port: 0, db, rateLimit: false, harvest: job });
      try {
        for (let i = 0; i < 200 && !fixture.requests.some((r) => r.resumptionToken === 't1'); i++) await new Promise((r) => setTimeout(r, 50));
        expect(fixture.requests.some((r) => r.resumptionToken === 't1')).toBe(true);
        // The first page is written; the second is an hour away.
        expect((await fetch(`${server.url}/${nbn(3)}`, { redirect: 'manual' })).status).toBe(302);
        await server.close();
        retry = false;
        fixture.requests.length = 0;
        server = await startServer({ port: 0, db, rateLimit: false, harvest: job });
        let status = 0;
        for (let i = 0; i < 200 && status !== 302; i++) {
          status = (await fetch(`${server.url}/${nbn(4)}`, { redirect: 'manual' })).status;
          if (status !== 302) await new Promise((r) => setTimeout(r, 50));
        }
        expect(status).toBe(302);
        // Resumed with the token it had reached: the first page was not asked again.
        expect(fixture.requests.filter((r) => r.verb === 'ListRecords' && r.resumptionToken === undefined)).toEqual([]);
        const history = await server.store.history.versions(nbn(3));
        expect(history).toHaveLength(1);
      } finally {
        await server.close();
        await fixture.close();
      }
    });
  });
}
