/**
 * The 1995 draft's request forms on the first line of a connection (§3.3):
 * a Simple-Request (`GET alb002` and CRLF, no version) goes to the HTTP
 * server as the HTTP/1.0 Full-Request it stands for, and a Full-Request
 * without the leading "/" (`GET alb002 HTTP/1.0`) gets its "/" (front.ts
 * reads the line and acts on what this module says of it).
 */
import type net from 'node:net';
import { Duplex } from 'node:stream';

/**
 * What the front does with the first line of a connection.
 *
 * @example
 * ```ts
 * classifyRequestLine('GET alb002')          // { kind: 'simple', target: '/alb002' }
 * classifyRequestLine('GET alb002 HTTP/1.0') // { kind: 'rewrite', line: 'GET /alb002 HTTP/1.0' }
 * classifyRequestLine('PUT /admin/names/urn:example:a') // { kind: 'version-less', method: 'PUT' }
 * ```
 */
export function classifyRequestLine(line: string): { kind: 'simple'; target: string } | { kind: 'rewrite'; line: string } | { kind: 'version-less'; method: string } | { kind: 'pass' } {
  const sp1 = line.indexOf(' ');
  if (sp1 <= 0) return { kind: 'pass' };
  const method = line.slice(0, sp1);
  const sp2 = line.indexOf(' ', sp1 + 1);
  const target = sp2 < 0 ? line.slice(sp1 + 1) : line.slice(sp1 + 1, sp2);
  if (target.length === 0) return { kind: 'pass' };
  const slashed = target.charCodeAt(0) === 0x2f || target === '*' || target.includes('://') ? target : `/${target}`;
  // HTTP/1.0 §4.1 (RFC 1945): Simple-Request = "GET" SP Request-URI CRLF
  // Any other method without a version is refused before its headers or body are read (llhttp would read them as HTTP/0.9).
  if (sp2 < 0) return method === 'GET' ? { kind: 'simple', target: slashed } : { kind: 'version-less', method };
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
 * isSimpleRequest(new net.Socket()); // false
 * ```
 */
export function isSimpleRequest(socket: unknown): boolean {
  return socket instanceof SimpleExchange;
}
