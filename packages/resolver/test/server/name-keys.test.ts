/**
 * One key for a name, on both engines, through a running server: the 1995
 * draft §2.3.1 case rule in registration, lookup, moves and the cycle
 * check; reserved ElementIDs (§2.3) and the length limit refused at write.
 *
 * The case rule, as ruled (store/keys.ts): §2 makes "urn" and the
 * SchemeID case-insensitive, §2.2.1 the AuthorityID of the "dns"
 * SchemeID, and §2.3.1 says of its ElementIDs "can be significant;
 * however, current practice dictates that they should not be
 * case-sensitive": the key follows current practice, so a `urn:dns:` name
 * is case-insensitive throughout. Under any other NID the NSS stays
 * case-sensitive (RFC 8141 §3.1): `urn:example:A` and `urn:example:a` are
 * two names.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { createToken } from '../../src/store/index.js';
import { testEngines } from '../helpers/engines.js';
import { get } from '../helpers/http.js';

const L = 'urn:dns:library.bigstate.edu';
const engines = await testEngines('name-keys.test');
afterAll(async () => { for (const e of engines) await e.cleanup(); });

for (const engine of engines) {
  const suite = engine.unavailable !== undefined ? describe.skip : describe;
  suite(`${engine.name}: one key for a name`, () => {
    let server: RunningServer;
    let token: string;
    const send = (method: string, path: string, body: unknown) =>
      get(server.url, path, { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, { method, body: JSON.stringify(body) });
    const put = (urn: string, body: unknown = { locations: [`http://a.example/${encodeURIComponent(urn)}`] }) => send('PUT', `/admin/names/${urn}`, body);

    beforeAll(async () => {
      server = await startServer({ port: 0, db: engine.freshDb(), rateLimit: false, authority: L });
      token = (await createToken(server.store, { authority: '*' })).token;
    });
    afterAll(async () => { await server?.close(); });

    it('1995 draft §2.3.1: a urn:dns: name answers in every case, and another case of it cannot be registered', async () => {
      expect((await put(`${L}:MixedCase`, { locations: ['http://a.example/mixed'] })).status).toBe(201);
      for (const path of ['/mixedcase', '/MIXEDCASE', '/MixedCase', `/${L}:mixedcase`, `/URN:DNS:Library.BigState.EDU:MIXEDCASE`, `/uri-res/N2L?${L}:mIxEdCaSe`]) {
        const r = await get(server.url, path);
        expect([path, r.status, r.headers.get('location')]).toEqual([path, 302, 'http://a.example/mixed']);
      }
      const twin = await put(`${L}:mixedcase`, { locations: ['http://b.example/other'] });
      expect(twin.status).toBe(409);
      expect(twin.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      const p = JSON.parse(twin.text) as { code: string; detail: string };
      expect(p.code).toBe('case-variant');
      expect(p.detail).toContain(`${L}:MixedCase`);
      // Nothing changed; the admin API reads the name by any case, and keeps the registered spelling.
      const rec = JSON.parse((await get(server.url, `/admin/names/${L}:MIXEDCASE`, { authorization: `Bearer ${token}` })).text) as { urn: string; version: number };
      expect(rec).toMatchObject({ urn: `${L}:MixedCase`, version: 1 });
      // Moves and withdrawals name it by any case.
      const moved = await send('POST', `/admin/move/${L}:MIXEDCASE`, { to: 'http://c.example/moved' });
      expect(JSON.parse(moved.text)).toMatchObject({ op: 'move', record: { urn: `${L}:MixedCase` } });
    });

    const importLines = (lines: unknown[]) => get(server.url, '/admin/import', { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson' },
      { method: 'POST', body: lines.map((l) => JSON.stringify(l)).join('\n') });

    it('1995 draft §2.3: ElementIDs beginning "urn+" are refused at every write (PUT, import, mint), 400 with a code', async () => {
      for (const [urn, offset] of [[`${L}:urn+m`, L.length + 1], [`${L}:URN+mine`, L.length + 1], ['urn:example:urn+x', 12]] as const) {
        const r = await put(urn);
        expect([urn, r.status]).toEqual([urn, 400]);
        expect(JSON.parse(r.text)).toMatchObject({ code: 'reserved-element-id', offset });
      }
      const imported = await importLines([{ urn: `${L}:fine-1`, url: 'http://a.example/1' }, { urn: `${L}:urn+p`, url: 'http://a.example/2' }]);
      expect(imported.status).toBe(422);
      expect(JSON.parse(imported.text)).toMatchObject({ ok: false, errors: [{ line: 2, code: 'reserved-element-id' }] });
      expect((await get(server.url, `/${L}:fine-1`)).status).toBe(404);
      const minted = await send('POST', '/admin/mint', { prefix: `${L}:urn+n` });
      expect(minted.status).toBe(400);
      expect(JSON.parse(minted.text)).toMatchObject({ code: 'reserved-element-id' });
      // The resolver still answers the reserved request itself.
      expect((await get(server.url, '/urn+m', { accept: 'text/plain' })).status).toBe(200);
    });

    it('one length limit: a name longer than every resolution form can ask for is refused at write (400, the limit stated); the longest one resolves in every form', async () => {
      const tooLong = `urn:example:${'a'.repeat(5000)}`;
      const r = await put(tooLong, { locations: ['http://a.example/long'] });
      expect(r.status).toBe(400);
      const p = JSON.parse(r.text) as { code: string; detail: string; offset: number };
      expect(p).toMatchObject({ code: 'urn-too-long', offset: 4096 });
      expect(p.detail).toContain('4096');
      const imported = await importLines([{ urn: tooLong, url: 'http://a.example/long' }]);
      expect(JSON.parse(imported.text)).toMatchObject({ ok: false, errors: [{ line: 1, code: 'urn-too-long' }] });
      const longest = `urn:example:${'b'.repeat(4096 - 12)}`;
      expect(longest.length).toBe(4096);
      expect((await put(longest, { locations: ['http://a.example/longest'] })).status).toBe(201);
      expect((await put(`${longest}c`, { locations: ['http://a.example/longest'] })).status).toBe(400);
      for (const path of [`/${longest}`, `/uri-res/N2L?${longest}`, `/uri-res/I2Ls?${longest}`, `/${longest}?s=I2Ls`]) {
        const a = await get(server.url, path);
        expect([path.slice(0, 24), a.status]).toEqual([path.slice(0, 24), path.includes('I2Ls') ? 200 : 302]);
      }
    });

    /** Follows Location headers from `path` through the running server (a URN's own URL here; anything else ends it): the URLs visited. */
    const follow = async (path: string): Promise<string[]> => {
      const seen: string[] = [];
      let url = new URL(path, server.url).href;
      while (url.startsWith(server.url) && seen.length < 50) {
        expect(seen).not.toContain(url);
        seen.push(url);
        const r = await get(server.url, url.slice(server.url.length));
        const location = r.headers.get('location');
        if (r.status < 300 || r.status > 399 || location === null) break;
        url = new URL(location, url).href;
      }
      seen.push(url);
      return seen;
    };

    it('the cycle check reads names by the key: a loop through case variants is refused (409 naming the loop), and a client following the redirects ends', async () => {
      expect((await put(`${L}:CaseX`, { locations: ['http://a.example/x'] })).status).toBe(201);
      expect((await put(`${L}:casey`, { locations: ['http://a.example/y'] })).status).toBe(201);
      expect((await send('POST', `/admin/move/${L}:CaseX`, { to: `${L}:CASEY` })).status).toBe(200);
      const back = await send('POST', `/admin/move/${L}:casey`, { to: `${L}:CaseX` });
      expect(back.status).toBe(409);
      const p = JSON.parse(back.text) as { code: string; detail: string };
      expect(p.code).toBe('redirect-cycle');
      expect(p.detail).toContain(`${L}:casey -> ${L}:casex -> ${L}:casey`);
      const visited = await follow('/CaseX');
      expect(visited[visited.length - 1]).toBe('http://a.example/y');
    });

    it("a move to this resolver's own URL for a name is a move to that name: a loop through it is refused", async () => {
      for (const n of ['cy-a', 'cy-b', 'cy-c']) expect((await put(`urn:example:${n}`)).status).toBe(201);
      expect((await send('POST', '/admin/move/urn:example:cy-a', { to: 'urn:example:cy-b' })).status).toBe(200);
      const port = new URL(server.url).port;
      for (const to of [`${server.url}/urn:example:cy-a`, `http://localhost:${port}/uri-res/N2L?urn:example:cy-a`, `${server.url}/URN:EXAMPLE:cy-a?s=I2L`]) {
        const r = await send('POST', '/admin/move/urn:example:cy-b', { to });
        expect([to, r.status, (JSON.parse(r.text) as { code: string }).code]).toEqual([to, 409, 'redirect-cycle']);
      }
      // Through a PUT and through the bare form of the 1995 draft too.
      expect((await send('POST', `/admin/move/${L}:casey`, { to: 'urn:example:cy-c' })).status).toBe(200);
      const bare = await send('PUT', '/admin/names/urn:example:cy-c', { status: 'moved', movedTo: `${server.url}/casey` });
      expect([bare.status, (JSON.parse(bare.text) as { code: string }).code]).toEqual([409, 'redirect-cycle']);
      // Another name's own URL is no loop; a client following it ends.
      expect((await send('POST', '/admin/move/urn:example:cy-b', { to: `${server.url}/urn:example:cy-c` })).status).toBe(200);
      const visited = await follow('/urn:example:cy-a');
      expect(visited[visited.length - 1]).toBe(`http://a.example/${encodeURIComponent('urn:example:cy-c')}`);
    });

    it('bulk import keeps the limit of the admin API: no chain of more than 1,000 names, no cycle; a single write that makes one too long is refused too', async () => {
      const chain = (prefix: string, names: number) => Array.from({ length: names }, (_, i) =>
        (i < names - 1 ? { urn: `urn:example:${prefix}${i}`, status: 'moved', movedTo: `urn:example:${prefix}${i + 1}` } : { urn: `urn:example:${prefix}${i}`, url: 'http://a.example/end' }));
      const tooLong = await importLines(chain('long', 1101));
      expect(tooLong.status).toBe(422);
      expect(JSON.parse(tooLong.text)).toMatchObject({ ok: false, errors: [{ code: 'chain-too-long' }] });
      expect((await get(server.url, '/urn:example:long0')).status).toBe(404);
      const cycle = await importLines([{ urn: 'urn:example:ic-a', status: 'moved', movedTo: 'urn:example:ic-b' }, { urn: 'urn:example:ic-b', status: 'moved', movedTo: `${server.url}/urn:example:ic-a` }]);
      expect(JSON.parse(cycle.text)).toMatchObject({ ok: false, errors: [{ line: 2, code: 'redirect-cycle' }] });
      // 1,000 names (999 redirects) is the longest chain; one more name moved to its head is refused.
      expect(JSON.parse((await importLines(chain('max', 1000))).text)).toMatchObject({ ok: true, created: 1000 });
      const onMore = await send('PUT', '/admin/names/urn:example:one-more', { status: 'moved', movedTo: 'urn:example:max0' });
      expect(onMore.status).toBe(409);
      expect(JSON.parse(onMore.text)).toMatchObject({ code: 'chain-too-long' });
      // Many names moved to one make a wide tree, not a long chain.
      const fan = Array.from({ length: 1200 }, (_, i) => ({ urn: `urn:example:fan${i}`, status: 'moved', movedTo: 'urn:example:fan-hub' }));
      expect(JSON.parse((await importLines(fan)).text)).toMatchObject({ ok: true, created: 1200 });
      const hub = await send('PUT', '/admin/names/urn:example:fan-hub', { status: 'moved', movedTo: 'urn:example:fan-end' });
      expect(JSON.parse(hub.text)).toMatchObject({ op: 'move', record: { status: 'moved' } });
    }, 60_000);

    it('listing prefixes and partial-redirect rules follow the key; a rule passes on the rest of the name as asked', async () => {
      const listed = JSON.parse((await get(server.url, `/admin/names?prefix=URN:DNS:Library.BigState.EDU:MIXED`, { authorization: `Bearer ${token}` })).text) as { prefix: string; items: Array<{ urn: string }> };
      expect(listed.prefix).toBe(`${L}:mixed`);
      expect(listed.items.map((i) => i.urn)).toEqual([`${L}:MixedCase`]);
      expect((await send('PUT', '/admin/prefix-rules', { prefix: `${L}:Archive/`, target: 'https://archive.example/items/' })).status).toBe(200);
      for (const [path, location] of [[`/${L}:ARCHIVE/Item7`, 'https://archive.example/items/Item7'], ['/archive/item8', 'https://archive.example/items/item8']]) {
        const r = await get(server.url, path!);
        expect([path, r.status, r.headers.get('location')]).toEqual([path, 302, location]);
      }
    });

    it('RFC 8141 §3.1: under any other NID the NSS keeps its case (two names)', async () => {
      expect((await put('urn:example:CaseKept')).status).toBe(201);
      expect((await put('urn:example:casekept')).status).toBe(201);
      expect((await get(server.url, '/urn:example:CASEKEPT')).status).toBe(404);
    });
  });
}
