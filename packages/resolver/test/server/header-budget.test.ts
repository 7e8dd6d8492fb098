/**
 * The header budget (wire.ts): the header block of every resolution
 * answer within 8 KiB, `Link` cut to what fits with the record that
 * lists every link behind `rel="describedby"`, read by Node fetch,
 * `urikit resolve-urn` (node:http) and Python's http.client, on both
 * engines.
 */
import { execFile } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { HEADER_BUDGET, fitHeaderBudget } from '../../src/server/render/wire.js';
import { testEngines } from '../helpers/engines.js';

const run = promisify(execFile);
const BIN = fileURLToPath(new URL('../../../cli/dist/bin.js', import.meta.url));

/** A location of `length` characters, the `i`th. */
const long = (i: number, length: number) => `https://a.example/${String(i).padStart(3, '0')}/${'x'.repeat(length - 23)}`;

/** The header block of the answer to `GET path` on a raw connection: status line to the empty line, exactly as sent. */
function headerBlock(port: number, path: string, connection: 'keep-alive' | 'close'): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: ${connection}\r\n\r\n`));
    let got = Buffer.alloc(0);
    socket.on('data', (d: Buffer) => {
      got = Buffer.concat([got, d]);
      const end = got.indexOf('\r\n\r\n');
      if (end >= 0) { socket.destroy(); resolve(got.toString('latin1', 0, end + 4)); }
    });
    socket.on('error', reject);
  });
}

/** Python's http.client reads the answer: status, the length of its headers, and its Link. */
async function python(url: string): Promise<{ status: number; bytes: number; link: string | null }> {
  const script = [
    'import http.client, json, sys, urllib.parse',
    'u = urllib.parse.urlsplit(sys.argv[1])',
    'c = http.client.HTTPConnection(u.hostname, u.port, timeout=10)',
    'c.request("GET", u.path + ("?" + u.query if u.query else ""))',
    'r = c.getresponse()',
    'r.read()',
    'print(json.dumps({"status": r.status, "bytes": sum(len(k) + len(v) + 4 for k, v in r.getheaders()), "link": r.getheader("link")}))',
  ].join('\n');
  const { stdout } = await run('python3', ['-c', script, url]);
  return JSON.parse(stdout) as { status: number; bytes: number; link: string | null };
}

describe('fitHeaderBudget', () => {
  const values = Array.from({ length: 1000 }, (_, i) => `<urn:example:old-${i}>; rel="predecessor-version"`);
  it('keeps whole link-values, in order, then where the rest is', () => {
    const fit = fitHeaderBudget(200, 'OK', { 'content-type': 'text/plain', link: values.join(', ') }, 'http://r.example/urn:example:new?s=I2C');
    const kept = fit.fields.link!.split(', ');
    expect(kept.at(-1)).toBe('<http://r.example/urn:example:new?s=I2C>; rel="describedby"; type="application/json"');
    expect(kept.slice(0, -1)).toEqual(values.slice(0, kept.length - 1));
    expect(kept.length).toBeGreaterThan(100);
    expect(fit.fields['content-type']).toBe('text/plain');
  });
  it('gives back an answer within the budget as it was', () => {
    const fields = { link: values.slice(0, 3).join(', ') };
    expect(fitHeaderBudget(200, 'OK', fields, 'http://r.example/x')).toEqual({ reason: 'OK', fields });
  });
  it('shortens the Reason-Phrase, then drops validators and what only browsers read, never Location', () => {
    const location = long(0, 8000);
    const fit = fitHeaderBudget(301, `Moved Permanently to ${location}`, { location, etag: '"1-a"', 'last-modified': 'Sat, 28 Nov 2026 12:00:00 GMT', vary: 'Accept' });
    expect(fit.reason).toBe('Moved Permanently');
    expect(fit.fields).toEqual({ location, vary: 'Accept' });
    expect(fitHeaderBudget(302, 'Found', { location: long(0, 9000) }).fields.location).toBe(long(0, 9000));
  });
});

const engines = await testEngines('header-budget.test');
afterAll(async () => { for (const e of engines) await e.cleanup(); });

for (const engine of engines) {
  const suite = engine.unavailable !== undefined ? describe.skip : describe;
  suite(`${engine.name}: the header block of every answer within ${HEADER_BUDGET} bytes`, () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startServer({ port: 0, db: engine.freshDb(), rateLimit: false, stats: false });
      const w = server.store.writer;
      const put = (urn: string, locations: string[]) => w.put(urn, { urn, locations: locations.map((url) => ({ url })) });
      await put('urn:example:three', [0, 1, 2].map((i) => long(i, 7800)));
      await put('urn:example:three-longest', [0, 1, 2].map((i) => long(i, 8192)));
      await put('urn:example:hundred', Array.from({ length: 100 }, (_, i) => long(i, 7800)));
      await put('urn:example:target', ['https://a.example/target']);
      await w.bulk((batch) => batch.write(Array.from({ length: 1000 }, (_, i) => {
        const urn = `urn:example:moved-${String(i).padStart(4, '0')}`;
        return { key: urn, input: { urn, status: 'moved' as const, movedTo: 'urn:example:target', permanent: true } };
      })));
    }, 60_000);
    afterAll(async () => { await server?.close(); });

    const within = ['/urn:example:three', '/uri-res/N2L?urn:example:three', '/urn:example:hundred', '/urn:example:target', '/urn:example:target?s=I2C', '/uri-res/N2Ls?urn:example:target'];
    for (const path of within) {
      it(`${path}: within the budget on a kept-alive and a closing connection`, async () => {
        for (const connection of ['keep-alive', 'close'] as const) {
          const head = await headerBlock(server.port, path, connection);
          expect(head.length, head.slice(0, 300)).toBeLessThanOrEqual(HEADER_BUDGET);
        }
      });
    }

    it('three locations of 7,800 characters: the preferred one in Location, every one in the body; Node fetch, resolve-urn and http.client read it', async () => {
      const r = await fetch(`${server.url}/urn:example:three`, { redirect: 'manual' });
      expect(r.status).toBe(302);
      expect(r.headers.get('location')).toBe(long(0, 7800));
      const body = await r.text();
      for (const i of [0, 1, 2]) expect(body).toContain(long(i, 7800));
      const { stdout } = await run(process.execPath, [BIN, 'resolve-urn', '--json', '-r', server.url, 'urn:example:three']);
      expect((JSON.parse(stdout) as { locations: Array<{ url: string }> }).locations.map((l) => l.url)).toEqual([long(0, 7800)]);
      const py = await python(`${server.url}/urn:example:three`);
      expect(py.status).toBe(302);
    });

    it('locations of the longest URL the store takes (8,192): Location whole, nothing else optional, still read by all three', async () => {
      const head = await headerBlock(server.port, '/urn:example:three-longest', 'keep-alive');
      expect(head).toContain(`\r\nlocation: ${long(0, 8192)}\r\n`);
      expect(head).not.toMatch(/\r\n(link|etag|last-modified|content-security-policy):/i);
      expect(head.length).toBeLessThan(HEADER_BUDGET + 512);
      expect((await fetch(`${server.url}/urn:example:three-longest`, { redirect: 'manual' })).status).toBe(302);
      const { stdout } = await run(process.execPath, [BIN, 'resolve-urn', '--json', '-r', server.url, 'urn:example:three-longest']);
      expect((JSON.parse(stdout) as { locations: Array<{ url: string }> }).locations.map((l) => l.url)).toEqual([long(0, 8192)]);
      expect((await python(`${server.url}/urn:example:three-longest`)).status).toBe(302);
    });

    it('1,000 names moved to one: Link begins the predecessors and points at the record, whose JSON lists all of them', async () => {
      for (const path of ['/urn:example:target', '/uri-res/N2Ls?urn:example:target']) {
        const r = await fetch(`${server.url}${path}`, { redirect: 'manual' });
        const link = r.headers.get('link')!;
        expect(link).toContain('<urn:example:moved-0000>; rel="predecessor-version"');
        expect(link.endsWith(`<${server.url}/urn:example:target?s=I2C>; rel="describedby"; type="application/json"`), link.slice(-200)).toBe(true);
        const py = await python(`${server.url}${path}`);
        expect(py.link?.endsWith(`<${server.url}/urn:example:target?s=I2C>; rel="describedby"; type="application/json"`)).toBe(true);
        expect(py.bytes).toBeLessThan(HEADER_BUDGET);
      }
      const record = await (await fetch(`${server.url}/urn:example:target?s=I2C`, { headers: { accept: 'application/json' } })).json() as { movedFrom: string[] };
      expect(new Set(record.movedFrom).size).toBe(1000);
      const { stdout } = await run(process.execPath, [BIN, 'resolve-urn', '--json', '-r', server.url, 'urn:example:moved-0999']);
      expect((JSON.parse(stdout) as { locations: Array<{ url: string }> }).locations.map((l) => l.url)).toEqual(['https://a.example/target']);
    });

    it('a name with few links keeps every one, and no pointer', async () => {
      const r = await fetch(`${server.url}/urn:example:moved-0001`, { redirect: 'manual' });
      expect(r.headers.get('link')).toBe('<urn:example:target>; rel="successor-version"');
    });
  });
}
