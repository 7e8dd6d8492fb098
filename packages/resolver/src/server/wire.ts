/**
 * Writing an {@link Answer} to the wire: as an HTTP/1.x response, or as an
 * HTTP/0.9 Simple-Response (the entity body alone, 1995 draft §3.3 via
 * HTTP/1.0 §6).
 */
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Answer } from './answer.js';

function head(res: ServerResponse, a: Answer): void {
  if (a.reason !== undefined) res.writeHead(a.status, a.reason, a.headers);
  else res.writeHead(a.status, a.headers);
}

/**
 * Writes an answer as an HTTP/1.x response (HEAD gets the headers only).
 *
 * @example
 * ```ts
 * import http from 'node:http';
 * import type { AddressInfo } from 'node:net';
 * const server = http.createServer((_req, res) => {
 *   void writeAnswer(res, { status: 302, reason: 'Found', headers: { location: 'http://a/' }, body: '', kind: 'resolve' });
 * });
 * await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
 * const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { redirect: 'manual' });
 * res.headers.get('location'); // 'http://a/'
 * server.closeAllConnections();
 * await new Promise((r) => server.close(r));
 * ```
 */
export function writeAnswer(res: ServerResponse, a: Answer): Promise<void> | undefined {
  if (typeof a.body === 'string' || a.body instanceof Uint8Array) {
    if (a.status !== 304 && a.status !== 204) a.headers['content-length'] = String(typeof a.body === 'string' ? Buffer.byteLength(a.body) : a.body.length);
    head(res, a);
    res.end(a.status === 304 || a.status === 204 ? undefined : a.body);
    return undefined;
  }
  return writeStream(res, a, a.body);
}

async function writeStream(res: ServerResponse, a: Answer, body: AsyncIterable<string>): Promise<void> {
  head(res, a);
  for await (const piece of body) {
    if (res.destroyed) return;
    if (!res.write(piece)) await new Promise<void>((resolve) => { res.once('drain', resolve); res.once('close', resolve); });
  }
  res.end();
}

/**
 * Writes an answer as an HTTP/0.9 Simple-Response: the body, then the
 * connection closes.
 *
 * @example
 * ```ts
 * import net from 'node:net';
 * const server = net.createServer((socket) => {
 *   void writeSimpleResponse(socket, { status: 200, headers: { 'content-type': 'text/urc-0' }, body: '=====\r\nhttp://a/\r\n', kind: 'simple' });
 * });
 * await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
 * const port = (server.address() as net.AddressInfo).port;
 * const got = await new Promise<string>((r) => {
 *   let s = '';
 *   net.connect(port, '127.0.0.1').on('data', (d) => { s += d; }).on('end', () => r(s));
 * });
 * got; // '=====\r\nhttp://a/\r\n' (the body alone: no status line, no headers)
 * await new Promise((r) => server.close(r));
 * ```
 */
export async function writeSimpleResponse(socket: Socket, a: Answer): Promise<void> {
  if (typeof a.body === 'string' || a.body instanceof Uint8Array) {
    socket.end(a.body);
    return;
  }
  for await (const piece of a.body) {
    if (socket.destroyed) return;
    if (!socket.write(piece)) await new Promise<void>((resolve) => { socket.once('drain', resolve); socket.once('close', resolve); });
  }
  socket.end();
}
