// What a 301/302 means (1995 draft §4): the URN in Location, in an
// RFC 2169 request URL, or in the Reason-Phrase of the Status-Line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { interpretRedirect, ResolutionError, resolveUrn, urnInReasonPhrase } from '@urikit/resolver';
import { startTestServer, urnOf, type TestServer } from './http-servers.js';

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const REQ = 'http://r.test:4500/uri-res/I2L?urn:ex:a';

describe('interpretRedirect', () => {
  it.each([
    { name: 'a URN in Location', location: 'urn:other:b', reason: 'Moved', meaning: { kind: 'urn', urn: 'urn:other:b' } },
    { name: 'an RFC 2169 URL for another URN (substituted, the URL kept as a hint)', location: '/uri-res/N2L?urn:other:b', reason: 'Moved Permanently to urn:other:b', meaning: { kind: 'urn', urn: 'urn:other:b', hint: 'http://r.test:4500/uri-res/N2L?urn:other:b' } },
    { name: 'an RFC 2169 URL for the same URN elsewhere (a delegation)', location: 'http://s.test/uri-res/I2L?urn:ex:a', reason: 'Found', meaning: { kind: 'resolver', url: 'http://s.test/uri-res/I2L?urn:ex:a' } },
    { name: 'the URN only in the Status-Line (1995 draft §4)', location: undefined, reason: 'Moved Permanently to urn:other:b.', meaning: { kind: 'urn', urn: 'urn:other:b' } },
    { name: 'a Location URL that carries the URN the Status-Line names', location: 'http://s.test/urn:other:b', reason: 'Moved to <urn:other:b>', meaning: { kind: 'urn', urn: 'urn:other:b', hint: 'http://s.test/urn:other:b' } },
    { name: 'a plain location (I2L, RFC 2169 §3.1)', location: 'https://www.rfc-editor.org/rfc/rfc2141', reason: 'Found', meaning: { kind: 'location', url: 'https://www.rfc-editor.org/rfc/rfc2141' } },
    { name: 'a location while the Status-Line names the URN asked', location: 'http://a.test/doc', reason: 'Found urn:ex:a', meaning: { kind: 'location', url: 'http://a.test/doc' } },
    { name: 'a location while the Status-Line names another URN not in it', location: 'http://a.test/doc', reason: 'Found, see also urn:other:b', meaning: { kind: 'location', url: 'http://a.test/doc' } },
    { name: 'nothing to go on', location: undefined, reason: 'Moved', meaning: undefined },
  ])('$name', ({ location, reason, meaning }) => {
    expect(interpretRedirect(location, reason, REQ, 'urn:ex:a', same)).toEqual(meaning);
  });

  it.each([
    ['Moved Permanently to urn:other:b', 'urn:other:b'],
    ['Moved to <URN:Other:b>', 'URN:Other:b'],
    ['Moved (urn:other:b)', 'urn:other:b'],
    ['Moved to xurn:other:b', undefined],
    ['Moved to urn:', undefined],
    ['Found', undefined],
  ])('urnInReasonPhrase(%j)', (reason, urn) => {
    expect(urnInReasonPhrase(reason)).toBe(urn);
  });
});

describe('redirects that name the URN only in the Status-Line or delegate to another resolver', () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    b = await startTestServer((req, res) => {
      const urn = urnOf(req);
      if (urn === 'urn:ex:delegated') res.writeHead(200, { 'content-type': 'text/uri-list' }).end('http://127.0.0.1:1/delegated\r\n');
      else if (urn === 'urn:ex:ping') res.writeHead(302, 'Found', { location: `${a.url}/uri-res/I2L?urn:ex:ping` }).end();
      else res.writeHead(404).end();
    });
    a = await startTestServer((req, res) => {
      const urn = urnOf(req);
      if (urn === 'urn:ex:old') res.writeHead(301, 'Moved Permanently to urn:ex:new').end();
      else if (urn === 'urn:ex:new') res.writeHead(200, { 'content-type': 'text/uri-list' }).end('http://127.0.0.1:1/new\r\n');
      else if (urn === 'urn:ex:delegated') res.writeHead(302, 'Found', { location: `${b.url}/uri-res/I2L?urn:ex:delegated` }).end();
      else if (urn === 'urn:ex:ping') res.writeHead(302, 'Found', { location: `${b.url}/uri-res/I2L?urn:ex:ping` }).end();
      else res.writeHead(404).end();
    });
  });
  afterAll(async () => { await a.close(); await b.close(); });

  it('substitutes the URN of the Status-Line', async () => {
    const r = await resolveUrn('urn:ex:old', { resolvers: [a.url] });
    expect(r.via).toEqual(['urn:ex:old', 'urn:ex:new']);
    expect(r.locations.map((l) => l.url)).toEqual(['http://127.0.0.1:1/new']);
  });

  it('follows a delegation to another resolver for the same URN', async () => {
    const r = await resolveUrn('urn:ex:delegated', { resolvers: [a.url] });
    expect(r.via).toEqual(['urn:ex:delegated']);
    expect(r.resolver).toBe(`${b.url}/uri-res/I2L?urn:ex:delegated`);
    expect(r.locations.map((l) => l.url)).toEqual(['http://127.0.0.1:1/delegated']);
  });

  it('detects two resolvers delegating to each other', async () => {
    const err = await resolveUrn('urn:ex:ping', { resolvers: [a.url] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResolutionError);
    expect((err as ResolutionError).code).toBe('redirect-loop');
  });
});
