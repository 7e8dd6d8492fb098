import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { createToken } from '../../src/store/index.js';
import { testEngines } from '../helpers/engines.js';
import { rawExchange } from '../helpers/http.js';
import { storeSnapshot as snapshot } from '../helpers/snapshot.js';
import table from './hostile-requests.json' with { type: 'json' };

interface Case {
  name: string; status: string; method?: string; path?: string; headers?: Record<string, string>;
  body?: string; bodyHex?: string; raw?: string; fill?: { text: string; count: number }; absentHeader?: string;
}

const engines = await testEngines('hostile.test');
afterAll(async () => { for (const e of engines) await e.cleanup(); });


for (const engine of engines) {
  const suite = engine.unavailable !== undefined ? describe.skip : describe;
  suite(`${engine.name}: ${table.cases.length} hostile requests each get their 4xx and change nothing`, () => {
    let server: RunningServer;
    const tokens: Record<string, string> = {};
    let before: string;
    beforeAll(async () => {
      server = await startServer({
        port: 0, db: engine.freshDb(), demo: true, rateLimit: false,
        limits: { bodyBytes: 64 * 1024, importBytes: 100 * 1024, requestTimeoutMs: 1500, headersTimeoutMs: 1000 },
      });
      const isbn = await createToken(server.store, { authority: 'urn:isbn' });
      tokens.ISBN_TOKEN = isbn.token;
      tokens.WRONG_SECRET = `uk_${isbn.id}_${'A'.repeat(43)}`;
      before = await snapshot(server.store);
    });
    afterAll(async () => { await server?.close(); });

    const expand = (s: string, c: Case) => {
      let out = s.replace(/\{([A-Z_]+)\}/g, (m, k: string) => tokens[k] ?? m);
      if (c.fill) out = out.replace('{A}', c.fill.text.repeat(c.fill.count));
      return out;
    };

    for (const c of table.cases as Case[]) {
      it(c.name, async () => {
        let request: Buffer;
        if (c.raw !== undefined) {
          request = Buffer.from(expand(c.raw, c), 'latin1');
        } else {
          const body = c.bodyHex !== undefined ? Buffer.from(c.bodyHex, 'hex') : Buffer.from(expand(c.body ?? '', c), 'utf8');
          const headers = Object.entries(c.headers ?? {}).map(([k, v]) => `${k}: ${expand(v, c)}\r\n`).join('');
          const length = c.body !== undefined || c.bodyHex !== undefined ? `Content-Length: ${body.length}\r\n` : '';
          request = Buffer.concat([Buffer.from(`${c.method ?? 'GET'} ${expand(c.path!, c)} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${headers}${length}\r\n`, 'latin1'), body]);
        }
        const { answer } = await rawExchange(server.port, request, { timeoutMs: 8000 });
        expect(answer, 'an HTTP answer').toBeDefined();
        if (c.status === '4xx') {
          expect(answer!.status).toBeGreaterThanOrEqual(400);
          expect(answer!.status).toBeLessThan(500);
        } else {
          expect(answer!.status, answer!.text).toBe(Number(c.status));
        }
        if (c.absentHeader !== undefined) expect(answer!.headers[c.absentHeader]).toBeUndefined();
      });
    }

    it('left the store exactly as it was', async () => {
      expect(await snapshot(server.store)).toBe(before);
      // and the server still answers
      const { answer } = await rawExchange(server.port, 'GET /urn:isbn:0451450523 HTTP/1.0\r\n\r\n');
      expect(answer!.status).toBe(302);
    });
  });
}
