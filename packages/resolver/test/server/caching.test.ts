/**
 * Caching exactly as the 1995 draft §5 says ("only ... using the
 * If-Modified-Since mechanism"), on both engines, with the clock set by
 * the test: a change within the second an `If-Modified-Since` names is
 * never answered 304; `Last-Modified` is sent only once no change can
 * share its second; `ETag`s follow the version exactly; and the client,
 * with its cache, revalidates every time instead of trusting `max-age`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { httpDate } from '../../src/server/render/http-date.js';
import { lastModified, notModified } from '../../src/server/resolution/conditional.js';
import { MemoryCache, resolveUrn } from '../../src/client/index.js';
import { testEngines } from '../helpers/engines.js';
import { get } from '../helpers/http.js';

const engines = await testEngines('caching.test');
afterAll(async () => { for (const e of engines) await e.cleanup(); });

describe('validators (RFC 9110 §8.8, §13.1.3)', () => {
  const second = 1_800_000_000_000;
  it.each([
    ['a change before the date', second - 1, httpDate(second), true],
    ['a change in the second the date names', second + 400, httpDate(second), false],
    ['a change exactly at the date', second, httpDate(second), false],
    ['a change after the date', second + 1500, httpDate(second), false],
    ['no date at all', second - 1, undefined, false],
    ['a date that is not one', second - 1, 'yesterday', false],
  ])('If-Modified-Since: %s', (_why, updated, ims, expected) => {
    expect(notModified({ 'if-modified-since': ims }, '"1-x"', updated, second + 5000)).toBe(expected);
  });
  it('Last-Modified is the second after the change, sent only a second after that', () => {
    expect(lastModified(second + 400, second + 900)).toBeUndefined();
    expect(lastModified(second + 400, second + 1999)).toBeUndefined();
    expect(lastModified(second + 400, second + 2000)).toBe(httpDate(second + 1000));
    // ... so that a client sending it back has every change before it
    expect(notModified({ 'if-modified-since': lastModified(second + 400, second + 2000) }, '"1-x"', second + 400, second + 2000)).toBe(true);
    // A date later than the server's clock is not trusted.
    expect(notModified({ 'if-modified-since': httpDate(second + 10_000) }, '"1-x"', second + 400, second + 2000)).toBe(false);
  });
});

for (const engine of engines) {
  const suite = engine.unavailable !== undefined ? describe.skip : describe;
  suite(`${engine.name}: two updates within one second`, () => {
    let server: RunningServer;
    const urn = 'urn:example:price-list';
    const T = 1_800_000_000_000;
    beforeAll(async () => { server = await startServer({ port: 0, db: engine.freshDb(), rateLimit: false }); });
    afterAll(async () => { await server?.close(); });
    afterEach(() => { vi.useRealTimers(); });
    const at = (ms: number) => vi.setSystemTime(ms);
    const put = (url: string) => server.store.writer.put(urn, { urn, locations: [{ url }] });

    it('an If-Modified-Since request is never answered 304 with the old location', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      at(T + 100);
      await put('http://a.example/v1');
      const first = await get(server.url, `/${urn}`);
      expect(first.headers.get('location')).toBe('http://a.example/v1');
      // Within the second of the change: no Last-Modified yet, the ETag alone.
      expect(first.headers.get('last-modified')).toBeNull();
      const etag1 = first.headers.get('etag')!;
      at(T + 500);
      await put('http://a.example/v2');
      // A client that took the date of its copy from Date: (the second of both changes).
      for (let trial = 0; trial < 10; trial++) {
        const again = await get(server.url, `/${urn}`, { 'if-modified-since': httpDate(T + 100) });
        expect(again.status).toBe(302);
        expect(again.headers.get('location')).toBe('http://a.example/v2');
      }
      expect((await get(server.url, `/${urn}`, { 'if-none-match': etag1 })).status).toBe(302);
      // Two seconds on, Last-Modified is sent, and works.
      at(T + 3000);
      const later = await get(server.url, `/${urn}`);
      const lm = later.headers.get('last-modified')!;
      expect(lm).toBe(httpDate(T + 1000));
      expect((await get(server.url, `/${urn}`, { 'if-modified-since': lm })).status).toBe(304);
      expect((await get(server.url, `/${urn}`, { 'if-none-match': later.headers.get('etag')! })).status).toBe(304);
      // A change in the very second the client's date names: 200 with it.
      at(T + 1200);
      await put('http://a.example/v3');
      at(T + 1300);
      const v3 = await get(server.url, `/${urn}`, { 'if-modified-since': lm });
      expect(v3.status).toBe(302);
      expect(v3.headers.get('location')).toBe('http://a.example/v3');
    });

    it('the client revalidates its cache every time by default (max-age=300 is not trusted)', async () => {
      const cache = new MemoryCache();
      const name = 'urn:example:client-cache';
      await server.store.writer.put(name, { urn: name, locations: [{ url: 'http://a.example/old' }] });
      const one = await resolveUrn(name, { resolvers: [server.url], cache });
      expect(one.locations[0]?.url).toBe('http://a.example/old');
      const same = await resolveUrn(name, { resolvers: [server.url], cache });
      expect(same.fromCache).toBe(true);
      await server.store.writer.put(name, { urn: name, locations: [{ url: 'http://a.example/new' }] });
      const two = await resolveUrn(name, { resolvers: [server.url], cache });
      expect(two.locations[0]?.url).toBe('http://a.example/new');
      // trustMaxAge keeps the old behaviour: the kept answer until max-age runs out.
      await server.store.writer.put(name, { urn: name, locations: [{ url: 'http://a.example/newer' }] });
      const trusted = await resolveUrn(name, { resolvers: [server.url], cache, trustMaxAge: true });
      expect(trusted.locations[0]?.url).toBe('http://a.example/new');
    });
  });
}
