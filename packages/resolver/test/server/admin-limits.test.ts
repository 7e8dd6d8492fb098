/**
 * The admin API's input limits (admin-limits-cases.json) on both engines:
 * each refused request answers its 4xx in application/problem+json with
 * the code, offset or JSON Pointer of what is wrong, and leaves the store
 * as it was; then the per-token rate limit, and the per-client one that
 * admin requests with a token never take from.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { createToken } from '../../src/store/index.js';
import { testEngines } from '../helpers/engines.js';
import { get } from '../helpers/http.js';
import { storeSnapshot } from '../helpers/snapshot.js';
import table from './admin-limits-cases.json' with { type: 'json' };

interface Case {
  name: string; method: string; path: string; status: number;
  body?: unknown; raw?: string; nest?: number; template?: string; bigMeta?: number; manyLocations?: number;
  code?: string; offset?: number; offsetOfOpening?: number; pointer?: string; detail?: string; writes?: boolean;
}

const DEFAULT_TEMPLATE = '{"locations":["http://a.example/"],"metadata":{"x":{NEST}}}';

/** The request body of a case, as sent. */
function bodyOf(c: Case): string {
  if (c.nest !== undefined) return (c.template ?? DEFAULT_TEMPLATE).replace('{NEST}', `${'['.repeat(c.nest)}0${']'.repeat(c.nest)}`);
  if (c.bigMeta !== undefined) return JSON.stringify({ locations: ['http://a.example/'], metadata: { x: 'a'.repeat(c.bigMeta) } });
  if (c.manyLocations !== undefined) return JSON.stringify({ locations: Array.from({ length: c.manyLocations }, (_, i) => `http://a.example/${i}`) });
  return c.raw ?? JSON.stringify(c.body);
}

/** Offset of the n-th "[" or "{" of a body that has no bracket inside a string (the oracle of the depth check). */
function nthOpening(text: string, n: number): number {
  let seen = 0;
  for (let i = 0; i < text.length; i++) if ((text[i] === '[' || text[i] === '{') && ++seen === n) return i;
  throw new Error(`fewer than ${n} openings`);
}

const engines = await testEngines('admin-limits.test');
afterAll(async () => { for (const e of engines) await e.cleanup(); });

for (const engine of engines) {
  const suite = engine.unavailable !== undefined ? describe.skip : describe;
  suite(`${engine.name}: ${table.cases.length} admin requests past the input limits`, () => {
    let server: RunningServer;
    let token: string;
    beforeAll(async () => {
      server = await startServer({ port: 0, db: engine.freshDb(), demo: true, rateLimit: false, adminRateLimit: false, locationSchemes: ['gopher'], limits: { bodyBytes: 128 * 1024 } });
      token = (await createToken(server.store, { authority: '*' })).token;
    });
    afterAll(async () => { await server?.close(); });

    for (const c of table.cases as Case[]) {
      it(c.name, async () => {
        const before = c.writes ? undefined : await storeSnapshot(server.store);
        const body = bodyOf(c);
        const r = await get(server.url, c.path, { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, { method: c.method, body });
        expect(r.status, r.text.slice(0, 300)).toBe(c.status);
        if (c.status >= 400) {
          expect(r.headers.get('content-type')?.split(';')[0]).toBe('application/problem+json');
          const problem = JSON.parse(r.text) as { status: number; code?: string; offset?: number; pointer?: string; detail: string };
          expect(problem.status).toBe(c.status);
          if (c.code !== undefined) expect(problem.code).toBe(c.code);
          if (c.offset !== undefined) expect(problem.offset).toBe(c.offset);
          if (c.offsetOfOpening !== undefined) expect(problem.offset).toBe(nthOpening(body, c.offsetOfOpening));
          if (c.pointer !== undefined) expect(problem.pointer).toBe(c.pointer);
          if (c.detail !== undefined) expect(problem.detail).toMatch(new RegExp(c.detail));
        }
        if (before !== undefined) expect(await storeSnapshot(server.store)).toBe(before);
      });
    }
  });

  suite(`${engine.name}: the admin API limits each token on its own`, () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startServer({ port: 0, db: engine.freshDb(), demo: true, rateLimit: false, adminRateLimit: { perSecond: 0.5, burst: 3 } });
    });
    afterAll(async () => { await server?.close(); });

    it('answers 429 with Retry-After and the RateLimit fields once a token spends its burst; another token and the resolution side go on', async () => {
      const a = (await createToken(server.store, { authority: 'urn:isbn' })).token;
      const b = (await createToken(server.store, { authority: 'urn:isbn' })).token;
      const list = (t: string) => get(server.url, '/admin/names?prefix=urn:isbn', { authorization: `Bearer ${t}` });
      for (let i = 0; i < 3; i++) expect((await list(a)).status).toBe(200);
      const limited = await list(a);
      expect(limited.status).toBe(429);
      expect(limited.headers.get('content-type')?.split(';')[0]).toBe('application/problem+json');
      expect(JSON.parse(limited.text)).toMatchObject({ status: 429, code: 'rate-limited' });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(limited.headers.get('ratelimit-policy')).toBe('token;q=3;w=6');
      expect(limited.headers.get('ratelimit')).toBe(`token;r=0;t=${limited.headers.get('retry-after')}`);
      expect((await list(b)).status).toBe(200);
      expect((await get(server.url, '/urn:isbn:0451450523')).status).toBe(302);
    });

    it('a request without a valid token is refused before it costs a token anything', async () => {
      const c = (await createToken(server.store, { authority: 'urn:isbn' })).token;
      for (let i = 0; i < 10; i++) expect((await get(server.url, '/admin/names', { authorization: `Bearer ${c}x` })).status).toBe(401);
      expect((await get(server.url, '/admin/names?prefix=urn:isbn', { authorization: `Bearer ${c}` })).status).toBe(200);
    });
  });

  suite(`${engine.name}: admin requests are limited per token, never from the client's resolution bucket`, () => {
    let server: RunningServer;
    const BURST = 50;
    beforeAll(async () => {
      server = await startServer({ port: 0, db: engine.freshDb(), demo: true, stats: false, rateLimit: { perSecond: 0.01, burst: BURST }, adminRateLimit: { perSecond: 1e6, burst: 1e6 } });
    });
    afterAll(async () => { await server?.close(); });

    it('600 quick admin reads with a huge admin limit: no 429, and the resolutions still have their whole burst', async () => {
      const { token } = await createToken(server.store, { authority: '*' });
      const statuses = new Map<number, number>();
      for (let round = 0; round < 60; round++) {
        const got = await Promise.all(Array.from({ length: 10 }, (_, i) => get(server.url, i % 2 === 0 ? '/admin/names?limit=1' : '/admin/links?limit=1', { authorization: `Bearer ${token}` })));
        for (const r of got) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      }
      expect(Object.fromEntries(statuses)).toEqual({ 200: 600 });
      const resolutions = await Promise.all(Array.from({ length: BURST }, () => get(server.url, '/urn:isbn:0451450523')));
      expect(resolutions.every((r) => r.status === 302)).toBe(true);
      const past = await get(server.url, '/urn:isbn:0451450523');
      expect(past.status).toBe(429);
      expect(past.headers.get('ratelimit-policy')).toBe(`client;q=${BURST};w=5000`);
      // An admin request with a token goes on past the client's limit.
      expect((await get(server.url, '/admin/names?limit=1', { authorization: `Bearer ${token}` })).status).toBe(200);
    });

    it('a client trying tokens takes from its own bucket: 429 with the client\'s policy once it is spent', async () => {
      const fresh = await startServer({ port: 0, store: server.store, stats: false, rateLimit: { perSecond: 0.01, burst: 5 } });
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 7; i++) statuses.push((await get(fresh.url, '/admin/names', { authorization: 'Bearer uk_nothing' })).status);
        expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
      } finally {
        await fresh.close();
      }
    });
  });
}
