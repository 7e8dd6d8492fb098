// OAI-PMH 2.0 at /oai of a running server, on both engines: a store of
// 10,000 names written in three batches a second apart (some withdrawn
// and moved later, some reserved) harvested over HTTP by a harvester
// written against the protocol (harvester.ts): every name exactly once,
// withdrawn names as deleted records, reserved names never (in urn_locations, a mirror's format, both are records); from/until
// and sets select exactly; every response valid against the OAI-PMH
// schema (xmllint).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintNbn } from 'urikit';
import { importNames, startServer, URN_LOCATIONS_XSD, type RunningServer } from '@urikit/resolver';
import { testEngines } from '../helpers/engines.js';
import { harvest } from './harvester.js';

const here = dirname(fileURLToPath(import.meta.url));
const engines = await testEngines('store-harvest.test');
const hasXmllint = spawnSync('xmllint', ['--version']).status === 0;
if (!hasXmllint) console.warn('\n!!! xmllint is NOT installed: the schema validation of /oai responses is SKIPPED (apt-get install libxml2-utils) !!!\n');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'urikit-oai-store-'));
  for (const f of readdirSync(join(here, 'schema'))) copyFileSync(join(here, 'schema', f), join(dir, f));
  writeFileSync(join(dir, 'urn_locations.xsd'), URN_LOCATIONS_XSD);
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  for (const e of engines) await e.cleanup();
});

/** Name i: urn:nbn:de with its check digit, urn:nbn:fi, or urn:example. */
function urnOf(i: number): string {
  return i % 3 === 0 ? mintNbn('urn:nbn:de:101-', { counter: 1000 + i }) : i % 3 === 1 ? `urn:nbn:fi-fe${String(i).padStart(8, '0')}` : `urn:example:item-${i}`;
}
const N = 10_000;
const BATCHES = [[0, 4000], [4000, 7000], [7000, N]] as const;
/** Sleeps into the next whole second: each batch has datestamps of its own. */
const nextSecond = () => new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 5));
const second = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

for (const engine of engines) {
  const suite = engine.unavailable !== undefined ? describe.skip : describe;
  suite(`${engine.name}: /oai over a store of ${N.toLocaleString('en')} names`, () => {
    let server: RunningServer;
    const starts: number[] = [];
    const withdrawn = new Set<string>();
    const kept: string[] = [];
    const keep = (xml: string) => {
      const f = join(dir, `${engine.name}-${kept.length}.xml`);
      writeFileSync(f, xml);
      kept.push(f);
      return xml;
    };
    const ask = async (q: Record<string, string>) => (await fetch(`${server.url}/oai?${new URLSearchParams(q)}`)).text();

    beforeAll(async () => {
      server = await startServer({ port: 0, db: engine.freshDb(), rateLimit: false, oai: { pageSize: 500, repositoryName: 'urikit test' }, publicUrl: 'https://resolver.example' });
      for (const [from, to] of BATCHES) {
        await nextSecond();
        starts.push(Date.now());
        let lines = '';
        for (let i = from; i < to; i++) lines += `${JSON.stringify({ urn: urnOf(i), locations: [{ url: `https://repo.example/item/${i}`, mediaType: 'application/pdf', preference: 1 }], metadata: { title: `Item <${i}>` } })}\n`;
        // the last batch also withdraws every 97th name of the first, and reserves a few new ones
        if (to === N) {
          for (let i = 0; i < 4000; i += 97) { lines += `${JSON.stringify({ urn: urnOf(i), status: 'withdrawn', reason: 'retracted' })}\n`; withdrawn.add(urnOf(i)); }
          for (let i = 0; i < 5; i++) lines += `${JSON.stringify({ urn: `urn:example:held-${i}`, status: 'reserved' })}\n`;
        }
        expect(await importNames(server.store, lines, { format: 'ndjson' })).toMatchObject({ ok: true });
      }
    }, 300_000);
    afterAll(async () => { await server?.close(); });

    it('ListIdentifiers and ListRecords give every name exactly once, withdrawn ones deleted, reserved ones never (but in urn_locations)', async () => {
      const ids = await harvest(ask, 'ListIdentifiers', { metadataPrefix: 'oai_dc' }, keep);
      expect(ids.errors).toEqual([]);
      expect(ids.pages).toBe(N / 500);
      expect(ids.headers.length).toBe(N);
      expect(new Set(ids.headers.map((h) => h.id))).toEqual(new Set(Array.from({ length: N }, (_, i) => urnOf(i))));
      expect(new Set(ids.headers.filter((h) => h.deleted).map((h) => h.id))).toEqual(withdrawn);
      const recs = await harvest(ask, 'ListRecords', { metadataPrefix: 'epicur' }, keep);
      expect(recs.headers.length).toBe(N);
      expect(recs.headers.every((h) => h.hasMetadata === !h.deleted)).toBe(true);
      // urn_locations states every state (a mirror reads it): the withdrawn names are records (their tombstones), the reserved ones are there too
      const all = await harvest(ask, 'ListRecords', { metadataPrefix: 'urn_locations' }, keep);
      expect(all.headers.length).toBe(N + 5);
      expect(all.headers.every((h) => h.hasMetadata && !h.deleted)).toBe(true);
    });

    it('from and until select by datestamp at second granularity: each batch, the withdrawals with the last', async () => {
      const [a, b, c] = starts as [number, number, number];
      const range = async (from?: number, until?: number) => (await harvest(ask, 'ListIdentifiers', { metadataPrefix: 'oai_dc', ...(from !== undefined ? { from: second(from) } : {}), ...(until !== undefined ? { until: second(until) } : {}) }, keep)).headers.map((h) => h.id);
      const first = await range(a, b - 1000);
      expect(first.length).toBe(4000 - withdrawn.size);
      expect(first.some((id) => withdrawn.has(id))).toBe(false);
      expect((await range(b, c - 1000)).length).toBe(3000);
      expect((await range(c)).length).toBe(3000 + withdrawn.size);
      // day granularity holds them all (the test does not run across midnight UTC... unless it does: then two days)
      const day = new Date(a).toISOString().slice(0, 10);
      const lastDay = new Date(c).toISOString().slice(0, 10);
      expect((await harvest(ask, 'ListIdentifiers', { metadataPrefix: 'oai_dc', from: day, until: lastDay }, keep)).headers.length).toBe(N);
    });

    it('sets are the authorities, hierarchical', async () => {
      const count = async (set: string) => (await harvest(ask, 'ListIdentifiers', { metadataPrefix: 'oai_dc', set }, keep)).headers;
      const de = await count('urn:nbn:de');
      expect(de.length).toBe(Math.ceil(N / 3));
      expect(de.every((h) => h.sets[0] === 'urn:nbn:de' && h.id.startsWith('urn:nbn:de:'))).toBe(true);
      expect((await count('urn:nbn:fi')).length).toBe(Math.floor((N + 1) / 3));
      expect((await count('urn:nbn')).length).toBe(Math.ceil(N / 3) + Math.floor((N + 1) / 3));
      expect((await count('urn:example')).length).toBe(Math.floor(N / 3));
      const sets = keep(await ask({ verb: 'ListSets' }));
      expect([...sets.matchAll(/<setSpec>([^<]*)<\/setSpec>/g)].map((m) => m[1])).toEqual(['urn', 'urn:example', 'urn:nbn', 'urn:nbn:de', 'urn:nbn:fi']);
    });

    it('GetRecord in epicur: the URN with its scheme, its URL and media type', async () => {
      const xml = keep(await ask({ verb: 'GetRecord', identifier: urnOf(3), metadataPrefix: 'epicur' }));
      expect(xml).toContain(`<record><identifier scheme="urn:nbn:de">${urnOf(3)}</identifier><resource><identifier scheme="url" role="primary">https://repo.example/item/3</identifier><format scheme="imt">application/pdf</format></resource></record>`);
      expect(xml).toContain('<update_status type="urn_new"/>');
    });

    it('Identify, GetRecord (GET and POST) and the format\'s schema', async () => {
      const id = keep(await ask({ verb: 'Identify' }));
      expect(id).toContain('<repositoryName>urikit test</repositoryName><baseURL>https://resolver.example/oai</baseURL>');
      expect(id).toContain(`<earliestDatestamp>${second(starts[0]!)}</earliestDatestamp>`);
      const post = await fetch(`${server.url}/oai`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ verb: 'GetRecord', identifier: urnOf(1), metadataPrefix: 'oai_dc' }) });
      expect(post.headers.get('content-type')).toBe('text/xml; charset=utf-8');
      expect(keep(await post.text())).toContain('<dc:title>Item &lt;1&gt;</dc:title>');
      expect(keep(await ask({ verb: 'GetRecord', identifier: 'urn:example:held-1', metadataPrefix: 'oai_dc' }))).toContain('<error code="idDoesNotExist">');
      expect(await (await fetch(`${server.url}/oai/urn_locations.xsd`)).text()).toBe(URN_LOCATIONS_XSD);
    });

    it.skipIf(!hasXmllint)(hasXmllint ? 'every response validates against the OAI-PMH 2.0 schema (xmllint)' : 'every response validates against the OAI-PMH 2.0 schema (SKIPPED: xmllint is not installed)', () => {
      expect(kept.length).toBeGreaterThan(100);
      for (let i = 0; i < kept.length; i += 200) {
        const r = spawnSync('xmllint', ['--noout', '--schema', join(dir, 'harvest.xsd'), ...kept.slice(i, i + 200)], { encoding: 'utf8' });
        // xmllint names each file that validates, and says why of any that does not
        expect(r.stderr.split('\n').filter((l) => l !== '' && !l.endsWith(' validates')).slice(0, 5)).toEqual([]);
        expect(r.status).toBe(0);
      }
    });
  });
}
