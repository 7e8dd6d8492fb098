// The OAI-PMH harvester against a test repository on 127.0.0.1 whose
// answers each test writes (oai-fixture.ts): incremental harvests with
// resumption tokens, deletions, the authority, interruption and resumption
// on both engines; and every bad answer of the list the harvester must
// refuse with a reason, the store unchanged by it.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { mintNbn } from 'urikit';
import { harvestRepository, openStore, type HarvestOptions, type HarvestSource, type Store } from '@urikit/resolver';
import { testEngines } from '../helpers/engines.js';
import { storeSnapshot } from '../helpers/snapshot.js';
import { epicur, identify, listRecords, oaiDc, oaiError, oaiFixture, OAI_OPEN, type Fixture } from './oai-fixture.js';

const AUTH = 'urn:nbn:de:101-';
const nbn = (i: number) => mintNbn(AUTH, { counter: 1000 + i });
const NOW = '2026-11-28T10:00:00Z';
const FAST: HarvestOptions = { fetch: { allowAddresses: 'all', timeoutMs: 10_000 }, pageDelayMs: 0 };

let fixture: Fixture | undefined;
let store: Store | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
  await store?.close();
  store = undefined;
});

const source = (url: string, extra: Partial<HarvestSource> = {}): HarvestSource => ({ baseUrl: url, metadataPrefix: 'epicur', authority: AUTH, ...extra });

/** A repository of `pages` (each a list of records), tokens t1, t2, ... between them; Identify's clock NOW. */
function paged(pages: Parameters<typeof listRecords>[0][]) {
  return (args: Record<string, string>) => {
    if (args.verb === 'Identify') return identify(NOW);
    const i = args.resumptionToken === undefined ? 0 : Number(args.resumptionToken.slice(1));
    return listRecords(pages[i]!, i + 1 < pages.length ? `t${i + 1}` : i > 0 ? '' : undefined);
  };
}

describe('harvesting epicur from a repository', () => {
  it('follows the tokens, creates the names, replaces URLs with the delivered set, withdraws a deleted record with a reason', async () => {
    store = await openStore(':memory:');
    // one repository whose records change between the harvests
    let answer = paged([
      [{ id: 'oai:r:1', metadata: epicur(nbn(1), ['https://repo.example/1', 'https://mirror.example/1'], 'application/pdf') }, { id: 'oai:r:2', metadata: epicur(nbn(2), ['https://repo.example/2']) }],
      [{ id: 'oai:r:3', metadata: epicur(nbn(3), ['https://repo.example/3']) }],
    ]);
    fixture = await oaiFixture((args) => answer(args));
    const first = await harvestRepository(store, source(fixture.url), FAST);
    expect(first).toMatchObject({ status: 'ok', pages: 2, applied: 3, unchanged: 0, refused: 0 });
    expect((await store.names.get(nbn(1)))?.locations).toEqual([{ url: 'https://repo.example/1', mediaType: 'application/pdf' }, { url: 'https://mirror.example/1', mediaType: 'application/pdf' }]);
    expect(fixture.requests.map((r) => r.resumptionToken ?? r.verb)).toEqual(['Identify', 'ListRecords', 't1']);
    expect(fixture.requests[1]).toEqual({ verb: 'ListRecords', metadataPrefix: 'epicur' });
    expect(new Set(fixture.userAgents)).toEqual(new Set(['urikit-harvester/0.1 (harvests URN-URL pairs over OAI-PMH for a URN resolver; set --contact)']));
    const state = await store.harvestLog.get(first.repo);
    expect(state).toMatchObject({ nextFrom: NOW, granularity: 'second', last: { status: 'ok', applied: 3 }, totals: { harvests: 1, applied: 3 } });
    expect(state?.run).toBeUndefined();

    // the next harvest asks from where the first began; a record states all URLs: mirror.example/1 is gone; oai:r:2 is deleted
    answer = paged([[{ id: 'oai:r:1', metadata: epicur(nbn(1), ['https://repo.example/1-new']) }, { id: 'oai:r:2', deleted: true }]]);
    fixture.requests.length = 0;
    const second = await harvestRepository(store, source(fixture.url), FAST);
    expect(second).toMatchObject({ status: 'ok', from: NOW, pages: 1, applied: 2 });
    expect(fixture.requests[1]).toEqual({ verb: 'ListRecords', metadataPrefix: 'epicur', from: NOW });
    expect((await store.names.get(nbn(1)))?.locations).toEqual([{ url: 'https://repo.example/1-new' }]);
    const gone = await store.names.get(nbn(2));
    expect(gone?.status).toBe('withdrawn');
    expect(gone?.reason).toMatch(/^deleted in the OAI-PMH repository http:\/\/127\.0\.0\.1:\d+\/oai \(record oai:r:2, 2026-11-28T09:00:00Z\)$/);
    // never erased: the history keeps the record it had
    expect((await store.history.versions(nbn(2))).map((h) => h.op)).toEqual(['create', 'withdraw']);
    // a deleted record seen again changes nothing
    answer = paged([[{ id: 'oai:r:2', deleted: true }, { id: 'oai:r:unknown', deleted: true }]]);
    expect(await harvestRepository(store, source(fixture.url), FAST)).toMatchObject({ status: 'ok', applied: 0, unchanged: 2 });
  });

  it('day granularity: from is the day the last harvest began', async () => {
    store = await openStore(':memory:');
    fixture = await oaiFixture((args) => (args.verb === 'Identify' ? identify(NOW, 'YYYY-MM-DD') : listRecords([{ id: 'oai:r:1', metadata: epicur(nbn(1), ['https://repo.example/1']) }])));
    await harvestRepository(store, source(fixture.url), FAST);
    await harvestRepository(store, source(fixture.url), FAST);
    expect(fixture.requests.filter((r) => r.verb === 'ListRecords').map((r) => r.from)).toEqual([undefined, '2026-11-28']);
    // a from given with a time is cut to the day the repository knows
    await harvestRepository(store, source(fixture.url), { ...FAST, from: '2026-11-01T12:00:00Z' });
    expect(fixture.requests.at(-1)?.from).toBe('2026-11-01');
  });

  it('oai_dc: the URN under the authority among dc:identifier, the http(s) identifiers as URLs', async () => {
    store = await openStore(':memory:');
    fixture = await oaiFixture(paged([[
      { id: 'oai:r:1', metadata: oaiDc(['urn:isbn:0451450523', nbn(1), 'https://repo.example/1', 'doi:10.1000/1']) },
      { id: 'oai:r:2', metadata: oaiDc(['https://repo.example/2']) },
      { id: 'oai:r:3', metadata: oaiDc([nbn(3), nbn(4)]) },
    ]]));
    const r = await harvestRepository(store, source(fixture.url, { metadataPrefix: 'oai_dc' }), FAST);
    expect(r).toMatchObject({ status: 'ok', applied: 1, refused: 2 });
    expect((await store.names.get(nbn(1)))?.locations).toEqual([{ url: 'https://repo.example/1' }]);
    expect(r.refusals.map((x) => [x.identifier, x.code]).sort()).toEqual([['oai:r:2', 'no-urn'], ['oai:r:3', 'several-urns']]);
  });

  it('a 503 with Retry-After is waited out; noRecordsMatch is an empty harvest', async () => {
    store = await openStore(':memory:');
    const waits: number[] = [];
    let busy = 2;
    fixture = await oaiFixture((args) => {
      if (args.verb === 'Identify') return identify(NOW);
      if (busy-- > 0) return (res) => { res.writeHead(503, { 'retry-after': '7' }); res.end(); };
      return oaiError('noRecordsMatch', 'nothing changed');
    });
    const r = await harvestRepository(store, source(fixture.url), { ...FAST, sleep: async (ms) => { waits.push(ms); } });
    expect(r).toMatchObject({ status: 'ok', pages: 0, applied: 0 });
    expect(waits).toEqual([7000, 7000]);
    expect((await store.harvestLog.get(r.repo))?.nextFrom).toBe(NOW);
    // a Retry-After longer than allowed ends the harvest, to be resumed
    busy = 1;
    const later = await harvestRepository(store, source(fixture.url), { ...FAST, maxRetryAfterMs: 1000, sleep: async () => {} });
    expect(later.error?.code).toBe('retry-later');
  });
});

describe('a repository writes only under its authority, valid names, bounded records', () => {
  it('refuses each bad record with its reason and applies the others', async () => {
    store = await openStore(':memory:');
    const tooMany = Array.from({ length: 150 }, (_, i) => `https://repo.example/many/${i}`);
    const huge = Array.from({ length: 10_000 }, (_, i) => `https://repo.example/huge/${i}`);
    const wrongDigit = nbn(7).slice(0, -1) + String((Number(nbn(7).slice(-1)) + 1) % 10);
    fixture = await oaiFixture(paged([[
      { id: 'oai:r:ok', metadata: epicur(nbn(1), ['https://repo.example/1']) },
      { id: 'oai:r:outside', metadata: epicur(mintNbn('urn:nbn:de:102-', { counter: 12345 }), ['https://repo.example/x']) },
      { id: 'oai:r:other-nid', metadata: epicur('urn:isbn:0451450523', ['https://repo.example/x']) },
      { id: 'oai:r:invalid', metadata: epicur('urn:nbn:de:101-x y', ['https://repo.example/x']) },
      { id: 'oai:r:digit', metadata: epicur(wrongDigit, ['https://repo.example/x']) },
      { id: 'oai:r:many', metadata: epicur(nbn(8), tooMany) },
      { id: 'oai:r:huge', metadata: epicur(nbn(9), huge) },
      { id: 'oai:r:js', metadata: epicur(nbn(10), ['javascript:alert(1)']) },
      { id: 'oai:r:none', metadata: epicur(nbn(11), []) },
      { id: 'oai:r:ok2', metadata: epicur(nbn(2), ['https://repo.example/2']) },
    ]]));
    const r = await harvestRepository(store, source(fixture.url), FAST);
    expect(r).toMatchObject({ status: 'ok', applied: 2, refused: 8 });
    const codes = Object.fromEntries(r.refusals.map((x) => [x.identifier, x.code]));
    expect(codes).toEqual({
      'oai:r:outside': 'outside-authority', 'oai:r:other-nid': 'outside-authority', 'oai:r:invalid': 'bad-nss', 'oai:r:digit': 'bad-check-digit',
      'oai:r:many': 'too-many-urls', 'oai:r:huge': 'record-too-large', 'oai:r:js': 'scheme-not-allowed', 'oai:r:none': 'no-urls',
    });
    for (const x of r.refusals) expect(x.reason.length).toBeGreaterThan(10);
    expect(await store.listing.count()).toBe(2);
    // /admin/harvests reads the same refusals
    expect((await store.harvestLog.refusals(r.repo)).length).toBe(8);
    // the same bad records again: only the newest refusals are kept
    const again = await harvestRepository(store, source(fixture.url), { ...FAST, keepRefusals: 10 });
    expect(again).toMatchObject({ status: 'ok', refused: 8 });
    expect((await store.harvestLog.refusals(r.repo, 100)).length).toBe(10);
  });

  it('a name the lifecycle refuses (withdrawn here) is refused, not written', async () => {
    store = await openStore(':memory:');
    await store.writer.put(nbn(1), { urn: nbn(1), status: 'withdrawn', reason: 'retracted' });
    fixture = await oaiFixture(paged([[{ id: 'oai:r:1', metadata: epicur(nbn(1), ['https://repo.example/1']) }]]));
    const r = await harvestRepository(store, source(fixture.url), FAST);
    expect(r.refusals.map((x) => [x.code, x.identifier, x.urn])).toEqual([['withdrawn-name', 'oai:r:1', nbn(1)]]);
    expect((await store.names.get(nbn(1)))?.status).toBe('withdrawn');
  });
});

/** Harvests from a repository that answers `bad` to ListRecords (after one good page when `afterGoodPage`): the harvest fails with `code`, the store unchanged by the bad page. */
async function refusedWith(bad: (args: Record<string, string>, n: number) => ReturnType<Parameters<typeof oaiFixture>[0]>, code: string | RegExp, opts: HarvestOptions = {}) {
  store = await openStore(':memory:');
  await store.writer.put(nbn(0), { urn: nbn(0), locations: [{ url: 'https://repo.example/0' }] });
  const before = await storeSnapshot(store);
  fixture = await oaiFixture((args, n) => (args.verb === 'Identify' ? identify(NOW) : bad(args, n)));
  const r = await harvestRepository(store, source(fixture.url), { ...FAST, ...opts });
  expect(r.status).toBe('failed');
  expect(r.error?.code).toMatch(code);
  expect(r.error?.message.length).toBeGreaterThan(10);
  expect(await storeSnapshot(store)).toBe(before);
  // the failure is in the report and the state: the next harvest starts again from the same place
  const state = await store.harvestLog.get(r.repo);
  expect(state?.last?.error?.code).toBe(r.error?.code);
  expect(state?.nextFrom).toBeUndefined();
  expect(r.refusals[0]?.code).toBe(r.error?.code);
  return r;
}

describe('bad answers: each refused with its reason, the store unchanged, memory bounded', () => {
  it('malformed XML', async () => {
    await refusedWith(() => listRecords([{ id: 'oai:r:1', metadata: epicur(nbn(1), ['https://repo.example/1']) }]).replace('</ListRecords>', '</ListRecord>'), 'xml-malformed');
  });

  it('an XML bomb: the DTD is never read, no entity expanded', async () => {
    const lol = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`).join('')}]>`;
    const doc = lol + listRecords([{ id: 'oai:r:1', metadata: epicur(nbn(1), ['https://repo.example/&lol9;']) }]).replace(/^<\?xml[^>]*>/, '');
    await refusedWith(() => doc, 'xml-doctype');
    // an entity no DTD declares is refused too
    await store!.close(); await fixture!.close();
    await refusedWith(() => listRecords([{ id: 'oai:r:1', metadata: epicur(nbn(1), ['https://repo.example/EXT']) }]).replace('EXT', '&ext;'), 'xml-entity');
  });

  it('a response larger than the bound (streamed without end) is cut off', async () => {
    let sent = 0;
    const r = await refusedWith(() => (res) => {
      res.writeHead(200, { 'content-type': 'text/xml' });
      res.write(`${OAI_OPEN}<responseDate>${NOW}</responseDate><request>x</request><ListRecords>`);
      const chunk = `<record><header><identifier>oai:r:x</identifier><datestamp>${NOW}</datestamp></header><metadata>${epicur(nbn(1), ['https://repo.example/1'])}</metadata></record>`.repeat(100);
      // 2 GB if nobody stopped reading: written as the socket drains, until the harvester hangs up
      const more = () => { while (sent < 2 ** 31) { sent += chunk.length; if (!res.write(chunk)) return void res.once('drain', more); } res.end(); };
      res.on('close', () => { sent = -sent; });
      more();
    }, 'response-too-large', { fetch: { allowAddresses: 'all', maxBytes: 4 * 1024 * 1024 } });
    expect(r.error?.message).toContain('4194304 bytes');
    expect(Math.abs(sent)).toBeLessThan(64 * 1024 * 1024);
  });

  it('a page of more records than a page may hold', async () => {
    await refusedWith(() => listRecords(Array.from({ length: 10_001 }, (_, i) => ({ id: `oai:r:${i}`, deleted: true }))), 'too-many-records');
  });

  it('a from in the future', async () => {
    await refusedWith(() => listRecords([]), 'from-in-future', { from: '2099-01-01' });
    expect(fixture!.requests.map((r) => r.verb)).toEqual(['Identify']);
  });

  it('a redirect loop between pages', async () => {
    await refusedWith((args) => (res) => { res.writeHead(302, { location: `?verb=ListRecords&metadataPrefix=epicur&hop=${args.hop === '1' ? '2' : '1'}` }); res.end(); }, 'redirect-loop');
  });

  it('a resumption token that never ends: repeated, or a new one every page past the bound', async () => {
    store = await openStore(':memory:');
    fixture = await oaiFixture((args) => (args.verb === 'Identify' ? identify(NOW) : listRecords([{ id: 'oai:r:1', metadata: epicur(nbn(1), ['https://repo.example/1']) }], 'same')));
    // the first page is good and written; the second sends its token again: the list stops there
    const loop = await harvestRepository(store, source(fixture.url), FAST);
    expect([loop.status, loop.error?.code, loop.pages, loop.applied]).toEqual(['failed', 'resumption-loop', 1, 1]);
    await store.close(); await fixture.close();
    store = await openStore(':memory:');
    fixture = await oaiFixture((args, n) => (args.verb === 'Identify' ? identify(NOW) : listRecords([{ id: 'oai:r:1', metadata: epicur(nbn(1), ['https://repo.example/1']) }], `t${n}`)));
    const r = await harvestRepository(store, source(fixture.url), { ...FAST, maxPages: 5 });
    expect([r.status, r.error?.code, r.pages]).toEqual(['failed', 'too-many-pages', 5]);
  });

  it('a body that is not OAI-PMH, an error answer, a server error', async () => {
    await refusedWith(() => '<html xmlns="http://www.w3.org/1999/xhtml"><body>maintenance</body></html>', 'not-oai-pmh');
    await store!.close(); await fixture!.close();
    await refusedWith(() => oaiError('cannotDisseminateFormat', 'no epicur here'), 'cannotDisseminateFormat');
    await store!.close(); await fixture!.close();
    await refusedWith(() => (res) => { res.writeHead(500); res.end('oops'); }, 'http-500');
    await store!.close(); await fixture!.close();
    // OAI-PMH §3.2: responses are UTF-8
    await refusedWith(() => (res) => { res.writeHead(200, { 'content-type': 'text/xml' }); res.end(Buffer.concat([Buffer.from(listRecords([]).slice(0, 200)), Buffer.from([0xff, 0xfe, 0x41])])); }, 'bad-encoding');
  });
});

const engines = await testEngines('harvest.test');
afterAll(async () => { for (const e of engines) await e.cleanup(); });

for (const engine of engines) {
  const suite = engine.unavailable !== undefined ? describe.skip : describe;
  suite(`${engine.name}: an interrupted harvest resumes without losing or doubling a record`, () => {
    const PAGES = 5;
    const pages = Array.from({ length: PAGES }, (_, p) => Array.from({ length: 20 }, (_, k) => ({ id: `oai:r:${p * 20 + k}`, metadata: epicur(nbn(p * 20 + k), [`https://repo.example/${p * 20 + k}`]) })));

    it('interrupted after page 2, resumed with the token of page 3', async () => {
      store = await openStore(engine.freshDb());
      fixture = await oaiFixture(paged(pages));
      await expect(harvestRepository(store, source(fixture.url), { ...FAST, onPage: (n) => { if (n === 2) throw new Error('killed'); } })).rejects.toThrow('killed');
      expect(await store.listing.count()).toBe(40);
      const state = await store.harvestLog.get(`${fixture.url} epicur`);
      expect(state?.run).toMatchObject({ token: 't2', pages: 2, applied: 40 });
      const r = await harvestRepository(store, source(fixture.url), FAST);
      expect(r).toMatchObject({ status: 'ok', pages: 5, applied: 100, unchanged: 0 });
      expect(fixture.requests.filter((q) => q.verb !== 'Identify').map((q) => q.resumptionToken ?? 'first')).toEqual(['first', 't1', 't2', 't3', 't4']);
      expect(await store.listing.count()).toBe(100);
      const changes = await store.history.changes({ since: 0, limit: 1000 });
      expect(changes.items.length).toBe(100);
    });

    it('a token the repository forgot: the list is read again from the same from, nothing doubled', async () => {
      store = await openStore(engine.freshDb());
      let forgetful = false;
      const answer = paged(pages);
      // the repository restarted: the token it gave before is unknown to it, once
      fixture = await oaiFixture((args) => {
        if (forgetful && args.resumptionToken === 't3') { forgetful = false; return oaiError('badResumptionToken', 'expired'); }
        return answer(args);
      });
      await expect(harvestRepository(store, source(fixture.url), { ...FAST, onPage: (n) => { if (n === 3) throw new Error('killed'); } })).rejects.toThrow('killed');
      forgetful = true;
      const r = await harvestRepository(store, source(fixture.url), FAST);
      expect(r).toMatchObject({ status: 'ok', applied: 100, unchanged: 60 });
      expect(fixture.requests.filter((q) => q.verb !== 'Identify').map((q) => q.resumptionToken ?? 'first')).toEqual(['first', 't1', 't2', 't3', 'first', 't1', 't2', 't3', 't4']);
      expect((await store.history.changes({ since: 0, limit: 1000 })).items.length).toBe(100);
    });
  });
}
