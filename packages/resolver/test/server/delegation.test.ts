/**
 * The web of resolvers on the server side: urn+c and urn+p carry the
 * delegations of the authority registry in every format (1995 draft
 * §3.5.3, §3.5.4), a name of a delegated child is redirected to the
 * child's resolver, and the admin API refuses what it does not know.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseUrc0 } from '../../src/formats/urc0.js';
import { HostAuthorities } from '../../src/server/resolution/host-authorities.js';
import { openStore } from '../../src/store/index.js';
import { get } from '../helpers/http.js';
import { startWebOfResolvers, type WebOfResolvers } from '../helpers/web-of-resolvers.js';

describe('delegation between resolvers', () => {
  let web: WebOfResolvers;
  beforeAll(async () => { web = await startWebOfResolvers(); });
  afterAll(async () => { await web?.close(); });

  it('answers urn+c with each delegated child\'s resolver, in every format of the reserved answers', async () => {
    const path = '/urn:example:a:urn+c';
    const b = web.b.url;
    const plain = await get(web.a.url, path, { accept: 'text/plain' });
    expect(plain.text).toBe(`urn:example:a:b ${b}\r\nurn:example:a:gone ${web.unreachable}\r\n`);
    const json = JSON.parse((await get(web.a.url, path, { accept: 'application/json' })).text);
    expect(json).toMatchObject({ names: ['urn:example:a:b', 'urn:example:a:gone'], resolvers: { 'urn:example:a:b': b, 'urn:example:a:gone': web.unreachable } });
    const urc0 = await get(web.a.url, path, { accept: 'text/urc-0' });
    expect(parseUrc0(urc0.bytes).map((p) => [p.url, p.meta])).toEqual([['urn:example:a:b', `Resolver: ${b}`], ['urn:example:a:gone', `Resolver: ${web.unreachable}`]]);
    const list = await get(web.a.url, path, { accept: 'text/uri-list' });
    expect(list.text.split('\r\n')).toContain(`# resolver: ${b}`);
    const html = await get(web.a.url, path, { accept: 'text/html' });
    expect(html.text).toContain(`href="${b}/urn:example:a:b:urn+c"`);
  });

  it('answers urn+p with the parent\'s resolver, and the whole resolver\'s urn+c with the authorities it holds', async () => {
    expect((await get(web.b.url, '/urn:example:a:b:urn+p', { accept: 'text/plain' })).text).toBe(`urn:example:a ${web.a.url}\r\n`);
    expect((await get(web.b.url, '/urn+c', { accept: 'text/plain' })).text).toBe('urn:example:a:b\r\n');
    // An authority without delegations answers names alone, as §3.5.3 writes them.
    expect((await get(web.a.url, '/urn:example:other:urn+c', { accept: 'text/plain' })).text).toBe('');
  });

  it('redirects a name of a delegated child to the child\'s resolver (RFC 2169 request, same service)', async () => {
    const r = await get(web.a.url, '/uri-res/I2Ls?urn:example:a:b:c:doc');
    expect(r.status).toBe(302);
    expect(r.headers.get('location')).toBe(`${web.b.url}/uri-res/I2Ls?urn:example:a:b:c:doc`);
    const bare = await get(web.a.url, '/urn:example:a:b:x');
    expect(bare.headers.get('location')).toBe(`${web.b.url}/uri-res/I2L?urn:example:a:b:x`);
    // A name held here, or of no delegated child, is answered here.
    expect((await get(web.a.url, '/uri-res/I2L?urn:example:a:doc')).headers.get('location')).toBe('http://example.org/a/doc');
    expect((await get(web.a.url, '/uri-res/I2L?urn:example:ab:x')).status).toBe(404);
  });

  it('the web page follows a delegation as a client does: a name of a child\'s child is answered by the resolver that holds it', async () => {
    const page = await get(web.a.url, `/?uri=${encodeURIComponent('urn:example:a:b:c:doc')}`);
    expect(page.status).toBe(200);
    // Asked at a, delegated to b, which delegates to c, which holds the name.
    expect(page.text).toContain('http://example.org/c/doc');
    expect(page.text).toContain(`${web.c.url}/uri-res/I2Ls?urn:example:a:b:c:doc`);
    // A child whose resolver does not answer: the page says which resolver failed, and the server goes on.
    const gone = await get(web.a.url, `/?uri=${encodeURIComponent('urn:example:a:gone:doc')}`);
    expect(gone.status).toBe(200);
    expect(gone.text).toContain(`the resolver of urn:example:a:gone (${web.unreachable}) failed`);
  });

  it('refuses an authority with an unknown field, a resolver for a name it does not relate to, or a resolver that is no http URL', async () => {
    const cases: Array<[string, unknown]> = [
      ['an unknown field', { name: 'urn:example:z', children: [], delegates: {} }],
      ['a resolver of an unrelated name', { name: 'urn:example:z', children: ['urn:example:z:1'], resolvers: { 'urn:example:y': 'http://127.0.0.1:9' } }],
      ['a resolver that is no http URL', { name: 'urn:example:z', children: ['urn:example:z:1'], resolvers: { 'urn:example:z:1': 'ftp://r.example/' } }],
      ['resolvers that are a list', { name: 'urn:example:z', children: ['urn:example:z:1'], resolvers: ['http://r.example/'] }],
    ];
    for (const [what, body] of cases) {
      const r = await web.put(web.a, '/admin/authorities', body);
      expect(r.status, what).toBe(400);
      expect(JSON.parse(r.text).detail ?? JSON.parse(r.text).title, what).toBeTruthy();
    }
    expect((await get(web.a.url, '/urn:example:z:urn+c')).status).toBe(200);
    expect((await get(web.a.url, '/urn:example:z:urn+c', { accept: 'text/plain' })).text).toBe('');
  });

  it('finds the delegated child a name belongs to: the longest, by whole segments', async () => {
    const store = await openStore(':memory:');
    try {
      await store.authorities.put({ name: 'urn:example:x', parents: [], children: ['urn:example:x:1', 'urn:example:x:1:2', 'urn:example:x:3'],
        resolvers: { 'urn:example:x:1': 'http://r1.example', 'urn:example:x:1:2': 'http://r2.example' } });
      const held = new HostAuthorities(store);
      await held.refresh();
      const cases: Array<[string, string | undefined]> = [
        ['urn:example:x:1:2:z', 'http://r2.example'],
        ['urn:example:x:1:3', 'http://r1.example'],
        ['urn:example:x:1', 'http://r1.example'],
        ['urn:example:x:12', undefined],
        ['urn:example:x:3:a', undefined],
        ['urn:example:x', undefined],
      ];
      for (const [key, resolver] of cases) expect(held.delegatedTo(key)?.resolver, key).toBe(resolver);
    } finally {
      await store.close();
    }
  });
});
