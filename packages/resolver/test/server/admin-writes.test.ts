/**
 * Admin writes that cannot erase (DESIGN.md: "Admin writes never change
 * what the request did not name"), on both engines: a field the API does
 * not know is refused on every write with the JSON Pointer (RFC 6901) of
 * the field, and nothing is written; a PUT never changes a name's status
 * implicitly; PATCH takes a JSON Merge Patch (RFC 7396) and changes only
 * what it names; every write of a name honours If-Match with its ETag
 * (RFC 9110 §13.1.1).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { createToken } from '../../src/store/index.js';
import { testEngines } from '../helpers/engines.js';
import { get } from '../helpers/http.js';

const engines = await testEngines('admin-writes.test');
afterAll(async () => { for (const e of engines) await e.cleanup(); });

const L = 'urn:dns:library.bigstate.edu';

for (const engine of engines) {
  const suite = engine.unavailable !== undefined ? describe.skip : describe;
  suite(`${engine.name}: admin writes`, () => {
    let server: RunningServer;
    let token: string;
    const send = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
      get(server.url, path, { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers }, { method, body: typeof body === 'string' ? body : JSON.stringify(body) });
    const record = async (urn: string) => JSON.parse((await get(server.url, `/admin/names/${urn}`, { authorization: `Bearer ${token}` })).text) as Record<string, unknown>;

    beforeAll(async () => {
      server = await startServer({ port: 0, db: engine.freshDb(), rateLimit: false, adminRateLimit: false });
      token = (await createToken(server.store, { authority: '*' })).token;
    });
    afterAll(async () => { await server?.close(); });

    it('refuses a field it does not know on every write: 400 unknown-field with its pointer, nothing written', async () => {
      const urn = `${L}:aj17-mcc`;
      expect((await send('PUT', `/admin/names/${urn}`, { locations: ['http://a.example/aj17'], successor: `${L}:aj18` })).status).toBe(201);
      const before = await record(urn);
      const cases: Array<[string, string, unknown, string]> = [
        ['PUT', `/admin/names/${urn}`, { locatons: ['http://b.example/'] }, '/locatons'],
        ['PUT', `/admin/names/${urn}`, { locations: [{ url: 'http://b.example/', mediatype: 'text/html' }] }, '/locations/0/mediatype'],
        ['PUT', `/admin/names/${urn}`, { url: { url: 'http://b.example/', lang: 'en' } }, '/url/lang'],
        ['PUT', `/admin/names/${urn}`, { locations: [], 'a/b~c': 1 }, '/a~1b~0c'],
        ['POST', `/admin/move/${urn}`, { to: `${L}:other`, permanant: true }, '/permanant'],
        ['POST', `/admin/withdraw/${urn}`, { reson: 'typo' }, '/reson'],
        ['POST', `/admin/reinstate/${urn}`, { reson: 'typo' }, '/reson'],
        ['POST', '/admin/mint', { prefix: `${L}:m-`, recrod: {} }, '/recrod'],
        ['POST', '/admin/mint', { prefix: `${L}:m-`, record: { locatons: ['http://b.example/'] } }, '/record/locatons'],
        ['PUT', '/admin/prefix-rules', { prefix: `${L}:arch/`, target: 'http://a.example/', targte: 'x' }, '/targte'],
        ['PUT', '/admin/authorities', { name: L, contacts: 'mailto:a@b.example' }, '/contacts'],
      ];
      for (const [method, path, body, pointer] of cases) {
        const r = await send(method, path, body);
        expect(r.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
        expect(r.headers.get('content-type')?.split(';')[0]).toBe('application/problem+json');
        expect(JSON.parse(r.text), `${method} ${path}`).toMatchObject({ code: 'unknown-field', pointer });
      }
      expect(await record(urn)).toEqual(before);
      expect((await get(server.url, `/${urn}`)).headers.get('location')).toBe('http://a.example/aj17');
      expect((await get(server.url, '/admin/prefix-rules', { authorization: `Bearer ${token}` })).text).toBe('[]');
    });

    it('refuses an import line with a field it does not know: 422, the line and the pointer, nothing written', async () => {
      const ndjson = `{"urn":"${L}:imp-1","locations":["http://a.example/1"]}\n{"urn":"${L}:imp-2","locations":[{"url":"http://a.example/2","prefrence":1}]}\n`;
      const r = await send('POST', '/admin/import', ndjson, { 'content-type': 'application/x-ndjson' });
      expect(r.status).toBe(422);
      expect(JSON.parse(r.text).errors).toMatchObject([{ line: 2, code: 'unknown-field', pointer: '/locations/0/prefrence' }]);
      expect((await get(server.url, `/admin/names/${L}:imp-1`, { authorization: `Bearer ${token}` })).status).toBe(404);
    });

    it('takes back a record as read (its key, version and dates are ignored) and a line of an export', async () => {
      const urn = `${L}:round-trip`;
      await send('PUT', `/admin/names/${urn}`, { locations: ['http://a.example/rt'], metadata: { title: 'RT' } });
      const read = await record(urn);
      const again = await send('PUT', `/admin/names/${urn}`, read);
      expect(again.status).toBe(200);
      expect(JSON.parse(again.text)).toMatchObject({ op: 'unchanged', record: { version: 1 } });
      const exported = (await get(server.url, `/admin/export?prefix=${urn}`, { authorization: `Bearer ${token}` })).text;
      const imported = await send('POST', '/admin/import', exported, { 'content-type': 'application/x-ndjson' });
      expect(JSON.parse(imported.text)).toMatchObject({ ok: true, unchanged: 1 });
    });

    it('never changes a status implicitly: a PUT without "status" over a moved, reserved or withdrawn name is 409 naming the way, and nothing changes', async () => {
      const moved = `${L}:moved-1`;
      await send('PUT', `/admin/names/${moved}`, { locations: ['http://a.example/m1'], successor: `${L}:m2` });
      await send('POST', `/admin/move/${moved}`, { to: `${L}:elsewhere`, permanent: true });
      const reserved = `${L}:reserved-1`;
      await send('PUT', `/admin/names/${reserved}`, { status: 'reserved' });
      const gone = `${L}:gone-1`;
      await send('PUT', `/admin/names/${gone}`, { locations: ['http://a.example/g1'] });
      await send('POST', `/admin/withdraw/${gone}`, { reason: 'retracted' });
      const cases: Array<[string, string, RegExp]> = [[moved, 'moved', /"status": "moved".*POST \/admin\/move\/.*PATCH \/admin\/names\//], [reserved, 'reserved', /"status": "active"/], [gone, 'withdrawn', /POST \/admin\/reinstate\//]];
      for (const [urn, status, way] of cases) {
        const before = await record(urn);
        const r = await send('PUT', `/admin/names/${urn}`, { locations: ['http://b.example/new'] });
        expect(r.status, urn).toBe(409);
        const p = JSON.parse(r.text);
        expect(p).toMatchObject({ code: 'status-not-stated', from: status, pointer: '/status' });
        expect(p.detail).toMatch(way);
        expect(await record(urn)).toEqual(before);
      }
      expect(await record(moved)).toMatchObject({ status: 'moved', movedTo: `${L}:elsewhere`, permanent: true, successor: `${L}:m2` });
      expect((await get(server.url, `/${moved}`)).status).toBe(301);
      // Stated, the same status keeps it; another one is a transition the lifecycle checks.
      const keep = await send('PUT', `/admin/names/${moved}`, { status: 'moved', movedTo: `${L}:elsewhere`, permanent: true, locations: ['http://b.example/m1'] });
      expect(JSON.parse(keep.text)).toMatchObject({ op: 'move', record: { status: 'moved', movedTo: `${L}:elsewhere`, version: 3 } });
      expect(JSON.parse((await send('PUT', `/admin/names/${reserved}`, { status: 'active', locations: ['http://b.example/r1'] })).text)).toMatchObject({ op: 'update', record: { status: 'active' } });
      // An import line is a PUT of its record.
      const line = `{"urn":"${moved}","locations":["http://c.example/m1"]}\n`;
      const imported = await send('POST', '/admin/import', line, { 'content-type': 'application/x-ndjson' });
      expect(imported.status).toBe(422);
      expect(JSON.parse(imported.text).errors).toMatchObject([{ line: 1, code: 'status-not-stated' }]);
      expect(await record(moved)).toMatchObject({ status: 'moved', version: 3 });
    });

    const patch = (urn: string, body: unknown, headers: Record<string, string> = {}) => send('PATCH', `/admin/names/${urn}`, body, { 'content-type': 'application/merge-patch+json', ...headers });

    it('PATCH changes only what the merge patch names (null removes a field); the lifecycle checks a status it sets', async () => {
      const urn = `${L}:patched`;
      await send('PUT', `/admin/names/${urn}`, { locations: [{ url: 'http://a.example/p', mediaType: 'text/html' }], successor: `${L}:p2`, metadata: { title: 'P', year: 1995 } });
      const meta = await patch(urn, { metadata: { title: 'P, revised', year: null, lang: 'en' } });
      expect(meta.status).toBe(200);
      expect(JSON.parse(meta.text)).toMatchObject({ op: 'update', record: { version: 2, successor: `${L}:p2`, locations: [{ url: 'http://a.example/p', mediaType: 'text/html' }], metadata: { title: 'P, revised', lang: 'en' } } });
      expect(JSON.parse(meta.text).record.metadata).not.toHaveProperty('year');
      expect(JSON.parse((await patch(urn, { successor: null })).text).record).not.toHaveProperty('successor');
      expect(JSON.parse((await patch(urn, { url: 'http://b.example/p' })).text).record.locations).toEqual([{ url: 'http://b.example/p' }]);
      // A status it sets is a transition the lifecycle checks, as the move and withdraw routes are.
      expect(JSON.parse((await patch(urn, { status: 'moved' })).text)).toMatchObject({ detail: expect.stringMatching(/movedTo/) });
      expect(JSON.parse((await patch(urn, { status: 'moved', movedTo: urn })).text)).toMatchObject({ status: 409, code: 'redirect-cycle' });
      expect(JSON.parse((await patch(urn, { status: 'reserved' })).text)).toMatchObject({ status: 409, code: 'name-exists' });
      const moved = await patch(urn, { status: 'moved', movedTo: `${L}:p3`, permanent: true });
      expect(JSON.parse(moved.text)).toMatchObject({ op: 'move', record: { status: 'moved', movedTo: `${L}:p3`, permanent: true, locations: [{ url: 'http://b.example/p' }] } });
      const kept = await patch(urn, { metadata: { title: 'moved, described' } });
      expect(JSON.parse(kept.text).record).toMatchObject({ status: 'moved', movedTo: `${L}:p3`, permanent: true, metadata: { title: 'moved, described', lang: 'en' } });
      const withdrawn = await patch(urn, { status: 'withdrawn', reason: 'retracted' });
      expect(JSON.parse(withdrawn.text)).toMatchObject({ op: 'withdraw', record: { status: 'withdrawn', reason: 'retracted' } });
      expect(JSON.parse((await patch(urn, { metadata: null })).text)).toMatchObject({ status: 409, code: 'withdrawn-name' });
      expect(JSON.parse((await patch(urn, {})).text)).toMatchObject({ op: 'unchanged' });
      // Refused: a field it does not know, a member it cannot remove, another patch format, a name it does not hold.
      expect(JSON.parse((await patch(urn, { locatons: [] })).text)).toMatchObject({ status: 400, code: 'unknown-field', pointer: '/locatons' });
      expect(JSON.parse((await patch(urn, { status: null })).text)).toMatchObject({ status: 400, pointer: '/status' });
      const json = await send('PATCH', `/admin/names/${urn}`, { metadata: {} });
      expect(json.status).toBe(415);
      expect(json.headers.get('accept-patch')).toBe('application/merge-patch+json');
      expect((await patch(`${L}:never`, { metadata: {} })).status).toBe(404);
      expect((await get(server.url, `/admin/names/${urn}`, { authorization: `Bearer ${token}` })).headers.get('accept-patch')).toBe('application/merge-patch+json');
    });

    it('honours If-Match with the name\'s ETag on every write of a name: 412 when stale, nothing written', async () => {
      const urn = `${L}:tagged`;
      const created = await send('PUT', `/admin/names/${urn}`, { locations: ['http://a.example/t'] });
      expect(created.headers.get('etag')).toBe('"1"');
      const read = await get(server.url, `/admin/names/${urn}`, { authorization: `Bearer ${token}` });
      expect(read.headers.get('etag')).toBe('"1"');
      const put = await send('PUT', `/admin/names/${urn}`, { locations: ['http://b.example/t'] }, { 'if-match': '"1"' });
      expect(put.status).toBe(200);
      expect(put.headers.get('etag')).toBe('"2"');
      const stale: Array<[string, string, unknown, Record<string, string>?]> = [
        ['PUT', `/admin/names/${urn}`, { locations: ['http://c.example/t'] }],
        ['PATCH', `/admin/names/${urn}`, { metadata: { title: 'T' } }, { 'content-type': 'application/merge-patch+json' }],
        ['POST', `/admin/move/${urn}`, { to: `${L}:t2` }],
        ['POST', `/admin/withdraw/${urn}`, { reason: 'x' }],
      ];
      for (const ifMatch of ['"1"', 'W/"2"', '"1", "3"', 'garbage']) {
        for (const [method, path, body, headers] of stale) {
          const r = await send(method, path, body, { 'if-match': ifMatch, ...headers });
          expect(r.status, `${method} ${path} If-Match: ${ifMatch}`).toBe(412);
          expect(r.headers.get('etag')).toBe('"2"');
          expect(JSON.parse(r.text)).toMatchObject({ code: 'precondition-failed', version: 2 });
        }
      }
      expect(await record(urn)).toMatchObject({ version: 2, status: 'active', locations: [{ url: 'http://b.example/t' }] });
      expect((await send('PUT', `/admin/names/${urn}`, { locations: ['http://c.example/t'] }, { 'if-match': '"7", "2"' })).status).toBe(200);
      expect((await patch(urn, { metadata: { title: 'T' } }, { 'if-match': '*' })).status).toBe(200);
      const w = await send('POST', `/admin/withdraw/${urn}`, { reason: 'x' }, { 'if-match': '"4"' });
      expect(w.headers.get('etag')).toBe('"5"');
      expect((await send('POST', `/admin/reinstate/${urn}`, {}, { 'if-match': '"4"' })).status).toBe(412);
      expect((await send('POST', `/admin/reinstate/${urn}`, {}, { 'if-match': '"5"' })).status).toBe(200);
      // If-Match: * on a name the store does not hold: no current representation (RFC 9110 §13.1.1), nothing created.
      expect((await send('PUT', `/admin/names/${L}:absent`, { locations: ['http://a.example/x'] }, { 'if-match': '*' })).status).toBe(412);
      expect((await get(server.url, `/admin/names/${L}:absent`, { authorization: `Bearer ${token}` })).status).toBe(404);
      // If-None-Match: * creates only (RFC 9110 §13.1.2).
      expect((await send('PUT', `/admin/names/${urn}`, { status: 'active', locations: ['http://d.example/t'] }, { 'if-none-match': '*' })).status).toBe(412);
      expect((await send('PUT', `/admin/names/${L}:fresh`, { locations: ['http://d.example/f'] }, { 'if-none-match': '*' })).status).toBe(201);
      // The writes with no entity tag take only *.
      const line = `{"urn":"${L}:via-import","locations":["http://a.example/i"]}\n`;
      expect((await send('POST', '/admin/import', line, { 'content-type': 'application/x-ndjson', 'if-match': '"1"' })).status).toBe(412);
      expect((await send('POST', '/admin/mint', { prefix: `${L}:m-` }, { 'if-match': '"1"' })).status).toBe(412);
      expect((await send('PUT', '/admin/prefix-rules', { prefix: `${L}:arch/`, target: 'http://a.example/' }, { 'if-match': '"1"' })).status).toBe(412);
      expect((await get(server.url, `/admin/names/${L}:via-import`, { authorization: `Bearer ${token}` })).status).toBe(404);
      expect((await send('POST', '/admin/import', line, { 'content-type': 'application/x-ndjson', 'if-match': '*' })).status).toBe(200);
    });

    it('of two writers who read the same version, only the first writes: the second gets 412', async () => {
      const urn = `${L}:raced`;
      await send('PUT', `/admin/names/${urn}`, { locations: ['http://a.example/r'] });
      const answers = await Promise.all([1, 2, 3, 4].map((i) => patch(urn, { metadata: { editor: i } }, { 'if-match': '"1"' })));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 412, 412, 412]);
      expect(await record(urn)).toMatchObject({ version: 2 });
    });
  });
}
