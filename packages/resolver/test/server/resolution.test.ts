import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { testEngines } from '../helpers/engines.js';
import { get } from '../helpers/http.js';
import table from './resolution-cases.json' with { type: 'json' };

interface Case {
  name: string; path: string; headers?: Record<string, string>; status: number; reason?: string; location?: string;
  contentType?: string; body?: string; includes?: string; json?: Record<string, unknown>; link?: string;
}

const engines = await testEngines('resolution.test');
afterAll(async () => { for (const e of engines) await e.cleanup(); });

for (const engine of engines) {
  const suite = engine.unavailable !== undefined ? describe.skip : describe;
  suite(`${engine.name}: resolution requests over HTTP`, () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startServer({ port: 0, db: engine.freshDb(), demo: true, rateLimit: false });
    });
    afterAll(async () => { await server?.close(); });

    for (const c of table.cases as Case[]) {
      it(c.name, async () => {
        const r = await get(server.url, c.path, c.headers);
        expect(r.status, r.text).toBe(c.status);
        if (c.reason !== undefined) expect(r.reason).toBe(c.reason);
        if (c.location !== undefined) expect(r.headers.get('location')).toBe(c.location);
        if (c.contentType !== undefined) expect(r.headers.get('content-type')?.split(';')[0]).toBe(c.contentType);
        if (c.body !== undefined) expect(r.text).toBe(c.body);
        if (c.includes !== undefined) expect(r.text).toContain(c.includes);
        if (c.json !== undefined) expect(JSON.parse(r.text)).toMatchObject(c.json);
        if (c.link !== undefined) expect(r.headers.get('link')).toBe(c.link);
        // CORS on every answer, redirects and errors included
        expect(r.headers.get('access-control-allow-origin')).toBe('*');
      });
    }

    // Two ways in, one answer (server/route.ts): the front that answers a resolution before fastify
    // routes it, and fastify's own route (app.inject); asked twice, so that the second may be a kept answer.
    it('every case: the same status, reason, headers and body through the front and through fastify, asked again', async () => {
      const dropped = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
      for (const c of table.cases as Case[]) {
        for (let round = 0; round < 2; round++) {
          const live = await get(server.url, c.path, c.headers);
          // As fetch sends them: its Host and Accept, and the case's own.
          const injected = await server.app.inject({ url: c.path, headers: { host: new URL(server.url).host, accept: '*/*', ...c.headers } });
          expect(injected.statusCode, c.name).toBe(live.status);
          expect(injected.statusMessage, c.name).toBe(live.reason);
          expect(injected.body, c.name).toBe(live.text);
          const liveHeaders = Object.fromEntries([...live.headers].filter(([k]) => !dropped.has(k)));
          const injectedHeaders = Object.fromEntries(Object.entries(injected.headers).filter(([k]) => !dropped.has(k)).map(([k, v]) => [k, String(v)]));
          expect(injectedHeaders, c.name).toEqual(liveHeaders);
        }
      }
    });
  });
}
