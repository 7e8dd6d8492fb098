import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { parseUrc0 } from '../../src/formats/index.js';
import { testEngines } from '../helpers/engines.js';
import { get, rawExchange } from '../helpers/http.js';
import examples from '../formats/urc0-examples.json' with { type: 'json' };

const engines = await testEngines('protocol.test');
afterAll(async () => { for (const e of engines) await e.cleanup(); });

const body = (name: string) => examples.cases.find((c) => c.name.startsWith(name))!.body;

for (const engine of engines) {
  const suite = engine.unavailable !== undefined ? describe.skip : describe;
  suite(`${engine.name}: protocol`, () => {
    let server: RunningServer;
    let narrow: RunningServer;
    beforeAll(async () => {
      server = await startServer({ port: 0, db: engine.freshDb(), demo: true, rateLimit: false });
      narrow = await startServer({ port: 0, store: server.store, authority: 'urn:dns:library.bigstate.edu', urc0LineLength: 40, rateLimit: false });
    });
    afterAll(async () => { await narrow?.close(); await server?.close(); });

    describe('text/urc-0 byte for byte from the demo records (1995 draft §3.4.2.1, §3.5)', () => {
      // Only the wrapped example needs 40-column lines (the draft sets no width: --urc0-line-length); the others are at the default 76.
      const cases: Array<[string, string, 'default' | 'narrow', string]> = [
        ['a single URL and no metainformation', '/phone-list-elm', 'default', body('§3.4.2.1 a single URL')],
        ['a URL on multiple lines (40-column lines)', '/phone-list-wrapped', 'narrow', body('§3.4.2.1 a URL on multiple lines')],
        ['multiple URLs', '/phone-lists', 'default', body('§3.4.2.1 multiple URLs')],
        ['multiple URLs with metainformation', '/urn:dns:library.bigstate.edu:phone-list', 'default', body('§3.4.2.1 multiple URLs with metainformation')],
        ['urn+m at FlixCo', '/urn:dns:urn.flixco.com:urn+m', 'default', body('§3.5.1')],
        ['urn+a at FlixCo', '/urn:dns:urn.flixco.com:urn+a', 'default', body('§3.5.2')],
      ];
      for (const [name, path, width, expected] of cases) {
        it(name, async () => {
          const s = width === 'narrow' ? narrow : server;
          const r = await get(s.url, path, { accept: 'text/urc-0' });
          expect(r.status).toBe(200);
          expect(r.headers.get('content-type')).toBe('text/urc-0');
          expect(r.bytes.toString('latin1')).toBe(expected);
        });
      }
    });

    it('every text/urc-0 answer of a server follows its line length, I2C and I2Ns included (1995 draft §3.4.2)', async () => {
      const i2c = await get(narrow.url, '/phone-list-wrapped?s=I2C', { accept: 'text/urc-0' });
      expect(i2c.headers.get('content-type')).toBe('text/urc-0');
      expect(i2c.text).toBe(body('§3.4.2.1 a URL on multiple lines'));
      const i2ns = await get(narrow.url, '/phone-list-wrapped?s=I2Ns', { accept: 'text/urc-0' });
      expect(i2ns.text.startsWith('=====\r\n<URL:')).toBe(true);
      expect(i2ns.text.split('\r\n').every((line) => line.length <= 40)).toBe(true);
      expect(parseUrc0(i2ns.text)).toEqual([{ charset: 'US-ASCII', language: 'x-unspecified', url: 'urn:dns:library.bigstate.edu:phone-list-wrapped' }]);
    });

    describe('reserved requests (1995 draft §3.5)', () => {
      it('urn+m of the resolver itself, by ElementID (§3.5.1)', async () => {
        const r = await get(server.url, '/urn+m', { accept: 'text/urc-0' });
        expect(r.status).toBe(200);
        expect(r.text).toBe('=====US-ASCII/en\r\nmailto:urn-admin@library.bigstate.example.org\r\nThe demonstration names of urikit serve --demo.\r\n');
      });
      it('urn+m with no registry entry names the resolver', async () => {
        const r = await get(server.url, '/urn:isbn:urn+m', { accept: 'text/plain' });
        expect(r.status).toBe(200);
        expect(r.text).toContain('mailto:postmaster@localhost');
      });
      it('urn+a points to this resolver\'s list when the authority keeps none elsewhere (§3.5.2)', async () => {
        const r = await get(narrow.url, '/urn+a', { accept: 'application/json' });
        const j = JSON.parse(r.text) as { locations: Array<{ url: string; meta: string }> };
        expect(j.locations[0]!.url).toBe(`${narrow.url}/urn:dns:library.bigstate.edu:urn+a?list`);
        const list = await get(narrow.url, '/urn:dns:library.bigstate.edu:urn+a?list');
        expect(list.status).toBe(200);
        const lines = list.text.split('\r\n');
        expect(lines.pop()).toBe('');
        expect(lines).toContain('aj17-mcc');
        expect(lines).toContain('phone-list');
        expect(lines).not.toContain('withdrawn-report');
        expect(lines.every((l) => !l.includes(':'))).toBe(true);
      });
      it('urn+c lists the children, each followed by CRLF (§3.5.3)', async () => {
        const r = await get(server.url, '/urn:dns:urn.flixco.com:urn+c');
        expect(r.status).toBe(200);
        expect(r.text).toBe('urn:dns:classics.flixco.com\r\n');
      });
      it('urn+p lists the parents (§3.5.4)', async () => {
        const r = await get(narrow.url, '/urn+p');
        expect(r.text).toBe('urn:dns:bigstate.edu\r\n');
        const j = await get(server.url, '/urn:dns:urn.flixco.com:urn+p', { accept: 'application/json' });
        expect(JSON.parse(j.text)).toMatchObject({ names: ['urn:dns:flixco.com'] });
      });
      it('urn+c of an authority without children is an empty list', async () => {
        const r = await get(server.url, '/uri-res/N2L?urn:isbn:urn+c', { accept: 'text/plain' });
        expect(r.status).toBe(200);
        expect(r.text).toBe('');
      });
    });

    describe('HTTP versions and Simple-Requests (1995 draft §3.3, RFC 2169 §2)', () => {
      it('answers an HTTP/1.0 Simple-Request with the urc-0 result alone', async () => {
        const { bytes, answer } = await rawExchange(server.port, 'GET alb002\r\n');
        expect(answer).toBeUndefined();
        expect(bytes.toString('latin1')).toBe('=====\r\nhttp://library.bigstate.example.org/albums/002.html\r\n');
      });
      it('answers a Simple-Request for a whole URN', async () => {
        const { bytes } = await rawExchange(server.port, 'GET /urn:dns:library.bigstate.edu:phone-lists\r\n');
        expect(bytes.toString('latin1')).toBe(body('§3.4.2.1 multiple URLs'));
      });
      it('answers a Simple-Request for an unknown name with an empty text/urc-0 result: no part, no status line (1995 draft §3.4.2)', async () => {
        const { bytes } = await rawExchange(server.port, 'GET nothing-here\r\n');
        expect(bytes.toString('latin1')).toBe('');
      });
      it('answers the draft\'s Full-Request without a leading "/" (GET alb002 HTTP/1.0)', async () => {
        const { answer } = await rawExchange(server.port, 'GET alb002 HTTP/1.0\r\nAccept: text/urc-0\r\n\r\n');
        expect(answer!.status).toBe(200);
        expect(answer!.headers['content-type']).toBe('text/urc-0');
        expect(answer!.text).toBe('=====\r\nhttp://library.bigstate.example.org/albums/002.html\r\n');
      });
      it('answers 302 to an HTTP/1.0 client', async () => {
        const { answer } = await rawExchange(narrow.port, 'GET /uri-res/N2L?urn:isbn:0451450523 HTTP/1.0\r\n\r\n');
        expect(answer!.status).toBe(302);
        expect(answer!.headers.location).toBe('https://openlibrary.org/isbn/0451450523');
      });
      it('answers 302 to an HTTP/1.1 client by default and 303 with seeOther', async () => {
        const r = await get(server.url, '/uri-res/N2L?urn:isbn:0451450523');
        expect(r.status).toBe(302);
        const other = await startServer({ port: 0, store: server.store, seeOther: true, rateLimit: false });
        try {
          const { answer } = await rawExchange(other.port, 'GET /uri-res/N2L?urn:isbn:0451450523 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
          expect(answer!.status).toBe(303);
          const old = await rawExchange(other.port, 'GET /uri-res/N2L?urn:isbn:0451450523 HTTP/1.0\r\n\r\n');
          expect(old.answer!.status).toBe(302);
        } finally { await other.close(); }
      });
      it('answers HEAD with the headers alone', async () => {
        const r = await get(server.url, '/uri-res/I2Ls?urn:ietf:rfc:2141', {}, { method: 'HEAD' });
        expect(r.status).toBe(200);
        expect(r.text).toBe('');
        expect(r.headers.get('content-type')).toContain('text/uri-list');
      });
      it('answers a CORS preflight', async () => {
        const r = await get(server.url, '/admin/names', { origin: 'http://x', 'access-control-request-method': 'PUT' }, { method: 'OPTIONS' });
        expect(r.status).toBe(204);
        expect(r.headers.get('access-control-allow-methods')).toContain('PUT');
        expect(r.headers.get('access-control-allow-headers')).toContain('Authorization');
      });
    });

    describe('caching (1995 draft §5)', () => {
      it('sends validators and answers If-None-Match and If-Modified-Since with 304', async () => {
        // Last-Modified is sent once no change can share its second (caching.test.ts): the demo names were written just now.
        let r = await get(server.url, '/uri-res/I2Ls?urn:ietf:rfc:2141');
        for (let i = 0; i < 40 && r.headers.get('last-modified') === null; i++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          r = await get(server.url, '/uri-res/I2Ls?urn:ietf:rfc:2141');
        }
        const etag = r.headers.get('etag')!;
        const lastModified = r.headers.get('last-modified')!;
        expect(etag).toMatch(/^"/);
        expect(r.headers.get('cache-control')).toBe('public, max-age=300');
        const a = await get(server.url, '/uri-res/I2Ls?urn:ietf:rfc:2141', { 'if-none-match': etag });
        expect(a.status).toBe(304);
        expect(a.headers.get('etag')).toBe(etag);
        expect(a.headers.get('access-control-allow-origin')).toBe('*');
        const b = await get(server.url, '/uri-res/I2Ls?urn:ietf:rfc:2141', { 'if-modified-since': lastModified });
        expect(b.status).toBe(304);
        const c = await get(server.url, '/uri-res/I2Ls?urn:ietf:rfc:2141', { 'if-modified-since': 'Sat, 01 Jan 1994 00:00:00 GMT' });
        expect(c.status).toBe(200);
        const d = await get(server.url, '/uri-res/I2Ls?urn:ietf:rfc:2141', { 'if-none-match': '"other"' });
        expect(d.status).toBe(200);
      });
      it('gives each format its own entity tag and varies on Accept', async () => {
        const a = await get(server.url, '/urn:ietf:rfc:2141?s=I2Ls', { accept: 'text/urc-0' });
        const b = await get(server.url, '/urn:ietf:rfc:2141?s=I2Ls', { accept: 'application/json' });
        expect(a.headers.get('etag')).not.toBe(b.headers.get('etag'));
        expect(a.headers.get('vary')).toBe('Accept');
      });
      it('the cache-control header is configurable', async () => {
        const other = await startServer({ port: 0, store: server.store, cacheControl: 'no-cache', rateLimit: false });
        try {
          expect((await get(other.url, '/urn:ietf:rfc:2141')).headers.get('cache-control')).toBe('no-cache');
        } finally { await other.close(); }
      });
    });

    describe('operations', () => {
      it('/healthz', async () => {
        const r = await get(server.url, '/healthz');
        expect(r.status).toBe(200);
        expect(JSON.parse(r.text)).toEqual({ status: 'ok', engine: engine.name, primary: 'up', reads: 'primary', writes: 'ok' });
      });
      it('/healthz answers 503 when the store is down and nothing can stand in, without the engine\'s message', async () => {
        const { openStore } = await import('../../src/store/index.js');
        const store = await openStore(engine.freshDb(), { nameCacheBytes: 0 });
        const other = await startServer({ port: 0, store, rateLimit: false });
        try {
          // As a check finds a database that refuses this server (its message stays in the log).
          store.check = async () => ({ primary: { up: false, since: 0, outages: 1, downMs: 1, fault: 'store-unavailable' }, writes: 'ok', reads: 'cache' });
          const r = await get(other.url, '/healthz');
          expect(r.status).toBe(503);
          expect(JSON.parse(r.text)).toMatchObject({ status: 'unavailable', engine: engine.name, primary: 'down', reads: 'none', writes: 'store-unavailable' });
          expect(r.text).not.toContain('s3cret');
        } finally { await other.close(); await store.close(); }
      });
      it('/metrics in Prometheus text format', async () => {
        const r = await get(server.url, '/metrics');
        expect(r.status).toBe(200);
        expect(r.headers.get('content-type')).toContain('text/plain; version=0.0.4');
        expect(r.text).toMatch(/^urikit_requests_total\{kind="resolve",status="302"\} \d+$/m);
        expect(r.text).toContain('# TYPE urikit_request_duration_seconds histogram');
        // The demo names, cached on both engines.
        await server.nameCacheReady;
        const cached = Number(/^urikit_name_cache_names (\d+)$/m.exec((await get(server.url, '/metrics')).text)?.[1]);
        expect(cached).toBe(await server.store.listing.count());
      });
      it('limits the rate per client: 429 with Retry-After, CORS included', async () => {
        const statuses: number[] = [];
        let limited: Awaited<ReturnType<typeof get>> | undefined;
        const other = await startServer({ port: 0, store: server.store, rateLimit: { perSecond: 1, burst: 3 } });
        try {
          for (let i = 0; i < 8; i++) {
            const r = await get(other.url, '/urn:ietf:rfc:2141');
            statuses.push(r.status);
            if (r.status === 429) limited = r;
          }
        } finally { await other.close(); }
        expect(statuses).toContain(429);
        expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(limited!.headers.get('access-control-allow-origin')).toBe('*');
      });
      it('serves the web page at /', async () => {
        const r = await get(server.url, '/');
        expect(r.status).toBe(200);
        expect(r.headers.get('content-type')).toContain('text/html');
      });
      it('drains before it stops: /healthz answers 503 draining while every request is still answered, each closing its connection', async () => {
        const other = await startServer({ port: 0, store: server.store, rateLimit: false, shutdown: { timeoutMs: 5000 } });
        const closing = other.close({ drainMs: 400 });
        await new Promise((r) => setTimeout(r, 50));
        const h = await get(other.url, '/healthz');
        expect([h.status, JSON.parse(h.text).status]).toEqual([503, 'draining']);
        const r = await get(other.url, '/urn:isbn:0451450523');
        expect([r.status, r.headers.get('connection')]).toEqual([302, 'close']);
        await closing;
        await expect(get(other.url, '/healthz')).rejects.toThrow();
      });
      it('finishes a request in flight when closed (graceful shutdown)', async () => {
        const other = await startServer({ port: 0, store: server.store, rateLimit: false });
        const names = server.store.names;
        const original = names.lookup;
        let release!: () => void;
        const gate = new Promise<void>((r) => { release = r; });
        let arrived!: () => void;
        const inside = new Promise<void>((r) => { arrived = r; });
        names.lookup = async (key: string) => { arrived(); await gate; return original.call(names, key); };
        try {
          const pending = get(other.url, '/urn:isbn:0451450523');
          await inside;
          const closing = other.close();
          let closed = false;
          void closing.then(() => { closed = true; });
          await new Promise((r) => setTimeout(r, 50));
          expect(closed).toBe(false);
          release();
          const r = await pending;
          expect(r.status).toBe(302);
          await closing;
          await expect(get(other.url, '/urn:isbn:0451450523')).rejects.toThrow();
        } finally {
          names.lookup = original;
        }
      });
    });
  });
}
