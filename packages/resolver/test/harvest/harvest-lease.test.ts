// One harvest of a repository at a time across processes: two stores
// opened on one database (as two `urikit serve` processes behind a load
// balancer, or serve's job and `urikit harvest` from cron, would) harvest
// the same repository; the one that holds the repository's lease harvests,
// the other is told who does and writes nothing; a lease that expires
// (a process killed, or one stuck longer than its lease) lets another
// take the harvest over, and the one that lost it writes nothing more.
// Nothing applied twice, on both engines.
import { afterAll, describe, expect, it } from 'vitest';
import { mintNbn } from 'urikit';
import { harvestRepository, openStore, type HarvestOptions, type HarvestSource, type Store } from '@urikit/resolver';
import { testEngines } from '../helpers/engines.js';
import { epicur, identify, listRecords, oaiFixture, type Fixture } from './oai-fixture.js';

const AUTH = 'urn:nbn:de:101-';
const NOW = '2026-11-28T10:00:00Z';
const FAST: HarvestOptions = { fetch: { allowAddresses: 'all', timeoutMs: 20_000 }, pageDelayMs: 0 };
const PAGES = 3;
const PER_PAGE = 20;
const records = (p: number) => Array.from({ length: PER_PAGE }, (_, k) => {
  const i = p * PER_PAGE + k;
  return { id: `oai:r:${i}`, metadata: epicur(mintNbn(AUTH, { counter: 1000 + i }), [`https://repo.example/${i}`]) };
});

/**
 * A repository of three pages whose first ListRecords answer waits until
 * `release` is called (the harvest that asked holds its lease meanwhile);
 * later requests are answered at once.
 */
async function slowRepository(): Promise<{ fixture: Fixture; asked: Promise<void>; release: () => void }> {
  let release!: () => void;
  const released = new Promise<void>((r) => { release = r; });
  let asked!: () => void;
  const askedOnce = new Promise<void>((r) => { asked = r; });
  let first = true;
  const fixture = await oaiFixture((args) => {
    if (args.verb === 'Identify') return identify(NOW);
    const i = args.resumptionToken === undefined ? 0 : Number(args.resumptionToken.slice(1));
    const doc = listRecords(records(i), i + 1 < PAGES ? `t${i + 1}` : '');
    if (i > 0 || !first) return doc;
    first = false;
    asked();
    return (res) => { void released.then(() => { res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' }); res.end(doc); }); };
  });
  return { fixture, asked: askedOnce, release };
}

const engines = await testEngines('harvest-lease.test');
afterAll(async () => { for (const e of engines) await e.cleanup(); });

for (const engine of engines) {
  const suite = engine.unavailable !== undefined ? describe.skip : describe;
  suite(`${engine.name}: one harvest of a repository at a time, across processes`, () => {
    const withTwoStores = async (run: (a: Store, b: Store, source: HarvestSource, repo: Awaited<ReturnType<typeof slowRepository>>) => Promise<void>) => {
      const db = engine.freshDb();
      const a = await openStore(db);
      const b = await openStore(db);
      const repo = await slowRepository();
      try {
        await run(a, b, { baseUrl: repo.fixture.url, metadataPrefix: 'epicur', authority: AUTH }, repo);
      } finally {
        repo.release();
        await repo.fixture.close();
        await a.close();
        await b.close();
      }
    };

    it('a second harvest while the first holds the lease: busy, naming the holder, and nothing written by it', async () => {
      await withTwoStores(async (a, b, source, repo) => {
        const first = harvestRepository(a, source, FAST);
        await repo.asked;
        const second = await harvestRepository(b, source, FAST);
        expect(second).toMatchObject({ status: 'busy', pages: 0, applied: 0, error: { code: 'harvest-busy' } });
        expect(second.error!.message).toMatch(/pid \d+ .* harvests this repository now \(its lease holds until \d{4}-/);
        repo.release();
        expect(await first).toMatchObject({ status: 'ok', pages: PAGES, applied: PAGES * PER_PAGE });
        expect(await b.listing.count()).toBe(PAGES * PER_PAGE);
        expect((await b.history.changes({ since: 0, limit: 1000 })).items.length).toBe(PAGES * PER_PAGE);
        expect((await b.harvestLog.get(`${source.baseUrl} epicur`))?.totals).toEqual({ harvests: 1, applied: PAGES * PER_PAGE, refused: 0 });
        // The lease is given up at the end: the next harvest runs (and finds nothing new).
        expect(await harvestRepository(b, source, FAST)).toMatchObject({ status: 'ok', applied: 0 });
      });
    });

    it('a lease that expires: another process takes the harvest over, and the one that lost it writes nothing more', async () => {
      await withTwoStores(async (a, b, source, repo) => {
        // A holds a lease of 300 ms and waits far longer for its first page.
        const stuck = harvestRepository(a, source, { ...FAST, leaseMs: 300 });
        await repo.asked;
        await new Promise((r) => setTimeout(r, 600));
        const takeover = await harvestRepository(b, source, FAST);
        expect(takeover).toMatchObject({ status: 'ok', pages: PAGES, applied: PAGES * PER_PAGE });
        repo.release();
        expect(await stuck).toMatchObject({ status: 'busy', applied: 0, error: { code: 'lease-lost' } });
        // Every record applied once, by the harvest that held the lease.
        expect((await a.history.changes({ since: 0, limit: 1000 })).items.length).toBe(PAGES * PER_PAGE);
        expect((await a.harvestLog.get(`${source.baseUrl} epicur`))?.totals).toEqual({ harvests: 1, applied: PAGES * PER_PAGE, refused: 0 });
      });
    });

    it('a process killed while it held the lease: busy until the lease expires, then the harvest goes on', async () => {
      await withTwoStores(async (a, b, source, repo) => {
        repo.release();
        const repoKey = `${source.baseUrl} epicur`;
        // What a process killed mid-harvest leaves behind: its lease, never given up.
        expect(await a.harvestLog.acquireLease(repoKey, 'killed-host pid 1 0000', Date.now(), 400)).toEqual({ acquired: true });
        expect(await harvestRepository(b, source, FAST)).toMatchObject({ status: 'busy', error: { code: 'harvest-busy' } });
        await new Promise((r) => setTimeout(r, 500));
        expect(await harvestRepository(b, source, FAST)).toMatchObject({ status: 'ok', applied: PAGES * PER_PAGE });
      });
    });
  });
}
