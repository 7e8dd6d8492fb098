// The resolution client against real HTTP servers on 127.0.0.1: redirects
// to URNs (1995 draft §4), loops, caching (§5), resolvers that are down.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DiskCache, MemoryCache, ResolutionError, resolveUrn, splitReference, type Cache } from '@urikit/resolver';
import { closedPort, startTestServer, tableResolver, urnOf, type TestServer } from './http-servers.js';

const URC0 = 'text/urc-0';

describe('redirects to another URN are followed and reported in via (1995 draft §4)', () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    b = await startTestServer(tableResolver({
      'urn:other:b': { redirect: 'urn:example:c', status: 302 },
    }));
    a = await startTestServer(tableResolver({
      'urn:example:a': { redirect: 'urn:other:b' },
      'urn:example:c': { status: 200, type: URC0, body: '=====\r\nhttp://127.0.0.1:1/final.html\r\n' },
      'urn:example:d': { redirect: 'urn:example:e' },
      'urn:example:e': { redirect: 'http://127.0.0.1:1/there.html', status: 302 },
      'urn:example:loop1': { redirect: 'urn:example:loop2' },
      'urn:example:loop2': { redirect: 'URN:EXAMPLE:loop1' },
      'urn:example:self': { redirect: 'urn:example:self' },
      ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`urn:example:long${i}`, { redirect: `urn:example:long${i + 1}` }])),
      'urn:example:bad-redirect': { redirect: 'urn:' },
    }));
  });
  afterAll(async () => { await a.close(); await b.close(); });

  const discovery = () => ({ order: ['config' as const], config: { resolvers: { example: [a.url], other: [b.url] } } });

  it.each([
    { urn: 'urn:example:a', via: ['urn:example:a', 'urn:other:b', 'urn:example:c'], url: 'http://127.0.0.1:1/final.html', status: 200 },
    { urn: 'urn:example:d', via: ['urn:example:d', 'urn:example:e'], url: 'http://127.0.0.1:1/there.html', status: 302 },
  ])('$urn -> $via', async ({ urn, via, url, status }) => {
    const r = await resolveUrn(urn, { discovery: discovery() });
    expect(r.via).toEqual(via);
    expect(r.status).toBe(status);
    expect(r.locations.map((l) => l.url)).toEqual([url]);
  });

  it.each([
    { urn: 'urn:example:loop1', via: ['urn:example:loop1', 'urn:example:loop2', 'URN:EXAMPLE:loop1'] },
    { urn: 'urn:example:self', via: ['urn:example:self', 'urn:example:self'] },
  ])('a loop is detected: $urn', async ({ urn, via }) => {
    const err = await resolveUrn(urn, { discovery: discovery() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResolutionError);
    expect((err as ResolutionError).code).toBe('redirect-loop');
    expect((err as ResolutionError).via).toEqual(via);
  });

  it('stops after maxRedirects', async () => {
    const err = await resolveUrn('urn:example:long0', { discovery: discovery(), maxRedirects: 3 }).catch((e: unknown) => e);
    expect((err as ResolutionError).code).toBe('too-many-redirects');
    expect((err as ResolutionError).via).toHaveLength(5);
  });

  it('a redirect to a malformed URN is a bad answer, not a crash', async () => {
    const err = await resolveUrn('urn:example:bad-redirect', { discovery: discovery() }).catch((e: unknown) => e);
    expect((err as ResolutionError).code).toBe('bad-resolver-answer');
  });

  it('an unknown name is an answer with status 404, not an error', async () => {
    const r = await resolveUrn('urn:example:nothing', { resolvers: [a.url] });
    expect(r.status).toBe(404);
    expect(r.locations).toEqual([]);
  });

  it('a malformed URN is refused before any request, with the offset', async () => {
    const before = a.seen.length;
    await expect(resolveUrn('urn:x', { resolvers: [a.url] })).rejects.toMatchObject({ name: 'UriError' });
    expect(a.seen.length).toBe(before);
  });
});

describe('resolvers that are down (1995 draft §2.2.1: equivalent resolvers)', () => {
  let up: TestServer;
  let failing: TestServer;
  beforeAll(async () => {
    up = await startTestServer(tableResolver({ 'urn:example:x': { status: 200, type: URC0, body: '=====\r\nhttp://127.0.0.1:1/x\r\n' } }));
    failing = await startTestServer((_q, r) => { r.writeHead(503).end('busy'); });
  });
  afterAll(async () => { await up.close(); await failing.close(); });

  it('the next resolver is tried and the answer comes from it', async () => {
    const down = `http://127.0.0.1:${await closedPort()}`;
    const r = await resolveUrn('urn:example:x', { resolvers: [down, failing.url, up.url] });
    expect(r.locations.map((l) => l.url)).toEqual(['http://127.0.0.1:1/x']);
    expect(r.resolver?.startsWith(up.url)).toBe(true);
  });

  it('when all are down the error names each resolver and why', async () => {
    const port = await closedPort();
    const err = await resolveUrn('urn:example:x', { resolvers: [`http://127.0.0.1:${port}`, failing.url] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResolutionError);
    const e = err as ResolutionError;
    expect(e.code).toBe('resolver-unreachable');
    expect(e.attempts).toHaveLength(2);
    expect(e.attempts[0]?.error).toContain('ECONNREFUSED');
    expect(e.attempts[1]?.error).toContain('503');
    expect(e.message).toContain(`127.0.0.1:${port}`);
    // Each resolver is named once, and no character offset is claimed for a network failure.
    expect(e.attempts[0]?.error.startsWith('ECONNREFUSED')).toBe(true);
    expect(e.message.split(`127.0.0.1:${port}/`)).toHaveLength(2);
    expect(e.message).not.toMatch(/at offset/);
  });

  it('a resolver that never answers times out and the next one is tried', async () => {
    const silent = await startTestServer(() => { /* never answers */ });
    try {
      const r = await resolveUrn('urn:example:x', { resolvers: [silent.url, up.url], timeout: 300 });
      expect(r.status).toBe(200);
    } finally {
      await silent.close();
    }
  });

  it('a resolver that trickles its answer is cut off at the deadline and the next one is tried', async () => {
    const slow = await startTestServer((_q, res) => {
      res.writeHead(200, { 'content-type': 'text/urc-0' });
      const timer = setInterval(() => res.write('='), 50);
      res.on('close', () => clearInterval(timer));
    });
    try {
      const r = await resolveUrn('urn:example:x', { resolvers: [slow.url, up.url], timeout: 400 });
      expect(r.resolver?.startsWith(up.url)).toBe(true);
    } finally {
      await slow.close();
    }
  });

  it.each([
    ['an address in the URL', () => up.url],
    ['a name that resolves to loopback', () => up.url.replace('127.0.0.1', 'localhost')],
  ])('publicOnly refuses %s (2003 draft §7.3)', async (_name, url) => {
    const before = up.seen.length;
    const err = await resolveUrn('urn:example:x', { resolvers: [url()], publicOnly: true }).catch((e: unknown) => e);
    expect((err as ResolutionError).code).toBe('resolver-unreachable');
    expect((err as ResolutionError).attempts[0]?.error).toContain('is not a public address (loopback)');
    expect(up.seen.length).toBe(before);
  });

  it('with no resolver and nothing discovered the error says so', async () => {
    const err = await resolveUrn('urn:example:x', { discovery: { order: ['config'], config: { resolvers: {} } } }).catch((e: unknown) => e);
    expect((err as ResolutionError).code).toBe('no-resolver');
  });
});

describe('caching with If-Modified-Since, ETag and max-age (1995 draft §5)', () => {
  let server: TestServer;
  let answered304 = 0;
  const lastModified = 'Tue, 21 Mar 1995 08:32:49 GMT';
  const body = '=====US-ASCII\r\nftp://elm.wnln.edu/pub/mirrors/phone-list.txt\r\n';
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'urikit-cache-'));
    server = await startTestServer((req, res) => {
      const urn = urnOf(req);
      const cc = urn.endsWith(':fresh') ? 'max-age=60' : urn.endsWith(':nostore') ? 'no-store' : 'no-cache';
      const etag = '"v1"';
      if (req.headers['if-none-match'] === etag || req.headers['if-modified-since'] === lastModified) {
        answered304++;
        res.writeHead(304, { etag, 'last-modified': lastModified, 'cache-control': cc }).end();
        return;
      }
      res.writeHead(200, { 'content-type': URC0, etag, 'last-modified': lastModified, 'cache-control': cc }).end(body);
    });
  });
  afterAll(async () => { await server.close(); await rm(dir, { recursive: true, force: true }); });

  const caches: [string, () => Cache][] = [
    ['memory', () => new MemoryCache()],
    ['disk', () => new DiskCache(join(dir, String(Math.random())))],
  ];

  it.each(caches)('%s: a 304 is served from the cache', async (_name, make) => {
    const cache = make();
    const first = await resolveUrn('urn:example:revalidate', { resolvers: [server.url], cache });
    expect(first.fromCache).toBe(false);
    const before304 = answered304;
    const second = await resolveUrn('urn:example:revalidate', { resolvers: [server.url], cache });
    expect(answered304).toBe(before304 + 1);
    expect(second.fromCache).toBe(true);
    expect(second.status).toBe(200);
    expect(second.locations).toEqual(first.locations);
    const last = server.seen[server.seen.length - 1]!;
    expect(last.headers['if-modified-since']).toBe(lastModified);
    expect(last.headers['if-none-match']).toBe('"v1"');
  });

  it.each(caches)('%s: an answer within its max-age is still revalidated (1995 draft §5), unless told to trust max-age', async (_name, make) => {
    const cache = make();
    let t = 1_000_000;
    const now = () => t;
    await resolveUrn('urn:example:fresh', { resolvers: [server.url], cache, now });
    const asked = server.seen.length;
    const again = await resolveUrn('urn:example:fresh', { resolvers: [server.url], cache, now });
    expect(server.seen.length).toBe(asked + 1);
    expect(server.seen[server.seen.length - 1]!.headers['if-none-match']).toBe('"v1"');
    expect(again.fromCache).toBe(true);
    // trustMaxAge: today's browsers' behaviour, the fresh answer used without asking
    await resolveUrn('urn:example:fresh', { resolvers: [server.url], cache, now, trustMaxAge: true });
    expect(server.seen.length).toBe(asked + 1);
    t += 61_000; // past max-age=60: revalidated with a request even so
    await resolveUrn('urn:example:fresh', { resolvers: [server.url], cache, now, trustMaxAge: true });
    expect(server.seen.length).toBe(asked + 2);
  });

  it('an answer marked no-store is not kept', async () => {
    const cache = new MemoryCache();
    await resolveUrn('urn:example:nostore', { resolvers: [server.url], cache });
    expect(cache.size).toBe(0);
  });
});

describe('format negotiation (1995 draft §3.1.1, §3.4)', () => {
  let server: TestServer;
  const url = 'http://127.0.0.1:1/doc?a=1&b=2';
  beforeAll(async () => {
    server = await startTestServer((req, res) => {
      const accept = String(req.headers.accept ?? '');
      const first = accept.split(',')[0]!.split(';')[0]!.trim();
      const bodies: Record<string, string> = {
        'text/urc-0': `=====\r\n${url}\r\n`,
        'application/json': JSON.stringify({ urn: urnOf(req), locations: [{ url, mediaType: 'text/html' }], metadata: { title: 'T' } }),
        'text/uri-list': `# ${urnOf(req)}\r\n${url}\r\n`,
        'text/plain': `The document is at <URL:${url}> today.\n`,
        'text/html': `<ul><li><a href="${url.replaceAll('&', '&amp;')}">the document</a></li></ul>`,
      };
      res.writeHead(200, { 'content-type': `${first}; charset=utf-8` }).end(bodies[first] ?? '');
    });
  });
  afterAll(async () => { await server.close(); });

  it.each(['text/urc-0', 'application/json', 'text/uri-list', 'text/plain', 'text/html'])('%s', async (accept) => {
    const r = await resolveUrn('urn:example:doc', { resolvers: [server.url], accept });
    expect(r.contentType).toBe(accept);
    expect(r.locations.map((l) => l.url)).toEqual([url]);
    expect(server.seen[server.seen.length - 1]!.headers.accept).toBe(accept);
  });

  it('the raw body is kept for gateways but left out of the JSON of the result', async () => {
    const r = await resolveUrn('urn:example:doc', { resolvers: [server.url] });
    expect(r.body).toBe(`=====\r\n${url}\r\n`);
    expect(Object.keys(JSON.parse(JSON.stringify(r)) as object).sort()).toEqual(['contentType', 'fromCache', 'locations', 'resolver', 'status', 'via']);
  });

  it('urc-0 is asked for first by default', async () => {
    const r = await resolveUrn('urn:example:doc', { resolvers: [server.url] });
    expect(r.contentType).toBe('text/urc-0');
  });

  it('the RFC 2169 request form carries the service and the URN', async () => {
    await resolveUrn('urn:example:doc', { resolvers: [server.url], service: 'I2Ls' });
    expect(server.seen[server.seen.length - 1]!.url).toBe('/uri-res/I2Ls?urn:example:doc');
  });

  it('a malformed urc-0 body is a clear error with the line number', async () => {
    const bad = await startTestServer((_q, res) => { res.writeHead(200, { 'content-type': URC0 }).end('=====\r\nftp://a/b\r\n=====KOI8-R\r\nftp://c/\r\n'); });
    try {
      const err = await resolveUrn('urn:example:doc', { resolvers: [bad.url] }).catch((e: unknown) => e);
      expect((err as ResolutionError).code).toBe('bad-resolver-answer');
      expect((err as Error).message).toContain('line 3');
    } finally {
      await bad.close();
    }
  });
});

describe('a URN reference: its fragment and its directives (2012 draft §2.3, §2.4)', () => {
  it.each([
    ['urn:isbn:0451450523#chapter1', { urn: 'urn:isbn:0451450523', fragment: 'chapter1' }],
    ['urn:isbn:0451450523?s=I2C', { urn: 'urn:isbn:0451450523?s=I2C', service: 'I2C' }],
    ['urn:isbn:0451450523?s=I2Ls&c=ToC#p1', { urn: 'urn:isbn:0451450523?s=I2Ls&c=ToC', fragment: 'p1', service: 'I2Ls' }],
    ['urn:isbn:0451450523?=s=N2C', { urn: 'urn:isbn:0451450523?=s=N2C', service: 'N2C' }],
    ['urn:example:a', { urn: 'urn:example:a' }],
  ])('%s', (reference, expected) => {
    expect(splitReference(reference)).toEqual(expected);
  });

  it('the fragment is never sent, and comes back on every location', async () => {
    const server = await startTestServer(tableResolver({
      'urn:example:book': { status: 200, type: 'text/urc-0', body: '=====\r\nhttp://a.example/book\r\n=====\r\nhttp://b.example/book#own\r\n' },
    }));
    try {
      const r = await resolveUrn('urn:example:book#chapter1', { resolvers: [server.url], service: 'I2Ls' });
      expect(server.seen[server.seen.length - 1]!.url).toBe('/uri-res/I2Ls?urn:example:book');
      expect(r.locations.map((l) => l.url)).toEqual(['http://a.example/book#chapter1', 'http://b.example/book#own']);
      expect(r.via).toEqual(['urn:example:book']);
    } finally {
      await server.close();
    }
  });
});
