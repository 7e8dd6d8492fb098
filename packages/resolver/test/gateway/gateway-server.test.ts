// The gateway in front of urikit serve (issue 7's startServer with its
// demonstration names, an in-memory SQLite store): the 1995 draft's urc-0
// examples, served by the resolver, rendered by the gateway as links.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, startServer, type RunningServer } from '@urikit/resolver';
import { links } from './html.js';

describe('gateway -> urikit serve (1995 draft §3.4.2.1, §4)', () => {
  let server: RunningServer;
  let gateway: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    server = await startServer({ port: 0, db: ':memory:', demo: true, rateLimit: false });
    gateway = await startGateway({ port: 0, resolvers: [server.url] });
  });
  afterAll(async () => { await gateway?.close(); await server?.close(); });

  it.each([
    { urn: 'urn:dns:library.bigstate.edu:phone-list-elm', urls: ['ftp://elm.wnln.edu/pub/mirrors/phone-list.txt'] },
    { urn: 'urn:dns:library.bigstate.edu:phone-lists', urls: ['ftp://elm.wnln.edu/pub/mirrors/phone-list.txt', 'ftp://gagu.bigstate.edu/admin/phones.html'] },
    { urn: 'urn:ietf:rfc:2141', urls: ['https://www.rfc-editor.org/rfc/rfc2141', 'https://www.rfc-editor.org/rfc/rfc2141.txt'] },
  ])('$urn', async ({ urn, urls }) => {
    const res = await fetch(`${gateway.url}/${urn}`);
    expect(res.status).toBe(200);
    const hrefs = links(await res.text()).map((l) => l.href);
    for (const u of urls) expect(hrefs).toContain(u);
  });

  it('a moved name: the gateway follows the URN the resolver names (§4) and shows the chain', async () => {
    const res = await fetch(`${gateway.url}/urn:dns:library.bigstate.edu:old-price-list`);
    const hrefs = links(await res.text()).map((l) => l.href);
    expect(hrefs).toContain('/urn:dns:library.bigstate.edu:current-version-of-price-list');
    expect(hrefs).toContain('http://library.bigstate.example.org/prices/1995-03.txt');
  });

  it('text/urc-0 from the resolver is passed through', async () => {
    const res = await fetch(`${gateway.url}/urn:dns:library.bigstate.edu:phone-lists`, { headers: { accept: 'text/urc-0' } });
    expect(res.headers.get('content-type')).toBe('text/urc-0');
    expect(await res.text()).toBe('=====\r\nftp://elm.wnln.edu/pub/mirrors/phone-list.txt\r\n=====\r\nftp://gagu.bigstate.edu/admin/phones.html\r\n');
  });
});
