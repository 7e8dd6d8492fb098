/**
 * One pipeline for every request form (DESIGN.md "One app, one pipeline"):
 * HTTP/1.1, HTTP/1.0 and HTTP/0.9 Simple-Requests (1995 draft §3.3) all pass
 * the same hooks: rate limits, metrics, CORS and security headers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, startServer, type RunningServer } from '../../src/index.js';
import { get, rawExchange } from '../helpers/http.js';

const SECURITY = ['access-control-allow-origin', 'x-content-type-options', 'content-security-policy'];

describe('one pipeline', () => {
  let server: RunningServer;
  beforeAll(async () => { server = await startServer({ port: 0, db: ':memory:', demo: true, rateLimit: false }); });
  afterAll(async () => { await server?.close(); });

  it.each([
    ['a redirect', 'GET /urn:isbn:0451450523 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n', 302],
    ['a result list', 'GET /phone-lists HTTP/1.0\r\nAccept: text/urc-0\r\n\r\n', 200],
    ['an invalid URN', 'GET /urn:a:x HTTP/1.0\r\n\r\n', 400],
    ['an admin request without a token', 'GET /admin/names HTTP/1.0\r\n\r\n', 401],
    ['an unknown admin path', 'GET /admin/nothing HTTP/1.0\r\n\r\n', 404],
    ['the web page', 'GET /?uri=urn:isbn:0451450523 HTTP/1.0\r\n\r\n', 200],
    ['the draft\'s form without "/"', 'GET alb002 HTTP/1.0\r\n\r\n', 302],
    ['a method a resolution does not take', 'POST /aj17-mcc HTTP/1.0\r\nContent-Length: 0\r\n\r\n', 405],
  ])('%s carries CORS and the security headers', async (_name, request, status) => {
    const { answer } = await rawExchange(server.port, request);
    expect(answer!.status).toBe(status);
    for (const h of SECURITY) expect(answer!.headers[h], h).toBeDefined();
  });

  it('counts Simple-Requests in /metrics as their own kind', async () => {
    const { bytes } = await rawExchange(server.port, 'GET alb002\r\n');
    expect(bytes.toString('latin1')).toBe('=====\r\nhttp://library.bigstate.example.org/albums/002.html\r\n');
    const metrics = (await get(server.url, '/metrics')).text;
    expect(metrics).toMatch(/^urikit_requests_total\{kind="simple",status="200"\} [1-9]\d*$/m);
  });

  it('limits Simple-Requests with the same limiter as the others (the 429 body alone, as HTTP/0.9 has no status)', async () => {
    const limited = await startServer({ port: 0, store: server.store, rateLimit: { perSecond: 0.001, burst: 1 }, authority: 'urn:dns:library.bigstate.edu' });
    try {
      const first = await rawExchange(limited.port, 'GET alb002\r\n');
      expect(first.bytes.toString('latin1')).toMatch(/^=====\r\n/);
      const second = await rawExchange(limited.port, 'GET alb002\r\n');
      expect(JSON.parse(second.bytes.toString('utf8'))).toMatchObject({ status: 429, code: 'rate-limited' });
      const full = await rawExchange(limited.port, 'GET /alb002 HTTP/1.0\r\n\r\n');
      expect(full.answer!.status).toBe(429);
      expect(Number(full.answer!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    } finally { await limited.close(); }
  });

  it('the gateway\'s result pages carry the same security headers as /', async () => {
    const gateway = await startGateway({ port: 0, resolvers: [server.url] });
    try {
      for (const path of ['/urn:ietf:rfc:2141', '/urn:isbn:0000000000', '/nothing', '/']) {
        const r = await get(gateway.url, path);
        expect(r.headers.get('x-content-type-options'), path).toBe('nosniff');
        expect(r.headers.get('content-security-policy'), path).toContain("default-src 'none'");
      }
    } finally { await gateway.close(); }
  });
});
