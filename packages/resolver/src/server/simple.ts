/**
 * A raw-socket front on the service's port that answers HTTP/1.0
 * Simple-Requests (`GET alb002` and CRLF, no version: 1995 draft §3.3)
 * itself and hands every other connection to the HTTP server; it also
 * gives the draft's Full-Requests whose target lacks the leading "/"
 * (`GET alb002 HTTP/1.0`) their "/".
 */
import net from 'node:net';
import type { Server as HttpServer } from 'node:http';

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
 * Creates the front: a `net.Server` to listen on instead of `http`.
 * `simple(target, socket)` answers a Simple-Request (the Simple-Response
 * is the entity body alone: no status line, no headers) and ends the
 * socket. A server error after listening (an `accept` that fails when the
 * process is out of file descriptors) goes to `onError` instead of ending
 * the process.
 *
 * @example
 * ```ts
 * import http from 'node:http';
 * import net from 'node:net';
 * const httpServer = http.createServer((_req, res) => res.end('a full request'));
 * const front = createFront(httpServer, (target, socket) => socket.end(`=====\r\nhttp://a${target}\r\n`), 10_000);
 * await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
 * const port = (front.address() as net.AddressInfo).port;
 * const reply = await new Promise<string>((r) => {
 *   let got = '';
 *   net.connect(port, '127.0.0.1').on('data', (d) => { got += d; }).on('end', () => r(got)).end('GET alb002\r\n');
 * });
 * reply; // '=====\r\nhttp://a/alb002\r\n'
 * await new Promise((r) => front.close(r));
 * ```
 */
export function createFront(http: HttpServer, simple: (target: string, socket: net.Socket) => void, headersTimeoutMs: number, onError: (e: Error) => void = () => undefined): net.Server {
  const front = net.createServer((socket) => {
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
        simple(c.target, socket);
        return;
      }
      if (c.kind === 'rewrite') buf = Buffer.concat([Buffer.from(c.line, 'latin1'), buf.subarray(end)]);
      socket.unshift(buf);
      buf = undefined;
      http.emit('connection', socket);
      process.nextTick(() => socket.resume());
    };
    socket.on('data', onData);
  });
  // net.Server emits accept failures (EMFILE) as 'error': unheard, one would end the process.
  front.on('error', onError);
  return front;
}
