// urikit harvesting urikit: a resolver's own /oai (epicur and
// urn_locations, 50 names a page) harvested into another resolver's store
// on both engines: every name under the authority arrives with its
// locations in order, the others are refused; changes and withdrawals made
// at the source arrive with the next, incremental harvest; the target's
// /admin/harvests reports it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintNbn } from 'urikit';
import { createToken, harvestRepository, importNames, preferredOrder, startServer, type HarvestOptions, type RunningServer } from '@urikit/resolver';
import { testEngines } from '../helpers/engines.js';

const engines = await testEngines('from-urikit.test');
afterAll(async () => { for (const e of engines) await e.cleanup(); });

const AUTH = 'urn:nbn:de:101-';
const N = 240;
/** Name i: two of three under the authority, every third outside it. */
const urnOf = (i: number) => (i % 3 === 2 ? `urn:example:item-${i}` : mintNbn(AUTH, { counter: 5000 + i }));
const OPTS: HarvestOptions = { fetch: { allowAddresses: 'all', timeoutMs: 30_000 }, pageDelayMs: 0 };

for (const engine of engines) {
  const suite = engine.unavailable !== undefined ? describe.skip : describe;
  suite(`${engine.name}: harvesting a urikit resolver's /oai`, () => {
    let source: RunningServer;
    let target: RunningServer;
    beforeAll(async () => {
      source = await startServer({ port: 0, db: engine.freshDb(), rateLimit: false, oai: { pageSize: 50 } });
      target = await startServer({ port: 0, db: engine.freshDb(), rateLimit: false, oai: false });
      let lines = '';
      for (let i = 0; i < N; i++) {
        const locations = [{ url: `https://repo.example/item/${i}`, mediaType: 'application/pdf' }, ...(i % 2 === 0 ? [{ url: `https://mirror.example/${i}`, preference: 5 }] : [])];
        lines += `${JSON.stringify({ urn: urnOf(i), locations })}\n`;
      }
      expect(await importNames(source.store, lines, { format: 'ndjson' })).toMatchObject({ ok: true });
    }, 120_000);
    afterAll(async () => {
      await source?.close();
      await target?.close();
    });

    const ours = Array.from({ length: N }, (_, i) => i).filter((i) => i % 3 !== 2);

    it('epicur: every name under the authority with its locations in order; the others refused', async () => {
      const r = await harvestRepository(target.store, { baseUrl: `${source.url}/oai`, metadataPrefix: 'epicur', authority: AUTH }, OPTS);
      expect(r).toMatchObject({ status: 'ok', pages: Math.ceil(N / 50), applied: ours.length, refused: N - ours.length });
      expect(new Set(r.refusals.map((x) => x.code))).toEqual(new Set(['outside-authority']));
      for (const i of ours) {
        const got = await target.store.names.get(urnOf(i));
        const expected = i % 2 === 0
          ? [{ url: `https://mirror.example/${i}` }, { url: `https://repo.example/item/${i}`, mediaType: 'application/pdf' }]
          : [{ url: `https://repo.example/item/${i}`, mediaType: 'application/pdf' }];
        expect(got?.locations).toEqual(expected);
      }
      expect(await target.store.names.get(urnOf(2))).toBeUndefined();
    });

    it('the next harvest brings the changes and withdrawals made since, and nothing else', async () => {
      const changed = ours.slice(0, 10);
      const withdrawn = ours.slice(10, 15);
      for (const i of changed) await source.store.writer.put(urnOf(i), { urn: urnOf(i), locations: [{ url: `https://new.example/${i}` }] });
      for (const i of withdrawn) await source.store.writer.withdraw(urnOf(i), { reason: 'retracted' });
      const r = await harvestRepository(target.store, { baseUrl: `${source.url}/oai`, metadataPrefix: 'epicur', authority: AUTH }, OPTS);
      expect(r.status).toBe('ok');
      expect(r.from).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(r.applied).toBe(changed.length + withdrawn.length);
      for (const i of changed) expect((await target.store.names.get(urnOf(i)))?.locations).toEqual([{ url: `https://new.example/${i}` }]);
      for (const i of withdrawn) {
        const w = await target.store.names.get(urnOf(i));
        expect(w?.status).toBe('withdrawn');
        expect(w?.reason).toContain(`deleted in the OAI-PMH repository ${source.url}/oai`);
      }
    });

    it('urn_locations of one set: the locations as the source holds them, preferences too', async () => {
      const r = await harvestRepository(target.store, { baseUrl: `${source.url}/oai`, metadataPrefix: 'urn_locations', set: 'urn:nbn:de', authority: AUTH }, OPTS);
      expect(r).toMatchObject({ status: 'ok', refused: 0 });
      // epicur has no preference: the names with a preferred mirror get it now (in the order it answers), the others are unchanged
      const withPreference = ours.slice(15).filter((i) => i % 2 === 0);
      expect(r.applied).toBe(withPreference.length);
      for (const i of ours) {
        const [src, got] = [await source.store.names.get(urnOf(i)), await target.store.names.get(urnOf(i))];
        expect(got?.status).toBe(src?.status);
        if (src?.status === 'active') expect(preferredOrder(got!.locations)).toEqual(preferredOrder(src.locations));
      }
    });

    it('/admin/harvests reports each repository, within the token\'s authority', async () => {
      const { token } = await createToken(target.store, { authority: 'urn:nbn:de' });
      const res = await fetch(`${target.url}/admin/harvests`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      const body = await res.json() as { repositories: Array<Record<string, any>> };
      expect(body.repositories.map((x) => x.metadataPrefix).sort()).toEqual(['epicur', 'urn_locations']);
      const ep = body.repositories.find((x) => x.metadataPrefix === 'epicur')!;
      expect(ep).toMatchObject({ baseUrl: `${source.url}/oai`, authority: AUTH, granularity: 'second', lastHarvest: { status: 'ok' }, totals: { harvests: 2 } });
      expect(ep.refusals.length).toBe(20);
      expect(ep.refusals[0]).toMatchObject({ code: 'outside-authority' });
      const other = await createToken(target.store, { authority: 'urn:isbn' });
      expect((await (await fetch(`${target.url}/admin/harvests`, { headers: { authorization: `Bearer ${other.token}` } })).json() as { repositories: unknown[] }).repositories).toEqual([]);
      expect((await fetch(`${target.url}/admin/harvests`)).status).toBe(401);
    });
  });
}
