/**
 * The front of the service (front.ts): node's parser reads every
 * connection natively, a failure of the listening socket is reported, not
 * thrown, and a request node's parser refuses gets an
 * `application/problem+json` answer saying what and where (RFC 9457).
 */
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Front } from '../../src/server/http/front.js';
import { startServer, type RunningServer } from '../../src/server/server.js';

/** Sends `text` on a new connection and returns all that comes back before the server closes it. */
function send(port: number, text: string): Promise<string> {
  return new Promise((resolve) => {
    let got = '';
    const c = net.connect(port, '127.0.0.1', () => c.write(text));
    c.on('data', (d) => { got += d.toString('latin1'); });
    c.on('close', () => resolve(got));
    c.on('error', () => undefined);
    setTimeout(() => c.destroy(), 4000);
  });
}

describe('the front', () => {
  it('reports an error of the listening socket (accept EMFILE) instead of ending the process', () => {
    const seen: Error[] = [];
    const front = new Front(http.createServer(), 1000, (e) => seen.push(e));
    const e = Object.assign(new Error('accept EMFILE'), { code: 'EMFILE' });
    expect(() => front.server.emit('error', e)).not.toThrow();
    expect(seen).toEqual([e]);
  });

  describe('requests node\'s parser refuses', () => {
    let server: RunningServer;
    beforeAll(async () => { server = await startServer({ port: 0, db: ':memory:', demo: true, rateLimit: false, limits: { headerBytes: 1024 } }); });
    afterAll(async () => { await server?.close(); });

    it.each([
      // [what, request, status, the line named]
      ['an unknown version', 'GET /aj17-mcc HTTP/9.9\r\n\r\n', 400, 'GET /aj17-mcc HTTP/9.9'],
      ['a bad method', 'G@T /aj17-mcc HTTP/1.1\r\nHost: a\r\n\r\n', 400, 'G@T /aj17-mcc HTTP/1.1'],
      ['a header without a colon', 'GET /aj17-mcc HTTP/1.1\r\nHost: a\r\nBad Header\r\n\r\n', 400, 'Bad Header'],
      ['headers over the limit', `GET /aj17-mcc HTTP/1.1\r\nHost: a\r\nX: ${'x'.repeat(2000)}\r\n\r\n`, 431, undefined],
    ])('%s → %i in problem+json, with the line and byte', async (_what, request, status, line) => {
      const raw = await send(server.port, request);
      expect(raw.slice(0, 12)).toBe(`HTTP/1.1 ${status}`);
      expect(raw).toMatch(/\r\nContent-Type: application\/problem\+json\r\n/);
      const problem = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as { status: number; code: string; detail: string; line?: string; offset?: number };
      expect(problem).toMatchObject({ status, code: 'unreadable-request' });
      expect(problem.detail).toMatch(/^the request could not be read: /);
      if (line !== undefined) {
        expect(problem.line).toBe(line);
        expect(problem.offset).toBeGreaterThanOrEqual(0);
        expect(problem.offset).toBeLessThanOrEqual(line.length);
      }
    });

    it('a request refused after others on the connection: they are answered first, in order, then the refusal', async () => {
      const raw = await send(server.port, 'GET /aj17-mcc HTTP/1.1\r\nHost: a\r\n\r\nGET /alb002 HTTP/1.1\r\nHost: a\r\n\r\nG@T / HTTP/1.1\r\n\r\n');
      expect(raw.match(/HTTP\/1\.1 \d+/g)).toEqual(['HTTP/1.1 302', 'HTTP/1.1 302', 'HTTP/1.1 400']);
      expect(raw.match(/^location: .*$/gim)).toEqual(['location: http://library.bigstate.example.org/aj17-mcc.html', 'location: http://library.bigstate.example.org/albums/002.html']);
    });
  });
});
