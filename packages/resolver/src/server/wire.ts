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
 * await writeAnswer(res, { status: 302, reason: 'Found', headers: { location: 'http://a/' }, body: '', kind: 'resolve' });
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
 * await writeSimpleResponse(socket, answer);
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
