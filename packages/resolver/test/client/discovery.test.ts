// Discovery by configuration and by the 1995 rule; the RFC 2169 request form.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { discoverySteps, encodeForRequest, loadResolverConfig, requestUrl, resolveUrn } from '@urikit/resolver';
import { startTestServer, tableResolver, type TestServer } from './http-servers.js';

describe('request URLs (RFC 2169 §2; 1995 draft §3.3)', () => {
  it.each([
    { base: 'http://r.test', urn: 'urn:isbn:0451450523', service: 'I2L', url: 'http://r.test/uri-res/I2L?urn:isbn:0451450523' },
    { base: 'http://r.test/', urn: 'urn:isbn:0451450523', service: 'I2Ls', url: 'http://r.test/uri-res/I2Ls?urn:isbn:0451450523' },
    { base: 'http://r.test:4500/{elementid}', urn: 'urn:dns:library.bigstate.edu:aj17-mcc', service: 'I2L', url: 'http://r.test:4500/aj17-mcc' },
    { base: 'https://r.test/{urn}', urn: 'urn:nbn:de:1111-2004033116', service: 'I2L', url: 'https://r.test/urn:nbn:de:1111-2004033116' },
    { base: 'http://r.test/{nid}/{nss}?s={service}', urn: 'urn:example:a%2Fb', service: 'I2C', url: 'http://r.test/example/a%2Fb?s=I2C' },
    { base: 'http://r.test', urn: 'urn:example:a b#c', service: 'I2L', url: 'http://r.test/uri-res/I2L?urn:example:a%20b%23c' },
  ])('$base + $urn', ({ base, urn, service, url }) => {
    expect(requestUrl(base, urn, service)).toBe(url);
  });

  it.each([
    ['urn:example:é', 'urn:example:%C3%A9'],
    ['urn:example:<x>', 'urn:example:%3Cx%3E'],
    ['urn:example:a%20b', 'urn:example:a%20b'],
  ])('encodeForRequest(%s)', (input, out) => {
    expect(encodeForRequest(input)).toBe(out);
  });
});

describe('discovery by configuration: NIDs and prefixes', () => {
  const config = {
    resolvers: {
      'urn:nbn:de:': ['http://de.test'],
      'urn:nbn:de:hbz:': ['http://hbz.test'],
      nbn: ['http://nbn.test'],
      isbn: ['http://isbn.test/{urn}'],
    },
  };
  it.each([
    { urn: 'urn:nbn:de:hbz:6-85659524771', urls: ['http://hbz.test/uri-res/I2L?urn:nbn:de:hbz:6-85659524771', 'http://de.test/uri-res/I2L?urn:nbn:de:hbz:6-85659524771', 'http://nbn.test/uri-res/I2L?urn:nbn:de:hbz:6-85659524771'] },
    { urn: 'URN:NBN:de:1111-2004033116', urls: ['http://de.test/uri-res/I2L?URN:NBN:de:1111-2004033116', 'http://nbn.test/uri-res/I2L?URN:NBN:de:1111-2004033116'] },
    { urn: 'urn:nbn:DE:1111', urls: ['http://nbn.test/uri-res/I2L?urn:nbn:DE:1111'] },
    { urn: 'urn:isbn:0451450523', urls: ['http://isbn.test/urn:isbn:0451450523'] },
    { urn: 'urn:other:x', urls: [] },
  ])('$urn', async ({ urn, urls }) => {
    const [step] = discoverySteps(urn, 'I2L', { order: ['config'], config });
    expect((await step!.targets()).map((t) => t.url)).toEqual(urls);
  });

  let dir: string;
  beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'urikit-config-')); });
  afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

  it('reads a configuration file', async () => {
    const file = join(dir, 'resolvers.json');
    await writeFile(file, JSON.stringify(config));
    expect(loadResolverConfig(file)).toEqual(config);
    const [step] = discoverySteps('urn:isbn:1', 'I2L', { order: ['config'], config: file });
    expect((await step!.targets()).map((t) => t.url)).toEqual(['http://isbn.test/urn:isbn:1']);
  });

  it.each([
    ['{}', 'a resolver configuration is'],
    ['{"resolvers": {"isbn": "http://x"}}', 'must map to a list'],
    ['not json', 'JSON'],
  ])('refuses a malformed file: %s', async (text, message) => {
    const file = join(dir, `bad-${Math.random()}.json`);
    await writeFile(file, text);
    expect(() => loadResolverConfig(file)).toThrow(message);
  });
});

describe('the 1995 rule: urn:dns:<fqdn>:<ElementID> at port 4500 of that host (1995 draft §2.2.1, §3.2, §3.3)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(tableResolver({
      'aj17-mcc': { status: 200, type: 'text/urc-0', body: '=====\r\nftp://elm.wnln.edu/pub/mirrors/phone-list.txt\r\n' },
    }));
  });
  afterAll(async () => { await server.close(); });

  it('asks GET /<ElementID> at every address of the host, the host named in Host', async () => {
    const r = await resolveUrn('urn:dns:localhost:aj17-mcc', { discovery: { order: ['yaurn-1995'], yaurnPort: server.port } });
    expect(r.locations.map((l) => l.url)).toEqual(['ftp://elm.wnln.edu/pub/mirrors/phone-list.txt']);
    expect(server.seen[0]!.url).toBe('/aj17-mcc');
    expect(server.seen[0]!.headers.host).toBe(`localhost:${server.port}`);
  });

  it('uses port 4500 unless told otherwise, and only for the dns SchemeID', async () => {
    const [step] = discoverySteps('urn:dns:localhost:x', 'I2L', { order: ['yaurn-1995'] });
    expect((await step!.targets())[0]).toMatchObject({ url: 'http://127.0.0.1:4500/x', host: 'localhost:4500' });
    const [other] = discoverySteps('urn:isbn:0451450523', 'I2L', { order: ['yaurn-1995'] });
    expect(await other!.targets()).toEqual([]);
  });
});
