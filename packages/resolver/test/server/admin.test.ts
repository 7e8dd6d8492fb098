import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { createToken } from '../../src/store/index.js';
import { testEngines } from '../helpers/engines.js';
import { get } from '../helpers/http.js';

const engines = await testEngines('admin.test');
afterAll(async () => { for (const e of engines) await e.cleanup(); });

for (const engine of engines) {
  const suite = engine.unavailable !== undefined ? describe.skip : describe;
  suite(`${engine.name}: admin API`, () => {
    let server: RunningServer;
    let token: string;
    let isbnToken: string;
    const auth = (t = token) => ({ authorization: `Bearer ${t}` });
    const send = (method: string, path: string, body: unknown, t = token, type = 'application/json') =>
      get(server.url, path, { ...auth(t), 'content-type': type }, { method, body: typeof body === 'string' ? body : JSON.stringify(body) });

    beforeAll(async () => {
      server = await startServer({ port: 0, db: engine.freshDb(), rateLimit: false });
      token = (await createToken(server.store, { authority: 'urn:dns:library.bigstate.edu' })).token;
      isbnToken = (await createToken(server.store, { authority: 'URN:ISBN' })).token;
    });
    afterAll(async () => { await server?.close(); });

    it('refuses a request without a token, with a bad token, with a token of another authority', async () => {
      expect((await get(server.url, '/admin/names')).status).toBe(401);
      expect((await get(server.url, '/admin/names', { authorization: 'Bearer uk_000000000000_' + 'A'.repeat(43) })).status).toBe(401);
      expect((await get(server.url, '/admin/names', { authorization: `Bearer ${token}x` })).status).toBe(401);
      const r = await send('PUT', '/admin/names/urn:dns:library.bigstate.edu:x1', { locations: ['http://a.example/x1'] }, isbnToken);
      expect(r.status).toBe(403);
      expect(r.headers.get('content-type')?.split(';')[0]).toBe('application/problem+json');
    });

    it('creates, reads, updates (idempotently), moves and withdraws a name, keeping every version', async () => {
      const urn = 'urn:dns:library.bigstate.edu:report-7';
      const c = await send('PUT', `/admin/names/${urn}`, { locations: [{ url: 'http://a.example/r7', mediaType: 'text/html' }], metadata: { title: 'Report 7' } });
      expect(c.status).toBe(201);
      expect(JSON.parse(c.text)).toMatchObject({ op: 'create', record: { version: 1, status: 'active' } });
      expect((await get(server.url, `/${urn}`)).headers.get('location')).toBe('http://a.example/r7');
      const same = await send('PUT', `/admin/names/${urn}`, { locations: [{ url: 'http://a.example/r7', mediaType: 'text/html' }], metadata: { title: 'Report 7' } });
      expect(JSON.parse(same.text)).toMatchObject({ op: 'unchanged', record: { version: 1 } });
      const u = await send('PUT', `/admin/names/${urn}`, { locations: ['http://b.example/r7', 'http://a.example/r7'] });
      expect(JSON.parse(u.text)).toMatchObject({ op: 'update', record: { version: 2 } });
      expect((await get(server.url, `/${urn}`)).headers.get('location')).toBe('http://b.example/r7');
      const m = await send('POST', `/admin/move/${urn}`, { to: 'urn:dns:library.bigstate.edu:report-8', permanent: false, reason: 'renumbered' });
      expect(JSON.parse(m.text)).toMatchObject({ op: 'move', record: { version: 3, status: 'moved' } });
      const moved = await get(server.url, `/${urn}`);
      expect(moved.status).toBe(302);
      expect(moved.reason).toBe('Moved Temporarily to urn:dns:library.bigstate.edu:report-8');
      const w = await send('POST', `/admin/withdraw/${urn}`, { reason: 'retracted' });
      expect(JSON.parse(w.text)).toMatchObject({ op: 'withdraw', record: { version: 4, status: 'withdrawn' } });
      const gone = await get(server.url, `/${urn}`, { accept: 'application/json' });
      expect(gone.status).toBe(410);
      expect(JSON.parse(gone.text)).toMatchObject({ status: 'withdrawn', reason: 'retracted' });
      const h = JSON.parse((await get(server.url, `/admin/history/${urn}`, auth())).text) as { history: Array<{ version: number; op: string }> };
      expect(h.history.map((e) => [e.version, e.op])).toEqual([[1, 'create'], [2, 'update'], [3, 'move'], [4, 'withdraw']]);
      const rec = JSON.parse((await get(server.url, `/admin/names/${urn}`, auth())).text);
      expect(rec).toMatchObject({ status: 'withdrawn', version: 4 });
    });

    it('refuses bad records with 400 and the field at fault', async () => {
      const cases: Array<[unknown, RegExp]> = [
        [{ locations: ['not a url'] }, /locations\[0\]\.url/],
        [{ locations: [{ url: 'http://a/', meta: 'ok\n=====bad' }] }, /=====/],
        [{ locations: [{ url: 'http://a/', charset: 'UTF-8' }] }, /charset/],
        [{ status: 'lost' }, /status/],
        [{ status: 'moved' }, /movedTo/],
        [{ metadata: [1, 2] }, /metadata/],
      ];
      for (const [body, re] of cases) {
        const r = await send('PUT', '/admin/names/urn:dns:library.bigstate.edu:bad', body);
        expect(r.status).toBe(400);
        expect(JSON.parse(r.text).detail).toMatch(re);
      }
      const u = await send('PUT', '/admin/names/urn:a:b', {});
      expect(u.status).toBe(400);
      expect(JSON.parse(u.text)).toMatchObject({ code: 'bad-nid' });
    });

    it('imports NDJSON in one transaction, idempotently', async () => {
      const lines = [0, 1, 2, 3, 4].map((i) => JSON.stringify({ urn: `urn:isbn:97800000000${i}`, locations: [`https://books.example/${i}`] })).join('\n');
      const r = await send('POST', '/admin/import', lines, isbnToken, 'application/x-ndjson');
      expect(r.status).toBe(200);
      expect(JSON.parse(r.text)).toMatchObject({ ok: true, records: 5, created: 5, updated: 0, unchanged: 0 });
      const again = await send('POST', '/admin/import', lines, isbnToken, 'application/x-ndjson');
      expect(JSON.parse(again.text)).toMatchObject({ ok: true, created: 0, updated: 0, unchanged: 5 });
      expect((await get(server.url, '/urn:isbn:978000000003')).headers.get('location')).toBe('https://books.example/3');
    });

    it('rejects a whole import with a report of every bad line, writing nothing', async () => {
      const before = (await get(server.url, '/admin/export?prefix=urn:isbn', auth(isbnToken))).text;
      const lines = [
        JSON.stringify({ urn: 'urn:isbn:111', locations: ['https://books.example/111'] }),
        '{not json',
        JSON.stringify({ urn: 'urn:a:1' }),
        JSON.stringify({ urn: 'urn:dns:library.bigstate.edu:z' }),
        JSON.stringify({ urn: 'urn:isbn:111' }),
        JSON.stringify({ urn: 'urn:isbn:978000000001', locations: ['https://changed.example/'] }),
      ].join('\n');
      const r = await send('POST', '/admin/import', lines, isbnToken, 'application/x-ndjson');
      expect(r.status).toBe(422);
      const report = JSON.parse(r.text) as { ok: boolean; errors: Array<{ line: number; code?: string }> };
      expect(report.ok).toBe(false);
      expect(report.errors.map((e) => [e.line, e.code ?? null])).toEqual([[2, null], [3, 'bad-nid'], [4, 'forbidden'], [5, 'duplicate']]);
      expect((await get(server.url, '/admin/export?prefix=urn:isbn', auth(isbnToken))).text).toBe(before);
    });

    it('imports CSV, a name over several rows', async () => {
      const csv = 'urn,url,mediaType,meta\r\nurn:isbn:222,https://a.example/222,text/html,"first, with a comma"\r\nurn:isbn:222,https://b.example/222,,\r\nurn:isbn:333,https://a.example/333,,"a ""quoted"" word"\r\n';
      const r = await send('POST', '/admin/import', csv, isbnToken, 'text/csv');
      expect(JSON.parse(r.text)).toMatchObject({ ok: true, records: 2, created: 2 });
      const list = await get(server.url, '/uri-res/I2Ls?urn:isbn:222', { accept: 'application/json' });
      expect(JSON.parse(list.text).locations).toEqual([{ url: 'https://a.example/222', mediaType: 'text/html', meta: 'first, with a comma' }, { url: 'https://b.example/222' }]);
    });

    it('lists by prefix with pagination', async () => {
      const seen: string[] = [];
      let after: string | undefined;
      for (let i = 0; i < 10; i++) {
        const page = JSON.parse((await get(server.url, `/admin/names?prefix=urn:isbn:978&limit=2${after ? `&after=${after}` : ''}`, auth(isbnToken))).text) as { items: Array<{ key: string }>; next?: string };
        seen.push(...page.items.map((x) => x.key));
        if (!page.next) break;
        after = page.next;
      }
      expect(seen).toEqual([0, 1, 2, 3, 4].map((i) => `urn:isbn:97800000000${i}`));
      expect((await get(server.url, '/admin/names?prefix=urn:dns:', auth(isbnToken))).status).toBe(403);
    });

    it('exports NDJSON and feeds changes since a point', async () => {
      const exp = (await get(server.url, '/admin/export', auth(isbnToken))).text.trim().split('\n').map((l) => JSON.parse(l) as { key: string });
      expect(exp.map((r) => r.key)).toContain('urn:isbn:333');
      expect(exp.every((r) => r.key.startsWith('urn:isbn:'))).toBe(true);
      const all = JSON.parse((await get(server.url, '/admin/changes?since=0', auth())).text) as { items: Array<{ seq: number; key: string }>; next: number };
      expect(all.items.length).toBeGreaterThanOrEqual(4);
      expect(all.items.every((e) => e.key.startsWith('urn:dns:library.bigstate.edu:'))).toBe(true);
      await send('PUT', '/admin/names/urn:dns:library.bigstate.edu:late', { locations: ['http://a.example/late'] });
      const later = JSON.parse((await get(server.url, `/admin/changes?since=${all.next}`, auth())).text) as { items: Array<{ key: string; op: string }> };
      expect(later.items.map((e) => [e.key, e.op])).toEqual([['urn:dns:library.bigstate.edu:late', 'create']]);
      const byTime = JSON.parse((await get(server.url, `/admin/changes?since=${new Date(Date.now() + 60_000).toISOString()}`, auth())).text);
      expect(byTime.items).toEqual([]);
    });

    it('reads the "since" of the change feed as RFC 3339: a date or time the calendar does not have is 400 with its code and offset', async () => {
      await send('PUT', '/admin/names/urn:dns:library.bigstate.edu:since', { locations: ['http://a.example/since'] });
      const keys = async (since: string) => {
        const r = await get(server.url, `/admin/changes?since=${encodeURIComponent(since)}`, auth());
        expect([since, r.status]).toEqual([since, 200]);
        return (JSON.parse(r.text) as { items: Array<{ key: string }> }).items.map((e) => e.key);
      };
      // each good form reads the instant it names: a year back holds the name just written, a day ahead none
      const ahead = new Date(Date.now() + 86_400_000 * 2);
      const back = new Date(Date.now() - 86_400_000 * 365);
      for (const since of [back.toISOString(), back.toISOString().slice(0, 10), `${back.toISOString().slice(0, 19)}+05:30`, `${back.toISOString().slice(0, 19).toLowerCase()}z`]) {
        expect(await keys(since), since).toContain('urn:dns:library.bigstate.edu:since');
      }
      for (const since of [ahead.toISOString(), ahead.toISOString().slice(0, 10), `${ahead.toISOString().slice(0, 19)}-01:00`]) expect(await keys(since), since).toEqual([]);
      const BAD: Array<[string, string, number]> = [
        ['2026-02-30', 'bad-day', 8],
        ['2026-02-30T00:00:00Z', 'bad-day', 8],
        ['2026-13-01T00:00:00Z', 'bad-month', 5],
        ['2026-11-24T24:00:00Z', 'bad-time', 11],
        ['2026-11-24T12:60:00Z', 'bad-time', 14],
        ['2026-11-24T12:00:60Z', 'bad-time', 17],
        ['2026-11-24T12:00:00+24:00', 'bad-time', 20],
        ['2026-11-24T12:00:00', 'bad-date', 19],
        ['2026-11-24 12:00:00Z', 'bad-date', 10],
        ['2026-11-24T12:00:00.Z', 'bad-date', 20],
        ['2026-11-24T12:00:00Zx', 'bad-date', 20],
        ['yesterday 2026', 'bad-date', 0],
        ['-1', 'bad-date', 0],
      ];
      for (const [since, code, offset] of BAD) {
        const r = await get(server.url, `/admin/changes?since=${encodeURIComponent(since)}`, auth());
        expect([since, r.status, JSON.parse(r.text)]).toMatchObject([since, 400, { title: 'Invalid since', code, parameter: 'since', offset }]);
      }
    });

    it('keeps a token inside its authority: listings and exports stop at "<authority>:" (urn:isbnx is not urn:isbn)', async () => {
      const all = (await createToken(server.store, { authority: '*' })).token;
      expect((await send('PUT', '/admin/names/urn:isbnx:1', { locations: ['http://a.example/isbnx'] }, all)).status).toBe(201);
      const keys = async (path: string) => (JSON.parse((await get(server.url, path, auth(isbnToken))).text) as { items: Array<{ key: string }> }).items.map((x) => x.key);
      expect(await keys('/admin/names?limit=10000')).not.toContain('urn:isbnx:1');
      expect(await keys('/admin/names?prefix=urn:isbn&limit=10000')).not.toContain('urn:isbnx:1');
      expect((await get(server.url, '/admin/names?prefix=urn:isbnx', auth(isbnToken))).status).toBe(403);
      expect((await get(server.url, '/admin/export?prefix=urn:isbnx', auth(isbnToken))).status).toBe(403);
      expect((await get(server.url, '/admin/export', auth(isbnToken))).text).not.toContain('urn:isbnx:1');
      expect((await get(server.url, '/admin/names?prefix=urn:dns:library.bigstate.edu.evil.example:', auth())).status).toBe(403);
    });

    it('keeps partial-redirect rules inside the token\'s authority', async () => {
      const before = await get(server.url, '/urn:isbnx:2');
      expect(before.status).toBe(404);
      // A rule for "urn:dns:library.bigstate.edu" would match the names of urn:dns:library.bigstate.edu.evil.example
      // too: refused, and nothing changes. "urn:isbn" would match urn:isbnx:2, but it is not a URN prefix (no NSS).
      expect((await send('PUT', '/admin/prefix-rules', { prefix: 'urn:dns:library.bigstate.edu', target: 'https://evil.example/' })).status).toBe(403);
      expect((await send('PUT', '/admin/prefix-rules', { prefix: 'urn:dns:library.bigstate.edu.', target: 'https://evil.example/' })).status).toBe(403);
      expect((await send('PUT', '/admin/prefix-rules', { prefix: 'urn:isbn', target: 'https://evil.example/' }, isbnToken)).status).toBe(400);
      expect((await get(server.url, '/urn:isbnx:2')).status).toBe(404);
      expect((await get(server.url, '/urn:dns:library.bigstate.edu.evil.example:1')).status).toBe(404);
      expect((await send('PUT', '/admin/prefix-rules', { prefix: 'URN:ISBN:979', target: 'https://books.example/979/' }, isbnToken)).status).toBe(200);
      const r = await get(server.url, '/urn:isbn:9791234');
      expect(r.headers.get('location')).toBe('https://books.example/979/1234');
      const all = (await createToken(server.store, { authority: '*' })).token;
      expect((await send('PUT', '/admin/prefix-rules', { prefix: 'urn:isbnx:', target: 'https://x.example/' }, all)).status).toBe(200);
      const listed = JSON.parse((await get(server.url, '/admin/prefix-rules', auth(isbnToken))).text) as Array<{ prefix: string }>;
      expect(listed.map((x) => x.prefix)).toEqual(['urn:isbn:979']);
      expect((await get(server.url, '/admin/prefix-rules/urn:isbnx:', auth(isbnToken), { method: 'DELETE' })).status).toBe(403);
      expect((await get(server.url, '/admin/prefix-rules/urn:dns:library.bigstate.edu', auth(), { method: 'DELETE' })).status).toBe(403);
      expect((await get(server.url, '/admin/prefix-rules/URN:ISBN:979', auth(isbnToken), { method: 'DELETE' })).status).toBe(200);
      expect((await get(server.url, '/urn:isbn:9791234')).status).toBe(404);
      expect((await get(server.url, '/urn:isbnx:2')).headers.get('location')).toBe('https://x.example/2');
    });

    it('takes only a JSON object where it expects one: an NDJSON or CSV stream sent to PUT /admin/names writes nothing', async () => {
      const urn = 'urn:dns:library.bigstate.edu:streamed';
      for (const type of ['text/csv', 'application/x-ndjson']) {
        const r = await send('PUT', `/admin/names/${urn}`, 'urn,url\r\nx,y\r\n', token, type);
        expect(r.status).toBe(400);
      }
      expect((await send('PUT', `/admin/names/${urn}`, '[1]')).status).toBe(400);
      expect((await get(server.url, `/admin/names/${urn}`, auth())).status).toBe(404);
      expect((await send('PUT', '/admin/authorities', 'name', token, 'text/csv')).status).toBe(400);
    });

    it('lists names by link health (healthy, failing, unchecked) with prefix and status, each name with its link health, page by page', async () => {
      const base = 'urn:dns:library.bigstate.edu:lh-';
      const url = (n: string, i = 0) => `http://lh.example/${n}/${i}`;
      // names: h* every location ok, f* one failing (or retrying, or blocked), u* one never checked, one withdrawn (no locations)
      const plan: Array<[string, number, string[]]> = [['h1', 1, ['ok']], ['h2', 2, ['ok', 'ok']], ['f1', 2, ['ok', 'failing']], ['f2', 1, ['retry']], ['f3', 2, ['blocked', 'unchecked']], ['u1', 2, ['ok', 'unchecked']], ['u2', 1, ['none']]];
      for (const [n, count] of plan) expect((await send('PUT', `/admin/names/${base}${n}`, { locations: Array.from({ length: count }, (_, i) => url(n, i)) })).status).toBe(201);
      await send('PUT', `/admin/names/${base}w1`, { locations: [url('w1')] });
      await send('POST', `/admin/withdraw/${base}w1`, { reason: 'gone' });
      const checked = plan.flatMap(([n, , states]) => states.flatMap((state, i) => state === 'none' ? [] : [{ url: url(n, i), state: state as 'ok', lastCheck: 1, nextCheck: 2, consecutiveFailures: state === 'ok' || state === 'unchecked' ? 0 : 1 }]));
      await server.store.linkHealth.putMany(checked);
      const list = async (q: string) => {
        const r = await get(server.url, `/admin/names?prefix=${base}&${q}`, auth());
        expect(r.status).toBe(200);
        return JSON.parse(r.text) as { items: Array<{ key: string; links?: string }>; next?: string };
      };
      const keys = async (q: string) => (await list(q)).items.map((r) => r.key.slice(base.length));
      expect(await keys('links=healthy')).toEqual(['h1', 'h2']);
      expect(await keys('links=failing')).toEqual(['f1', 'f2', 'f3']);
      expect(await keys('links=unchecked')).toEqual(['u1', 'u2']);
      expect(await keys('links=failing&status=withdrawn')).toEqual([]);
      expect((await list('')).items.map((r) => [r.key.slice(base.length), r.links])).toEqual([['f1', 'failing'], ['f2', 'failing'], ['f3', 'failing'], ['h1', 'healthy'], ['h2', 'healthy'], ['u1', 'unchecked'], ['u2', 'unchecked'], ['w1', undefined]]);
      // pages of one, each going on after the last name it holds
      const seen: string[] = [];
      let after: string | undefined;
      for (let i = 0; i < 5; i++) {
        const page = await list(`links=failing&limit=1${after ? `&after=${after}` : ''}`);
        seen.push(...page.items.map((r) => r.key.slice(base.length)));
        if (page.next === undefined) break;
        after = page.next;
      }
      expect(seen).toEqual(['f1', 'f2', 'f3']);
      const bad = await get(server.url, `/admin/names?prefix=${base}&links=broken`, auth());
      expect(bad.status).toBe(400);
      expect(bad.headers.get('content-type')?.split(';')[0]).toBe('application/problem+json');
    });

    it('answers 400 to a listing prefix or cursor that is not a key\'s text (a NUL failed in PostgreSQL)', async () => {
      for (const q of ['prefix=urn:isbn:%00', 'prefix=urn:isbn:%C3%A9', 'prefix=urn:isbn:97&after=urn:isbn:%00']) {
        const r = await get(server.url, `/admin/names?${q}`, auth(isbnToken));
        expect(r.status).toBe(400);
        expect(r.headers.get('content-type')?.split(';')[0]).toBe('application/problem+json');
      }
    });

    it('manages partial-redirect rules and the authority registry', async () => {
      const p = await send('PUT', '/admin/prefix-rules', { prefix: 'urn:dns:library.bigstate.edu:archive/', target: 'https://archive.example/items/' });
      expect(p.status).toBe(200);
      const r = await get(server.url, '/urn:dns:library.bigstate.edu:archive/1999/42');
      expect(r.status).toBe(302);
      expect(r.headers.get('location')).toBe('https://archive.example/items/1999/42');
      const a = await send('PUT', '/admin/authorities', { name: 'urn:dns:library.bigstate.edu', children: ['urn:dns:music.library.bigstate.edu'], parents: [], contact: 'mailto:x@bigstate.example' });
      expect(a.status).toBe(200);
      expect((await get(server.url, '/urn:dns:library.bigstate.edu:urn+c')).text).toBe('urn:dns:music.library.bigstate.edu\r\n');
      expect((await send('PUT', '/admin/authorities', { name: 'urn:isbn', children: [] })).status).toBe(403);
    });
  });
}
