/**
 * crawl: the walk of urn+c and urn+p over three resolvers on 127.0.0.1
 * that delegate to each other (with a cycle and an unreachable child),
 * and over resolvers that answer badly (garbage, too much, a redirect
 * loop, nothing in time): each reported with its reason, the walk going on.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawl, crawlText, readNameList, type CrawlNode } from '../../src/client/index.js';
import { startWebOfResolvers, type WebOfResolvers } from '../helpers/web-of-resolvers.js';

/** A resolver that answers every request badly, in the way its path's first segment says. */
function startBadResolver(): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const how = (req.url ?? '').split('/')[1];
    if (how === 'garbage') { res.writeHead(200, { 'content-type': 'text/plain' }); res.end('<html><body>\u0000 no names here'); return; }
    if (how === 'json-garbage') { res.writeHead(200, { 'content-type': 'application/json' }); res.end('{"names": [1, 2'); return; }
    if (how === 'huge') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const line = Buffer.from('urn:example:x\r\n'.repeat(4096));
      let sent = 0;
      const more = () => { while (sent < 8 << 20) { sent += line.length; if (!res.write(line)) { res.once('drain', more); return; } } res.end(); };
      res.on('close', () => { sent = Infinity; });
      more();
      return;
    }
    if (how === 'loop') { res.writeHead(302, { location: (req.url ?? '').replace('/loop/', '/loop2/') }); res.end(); return; }
    if (how === 'loop2') { res.writeHead(302, { location: (req.url ?? '').replace('/loop2/', '/loop/') }); res.end(); return; }
    if (how === 'slow') return; // never answers
    if (how === 'no-parents') {
      // urn+c answered (one child, itself: a cycle), urn+p not.
      if ((req.url ?? '').endsWith('urn+c')) { res.writeHead(200, { 'content-type': 'text/plain' }); res.end('urn:example:bad:no-parents\r\n'); return; }
      res.writeHead(404, { 'content-type': 'text/plain' }); res.end('Not Found'); return;
    }
    res.writeHead(404); res.end();
  });
  return new Promise((r) => server.listen(0, '127.0.0.1', () => r(server)));
}

/** The node of `authority` in a tree, the first met. */
function find(n: CrawlNode, authority: string): CrawlNode | undefined {
  if (n.authority === authority) return n;
  for (const c of n.children) { const f = find(c, authority); if (f) return f; }
  return undefined;
}

describe('crawl the web of resolvers', () => {
  let web: WebOfResolvers;
  let bad: http.Server;
  let badUrl: string;
  beforeAll(async () => {
    web = await startWebOfResolvers();
    bad = await startBadResolver();
    badUrl = `http://127.0.0.1:${(bad.address() as AddressInfo).port}`;
    const kinds = ['garbage', 'json-garbage', 'huge', 'loop', 'slow', 'no-parents'];
    const r = await web.put(web.a, '/admin/authorities', {
      name: 'urn:example:bad', parents: [], children: kinds.map((k) => `urn:example:bad:${k}`),
      resolvers: Object.fromEntries(kinds.map((k) => [`urn:example:bad:${k}`, `${badUrl}/${k}`])),
    });
    expect(r.status).toBe(200);
  });
  afterAll(async () => {
    bad?.closeAllConnections();
    await new Promise((r) => bad?.close(r));
    await web?.close();
  });

  it('lists the tree of resolvers and authorities, a cycle shown and not followed, an unreachable child and every bad resolver with its reason', async () => {
    const r = await crawl(web.a.url, { allowPrivate: true, timeoutMs: 500, maxBytes: 64 * 1024 });
    expect(r.resolvers).toEqual([web.a.url, web.b.url, web.c.url, 'http://127.0.0.1:1', ...['garbage', 'json-garbage', 'huge', 'loop', 'slow', 'no-parents'].map((k) => `${badUrl}/${k}`)]);
    expect(r.root.children.map((n) => n.authority)).toEqual(['urn:example:a', 'urn:example:bad']);
    const c = find(r.root, 'urn:example:a:b:c')!;
    expect(c).toMatchObject({ resolver: web.c.url, depth: 3, parents: [{ name: 'urn:example:a:b', resolver: web.b.url }] });
    expect(c.children.map((n) => [n.authority, n.resolver, n.repeat])).toEqual([['urn:example:a:b:c:loop', web.a.url, undefined], ['urn:example:a', web.a.url, 'cycle']]);
    expect(find(r.root, 'urn:example:a:b')).toMatchObject({ resolver: web.b.url, parents: [{ name: 'urn:example:a', resolver: web.a.url }] });
    const errorOf = (a: string) => find(r.root, a)?.error ?? '';
    expect(errorOf('urn:example:a:gone')).toContain('ECONNREFUSED');
    expect(errorOf('urn:example:bad:garbage')).toContain('urn+c: unusable answer: not a name and a resolver');
    expect(errorOf('urn:example:bad:json-garbage')).toContain('unusable answer');
    expect(errorOf('urn:example:bad:huge')).toContain('larger than 65536 bytes');
    expect(errorOf('urn:example:bad:loop')).toContain('redirect loop');
    expect(errorOf('urn:example:bad:slow')).toContain('no answer within 500 ms');
    // A resolver that fails urn+p is reported, and its urn+c still walked.
    const noParents = find(r.root, 'urn:example:bad:no-parents')!;
    expect(noParents.error).toBe('urn+p: HTTP 404 Not Found');
    expect(noParents.children.map((n) => [n.authority, n.repeat])).toEqual([['urn:example:bad:no-parents', 'cycle']]);
    expect(r.errors).toBe(7);
    const text = crawlText(r);
    expect(text).toContain(`      urn:example:a at ${web.a.url}  [cycle: not followed]\n`);
    expect(text.trimEnd().split('\n').at(-1)).toBe(`10 resolvers, ${r.authorities} authorities, 7 errors`);
  });

  it('keeps to its bounds: resolvers, depth, private addresses', async () => {
    const two = await crawl(web.a.url, { allowPrivate: true, maxResolvers: 2, timeoutMs: 500 });
    expect(two.resolvers).toEqual([web.a.url, web.b.url]);
    expect(find(two.root, 'urn:example:a:b:c')?.skipped).toBe('more than 2 resolvers');
    const shallow = await crawl(web.a.url, { allowPrivate: true, maxDepth: 1, timeoutMs: 500 });
    expect(find(shallow.root, 'urn:example:a:b')?.skipped).toBe('deeper than 1');
    const guarded = await crawl(web.a.url);
    expect(guarded.root.error).toContain('loopback');
    expect(guarded.resolvers).toEqual([web.a.url]);
    expect((await crawl('ftp://127.0.0.1/')).root.error).toBe('not an http or https URL');
  });

  it('reads the names of urn+c in the formats resolvers answer, and refuses what is no list of names', () => {
    const b = (s: string) => Buffer.from(s, 'latin1');
    expect(readNameList('text/plain', b('urn:example:b http://r.example/\r\nurn:example:c\r\n'))).toEqual({ names: ['urn:example:b', 'urn:example:c'], resolvers: { 'urn:example:b': 'http://r.example' } });
    expect(readNameList('text/urc-0', b('=====\r\nurn:example:b\r\nResolver: http://r.example\r\n'))).toEqual({ names: ['urn:example:b'], resolvers: { 'urn:example:b': 'http://r.example' } });
    expect(readNameList('application/json', b('{"names":["urn:example:b"],"resolvers":{"urn:example:b":"https://r.example"}}')).resolvers).toEqual({ 'urn:example:b': 'https://r.example' });
    const refused: Array<[string, string]> = [
      ['text/plain', 'urn:example:b javascript:alert(1)\r\n'],
      ['text/plain', 'urn:example:b http://r.example extra\r\n'],
      ['text/plain', 'not-a-urn\r\n'],
      ['application/json', '{"names":"urn:example:b"}'],
      ['application/json', '{"names":[],"resolvers":[]}'],
      ['text/html', '<p>urn:example:b</p>'],
      ['text/plain', 'urn:example:x\r\n'.repeat(1001)],
    ];
    for (const [type, body] of refused) expect(() => readNameList(type, b(body)), body.slice(0, 40)).toThrow();
  });
});
