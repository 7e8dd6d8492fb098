// What a mirror takes of a urn_locations record and what it refuses, from
// a test repository whose records each case writes (on both engines); a
// plain harvest of urn_locations (not a mirror) reading the states; and
// the admin routes of a handover refusing what they must.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, harvestRepository, startServer, type HarvestOptions, type RunningServer, type Store } from '@urikit/resolver';
import { testEngines } from '../helpers/engines.js';
import { identify, listRecords, oaiFixture, type Fixture, type FixtureRecord } from '../harvest/oai-fixture.js';

const engines = await testEngines('mirror-records.test');
afterAll(async () => { for (const e of engines) await e.cleanup(); });

const U = 'https://urikit.org/ns/oai/urn-locations/1.0/';
const OPTS: HarvestOptions = { fetch: { allowAddresses: 'all' }, pageDelayMs: 0 };
/** A urn_locations record: `body` after name and status; version and times unless `bare`. */
const rec = (urn: string, status: string, body = '', v = 1, bare = false) =>
  `<u:urn xmlns:u="${U}"><u:name>${urn}</u:name><u:status>${status}</u:status>${body}${bare ? '' : `<u:version>${v}</u:version><u:created>2026-01-01T00:00:00.000Z</u:created><u:updated>2026-02-0${v}T00:00:00.123Z</u:updated>`}</u:urn>`;
const deep = '['.repeat(70) + ']'.repeat(70);

/** [case, record, refusal code or undefined when taken]. */
const CASES: Array<[string, FixtureRecord, string | undefined]> = [
  ['every field taken', { id: 'urn:example:m:ok', metadata: rec('urn:example:m:ok', 'active', '<u:successor>urn:example:m:next</u:successor><u:location url="https://a.example/" preference="3" charset="ISO-8859-1" language="de"><u:meta>two\nlines</u:meta></u:location><u:location url="https://b.example/" preservation="true"/><u:metadata type="application/json">{"title":"T"}</u:metadata><u:movedFrom>urn:example:m:old</u:movedFrom>', 2) }, undefined],
  ['no version: not a urikit source', { id: 'urn:example:m:bare', metadata: rec('urn:example:m:bare', 'active', '<u:location url="https://a.example/"/>', 1, true) }, 'not-a-mirror-record'],
  ['metadata that is not JSON', { id: 'urn:example:m:badjson', metadata: rec('urn:example:m:badjson', 'active', '<u:metadata type="application/json">{title</u:metadata>') }, 'bad-metadata'],
  ['metadata nested too deep', { id: 'urn:example:m:deep', metadata: rec('urn:example:m:deep', 'active', `<u:metadata type="application/json">${deep}</u:metadata>`) }, 'metadata-too-deep'],
  ['a location the admin API refuses', { id: 'urn:example:m:js', metadata: rec('urn:example:m:js', 'active', '<u:location url="javascript:alert(1)"/>') }, 'scheme-not-allowed'],
  ['a name pointing at it that is no name', { id: 'urn:example:m:link', metadata: rec('urn:example:m:link', 'active', '<u:movedFrom>http://evil.example/&#13;&#10;x</u:movedFrom>') }, 'bad-link'],
  ['a moved record without its target', { id: 'urn:example:m:moved', metadata: rec('urn:example:m:moved', 'moved') }, 'invalid-record'],
];

for (const engine of engines) {
  const suite = engine.unavailable !== undefined ? describe.skip : describe;
  suite(`${engine.name}: a mirror's records`, () => {
    let repo: Fixture;
    let records: FixtureRecord[] = [];
    const stores: Store[] = [];
    beforeAll(async () => {
      repo = await oaiFixture((args) => (args.verb === 'Identify' ? identify('2026-11-28T10:00:00Z') : listRecords(records)));
    });
    afterAll(async () => {
      await repo?.close();
      for (const s of stores) await s.close();
    });
    const fresh = async () => {
      const { openStore } = await import('@urikit/resolver');
      const s = await openStore(engine.freshDb());
      stores.push(s);
      return s;
    };

    it('takes a whole record, refuses each bad one with its reason', async () => {
      const store = await fresh();
      records = CASES.map(([, r]) => r);
      const r = await harvestRepository(store, { baseUrl: repo.url, metadataPrefix: 'urn_locations', authority: 'urn:example:m', mirror: true }, OPTS);
      expect(r.status).toBe('ok');
      const codes = new Map(r.refusals.map((x) => [x.identifier, x.code]));
      for (const [name, record, code] of CASES) expect([name, codes.get(record.id)]).toEqual([name, code]);
      expect(await store.names.get('urn:example:m:ok')).toEqual({
        key: 'urn:example:m:ok', urn: 'urn:example:m:ok', status: 'active', version: 2, created: Date.parse('2026-01-01T00:00:00.000Z'), updated: Date.parse('2026-02-02T00:00:00.123Z'),
        locations: [{ url: 'https://a.example/', preference: 3, charset: 'ISO-8859-1', language: 'de', meta: 'two\nlines' }, { url: 'https://b.example/', preservation: true }],
        metadata: { title: 'T' }, successor: 'urn:example:m:next', movedFrom: ['urn:example:m:old'],
      });
      for (const [, record, code] of CASES) if (code !== undefined) expect(await store.names.get(record.id)).toBeUndefined();
      // an older version than the one held changes nothing; a newer one is a new version in the history
      records = [{ id: 'urn:example:m:ok', metadata: rec('urn:example:m:ok', 'active', '<u:location url="https://old.example/"/>', 1) }];
      expect(await harvestRepository(store, { baseUrl: repo.url, metadataPrefix: 'urn_locations', authority: 'urn:example:m', mirror: true }, { ...OPTS, from: '2026-01-01' })).toMatchObject({ applied: 0, unchanged: 1 });
      records = [{ id: 'urn:example:m:ok', metadata: rec('urn:example:m:ok', 'withdrawn', '<u:reason>gone</u:reason>', 3) }];
      expect(await harvestRepository(store, { baseUrl: repo.url, metadataPrefix: 'urn_locations', authority: 'urn:example:m', mirror: true }, { ...OPTS, from: '2026-01-01' })).toMatchObject({ applied: 1 });
      expect((await store.history.versions('urn:example:m:ok')).map((h) => [h.version, h.op, h.actor])).toEqual([[2, 'create', `mirror ${repo.url}`], [3, 'withdraw', `mirror ${repo.url}`]]);
    });

    it('a plain harvest of urn_locations: a withdrawn record withdraws, a reserved one is left alone', async () => {
      const store = await fresh();
      records = [{ id: 'urn:example:m:a', metadata: rec('urn:example:m:a', 'active', '<u:location url="https://a.example/"/>') }];
      await harvestRepository(store, { baseUrl: repo.url, metadataPrefix: 'urn_locations', authority: 'urn:example:m' }, OPTS);
      records = [{ id: 'urn:example:m:a', metadata: rec('urn:example:m:a', 'withdrawn', '<u:reason>gone</u:reason>', 2) }, { id: 'urn:example:m:r', metadata: rec('urn:example:m:r', 'reserved') }];
      const r = await harvestRepository(store, { baseUrl: repo.url, metadataPrefix: 'urn_locations', authority: 'urn:example:m' }, { ...OPTS, from: '2026-01-01' });
      expect(r).toMatchObject({ status: 'ok', applied: 1, refused: 0 });
      expect(await store.names.get('urn:example:m:a')).toMatchObject({ status: 'withdrawn', version: 2 });
      expect(await store.names.get('urn:example:m:r')).toBeUndefined();
    });
  });

  suite(`${engine.name}: the admin routes of a handover`, () => {
    let server: RunningServer;
    let token: string;
    beforeAll(async () => {
      server = await startServer({ port: 0, db: engine.freshDb(), rateLimit: false, adminRateLimit: false, stats: false });
      token = (await createToken(server.store, { authority: 'urn:example:m' })).token;
    });
    afterAll(async () => { await server?.close(); });
    const call = async (method: string, path: string, body: unknown) => {
      const res = await fetch(`${server.url}/admin/${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: res.status, type: res.headers.get('content-type') ?? '', body: await res.json() as Record<string, unknown> };
    };

    it.each([
      ['no URN prefix', { authority: 'isbn', to: 'https://b.example' }, 400],
      ['a URL that is no resolver base', { authority: 'urn:example:m', to: 'ftp://b.example/' }, 400],
      ['an authority outside the token\'s', { authority: 'urn:isbn', to: 'https://b.example' }, 403],
      ['an unknown field', { authority: 'urn:example:m', to: 'https://b.example', extra: 1 }, 400],
    ])('PUT /admin/handover refuses %s', async (_name, body, status) => {
      const r = await call('PUT', 'handover', body);
      expect(r.status).toBe(status);
      expect(r.type).toContain('application/problem+json');
    });

    it('a handover is set, seen by resolution and taken back', async () => {
      await server.store.writer.put('urn:example:m:1', { urn: 'urn:example:m:1', locations: [{ url: 'https://a.example/' }] });
      expect((await call('PUT', 'handover', { authority: 'urn:example:m', to: 'https://b.example/', redirect: true })).body).toMatchObject({ authority: 'urn:example:m', handover: { to: 'https://b.example', redirect: true } });
      const res = await fetch(`${server.url}/urn:example:m:1`, { redirect: 'manual' });
      expect([res.status, res.headers.get('location')]).toEqual([301, 'https://b.example/urn:example:m:1']);
      expect((await call('PUT', 'handover', { authority: 'urn:example:m', to: null })).body).toEqual({ authority: 'urn:example:m' });
      expect((await fetch(`${server.url}/urn:example:m:1`, { redirect: 'manual' })).status).toBe(302);
      expect((await call('PUT', 'names/urn:example:m:1', { locations: ['https://c.example/'] })).status).toBe(200);
    });

    it('POST /admin/mirror/promote of an authority not mirrored here is 404', async () => {
      const r = await call('POST', 'mirror/promote', { authority: 'urn:example:m' });
      expect([r.status, r.body.title]).toEqual([404, 'Not mirrored']);
    });
  });
}

for (const engine of engines) {
  const suite = engine.unavailable !== undefined ? describe.skip : describe;
  suite(`${engine.name}: a mirror of two processes on one store`, () => {
    let a: RunningServer;
    let b1: RunningServer;
    let b2: RunningServer;
    beforeAll(async () => {
      a = await startServer({ port: 0, db: engine.freshDb(), rateLimit: false, adminRateLimit: false, stats: false });
      await a.store.writer.put('urn:example:m:1', { urn: 'urn:example:m:1', locations: [{ url: 'https://a.example/' }] });
      const db = engine.freshDb();
      const mirror = () => ({ sources: [{ source: a.url, authority: 'urn:example:m', everyMs: 300 }], harvest: { fetch: { allowAddresses: 'all' as const } } });
      b1 = await startServer({ port: 0, db, rateLimit: false, adminRateLimit: false, stats: false, oai: false, mirror: mirror() });
      b2 = await startServer({ port: 0, db, rateLimit: false, adminRateLimit: false, stats: false, oai: false, mirror: mirror() });
    });
    afterAll(async () => {
      await b2?.close();
      await b1?.close();
      await a?.close();
    });

    it('promoted in one process, the other stops mirroring within a harvest interval and takes writes', async () => {
      const token = (await createToken(b1.store, { authority: 'urn:example:m' })).token;
      const put = (b: RunningServer) => fetch(`${b.url}/admin/names/urn:example:m:1`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ locations: ['https://b.example/'] }) });
      for (let i = 0; i < 100 && (await b1.store.names.get('urn:example:m:1')) === undefined; i++) await new Promise((r) => setTimeout(r, 50));
      expect((await put(b2)).status).toBe(409);
      const promote = await fetch(`${b1.url}/admin/mirror/promote`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ authority: 'urn:example:m' }) });
      expect(promote.status).toBe(200);
      let status = 0;
      const at = Date.now();
      while (Date.now() - at < 5000 && (status = (await put(b2)).status) === 409) await new Promise((r) => setTimeout(r, 50));
      expect(status).toBe(200);
      expect(await (await fetch(`${b2.url}/urn:example:m:urn+m`, { headers: { accept: 'text/plain' } })).text()).not.toContain('mirror of');
    });
  });
}
