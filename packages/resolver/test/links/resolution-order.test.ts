// Resolution follows link health, on both engines, against real origins on
// 127.0.0.1: healthy locations first (then by preference), a preservation
// copy as the fallback when the others fail, a name whose every location
// fails still answers with its health shown (urc-0, JSON, HTML, plain);
// the background checker of `serve --check-links`, the report
// `/admin/links`, and the metrics.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, parseUrc0, startServer, type RunningServer } from '@urikit/resolver';
import { testEngines } from '../helpers/engines.js';
import { get } from '../helpers/http.js';
import { startOrigin, type Origin } from './origin.js';

const engines = await testEngines('resolution-order.test');
afterAll(async () => { for (const e of engines) await e.cleanup(); });

const FAST = { perHostConcurrency: 4, perHostDelayMs: 0, globalRate: 0, concurrency: 8 };

/** Waits until `done()` holds (the checker works in the background), for at most 10 s. */
async function until(done: () => Promise<boolean>): Promise<void> {
  for (const end = Date.now() + 10_000; !(await done());) {
    if (Date.now() > end) throw new Error('the link checker did not get there in 10 s');
    await new Promise((r) => setTimeout(r, 50));
  }
}

for (const engine of engines) {
  const suite = engine.unavailable !== undefined ? describe.skip : describe;
  suite(`${engine.name}: resolution by link health`, () => {
    let origin: Origin;
    let server: RunningServer;
    let auth: Record<string, string>;
    const put = (urn: string, locations: unknown[]) => server.store.writer.put(urn, { urn, locations: locations as never });

    beforeAll(async () => {
      origin = await startOrigin();
      server = await startServer({
        port: 0, db: engine.freshDb(), rateLimit: false, nameCacheBytes: 0,
        // loopback allowed for these origins only; a pass every 50 ms
        checkLinks: { probe: { allowAddresses: 'all', timeoutMs: 10_000 }, politeness: FAST, pauseMs: 50 },
      });
      auth = { authorization: `Bearer ${(await createToken(server.store, { authority: 'urn:example' })).token}` };
      await put('urn:example:healthy-first', [{ url: origin.url('/missing?a'), preference: 10 }, { url: origin.url('/ok?a'), preference: 5 }, { url: origin.url('/ok?a-copy'), preference: 100, preservation: true }]);
      await put('urn:example:preserved', [{ url: origin.url('/missing?b'), preference: 10 }, { url: origin.url('/error?b'), preference: 5 }, { url: origin.url('/ok?b-copy'), preservation: true }]);
      await put('urn:example:all-fail', [{ url: origin.url('/missing?c'), preference: 10 }, { url: origin.url('/error?c') }]);
      // the checker's passes see the names: wait until every location has been probed
      await until(async () => (await get(server.url, '/admin/links?prefix=urn:example:&state=unchecked', auth)).text.includes('"lines":[]'));
    });
    afterAll(async () => {
      await server?.close();
      await origin?.close();
    });

    it('redirects to a healthy location before a failing one of higher preference, and before a preservation copy', async () => {
      const r = await get(server.url, '/uri-res/I2L?urn:example:healthy-first');
      expect([r.status, r.headers.get('location')]).toEqual([302, origin.url('/ok?a')]);
    });

    it('falls back to the preservation copy when every other location fails', async () => {
      const r = await get(server.url, '/uri-res/I2L?urn:example:preserved');
      expect([r.status, r.headers.get('location')]).toEqual([302, origin.url('/ok?b-copy')]);
      const list = await get(server.url, '/uri-res/I2Ls?urn:example:preserved', { accept: 'text/uri-list' });
      expect(list.text.split('\r\n').slice(1, 4)).toEqual([origin.url('/ok?b-copy'), origin.url('/missing?b'), origin.url('/error?b')]);
    });

    it('still answers a name whose every location fails, showing the health in urc-0, JSON, HTML and plain text', async () => {
      const i2l = await get(server.url, '/uri-res/I2L?urn:example:all-fail');
      expect([i2l.status, i2l.headers.get('location')]).toEqual([302, origin.url('/missing?c')]);
      const urc0 = await get(server.url, '/uri-res/I2Ls?urn:example:all-fail', { accept: 'text/urc-0' });
      const parts = parseUrc0(urc0.bytes);
      expect(parts.map((p) => p.url)).toEqual([origin.url('/missing?c'), origin.url('/error?c')]);
      expect(parts[0]!.meta).toMatch(/^Link health: failing since \S+Z, 1 failure in a row, last checked \S+Z \(HTTP 404\)$/);
      expect(parts[1]!.meta).toContain('(HTTP 500)');
      const json = await get(server.url, '/uri-res/I2Ls?urn:example:all-fail', { accept: 'application/json' });
      expect(JSON.parse(json.text).locations[0]).toMatchObject({ url: origin.url('/missing?c'), preference: 10, health: { state: 'failing', failures: 1, status: 404, error: 'http-404' } });
      const info = await get(server.url, '/urn:example:all-fail?info', { accept: 'application/json' });
      expect(JSON.parse(info.text).locations.map((l: { health?: { state: string } }) => l.health?.state)).toEqual(['failing', 'failing']);
      const html = await get(server.url, '/uri-res/I2Ls?urn:example:all-fail', { accept: 'text/html' });
      expect(html.text).toMatch(/<div class="health failing">Link health: failing since/);
      const plain = await get(server.url, '/uri-res/I2Ls?urn:example:all-fail', { accept: 'text/plain' });
      expect(plain.text).toContain(`${origin.url('/missing?c')}\n  Link health: failing`);
      // a healthy location shows nothing: the answer of a healthy name is as it always was
      const healthy = await get(server.url, '/uri-res/I2Ls?urn:example:healthy-first', { accept: 'application/json' });
      expect(JSON.parse(healthy.text).locations.map((l: { url: string; health?: unknown }) => [l.url, l.health !== undefined])).toEqual([
        [origin.url('/ok?a'), false], [origin.url('/ok?a-copy'), false], [origin.url('/missing?a'), true],
      ]);
    });

    it('changes the validators of an answer when the health it depends on changes', async () => {
      const list = '/uri-res/I2Ls?urn:example:healthy-first';
      const before = await get(server.url, list, { accept: 'application/json' });
      const etag = before.headers.get('etag')!;
      expect((await get(server.url, list, { accept: 'application/json', 'if-none-match': etag })).status).toBe(304);
      // the healthy location starts failing: the preservation copy is the one left, and the tag changes
      server.linkHealth.note({ url: origin.url('/ok?a'), state: 'failing', lastCheck: Date.now() + 1000, nextCheck: 0, consecutiveFailures: 1, status: 500 });
      const after = await get(server.url, list, { accept: 'application/json', 'if-none-match': etag, 'if-modified-since': before.headers.get('last-modified')! });
      expect([after.status, JSON.parse(after.text).locations[0].url]).toEqual([200, origin.url('/ok?a-copy')]);
      expect(after.headers.get('etag')).not.toBe(etag);
      expect((await get(server.url, '/uri-res/I2L?urn:example:healthy-first')).headers.get('location')).toBe(origin.url('/ok?a-copy'));
    });

    it('reports the failing locations by authority, in JSON and CSV, and counts the probes in /metrics', async () => {
      const json = JSON.parse((await get(server.url, '/admin/links?state=failing', auth)).text);
      expect(json.prefix).toBe('urn:example:');
      expect(json.lines.map((l: { urn: string; url: string }) => `${l.urn} ${l.url}`)).toEqual([
        `urn:example:all-fail ${origin.url('/missing?c')}`, `urn:example:all-fail ${origin.url('/error?c')}`,
        `urn:example:healthy-first ${origin.url('/missing?a')}`,
        `urn:example:preserved ${origin.url('/missing?b')}`, `urn:example:preserved ${origin.url('/error?b')}`,
      ]);
      expect(json.lines[0]).toMatchObject({ state: 'failing', broken: false, status: 404, error: 'http-404' });
      const csv = await get(server.url, '/admin/links?state=failing', { ...auth, accept: 'text/csv' });
      expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
      const rows = csv.text.split('\r\n');
      expect(rows[0]).toBe('urn,url,state,broken,failures,status,error,lastCheck,nextCheck,failingSince,finalUrl,elapsedMs');
      expect(rows.slice(1, -1).map((r) => r.split(',').slice(0, 3).join(' '))).toEqual(json.lines.map((l: { urn: string; url: string; state: string }) => `${l.urn} ${l.url} ${l.state}`));
      expect((await get(server.url, '/admin/links?prefix=urn:other:', auth)).status).toBe(403);
      expect((await get(server.url, '/admin/links?state=sideways', auth)).status).toBe(400);
      const metrics = (await get(server.url, '/metrics')).text;
      expect(metrics).toMatch(/^urikit_link_checks_total\{outcome="broken"\} [1-9]/m);
      expect(metrics).toMatch(/^urikit_link_checks_total\{outcome="ok"\} [1-9]/m);
    });
  });
}

describe('the background checker and the address guard', () => {
  it('never fetches a location on 127.0.0.1 when private addresses are not allowed: it is reported blocked', async () => {
    const origin = await startOrigin();
    const server = await startServer({ port: 0, db: ':memory:', rateLimit: false, checkLinks: { politeness: FAST, pauseMs: 50 } });
    try {
      await server.store.writer.put('urn:example:planted', { urn: 'urn:example:planted', locations: [{ url: origin.url('/ok') }, { url: origin.url('/ok').replace('127.0.0.1', 'localhost') }] });
      const auth = { authorization: `Bearer ${(await createToken(server.store, { authority: '*' })).token}` };
      await until(async () => JSON.parse((await get(server.url, '/admin/links?state=blocked', auth)).text).lines.length === 2);
      expect(origin.seen).toEqual([]);
      // blocked is not a failure: the name resolves to its preferred location as before
      expect((await get(server.url, '/uri-res/I2L?urn:example:planted')).headers.get('location')).toBe(origin.url('/ok'));
    } finally {
      await server.close();
      await origin.close();
    }
  });
});
