// The gateway of the 1995 draft §4 over real HTTP on 127.0.0.1: urc-0
// answers rendered as HTML with working links, JSON and urc-0 passed through.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { negotiateFormat, startGateway } from '@urikit/resolver';
import { closedPort, startTestServer, tableResolver, type Answer, type TestServer } from '../client/http-servers.js';
import { documentText, links } from './html.js';

const examples = JSON.parse(readFileSync(new URL('../formats/urc0-examples.json', import.meta.url), 'utf8')) as {
  source: string;
  cases: { name: string; body: string; parts: { url: string; meta?: string }[] }[];
};

describe('the gateway (1995 draft §4)', () => {
  let resolver: TestServer;
  let docs: TestServer;
  let gateway: { url: string; close(): Promise<void> };
  let downGateway: { url: string; close(): Promise<void> };

  beforeAll(async () => {
    docs = await startTestServer((req, res) => { res.writeHead(200, { 'content-type': 'text/plain' }).end(`document ${req.url}`); });
    const table: Record<string, Answer> = {
      'urn:example:local': { status: 200, type: 'text/urc-0', body: `=====US-ASCII/en\r\n${docs.url}/phone-list.txt\r\nThe <b>local</b> copy & more.\r\n` },
      'urn:example:json': { status: 200, type: 'application/json', body: '{"locations":[{"url":"http://a.test/"}],"metadata":{"by":"json"}}' },
      'urn:example:moved': { redirect: 'urn:example:local' },
      'urn:example:loop': { redirect: 'urn:example:loop' },
      'urn:example:hostile': { status: 200, type: 'text/uri-list', body: 'javascript:alert(1)\r\ndata:text/html,<script>alert(1)</script>\r\nhttp://a.test/"><script>alert(1)</script>\r\n' },
      'urn:example:gone': { status: 410, type: 'text/plain', body: 'withdrawn' },
    };
    examples.cases.forEach((c, i) => { table[`urn:example:urc0-${i}`] = { status: 200, type: 'text/urc-0', body: c.body }; });
    resolver = await startTestServer(tableResolver(table));
    gateway = await startGateway({ port: 0, resolvers: [resolver.url] });
    downGateway = await startGateway({ port: 0, resolvers: [`http://127.0.0.1:${await closedPort()}`] });
  });
  afterAll(async () => {
    await gateway.close();
    await downGateway.close();
    await resolver.close();
    await docs.close();
  });

  const get = (path: string, accept?: string) => fetch(`${gateway.url}${path}`, accept ? { headers: { accept } } : {});

  describe(`renders the urc-0 examples as HTML with their URLs as links (${examples.source})`, () => {
    it.each(examples.cases.map((c, i) => ({ ...c, i })))('$name', async ({ i, parts }) => {
      const res = await get(`/urn:example:urc0-${i}`, 'text/html');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      const html = await res.text();
      const hrefs = links(html).map((l) => l.href);
      for (const part of parts) {
        expect(hrefs).toContain(part.url);
        if (part.meta) expect(documentText(html)).toContain(part.meta);
      }
    });
  });

  it('its links work: following one reaches the document', async () => {
    const html = await (await get('/urn:example:local')).text();
    const link = links(html).find((l) => l.href.startsWith(docs.url));
    expect(link?.href).toBe(`${docs.url}/phone-list.txt`);
    const doc = await fetch(link!.href);
    expect(await doc.text()).toBe('document /phone-list.txt');
    // The metainformation is text, not markup.
    expect(html).toContain('The &lt;b&gt;local&lt;/b&gt; copy &amp; more.');
  });

  it('/resolve?urn= is the same as /urn:...', async () => {
    const a = links(await (await get('/resolve?urn=urn%3Aexample%3Aurc0-2')).text()).map((l) => l.href);
    const b = links(await (await get('/urn:example:urc0-2')).text()).map((l) => l.href);
    expect(a).toEqual(b);
  });

  it('a redirect to another URN shows the chain, each URN a link to the gateway (§4)', async () => {
    const html = await (await get('/urn:example:moved')).text();
    const hrefs = links(html).map((l) => l.href);
    expect(hrefs).toContain('/urn:example:moved');
    expect(hrefs).toContain('/urn:example:local');
    expect(hrefs).toContain(`${docs.url}/phone-list.txt`);
  });

  it('text/urc-0 is passed through byte for byte', async () => {
    const res = await get('/urn:example:urc0-3', 'text/urc-0');
    expect(res.headers.get('content-type')).toBe('text/urc-0');
    expect(await res.text()).toBe(examples.cases[3]!.body);
  });

  it('JSON is passed through', async () => {
    const res = await get('/urn:example:json', 'application/json');
    expect(await res.json()).toEqual({ locations: [{ url: 'http://a.test/' }], metadata: { by: 'json' } });
  });

  it('an answer in another format is written as urc-0 or JSON when asked', async () => {
    const urc = await (await get('/urn:example:json', 'text/urc-0')).text();
    expect(urc).toBe('=====\r\nhttp://a.test/\r\n');
    const json = (await (await get('/urn:example:urc0-0', 'application/json')).json()) as { locations: { url: string }[]; via: string[] };
    expect(json.locations.map((l) => l.url)).toEqual([examples.cases[0]!.parts[0]!.url]);
    expect(json.via).toEqual(['urn:example:urc0-0']);
  });

  it.each([
    { path: '/urn:example:nothing', status: 404 },
    { path: '/urn:example:gone', status: 410 },
    { path: '/urn:example:loop', status: 508 },
    { path: '/urn:x', status: 400 },
    { path: '/resolve', status: 400 },
    { path: '/not-a-urn', status: 404 },
  ])('$path answers $status', async ({ path, status }) => {
    const res = await get(path);
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toContain('text/html');
  });

  it('a resolver that is down is a 502 with the reason, in HTML and in JSON', async () => {
    const html = await fetch(`${downGateway.url}/urn:example:x`);
    expect(html.status).toBe(502);
    expect(await html.text()).toContain('ECONNREFUSED');
    const json = await fetch(`${downGateway.url}/urn:example:x`, { headers: { accept: 'application/json' } });
    expect(json.headers.get('content-type')).toContain('application/problem+json');
    expect(await json.json()).toMatchObject({ status: 502, code: 'resolver-unreachable' });
  });

  it('URLs with dangerous schemes are shown, never linked; nothing in them becomes markup', async () => {
    const html = await (await get('/urn:example:hostile')).text();
    const hrefs = links(html).map((l) => l.href);
    expect(hrefs.some((h) => h.toLowerCase().startsWith('javascript:') || h.toLowerCase().startsWith('data:'))).toBe(false);
    expect(html).not.toContain('<script>');
    expect(hrefs).toContain('http://a.test/"><script>alert(1)</script>');
  });
});

describe('format negotiation of the gateway (RFC 9110 §12.5.1)', () => {
  it.each([
    [undefined, 'text/html'],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'text/html'],
    ['*/*', 'text/html'],
    ['application/json', 'application/json'],
    ['text/urc-0', 'text/urc-0'],
    ['text/urc-0;q=0.5, application/json', 'application/json'],
    ['text/*', 'text/html'],
    ['text/html;q=0, text/urc-0;q=0.1', 'text/urc-0'],
    ['image/png', 'text/html'],
  ])('%s -> %s', (accept, format) => {
    expect(negotiateFormat(accept)).toBe(format);
  });
});
