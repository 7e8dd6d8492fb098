/**
 * A raw-socket front on the service's port. Every connection goes to the
 * one HTTP server; a Simple-Request (`GET alb002` and CRLF, no version:
 * 1995 draft §3.3) goes as the HTTP/1.0 Full-Request it stands for, and a
 * Full-Request in the draft's form without the leading "/"
 * (`GET alb002 HTTP/1.0`) gets its "/".
 */
import net from 'node:net';
import { Duplex } from 'node:stream';
import type { Server as HttpServer } from 'node:http';
import { RequestLines } from './request-lines.js';

function noop(): void { /* see createFront */ }

/** The longest first line the front waits for before handing over (the HTTP server then answers 414/431). */
const MAX_FIRST_LINE = 8192;

/**
 * What the front does with the first line of a connection.
 *
 * @example
 * ```ts
 * classifyRequestLine('GET alb002')          // { kind: 'simple', target: '/alb002' }
 * classifyRequestLine('GET alb002 HTTP/1.0') // { kind: 'rewrite', line: 'GET /alb002 HTTP/1.0' }
 * ```
 */
export function classifyRequestLine(line: string): { kind: 'simple'; target: string } | { kind: 'rewrite'; line: string } | { kind: 'pass' } {
  const sp1 = line.indexOf(' ');
  if (sp1 <= 0) return { kind: 'pass' };
  const method = line.slice(0, sp1);
  const sp2 = line.indexOf(' ', sp1 + 1);
  const target = sp2 < 0 ? line.slice(sp1 + 1) : line.slice(sp1 + 1, sp2);
  if (target.length === 0) return { kind: 'pass' };
  const slashed = target.charCodeAt(0) === 0x2f || target === '*' || target.includes('://') ? target : `/${target}`;
  // HTTP/1.0 §4.1 (RFC 1945): Simple-Request = "GET" SP Request-URI CRLF
  if (sp2 < 0) return method === 'GET' ? { kind: 'simple', target: slashed } : { kind: 'pass' };
  if (slashed !== target) return { kind: 'rewrite', line: `${method} ${slashed}${line.slice(sp2)}` };
  return { kind: 'pass' };
}

/**
 * One Simple-Request seen by the HTTP server as the HTTP/1.0 Full-Request
 * it stands for, so that it goes through the same pipeline as every other
 * request (rate limits, metrics, logs). What the server writes back loses
 * its status line and headers on the way to the client: HTTP/1.0 §6
 * (RFC 1945), Simple-Response = [ Entity-Body ].
 *
 * @example
 * ```ts
 * import net from 'node:net';
import { Duplex } from 'node:stream';
 * const socket = new net.Socket();
 * isSimpleRequest(new SimpleExchange(socket, '/alb002')); // true
 * isSimpleRequest(socket); // false
 * ```
 */
export class SimpleExchange extends Duplex {
  #head: Buffer | undefined = Buffer.alloc(0);

  constructor(readonly client: net.Socket, target: string) {
    super();
    // No end-of-stream after the request: the HTTP server would end the answer before writing it.
    this.push(`GET ${target} HTTP/1.0\r\n\r\n`, 'latin1');
    client.on('close', () => this.destroy());
  }

  get remoteAddress(): string | undefined { return this.client.remoteAddress; }
  get remotePort(): number | undefined { return this.client.remotePort; }
  setTimeout(): this { return this; }
  setNoDelay(): this { return this; }
  setKeepAlive(): this { return this; }

  override _read(): void { /* the request was pushed whole */ }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (e?: Error | null) => void): void {
    if (this.#head === undefined) {
      this.client.write(chunk, done);
      return;
    }
    // The status line and headers end at the first empty line (HTTP/1.0 §4.1).
    this.#head = Buffer.concat([this.#head, chunk]);
    const end = this.#head.indexOf('\r\n\r\n');
    if (end < 0) { done(); return; }
    const body = this.#head.subarray(end + 4);
    this.#head = undefined;
    if (body.length === 0) done();
    else this.client.write(body, done);
  }

  override _final(done: (e?: Error | null) => void): void {
    this.client.end(done);
  }

  override _destroy(e: Error | null, done: (e?: Error | null) => void): void {
    this.client.destroy();
    done(e);
  }
}

/**
 * True if the request came as an HTTP/0.9 Simple-Request (1995 draft §3.3).
 *
 * @example
 * ```ts
 * import net from 'node:net';
import { Duplex } from 'node:stream';
 * isSimpleRequest(new net.Socket()); // false
 * ```
 */
export function isSimpleRequest(socket: unknown): boolean {
  return socket instanceof SimpleExchange;
}

/**
 * Creates the front: a `net.Server` to listen on instead of `http`. A
 * Simple-Request goes to `http` as a {@link SimpleExchange}; every other
 * connection goes to it as it is (a first line in the draft's form given
 * its "/"). A server error after listening (an `accept` that fails when
 * the process is out of file descriptors) goes to `onError` instead of
 * ending the process.
 *
 * @example
 * ```ts
 * import http from 'node:http';
 * import net from 'node:net';
import { Duplex } from 'node:stream';
 * const httpServer = http.createServer((req, res) => res.end(`=====\r\nhttp://a${req.url}\r\n`));
 * const front = createFront(httpServer, 10_000);
 * await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
 * const port = (front.address() as net.AddressInfo).port;
 * const reply = await new Promise<string>((r) => {
 *   let got = '';
 *   net.connect(port, '127.0.0.1').on('data', (d) => { got += d; }).on('end', () => r(got)).end('GET alb002\r\n');
 * });
 * reply; // '=====\r\nhttp://a/alb002\r\n' (the body alone: no status line, no headers)
 * await new Promise((r) => front.close(r));
 * ```
 */
export function createFront(http: HttpServer, headersTimeoutMs: number, onError: (e: Error) => void = () => undefined): net.Server {
  // noDelay as node:http sets it on the connections it accepts: an answer written in parts is not held back by Nagle's algorithm.
  const front = net.createServer({ noDelay: true }, (socket) => {
    let buf: Buffer | undefined;
    const timer = setTimeout(() => socket.destroy(), headersTimeoutMs);
    const onError = () => { clearTimeout(timer); socket.destroy(); };
    socket.on('error', onError);
    const onData = (chunk: Buffer) => {
      buf = buf ? Buffer.concat([buf, chunk]) : chunk;
      const nl = buf.indexOf(0x0a);
      if (nl < 0 && buf.length < MAX_FIRST_LINE) return;
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('error', onError);
      socket.pause();
      const end = nl < 0 ? buf.length : nl > 0 && buf[nl - 1] === 0x0d ? nl - 1 : nl;
      const c = nl < 0 ? { kind: 'pass' as const } : classifyRequestLine(buf.subarray(0, end).toString('latin1'));
      if (c.kind === 'simple') {
        socket.on('error', () => socket.destroy());
        http.emit('connection', new SimpleExchange(socket, c.target));
        return;
      }
      // Every request line of the connection, the first included, in the draft's form gets its "/" (request-lines.ts).
      const lines = new RequestLines();
      const first = lines.push(buf);
      buf = undefined;
      if (first.length > 0) socket.unshift(first);
      const push = socket.push;
      socket.push = function pushRewritten(chunk: Buffer | null, encoding?: BufferEncoding): boolean {
        if (chunk === null || !Buffer.isBuffer(chunk)) return push.call(this, chunk, encoding);
        const out = lines.push(chunk);
        return out.length === 0 ? true : push.call(this, out, encoding);
      };
      http.emit('connection', socket);
      // A 'data' listener makes node:http read the socket through the stream (and so through
      // pushRewritten) rather than straight from the handle.
      socket.on('data', noop);
      process.nextTick(() => socket.resume());
    };
    socket.on('data', onData);
  });
  // net.Server emits accept failures (EMFILE) as 'error': unheard, one would end the process.
  front.on('error', onError);
  return front;
}
