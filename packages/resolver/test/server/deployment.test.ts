/**
 * The resolver as deployed: behind a reverse proxy whose Forwarded /
 * X-Forwarded-For is believed and nobody else's (rate limits per real
 * client, 429 with Retry-After and the RateLimit fields); several naming
 * authorities on one server, chosen by Host (1995 draft §2.2.1), with
 * case-insensitive ElementIDs (§2.3.1) unless configured otherwise; the
 * urn+a pointer and absolute Locations from configuration, never from
 * the request's Host.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientAddresses, forwardedFor, startServer, type RunningServer } from '../../src/server/index.js';
import { testEngines } from '../helpers/engines.js';
import { get, rawExchange } from '../helpers/http.js';

describe('who the client is (RFC 7239)', () => {
  const proxies = new ClientAddresses(['127.0.0.1', '10.0.0.0/8', 'fd00::/8']);
  it.each([
    ['a peer that is no proxy: its own address, headers or not', '198.51.100.7', { 'x-forwarded-for': '203.0.113.1' }, '198.51.100.7'],
    ['a trusted proxy: the hop it reports', '127.0.0.1', { 'x-forwarded-for': '203.0.113.1' }, '203.0.113.1'],
    ['two trusted proxies: the nearest untrusted hop', '10.0.0.2', { 'x-forwarded-for': '203.0.113.1, 10.1.1.1' }, '203.0.113.1'],
    ['a client that forges the header in front of a proxy: the hop the proxy saw', '127.0.0.1', { 'x-forwarded-for': '1.2.3.4, 203.0.113.9' }, '203.0.113.9'],
    ['Forwarded before X-Forwarded-For', '127.0.0.1', { forwarded: 'for="[2001:db8::1]:4711";proto=https', 'x-forwarded-for': '203.0.113.1' }, '2001:db8::1'],
    ['an IPv4-mapped peer', '::ffff:10.2.3.4', { 'x-forwarded-for': '203.0.113.5' }, '203.0.113.5'],
    ['a trusted proxy that reports nothing: itself', '127.0.0.1', {}, '127.0.0.1'],
    ['an IPv6 proxy in a trusted block', 'fd12::1', { 'x-forwarded-for': '203.0.113.6' }, '203.0.113.6'],
  ])('%s', (_why, peer, headers, expected) => {
    expect(proxies.of(peer, headers)).toBe(expected);
  });
  it('reads every element of Forwarded', () => {
    expect(forwardedFor('for=192.0.2.43, for="[2001:db8:cafe::17]", for=unknown')).toEqual(['192.0.2.43', '2001:db8:cafe::17', 'unknown']);
  });
  it('refuses what is not an address or a block', () => {
    expect(() => new ClientAddresses(['proxy.example'])).toThrow();
    expect(() => new ClientAddresses(['10.0.0.0/33'])).toThrow();
  });
});

/** One raw request; the answer's status, reason and headers. */
async function ask(port: number, path: string, headers: Record<string, string> = {}, version = '1.1') {
  const head = Object.entries({ Host: '127.0.0.1', ...headers }).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  const { answer } = await rawExchange(port, `GET ${path} HTTP/${version}\r\n${head}Connection: close\r\n\r\n`);
  return answer!;
}

const engines = await testEngines('deployment.test');
afterAll(async () => { for (const e of engines) await e.cleanup(); });

for (const engine of engines) {
  const suite = engine.unavailable !== undefined ? describe.skip : describe;
  suite(`${engine.name}: behind a proxy, several authorities`, () => {
    let behind: RunningServer;
    let open: RunningServer;
    beforeAll(async () => {
      const db = engine.freshDb();
      behind = await startServer({ port: 0, db, demo: true, rateLimit: { perSecond: 0.01, burst: 2 }, trustProxy: ['127.0.0.1'], publicUrl: 'https://urn.example.org/',
        authorities: ['urn:dns:chris.lwr-ltd.co.uk'] });
      open = await startServer({ port: 0, store: behind.store, rateLimit: { perSecond: 0.01, burst: 2 }, authority: 'urn:dns:library.bigstate.edu' });
    });
    afterAll(async () => { await open?.close(); await behind?.close(); });

    it('rate-limits each client behind the proxy on its own: 429 with Retry-After and the RateLimit fields', async () => {
      const as = (client: string) => ask(behind.port, '/urn:isbn:0451450523', { 'X-Forwarded-For': client });
      expect((await as('203.0.113.1')).status).toBe(302);
      expect((await as('203.0.113.1')).status).toBe(302);
      const limited = await as('203.0.113.1');
      expect(limited.status).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.headers['ratelimit-policy']).toBe('client;q=2;w=200');
      expect(limited.headers['ratelimit']).toBe(`client;r=0;t=${limited.headers['retry-after']}`);
      expect(limited.headers['content-type']).toMatch(/^application\/problem\+json/);
      // Another client behind the same proxy is not held back ...
      expect((await as('203.0.113.2')).status).toBe(302);
      expect((await ask(behind.port, '/urn:isbn:0451450523', { Forwarded: 'for=203.0.113.3' })).status).toBe(302);
    });

    it('... and where no proxy is trusted, the header is not believed: one peer, one limit', async () => {
      const codes: number[] = [];
      for (const client of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) codes.push((await ask(open.port, '/urn:isbn:0451450523', { 'X-Forwarded-For': client })).status);
      expect(codes).toEqual([302, 302, 429]);
    });

    it('the bare form of the 1995 draft takes its authority from Host among those held (the §2.2.1 rule)', async () => {
      // FlixCo is in the registry; chris.lwr-ltd.co.uk is held by configuration; library.bigstate.edu is the default.
      const flix = await ask(behind.port, '/casablanca', { Host: 'urn.flixco.com:4500', 'X-Forwarded-For': '203.0.113.50' });
      expect(flix.status).toBe(302);
      expect(flix.headers.location).toBe('ftp://ftp.flixco.com/pub/movies/casablanca.mpg');
      const chris = await ask(behind.port, '/thesis12', { Host: 'CHRIS.lwr-ltd.co.uk.', 'X-Forwarded-For': '203.0.113.51' });
      expect(chris.headers.location).toBe('http://chris.lwr-ltd.example.org/thesis12.txt');
      const fallback = await ask(behind.port, '/aj17-mcc', { Host: 'unknown.example', 'X-Forwarded-For': '203.0.113.52' });
      expect(fallback.headers.location).toBe('http://library.bigstate.example.org/aj17-mcc.html');
      // A host the server does not hold never reaches another authority's names.
      expect((await ask(behind.port, '/casablanca', { Host: 'evil.example', 'X-Forwarded-For': '203.0.113.53' })).status).toBe(404);
    });

    it('ElementIDs of urn:dns: names match without regard to case (1995 draft §2.3.1, store/keys.ts)', async () => {
      const upper = await ask(behind.port, '/AJ17-MCC', { 'X-Forwarded-For': '203.0.113.60' });
      expect(upper.status).toBe(302);
      expect(upper.headers.location).toBe('http://library.bigstate.example.org/aj17-mcc.html');
      expect((await ask(behind.port, '/urn:dns:library.bigstate.edu:Aj17-Mcc', { 'X-Forwarded-For': '203.0.113.61' })).status).toBe(302);
      expect((await ask(behind.port, '/urn:dns:physics.bigstate.edu:THESIS12', { 'X-Forwarded-For': '203.0.113.62' })).status).toBe(302);
      expect((await ask(behind.port, '/urn:dns:physics.bigstate.edu:thesis12', { 'X-Forwarded-For': '203.0.113.63' })).status).toBe(302);
    });

    it('urn+a points at the configured public URL, whatever Host the client sends', async () => {
      const a = await ask(behind.port, '/urn+a', { Host: 'evil.example', Accept: 'text/plain', 'X-Forwarded-For': '203.0.113.70' });
      expect(a.text).toContain('https://urn.example.org/urn:dns:library.bigstate.edu:urn+a?list');
      expect(a.text).not.toContain('evil.example');
    });

    it('urn+a counts the names its list gives', async () => {
      const a = await ask(behind.port, '/urn+a', { Accept: 'text/plain', 'X-Forwarded-For': '203.0.113.71' });
      const n = Number(/list of the (\d+) names/.exec(a.text)![1]);
      // Streamed (chunked): read through fetch, which takes the chunks apart.
      const list = await get(behind.url, '/urn+a?list', { 'X-Forwarded-For': '203.0.113.72' });
      expect(list.text.split('\r\n').filter((l) => l !== '').length).toBe(n);
    });

    it('a redirect to an HTTP/1.0 client has an absolute Location (RFC 1945 §10.11), from the public URL', async () => {
      const r = await ask(behind.port, '/old-price-list', { 'X-Forwarded-For': '203.0.113.80' }, '1.0');
      expect(r.status).toBe(301);
      expect(r.headers.location).toBe('https://urn.example.org/urn:dns:library.bigstate.edu:current-version-of-price-list');
      const r11 = await ask(behind.port, '/old-price-list', { 'X-Forwarded-For': '203.0.113.81' });
      expect(r11.headers.location).toBe('/urn:dns:library.bigstate.edu:current-version-of-price-list');
    });
  });
}
