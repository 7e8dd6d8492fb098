/**
 * The 1995 draft's request form (§3.3, `GET alb002 HTTP/1.1`) on every
 * request of a connection: the framing follower of src/server/http/request-lines.ts
 * against a literal oracle on generated streams split at every point,
 * and the server over real sockets (keep-alive, pipelining).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import net from 'node:net';
import { RequestLines, draftLine } from '../../src/server/http/request-lines.js';
import { startServer, type RunningServer } from '../../src/server/index.js';

/** One request of a generated stream: as sent, and as the parser must see it. */
interface Req { sent: string; seen: string }

const target = fc.constantFrom('alb002', 'aj17-mcc', 'urn:dns:a.example:x', 'phone%20list', 'x?y=1');
const body = fc.constantFrom('', 'GET sneaky HTTP/1.1\r\n\r\n', 'a\r\nb', 'GET x');
const request: fc.Arbitrary<Req> = fc.oneof(
  target.map((t) => ({ sent: `GET ${t} HTTP/1.1\r\nHost: a\r\n\r\n`, seen: `GET /${t} HTTP/1.1\r\nHost: a\r\n\r\n` })),
  target.map((t) => ({ sent: `GET /${t} HTTP/1.1\r\nHost: a\r\nAccept: text/urc-0\r\n\r\n`, seen: `GET /${t} HTTP/1.1\r\nHost: a\r\nAccept: text/urc-0\r\n\r\n` })),
  fc.tuple(target, body).map(([t, b]) => {
    const h = `PUT ${t} HTTP/1.1\r\nContent-Length: ${Buffer.byteLength(b)}\r\n\r\n${b}`;
    return { sent: h, seen: h.replace(`PUT ${t} `, `PUT /${t} `) };
  }),
  fc.tuple(target, body).map(([t, b]) => {
    const chunked = b === '' ? '0\r\n\r\n' : `${Buffer.byteLength(b).toString(16)};ext=1\r\n${b}\r\n0\r\nTrailer: x\r\n\r\n`;
    const h = `POST /${t} HTTP/1.1\r\ntransfer-encoding: chunked\r\n\r\n${chunked}`;
    return { sent: h, seen: h };
  }),
  fc.constant({ sent: 'OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n', seen: 'OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n' }),
);

describe('request lines on every request of a connection', () => {
  it('draftLine gives a target without "/" its "/" and leaves every other form alone', () => {
    expect(draftLine('GET alb002 HTTP/1.0')).toBe('GET /alb002 HTTP/1.0');
    expect(draftLine('GET http://a.example/x HTTP/1.1')).toBeUndefined();
    expect(draftLine('GET alb002')).toBeUndefined();
  });

  it('any stream of requests, split anywhere, comes out as the parser must see it (bodies untouched)', () => {
    fc.assert(fc.property(fc.array(request, { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { maxLength: 8 }), (reqs, cutsRaw) => {
      const sent = Buffer.from(reqs.map((r) => r.sent).join(''), 'latin1');
      const cuts = [...new Set(cutsRaw.map((c) => c % (sent.length + 1)))].sort((a, b) => a - b);
      const lines = new RequestLines();
      const out: Buffer[] = [];
      let at = 0;
      for (const c of [...cuts, sent.length]) {
        out.push(lines.push(sent.subarray(at, c)));
        at = c;
      }
      expect(Buffer.concat(out).toString('latin1')).toBe(reqs.map((r) => r.seen).join(''));
    }), { numRuns: 500 });
  });

  it('after an upgrade or a body it cannot follow, hands everything on untouched', () => {
    const r = new RequestLines();
    const stream = 'GET /chat HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\nGET alb002 HTTP/1.1\r\n\r\n';
    expect(r.push(Buffer.from(stream)).toString()).toBe(stream);
    const bad = new RequestLines();
    const odd = 'PUT /x HTTP/1.1\r\nContent-Length: 1e3\r\n\r\nGET alb002 HTTP/1.1\r\n\r\n';
    expect(bad.push(Buffer.from(odd)).toString()).toBe(odd);
  });
});

/** Sends `parts` on one connection, `gap` ms apart, and returns the status lines and Location fields that came back. */
function exchange(port: number, parts: string[], gap = 30): Promise<string[]> {
  return new Promise((resolve) => {
    let got = '';
    const c = net.connect(port, '127.0.0.1', async () => {
      for (const p of parts) { c.write(p); await new Promise((r) => setTimeout(r, gap)); }
    });
    c.on('data', (d) => { got += d.toString('latin1'); });
    c.on('close', () => resolve(got.split(/\r?\n/).filter((l) => l.startsWith('HTTP/1.1 ') || /^location:/i.test(l))));
    setTimeout(() => c.destroy(), 4000);
  });
}

/** Sends `parts` on one connection, `gap` ms apart, and returns all that came back. */
function rawText(port: number, parts: string[], gap = 30): Promise<string> {
  return new Promise((resolve) => {
    let got = '';
    const c = net.connect(port, '127.0.0.1', async () => {
      for (const p of parts) { c.write(p); await new Promise((r) => setTimeout(r, gap)); }
    });
    c.on('data', (d) => { got += d.toString('latin1'); });
    c.on('close', () => resolve(got));
    setTimeout(() => c.destroy(), 4000);
  });
}

describe('the server: the draft\'s request form after the first request', () => {
  let server: RunningServer;
  beforeAll(async () => { server = await startServer({ port: 0, db: ':memory:', demo: true, rateLimit: false }); });
  afterAll(async () => { await server?.close(); });
  const AJ17 = 'location: http://library.bigstate.example.org/aj17-mcc.html';
  const ALB = 'location: http://library.bigstate.example.org/albums/002.html';

  it('as the second request of a keep-alive connection', async () => {
    expect(await exchange(server.port, ['GET /aj17-mcc HTTP/1.1\r\nHost: a\r\n\r\n', 'GET alb002 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n']))
      .toEqual(['HTTP/1.1 302 Found', AJ17, 'HTTP/1.1 302 Found', ALB]);
  });
  it('pipelined after a valid request, each answered in order', async () => {
    expect(await exchange(server.port, ['GET /aj17-mcc HTTP/1.1\r\nHost: a\r\n\r\nGET alb002 HTTP/1.1\r\nHost: a\r\n\r\nGET aj17-mcc HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n']))
      .toEqual(['HTTP/1.1 302 Found', AJ17, 'HTTP/1.1 302 Found', ALB, 'HTTP/1.1 302 Found', AJ17]);
  });
  it('its request line split over two packets, as the first request of a connection', async () => {
    expect(await exchange(server.port, ['GET al', 'b002 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n']))
      .toEqual(['HTTP/1.1 302 Found', ALB]);
  });
  it('split over packets after the first request: answered when the packet with the first byte node\'s parser refuses has the line\'s start, else 400 with the line and byte (front.ts)', async () => {
    expect(await exchange(server.port, ['GET /aj17-mcc HTTP/1.1\r\nHost: a\r\n\r\n', 'GET alb0', '02 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n']))
      .toEqual(['HTTP/1.1 302 Found', AJ17, 'HTTP/1.1 302 Found', ALB]);
    // node's parser reads the rest of the connection natively, and the part of the line before this packet is gone.
    const raw = await rawText(server.port, ['GET /aj17-mcc HTTP/1.1\r\nHost: a\r\n\r\nGET al', 'b002 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n']);
    expect(raw).toMatch(/^HTTP\/1\.1 302 Found\r\n[\s\S]*HTTP\/1\.1 400 Bad Request\r\nContent-Type: application\/problem\+json\r\n/);
    const problem = JSON.parse(raw.slice(raw.lastIndexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
    expect(problem).toMatchObject({ status: 400, code: 'unreadable-request', line: 'b002 HTTP/1.1', offset: expect.any(Number) });
  });
  it('after a request with a body that looks like a request line', async () => {
    const b = 'GET alb002 HTTP/1.1\r\n\r\n';
    const got = await exchange(server.port, [`POST /aj17-mcc HTTP/1.1\r\nHost: a\r\nContent-Type: text/plain\r\nContent-Length: ${b.length}\r\n\r\n${b}GET aj17-mcc HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n`]);
    expect(got).toEqual(['HTTP/1.1 405 Method Not Allowed', 'HTTP/1.1 302 Found', AJ17]);
  });
});
