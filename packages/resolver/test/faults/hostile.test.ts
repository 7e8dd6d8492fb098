/**
 * The hostile-request table (hostile-requests.json) on both engines: each
 * request gets its status and a body of the shape it names, and after
 * each, the store's export is what it was and the server's resident
 * memory stayed within RSS_BOUND of where it was before the table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { createToken } from '../../src/store/index.js';
import { testEngines } from '../helpers/engines.js';
import { parseAnswer, rawExchange } from '../helpers/http.js';
import { storeSnapshot as snapshot } from '../helpers/snapshot.js';
import table from './hostile-requests.json' with { type: 'json' };

interface Case {
  name: string; status: string; method?: string; path?: string; headers?: Record<string, string>;
  body?: string; bodyHex?: string; raw?: string; fill?: { text: string; count: number }; absentHeader?: string;
  nest?: number; template?: string;
  contentType?: string; bodyIncludes?: string; bodyExcludes?: string; bodyMaxBytes?: number;
  location?: string; locationPrefix?: string; headerIncludes?: Record<string, string>; statuses?: number[]; simpleBody?: string;
  headerMaxBytes?: number;
}

/** How far the server's resident memory may rise above where it was before the table, at any moment while it answers. */
const RSS_BOUND = 192 * 1024 * 1024;
/** `[[[…depth…[0, 0, …width zeros…]…]]]`: records planted past the input limits, as an older store may hold them. */
function deepAndWide(depth: number, width: number): unknown {
  let v: unknown = new Array(width).fill(0);
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

const engines = await testEngines('hostile.test');
afterAll(async () => { for (const e of engines) await e.cleanup(); });

for (const engine of engines) {
  const suite = engine.unavailable !== undefined ? describe.skip : describe;
  suite(`${engine.name}: ${table.cases.length} hostile requests each get their answer, change nothing and stay within ${RSS_BOUND / 2 ** 20} MiB`, () => {
    let server: RunningServer;
    const tokens: Record<string, string> = {};
    let before: string;
    let baseline: number;
    beforeAll(async () => {
      server = await startServer({
        port: 0, db: engine.freshDb(), demo: true, rateLimit: false, adminRateLimit: false,
        limits: { bodyBytes: 64 * 1024, importBytes: 100 * 1024, requestTimeoutMs: 1500, headersTimeoutMs: 1000 },
      });
      const isbn = await createToken(server.store, { authority: 'urn:isbn' });
      tokens.ISBN_TOKEN = isbn.token;
      tokens.WRONG_SECRET = `uk_${isbn.id}_${'A'.repeat(43)}`;
      tokens.ALL_TOKEN = (await createToken(server.store, { authority: '*' })).token;
      // For requests naming this server's own URL (a move there is a move to the name it answers for).
      tokens.PORT = String(server.port);
      for (const [id, metadata] of [['wide', { x: deepAndWide(3000, 20_000) }], ['deep', { x: deepAndWide(4000, 1) }]] as const) {
        const urn = `urn:dns:library.bigstate.edu:${id}`;
        await server.store.writer.put(urn, { urn, locations: [{ url: 'http://a.example/' }], metadata });
      }
      // MANY: 100 locations of 7,800 characters and 300 names moved to it, for the header budget.
      const many = 'urn:dns:library.bigstate.edu:many';
      await server.store.writer.put(many, { urn: many, locations: Array.from({ length: 100 }, (_, i) => ({ url: `https://many.example/${String(i).padStart(3, '0')}/${'x'.repeat(7774)}` })) });
      await server.store.writer.bulk((batch) => batch.write(Array.from({ length: 300 }, (_, i) => {
        const urn = `${many}-moved-${i}`;
        return { key: urn, input: { urn, status: 'moved' as const, movedTo: many, permanent: true } };
      })));
      before = await snapshot(server.store);
      baseline = process.memoryUsage().rss;
    });
    afterAll(async () => { await server?.close(); });

    const expand = (s: string, c: Case) => {
      let out = s.replace(/\{([A-Z_]+)\}/g, (m, k: string) => tokens[k] ?? m);
      if (c.fill) out = out.replace('{A}', c.fill.text.repeat(c.fill.count));
      return out.replace('{NOW}', new Date().toUTCString());
    };
    const bodyOf = (c: Case): Buffer | undefined => {
      if (c.nest !== undefined) return Buffer.from((c.template ?? '{"locations":["http://a.example/"],"metadata":{"x":{NEST}}}').replace('{NEST}', `${'['.repeat(c.nest)}0${']'.repeat(c.nest)}`));
      if (c.bodyHex !== undefined) return Buffer.from(c.bodyHex, 'hex');
      if (c.body !== undefined) return Buffer.from(expand(c.body, c), 'utf8');
      return undefined;
    };

    for (const c of table.cases as Case[]) {
      it(c.name, async () => {
        let request: Buffer;
        if (c.raw !== undefined) {
          request = Buffer.from(expand(c.raw, c), 'latin1');
        } else {
          const body = bodyOf(c);
          const headers = { host: '127.0.0.1', ...c.headers };
          const head = Object.entries(headers).map(([k, v]) => `${k}: ${expand(v, c)}\r\n`).join('');
          const length = body !== undefined ? `Content-Length: ${body.length}\r\n` : '';
          request = Buffer.concat([Buffer.from(`${c.method ?? 'GET'} ${expand(c.path!, c)} HTTP/1.1\r\nConnection: close\r\n${head}${length}\r\n`, 'latin1'), body ?? Buffer.alloc(0)]);
        }
        let peak = process.memoryUsage().rss;
        const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 5);
        let bytes: Buffer;
        let answer;
        try {
          ({ bytes, answer } = await rawExchange(server.port, request, { timeoutMs: 8000 }));
        } finally {
          clearInterval(sampler);
        }
        if (c.status === 'none') {
          // A Simple-Response: the body alone (HTTP/1.0 §6), in text/urc-0 (1995 draft §3.3).
          expect(bytes.subarray(0, 5).toString()).not.toBe('HTTP/');
          const text = bytes.toString('latin1');
          if (c.simpleBody === '') expect(text).toBe('');
          else expect(text.startsWith(c.simpleBody!), text.slice(0, 200)).toBe(true);
        } else {
          expect(answer, 'an HTTP answer').toBeDefined();
          if (c.status === '4xx') {
            expect(answer!.status).toBeGreaterThanOrEqual(400);
            expect(answer!.status).toBeLessThan(500);
          } else {
            expect(answer!.status, answer!.text.slice(0, 300)).toBe(Number(c.status));
          }
          if (c.absentHeader !== undefined) expect(answer!.headers[c.absentHeader]).toBeUndefined();
          if (c.headerMaxBytes !== undefined) expect(bytes.indexOf('\r\n\r\n') + 4, 'the header block').toBeLessThanOrEqual(c.headerMaxBytes);
          if (c.contentType !== undefined) expect(answer!.headers['content-type']?.split(';')[0]).toBe(c.contentType);
          if (c.bodyIncludes !== undefined) expect(answer!.body.toString('latin1')).toContain(c.bodyIncludes);
          if (c.bodyExcludes !== undefined) expect(answer!.body.toString('latin1')).not.toContain(c.bodyExcludes);
          if (c.bodyMaxBytes !== undefined) expect(answer!.body.length).toBeLessThanOrEqual(c.bodyMaxBytes);
          if (c.location !== undefined) expect(answer!.headers.location).toBe(c.location);
          if (c.locationPrefix !== undefined) expect(answer!.headers.location?.startsWith(c.locationPrefix), answer!.headers.location).toBe(true);
          for (const [h, v] of Object.entries(c.headerIncludes ?? {})) expect(answer!.headers[h] ?? '', h).toContain(v);
          if (c.statuses !== undefined) {
            // Every answer of a keep-alive or pipelined exchange, in order.
            const all: number[] = [];
            for (let at = bytes.indexOf('HTTP/1.'); at >= 0; at = bytes.indexOf('HTTP/1.', at + 1)) {
              if (at === 0 || bytes[at - 1] === 0x0a) all.push(parseAnswer(bytes.subarray(at)).status);
            }
            expect(all).toEqual(c.statuses);
          }
        }
        expect(await snapshot(server.store), 'the store is unchanged').toBe(before);
        expect(peak - baseline, `resident memory rose ${((peak - baseline) / 2 ** 20).toFixed(0)} MiB`).toBeLessThan(RSS_BOUND);
      });
    }

    it('left the store exactly as it was, and still answers', async () => {
      expect(await snapshot(server.store)).toBe(before);
      const { answer } = await rawExchange(server.port, 'GET /urn:isbn:0451450523 HTTP/1.0\r\n\r\n');
      expect(answer!.status).toBe(302);
    });
  });
}
