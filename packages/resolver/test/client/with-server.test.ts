// The client against the resolution service itself (issue 7's
// startServer, an in-memory SQLite store), over real HTTP on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryCache, ResolutionError, resolveUrn, startServer, type RunningServer } from '@urikit/resolver';
import { closedPort } from './http-servers.js';

describe('resolveUrn against urikit serve (1995 draft §3, §4, §5; RFC 2169)', () => {
  let server: RunningServer;
  let other: RunningServer;
  beforeAll(async () => {
    // cacheControl no-cache: every use of a stored answer is revalidated, so a 304 can be seen.
    server = await startServer({ port: 0, db: ':memory:', demo: true, rateLimit: false, cacheControl: 'no-cache' });
    other = await startServer({ port: 0, db: ':memory:', rateLimit: false });
    const put = (s: RunningServer, input: Parameters<RunningServer['store']['put']>[1]) => s.store.writer.put(input.urn, input, 'test');
    await put(server, { urn: 'urn:example:chain-a', status: 'moved', movedTo: 'urn:other:chain-b', permanent: true, reason: 'moved to the other resolver' });
    await put(other, { urn: 'urn:other:chain-b', status: 'moved', movedTo: 'urn:example:chain-c', permanent: false });
    await put(server, { urn: 'urn:example:chain-c', locations: [{ url: 'http://127.0.0.1:1/chain-c.html', mediaType: 'text/html' }] });
    await put(server, { urn: 'urn:example:loop-a', status: 'moved', movedTo: 'urn:other:loop-b' });
    await put(other, { urn: 'urn:other:loop-b', status: 'moved', movedTo: 'urn:example:loop-a' });
  });
  afterAll(async () => { await server?.close(); await other?.close(); });

  const discovery = () => ({ order: ['config' as const], config: { resolvers: { example: [server.url], other: [other.url] } } });

  it('follows urn -> urn -> url across two resolvers and reports the chain in via', async () => {
    const r = await resolveUrn('urn:example:chain-a', { discovery: discovery(), service: 'I2Ls' });
    expect(r.via).toEqual(['urn:example:chain-a', 'urn:other:chain-b', 'urn:example:chain-c']);
    expect(r.locations.map((l) => l.url)).toEqual(['http://127.0.0.1:1/chain-c.html']);
  });

  it('I2L ends in the redirect to the location (RFC 2169 §3.1)', async () => {
    const r = await resolveUrn('urn:example:chain-a', { discovery: discovery(), service: 'I2L' });
    expect(r.via).toEqual(['urn:example:chain-a', 'urn:other:chain-b', 'urn:example:chain-c']);
    expect(r.locations.map((l) => l.url)).toEqual(['http://127.0.0.1:1/chain-c.html']);
  });

  it('detects a loop between the two resolvers', async () => {
    const err = await resolveUrn('urn:example:loop-a', { discovery: discovery() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResolutionError);
    expect((err as ResolutionError).code).toBe('redirect-loop');
    expect((err as ResolutionError).via).toEqual(['urn:example:loop-a', 'urn:other:loop-b', 'urn:example:loop-a']);
  });

  it('serves a 304 from the cache', async () => {
    const cache = new MemoryCache();
    const first = await resolveUrn('urn:ietf:rfc:2141', { resolvers: [server.url], service: 'I2Ls', cache });
    expect(first.fromCache).toBe(false);
    expect(first.locations.length).toBe(2);
    const second = await resolveUrn('urn:ietf:rfc:2141', { resolvers: [server.url], service: 'I2Ls', cache });
    expect(second.fromCache).toBe(true);
    expect(second.locations).toEqual(first.locations);
  });

  it('tries the next resolver when the first is down', async () => {
    const down = `http://127.0.0.1:${await closedPort()}`;
    const r = await resolveUrn('urn:isbn:0451450523', { resolvers: [down, server.url], service: 'I2Ls' });
    expect(r.locations.map((l) => l.url)).toEqual(['https://openlibrary.org/isbn/0451450523']);
  });

  it('reads the 1995 draft urc-0 answer of a multi-location name', async () => {
    const r = await resolveUrn('urn:dns:library.bigstate.edu:phone-lists', { resolvers: [`${server.url}/{elementid}`], accept: 'text/urc-0' });
    expect(r.contentType).toBe('text/urc-0');
    expect(r.locations.map((l) => l.url)).toEqual(['ftp://elm.wnln.edu/pub/mirrors/phone-list.txt', 'ftp://gagu.bigstate.edu/admin/phones.html']);
  });

  it.each(['text/urc-0', 'application/json', 'text/plain', 'text/html'])('negotiates %s and reads the same locations', async (accept) => {
    const r = await resolveUrn('urn:ietf:rfc:2141', { resolvers: [server.url], service: 'I2Ls', accept });
    expect(r.contentType).toBe(accept);
    expect(r.locations.map((l) => l.url)).toEqual(['https://www.rfc-editor.org/rfc/rfc2141', 'https://www.rfc-editor.org/rfc/rfc2141.txt']);
  });

  it('an unknown name is a 404 and a withdrawn one a 410', async () => {
    expect((await resolveUrn('urn:example:nothing-here', { resolvers: [server.url], service: 'I2Ls' })).status).toBe(404);
    expect((await resolveUrn('urn:dns:library.bigstate.edu:withdrawn-report', { resolvers: [server.url], service: 'I2Ls' })).status).toBe(410);
  });
});
