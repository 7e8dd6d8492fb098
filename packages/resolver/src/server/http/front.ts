/**
 * The service's one port. Every connection goes to the one HTTP server,
 * and node's own HTTP parser reads it, in native code, straight from the
 * socket, except where the 1995 draft's request forms need more:
 *
 * - the first line of a connection is read here first (it may come in
 *   pieces): a Simple-Request (`GET alb002` CRLF, no version: §3.3) goes
 *   to the server as the HTTP/1.0 exchange it stands for (simple.ts); a
 *   Full-Request in the draft's form (`GET alb002 HTTP/1.0`) gets its "/";
 * - a later request line in the draft's form (keep-alive, pipelined) is
 *   refused by node's parser (RFC 9112 §3.2: origin-form begins with "/").
 *   The refusal comes to {@link Front.takeOver}, which waits for the
 *   answers already under way, detaches node's parser and reads the rest
 *   of the connection through request-lines.ts, every request line given
 *   its "/".
 *
 * Reading a connection's bytes in JavaScript costs about an eighth of an
 * answer (measured beside the native path in bench:server's set-up), so
 * only connections that use the draft's forms after their first line pay it.
 *
 * The hand-over uses what node:http leaves on a socket it serves
 * (`socket.parser`, `socket._httpMessage`, the listeners it adds):
 * undocumented, and unchanged from Node 12 to 24. The tests of this
 * module and of request-lines.ts run on every supported Node; where a
 * piece is missing, such a request gets the 400 of any request node's
 * parser refuses, or its connection is closed: never a wrong answer.
 */
import net from 'node:net';
import type { Server as HttpServer } from 'node:http';
import type { Duplex } from 'node:stream';
import { RequestLines } from './request-lines.js';
import { SERVICE_METHODS } from './pipeline.js';
import { classifyRequestLine, SimpleExchange } from './simple.js';
import { PROBLEM_JSON, problemDocument } from '../render/problem.js';

/** The longest first line the front waits for before handing over (the HTTP server then answers 414/431). */
const MAX_FIRST_LINE = 8192;

const SOCKET_EVENTS = ['data', 'end', 'close', 'drain', 'error', 'timeout', 'resume', 'pause'] as const;

/** What node's HTTP parser is to this module (the object node sets as `socket.parser`). */
interface NodeParser {
  execute(chunk: Buffer): number | (Error & { bytesParsed?: number; rawPacket?: Buffer });
  unconsume?(): void;
  remove?(): void;
  incoming?: { upgrade?: boolean } | null;
  _consumed?: boolean;
}

/** A socket as node's HTTP server leaves it. */
type ServedSocket = net.Socket & { parser?: NodeParser | null; _httpMessage?: (NodeJS.EventEmitter & { headersSent?: boolean; req?: { complete?: boolean } }) | null };

/**
 * A parse error of node's HTTP server, as its 'clientError' event gives
 * it: llhttp's code, the bytes of the last read and where in them the
 * parser stopped.
 *
 * @example
 * ```ts
 * const e: ClientError = Object.assign(new Error('Parse Error: Unexpected char in url schema'), {
 *   code: 'HPE_INVALID_URL', bytesParsed: 7, rawPacket: Buffer.from('GET alb002 HTTP/1.1\r\n\r\n'),
 * });
 * e.rawPacket!.toString('latin1', 0, e.bytesParsed); // 'GET alb'
 * ```
 */
export interface ClientError extends Error {
  code?: string;
  bytesParsed?: number;
  rawPacket?: Buffer;
}

function noop(): void { /* a 'data' listener: see readThroughLines */ }

/**
 * Calls `then` once the answers to the whole requests before on the
 * connection have ended (they go out in order: RFC 9112 §9.3.2); an
 * answer that waits for the rest of its own request is not waited for.
 */
function afterAnswers(socket: ServedSocket, then: () => void): void {
  const answering = socket._httpMessage;
  // 'close' comes after the answer is sent and after an aborted one alike; the next in line is then assigned.
  if (answering && answering.req?.complete !== false) answering.once('close', () => setImmediate(afterAnswers, socket, then));
  else then();
}

/** Connections whose refused request is answered once the answers before it are sent. */
const refused = new WeakSet<Duplex>();

/**
 * True if the bytes of `raw` from `start` begin with a method token of
 * letters and a space before `limit`: the start of a request line
 * (RFC 9112 §3).
 */
function startsRequestLine(raw: Buffer, start: number, limit: number): boolean {
  const sp = raw.indexOf(0x20, start);
  if (sp <= start || sp >= limit) return false;
  for (let i = start; i < sp; i++) {
    const c = raw[i]! | 0x20;
    if (c < 0x61 || c > 0x7a) return false;
  }
  return true;
}

/**
 * The front of the service: a `net.Server` to listen on instead of the
 * HTTP server, and the hand-over of connections that use the draft's
 * request form after their first line.
 *
 * @example
 * ```ts
 * import http from 'node:http';
 * import net from 'node:net';
 * const httpServer = http.createServer((req, res) => res.end(`=====\r\nhttp://a${req.url}\r\n`));
 * const front = new Front(httpServer, 10_000);
 * httpServer.on('clientError', (e, socket) => { if (!front.takeOver(e, socket)) socket.destroy(); });
 * await new Promise<void>((r) => front.server.listen(0, '127.0.0.1', r));
 * const port = (front.server.address() as net.AddressInfo).port;
 * const reply = await new Promise<string>((r) => {
 *   let got = '';
 *   net.connect(port, '127.0.0.1').on('data', (d) => { got += d; }).on('end', () => r(got)).end('GET alb002\r\n');
 * });
 * reply; // '=====\r\nhttp://a/alb002\r\n' (the body alone: no status line, no headers)
 * await new Promise((r) => front.server.close(r));
 * ```
 */
export class Front {
  /** The listening server; a failure after listening (accept EMFILE) goes to `onError`, never ends the process. */
  readonly server: net.Server;
  /** The listeners node's HTTP server put on each connection it reads natively. */
  readonly #nodeListeners = new WeakMap<net.Socket, Map<string, Function[]>>();

  constructor(readonly http: HttpServer, readonly headersTimeoutMs: number, onError: (e: Error) => void = () => undefined) {
    // noDelay as node:http sets it on the connections it accepts: an answer written in parts is not held back by Nagle's algorithm.
    this.server = net.createServer({ noDelay: true }, (socket) => this.#readFirstLine(socket));
    this.server.on('error', onError);
    // node gives a CONNECT request to this listener with its socket (and destroys the socket when there is none).
    http.on('connect', (_req: unknown, socket: Duplex) => answerConnect(socket));
  }

  /** Reads the first line of a connection (1995 draft §3.3) before anyone else does. */
  #readFirstLine(socket: net.Socket): void {
    let buf: Buffer | undefined;
    const timer = setTimeout(() => socket.destroy(), this.headersTimeoutMs);
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
        this.http.emit('connection', new SimpleExchange(socket, c.target));
        return;
      }
      if (c.kind === 'version-less') {
        // Answered from the line alone: its headers and body are never read (RFC 1945 §4.1: a Simple-Request is a GET).
        socket.on('error', () => socket.destroy());
        writeRawProblem(socket, 400, 'Bad Request', {
          code: 'version-less-request',
          detail: `a request line without an HTTP version is a Simple-Request, a GET; not ${c.method.slice(0, 20)} (1995 draft §3.3, RFC 1945 §4.1)`,
        });
        return;
      }
      const first = c.kind === 'rewrite' ? Buffer.concat([Buffer.from(c.line, 'latin1'), buf.subarray(end)]) : buf;
      this.#toNativeParser(socket as ServedSocket, first);
    };
    socket.on('data', onData);
  }

  /**
   * Gives the connection to the HTTP server, whose parser then reads the
   * socket natively; the bytes read here go to that parser first.
   */
  #toNativeParser(socket: ServedSocket, first: Buffer): void {
    const before = new Map(SOCKET_EVENTS.map((e) => [e, socket.listeners(e)]));
    this.http.emit('connection', socket);
    const parser = socket.parser;
    if (!parser) { socket.destroy(); return; }
    this.#nodeListeners.set(socket, new Map(SOCKET_EVENTS.map((e) => [e, socket.listeners(e).filter((f) => !before.get(e)!.includes(f))])));
    const ret = parser.execute(first);
    if (ret instanceof Error) {
      ret.rawPacket ??= first;
      this.http.emit('clientError', ret, socket);
      return;
    }
    if (parser.incoming?.upgrade) {
      // RFC 9110 §9.3.6: no tunnel, answered as node answers a later CONNECT on the connection ('connect' below).
      if ((parser.incoming as { method?: string }).method === 'CONNECT') answerConnect(socket);
      // RFC 9110 §7.8: this service takes no upgrade (as node:http does without an 'upgrade' listener).
      else socket.destroy();
      return;
    }
    process.nextTick(() => socket.resume());
  }

  /**
   * For the HTTP server's 'clientError': true if the error is node's
   * parser refusing a request line in the draft's form on a connection it
   * reads natively, which is then read on through request-lines.ts (the
   * answers under way are sent first, in order); false for any other
   * error, which the caller answers.
   */
  takeOver(e: ClientError, connection: Duplex): boolean {
    if (!(connection instanceof net.Socket)) return false;
    const socket = connection;
    const s = socket as ServedSocket;
    const listeners = this.#nodeListeners.get(socket);
    const raw = e.rawPacket;
    const at = e.bytesParsed;
    // Only a target without "/" gives this error at the request line (RFC 9112 §3.2); its start must be in this chunk.
    if (e.code !== 'HPE_INVALID_URL' || listeners === undefined || raw === undefined || at === undefined || !s.parser || s.destroyed) return false;
    if (s.parser._consumed && typeof s.parser.unconsume !== 'function') return false;
    const lineStart = raw.lastIndexOf(0x0a, at - 1) + 1;
    if (!startsRequestLine(raw, lineStart, at)) return false;
    this.#nodeListeners.delete(socket);
    const parser = s.parser;
    // From here no byte goes to node's parser: the socket stops being read until the hand-over.
    if (parser._consumed) { parser.unconsume!(); parser._consumed = false; }
    for (const f of listeners.get('data')!) socket.off('data', f as (...args: unknown[]) => void);
    socket.pause();
    const handOver = () => {
      if (socket.destroyed) return;
      for (const [event, fs] of listeners) for (const f of fs) socket.off(event, f as (...args: unknown[]) => void);
      // node replaced these to follow 'data' listeners; the next connection listener does so again.
      for (const own of ['on', 'addListener', 'prependListener', 'setEncoding']) Reflect.deleteProperty(socket, own);
      parser.remove?.();
      s.parser = null;
      this.#readThroughLines(socket, raw.subarray(lineStart));
    };
    afterAnswers(s, handOver);
    return true;
  }

  /**
   * Reads the rest of a connection through {@link RequestLines} (every
   * request line in the draft's form given its "/") into the HTTP
   * server's parser, in JavaScript.
   */
  #readThroughLines(socket: net.Socket, rest: Buffer): void {
    const lines = new RequestLines();
    const first = lines.push(rest);
    if (first.length > 0) socket.unshift(first);
    const push = socket.push;
    socket.push = function pushRewritten(chunk: Buffer | null, encoding?: BufferEncoding): boolean {
      if (chunk === null || !Buffer.isBuffer(chunk)) return push.call(this, chunk, encoding);
      const out = lines.push(chunk);
      return out.length === 0 ? true : push.call(this, out, encoding);
    };
    this.http.emit('connection', socket);
    // A 'data' listener makes node:http read the socket through the stream (and so through pushRewritten).
    socket.on('data', noop);
    process.nextTick(() => {
      socket.resume();
      // The stream still waits for the read it asked for before node's parser took the socket: ask again.
      (socket as net.Socket & { _read(size: number): void })._read(socket.readableHighWaterMark);
    });
  }
}

/** How long a connection refused from here is still read after the answer, at most, before it is closed. */
const LINGER_MS = 2000;

/**
 * Writes an `application/problem+json` answer (RFC 9457) straight to a
 * connection no route will answer, after the answers to the requests
 * before it, then ends the connection.
 */
function writeRawProblem(socket: Duplex, status: number, title: string, problem: Record<string, unknown>, headers = ''): void {
  const body = problemDocument(status, title, problem);
  const text = `HTTP/1.1 ${status} ${title}\r\nContent-Type: ${PROBLEM_JSON}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${headers}Connection: close\r\n\r\n${body}`;
  afterAnswers(socket as ServedSocket, () => {
    // An answer already begun would be corrupted by another (node:http's rule): the connection just ends.
    if (!socket.writable || (socket as net.Socket).pending === true || (socket as ServedSocket)._httpMessage?.headersSent === true) { socket.destroy(); return; }
    socket.end(text);
    // RFC 9112 §9.6: half-closed, the connection is read (and what comes dropped) until the client closes it, or
    // for LINGER_MS: closed with bytes unread, it would be reset, and the client could lose the answer.
    const linger = setTimeout(() => socket.destroy(), LINGER_MS);
    linger.unref();
    socket.once('close', () => clearTimeout(linger));
    socket.on('data', noop);
    socket.resume();
  });
}

/**
 * Answers CONNECT: 501 Not Implemented (RFC 9110 §15.6.2), as this
 * service is no proxy and opens no tunnel to any target (§9.3.6), with
 * `Allow` naming the methods it does answer; the connection then ends
 * (what follows a CONNECT is meant for the tunnel).
 *
 * @example
 * ```ts
 * import net from 'node:net';
 * const socket = new net.Socket();
 * answerConnect(socket);
 * socket.destroyed; // true (never connected: nothing to write to)
 * ```
 */
export function answerConnect(socket: Duplex): void {
  writeRawProblem(socket, 501, 'Not Implemented', {
    code: 'no-tunnel',
    detail: 'this is a URN resolver, not a proxy: CONNECT opens no tunnel here (RFC 9110 §9.3.6)',
  }, `Allow: ${SERVICE_METHODS}\r\n`);
}

const CLIENT_ERROR_STATUS: Readonly<Record<string, [number, string]>> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout'],
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large'],
};

/**
 * Answers a request that node's HTTP parser refused, in
 * `application/problem+json` (RFC 9457) with what was wrong and the
 * line and byte at which it was found, after the answers to the requests
 * before it on the connection, then closes the connection.
 *
 * @example
 * ```ts
 * import net from 'node:net';
 * const socket = new net.Socket();
 * answerClientError(Object.assign(new Error('Parse Error'), { code: 'HPE_INVALID_METHOD', bytesParsed: 0 }), socket);
 * socket.destroyed; // true
 * ```
 */
export function answerClientError(e: ClientError, socket: Duplex): void {
  // node:http tells of the same connection again for each later packet its parser refuses.
  if (e.code === 'ECONNRESET' || socket.destroyed || refused.has(socket)) return;
  refused.add(socket);
  const [status, title] = CLIENT_ERROR_STATUS[e.code ?? ''] ?? [400, 'Bad Request'];
  const reason = (e as { reason?: unknown }).reason;
  const where: Record<string, unknown> = {};
  if (e.rawPacket !== undefined && typeof e.bytesParsed === 'number') {
    // The parser counts bytes of its last read; the line it stopped in says more.
    const at = Math.min(e.bytesParsed, e.rawPacket.length);
    const start = at === 0 ? 0 : e.rawPacket.lastIndexOf(0x0a, at - 1) + 1;
    const nl = e.rawPacket.indexOf(0x0a, start);
    const line = e.rawPacket.toString('latin1', start, nl < 0 ? e.rawPacket.length : nl).replace(/\r$/, '');
    where.line = line.slice(0, 200);
    where.offset = Math.min(at - start, line.length);
  }
  writeRawProblem(socket, status, title, {
    code: 'unreadable-request',
    detail: `the request could not be read: ${typeof reason === 'string' ? reason : e.message}`,
    ...where,
  });
}
