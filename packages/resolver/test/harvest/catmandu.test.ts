// The harvester against an OAI-PMH data provider no one here wrote:
// Dancer::Plugin::Catmandu::OAI (Debian libdancer-plugin-catmandu-oai-perl;
// perl-oai/app.pl configures it over a JSON file of records, 5 a page),
// harvested in epicur and oai_dc, with sets, deleted records, its own
// resumption tokens, an incremental second harvest and an interrupted one
// resumed. Skipped, loudly, when the Perl packages are not installed
// (.ci/run installs them).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintNbn } from 'urikit';
import { harvestRepository, openStore, type HarvestOptions, type Store } from '@urikit/resolver';

const here = dirname(fileURLToPath(import.meta.url));
const hasPlugin = spawnSync('perl', ['-MDancer::Plugin::Catmandu::OAI', '-e', '1']).status === 0;
if (!hasPlugin) console.warn('\n!!! Dancer::Plugin::Catmandu::OAI is NOT installed: the harvest of a third-party OAI-PMH repository is SKIPPED (apt-get install libdancer-plugin-catmandu-oai-perl libcatmandu-oai-perl libhttp-oai-perl; .ci/run installs them) !!!\n');

const AUTH = 'urn:nbn:de:101-';
const nbn = (i: number) => mintNbn(AUTH, { counter: 7000 + i });
const N = 23;
const OPTS: HarvestOptions = { fetch: { allowAddresses: 'all', timeoutMs: 30_000 }, pageDelayMs: 0 };

interface Rec { _id: string; datestamp: string; sets: string[]; status?: 'deleted'; urn?: string; urls?: string[]; title?: string }
/** Record i: in "theses" when even, else "articles"; every seventh deleted. */
function record(i: number, datestamp = `2026-11-${String(1 + (i % 27)).padStart(2, '0')}T10:${String(i).padStart(2, '0')}:00Z`): Rec {
  const r: Rec = { _id: String(i), datestamp, sets: [i % 2 === 0 ? 'theses' : 'articles'] };
  if (i % 7 === 6) r.status = 'deleted';
  else Object.assign(r, { urn: nbn(i), urls: [`https://repo.example/${i}`, `https://repo.example/${i}.pdf`], title: `Record <${i}> & co` });
  return r;
}

const utcSecond = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

describe.skipIf(!hasPlugin)(hasPlugin ? 'harvesting Dancer::Plugin::Catmandu::OAI' : 'harvesting Dancer::Plugin::Catmandu::OAI (SKIPPED: not installed)', () => {
  let dir: string;
  let file: string;
  let perl: ChildProcess;
  let base: string;
  let records: Rec[];
  const stores: Store[] = [];
  const write = () => writeFileSync(file, JSON.stringify(records));

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'urikit-catmandu-'));
    file = join(dir, 'records.json');
    records = Array.from({ length: N }, (_, i) => record(i));
    write();
    const port = await new Promise<number>((resolve) => { const s = createServer().listen(0, '127.0.0.1', () => { const p = (s.address() as { port: number }).port; s.close(() => resolve(p)); }); });
    perl = spawn('perl', [join(here, 'perl-oai', 'app.pl')], { env: { ...process.env, OAI_RECORDS: file, OAI_PORT: String(port), OAI_LIMIT: '5' }, stdio: ['ignore', 'ignore', 'pipe'] });
    base = `http://127.0.0.1:${port}/oai`;
    for (let i = 0; ; i++) {
      try { if ((await fetch(`${base}?verb=Identify`)).ok) break; } catch { /* not listening yet */ }
      if (i > 100) throw new Error('the Perl OAI-PMH provider did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 30_000);
  afterAll(async () => {
    perl?.kill();
    for (const s of stores) await s.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const fresh = async () => { const s = await openStore(':memory:'); stores.push(s); return s; };
  const live = () => records.filter((r) => r.status !== 'deleted');

  it('epicur: every live record applied with its URLs, over the plugin\'s resumption tokens; deleted records of names never seen change nothing', async () => {
    const store = await fresh();
    const r = await harvestRepository(store, { baseUrl: base, metadataPrefix: 'epicur', authority: AUTH }, OPTS);
    expect(r).toMatchObject({ status: 'ok', pages: Math.ceil(N / 5), applied: live().length, unchanged: N - live().length, refused: 0 });
    for (const rec of live()) expect((await store.names.get(rec.urn!))?.locations).toEqual(rec.urls!.map((url) => ({ url, mediaType: 'text/html' })));

    // the repository changes: one record deleted, one with a new URL, one new; their datestamps now
    const now = utcSecond(Date.now());
    records[0] = { ...record(0, now), status: 'deleted' };
    delete records[0].urn;
    records[1] = { ...record(1, now), urls: ['https://new.example/1'] };
    records.push(record(N, now));
    write();
    const second = await harvestRepository(store, { baseUrl: base, metadataPrefix: 'epicur', authority: AUTH }, OPTS);
    expect(second).toMatchObject({ status: 'ok', applied: 3, refused: 0 });
    expect(second.from).toMatch(/^2\d{3}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const gone = await store.names.get(nbn(0));
    expect([gone?.status, gone?.reason]).toEqual(['withdrawn', `deleted in the OAI-PMH repository ${base} (record oai:repo.example:0, ${now})`]);
    expect((await store.names.get(nbn(1)))?.locations).toEqual([{ url: 'https://new.example/1', mediaType: 'text/html' }]);
    expect((await store.names.get(nbn(N)))?.status).toBe('active');
  });

  it('oai_dc of one set: the URN among dc:identifier, the URLs', async () => {
    const store = await fresh();
    const r = await harvestRepository(store, { baseUrl: base, metadataPrefix: 'oai_dc', set: 'theses', authority: AUTH }, OPTS);
    const theses = live().filter((x) => x.sets.includes('theses'));
    expect(r).toMatchObject({ status: 'ok', applied: theses.length, refused: 0 });
    expect(await store.listing.count()).toBe(theses.length);
    for (const rec of theses) expect((await store.names.get(rec.urn!))?.locations.map((l) => l.url)).toEqual(rec.urls);
  });

  it('interrupted after two pages, resumed with the plugin\'s token: nothing lost, nothing doubled', async () => {
    const store = await fresh();
    await expect(harvestRepository(store, { baseUrl: base, metadataPrefix: 'epicur', authority: AUTH }, { ...OPTS, onPage: (n) => { if (n === 2) throw new Error('killed'); } })).rejects.toThrow('killed');
    const state = await store.harvestLog.get(`${base} epicur`);
    expect(state?.run?.token).not.toBe('');
    const r = await harvestRepository(store, { baseUrl: base, metadataPrefix: 'epicur', authority: AUTH }, OPTS);
    expect(r.status).toBe('ok');
    expect(await store.listing.count()).toBe(live().length);
    expect((await store.history.changes({ since: 0, limit: 1000 })).items.length).toBe(live().length);
  });
});
