/**
 * Answers stay bounded whatever a record holds: records planted in the
 * store past today's input limits (as a store written before them may
 * hold: nested thousands of levels deep, or deep and wide), shown by the
 * page at `/`, by the record answers in HTML and plain text, and by a
 * gateway's page, cost a size that does not grow with the depth, with
 * the cut marked; and the server's memory stays within a bound while
 * eight such pages are asked for at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundedJson } from '../../src/formats/bounded.js';
import { startGateway, startServer, type RunningServer } from '../../src/index.js';
import { startTestServer, type TestServer } from '../client/http-servers.js';
import { get } from '../helpers/http.js';

/** `[[[…depth…[0, 0, …width zeros…]…]]]`: the shape that made a 46 KB record a 138 MB page. */
function deepAndWide(depth: number, width: number): unknown {
  let v: unknown = new Array(width).fill(0);
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

const WIDE = 'urn:dns:library.bigstate.edu:wide';
const DEEP = 'urn:dns:library.bigstate.edu:deep';
/** The largest page an answer about one of these records may be (their JSON is 46 KB and 8 KB). */
const PAGE_BOUND = 256 * 1024;

describe('bounded answers for records past the limits', () => {
  let server: RunningServer;
  let upstream: TestServer;
  let gateway: { url: string; close(): Promise<void> };

  beforeAll(async () => {
    server = await startServer({ port: 0, db: ':memory:', demo: true, rateLimit: false });
    // Written by the store itself, past the admin API's checks, as an older store may hold them.
    await server.store.writer.put(WIDE, { urn: WIDE, locations: [{ url: 'http://a.example/' }], metadata: { x: deepAndWide(3000, 20_000) } });
    await server.store.writer.put(DEEP, { urn: DEEP, locations: [{ url: 'http://a.example/' }], metadata: { x: deepAndWide(4000, 1) } });
    const record = JSON.stringify({ urn: WIDE, locations: [{ url: 'http://a.example/' }], metadata: { x: deepAndWide(3000, 20_000) } });
    upstream = await startTestServer((_req, res) => { res.writeHead(200, { 'content-type': 'application/json' }).end(record); });
    gateway = await startGateway({ port: 0, resolvers: [`${upstream.url}/{urn}`] });
  });
  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
    await server?.close();
  });

  it('the record really is what made a page of 138 MB: 46 KB of JSON, 3,000 levels', () => {
    const json = JSON.stringify({ x: deepAndWide(3000, 20_000) });
    expect(json.length).toBeGreaterThan(46_000);
    // What the page used to print: every zero indented 3,000 levels.
    expect(3000 * 2 * 20_000).toBeGreaterThan(100_000_000);
  });

  for (const urn of [WIDE, DEEP]) {
    it(`the page at / shows ${urn.slice(-4)} within ${PAGE_BOUND / 1024} KiB, the cut marked`, async () => {
      const r = await get(server.url, `/?uri=${encodeURIComponent(urn)}`);
      expect(r.status).toBe(200);
      expect(r.bytes.length).toBeLessThan(PAGE_BOUND);
      expect(r.text).toContain('truncated');
      expect(r.text).toContain('http://a.example/');
    });
    for (const accept of ['text/html', 'text/plain', 'application/json']) {
      it(`the record of ${urn.slice(-4)} as ${accept}: bounded in HTML and text, whole in JSON`, async () => {
        const r = await get(server.url, `/${urn}?info`, { accept });
        expect(r.status).toBe(200);
        if (accept === 'application/json') {
          // JSON gives the record as stored (its size, not a multiple of it).
          expect(JSON.parse(r.text).metadata.x).toBeDefined();
          expect(r.bytes.length).toBeLessThan(2 * 46_000 + 10_000);
        } else {
          expect(r.bytes.length).toBeLessThan(PAGE_BOUND);
          expect(r.text).toContain('truncated');
        }
      });
    }
  }

  it('a gateway page of a resolver that answers with such a record is bounded too', async () => {
    const r = await get(gateway.url, `/${WIDE}`);
    expect(r.status).toBe(200);
    expect(r.bytes.length).toBeLessThan(PAGE_BOUND);
    expect(r.text).toContain('truncated');
    expect(r.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('eight pages at once keep the resident memory within 256 MiB of where it was', async () => {
    const before = process.memoryUsage().rss;
    let peak = before;
    const sample = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 5);
    try {
      const pages = await Promise.all(Array.from({ length: 8 }, () => get(server.url, `/?uri=${encodeURIComponent(WIDE)}`)));
      for (const p of pages) expect(p.bytes.length).toBeLessThan(PAGE_BOUND);
    } finally {
      clearInterval(sample);
    }
    expect(peak - before).toBeLessThan(256 * 1024 * 1024);
  });

  it('boundedJson stops within its limit on a value of any depth and width', () => {
    const r = boundedJson(deepAndWide(100_000, 100_000), { maxChars: 10_000 });
    expect(r.truncated).toBe(true);
    expect(r.text.length).toBeLessThan(10_200);
  });
});
