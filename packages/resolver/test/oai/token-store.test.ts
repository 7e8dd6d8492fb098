// Resumption tokens over a store, on both engines: the key that
// authenticates them (OAI-PMH §3.5, oai/token.ts) is the store's, made
// once (store/settings.ts), so a harvest begun at one server process of
// the store goes on at another, and a token of another store is refused.
import { afterAll, describe, expect, it } from 'vitest';
import { importNames, OAI_TOKEN_KEY, openStore, startServer, type RunningServer } from '@urikit/resolver';
import { testEngines } from '../helpers/engines.js';

const engines = await testEngines('token-store.test');
afterAll(async () => {
  for (const e of engines) await e.cleanup();
});

const N = 25;
const PAGE = 10;
const names = Array.from({ length: N }, (_, i) => JSON.stringify({ urn: `urn:example:t-${String(i).padStart(3, '0')}`, locations: [{ url: `https://repo.example/${i}` }] })).join('\n');
const serve = (db: string) => startServer({ port: 0, db, rateLimit: false, oai: { pageSize: PAGE } });
const ask = async (server: RunningServer, q: Record<string, string>) => (await fetch(`${server.url}/oai?${new URLSearchParams(q)}`)).text();
const tokenOf = (xml: string) => /<resumptionToken[^>]*>([^<]*)</.exec(xml)?.[1];
const identifiers = (xml: string) => [...xml.matchAll(/<identifier>([^<]*)<\/identifier>/g)].map((m) => m[1]);
const errors = (xml: string) => [...xml.matchAll(/<error code="([^"]+)">/g)].map((m) => m[1]);

for (const engine of engines) {
  const suite = engine.unavailable !== undefined ? describe.skip : describe;
  suite(`${engine.name}: resumption tokens of a store`, () => {
    it('a secret is made once, the same for every process of the store, kept across a restart; the token key is made with the store', async () => {
      const db = engine.freshDb();
      const [a, b] = [await openStore(db), await openStore(db)];
      // both ask at once for a secret not there yet: one writes it, the other's insert does nothing and it reads the first's
      const [sa, sb] = await Promise.all([a.settings.secret('test-secret'), b.settings.secret('test-secret')]);
      expect(sa.length).toBe(32);
      expect(sb.equals(sa)).toBe(true);
      const [ka, kb] = await Promise.all([a.settings.secret(OAI_TOKEN_KEY), b.settings.secret(OAI_TOKEN_KEY)]);
      expect(kb.equals(ka)).toBe(true);
      expect(ka.equals(sa)).toBe(false);
      await Promise.all([a.close(), b.close()]);
      const again = await openStore(db);
      expect((await again.settings.secret(OAI_TOKEN_KEY)).equals(ka)).toBe(true);
      expect((await again.settings.secret('test-secret')).equals(sa)).toBe(true);
      await again.close();
      const other = await openStore(engine.freshDb());
      expect((await other.settings.secret(OAI_TOKEN_KEY)).equals(ka)).toBe(false);
      await other.close();
    });

    it('a harvest begun at server A goes on at server B of the same store; a token altered, forged, empty or of another store is refused', async () => {
      const [db, otherDb] = [engine.freshDb(), engine.freshDb()];
      for (const d of [db, otherDb]) {
        const seed = await openStore(d);
        expect(await importNames(seed, names, { format: 'ndjson' })).toMatchObject({ ok: true });
        await seed.close();
      }
      const [a, b, elsewhere] = await Promise.all([serve(db), serve(db), serve(otherDb)]);
      try {
        // A and B draw the key at the same moment: each may be the one that makes it
        const [fromA, fromB] = await Promise.all([ask(a, { verb: 'ListIdentifiers', metadataPrefix: 'oai_dc' }), ask(b, { verb: 'ListIdentifiers', metadataPrefix: 'oai_dc' })]);
        expect(identifiers(fromB)).toEqual(identifiers(fromA));
        // one key: the same state gives the same token at either
        expect(tokenOf(fromB)).toBe(tokenOf(fromA));
        const seen = identifiers(fromA);
        let token = tokenOf(fromA)!;
        const servers = [b, a];
        for (let i = 0; token !== ''; i++) {
          // page by page, each at the other server
          const page = await ask(servers[i % 2]!, { verb: 'ListIdentifiers', resumptionToken: token });
          expect(errors(page)).toEqual([]);
          seen.push(...identifiers(page));
          token = tokenOf(page)!;
        }
        expect(seen).toEqual(Array.from({ length: N }, (_, i) => `urn:example:t-${String(i).padStart(3, '0')}`));

        const good = tokenOf(fromA)!;
        const dot = good.indexOf('.');
        const forged = Buffer.from(JSON.stringify(['I', 'oai_dc', 0, '', 1])).toString('base64url');
        const bad: Array<[RunningServer, string]> = [
          [b, `${good.slice(0, 3)}${good[3] === 'x' ? 'y' : 'x'}${good.slice(4)}`],
          [b, `${good.slice(0, -1)}${good.endsWith('x') ? 'y' : 'x'}`],
          [b, good.slice(0, dot)],
          [b, forged],
          [b, `${forged}${good.slice(dot)}`],
          [b, ''],
          [elsewhere, good],
        ];
        for (const [server, t] of bad) expect(errors(await ask(server, { verb: 'ListIdentifiers', resumptionToken: t })), t).toEqual(['badResumptionToken']);
        // the other store, of the same names, issues tokens of its own key: served there, refused here
        const own = tokenOf(await ask(elsewhere, { verb: 'ListIdentifiers', metadataPrefix: 'oai_dc' }))!;
        expect(own).not.toBe(good);
        expect(errors(await ask(elsewhere, { verb: 'ListIdentifiers', resumptionToken: own }))).toEqual([]);
        expect(errors(await ask(a, { verb: 'ListIdentifiers', resumptionToken: own }))).toEqual(['badResumptionToken']);
      } finally {
        await Promise.all([a.close(), b.close(), elsewhere.close()]);
      }
    }, 60_000);
  });
}
