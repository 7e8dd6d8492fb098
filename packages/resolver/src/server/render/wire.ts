/**
 * Writing an {@link Answer} to the wire: the status, the Reason-Phrase
 * (1995 draft §3.4.1), the headers and the body on a fastify reply. An
 * HTTP/0.9 Simple-Request gets the body alone (see `simple.ts`).
 */
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { Answer } from './answer.js';

/**
 * Sends an answer on a fastify reply (HEAD gets the headers only; 304 and
 * 204 no body).
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * const app = Fastify();
 * app.get('/', (_request, reply) => sendAnswer(reply, { status: 302, reason: 'Found', headers: { location: 'http://a/' }, body: '', kind: 'resolve' }));
 * (await app.inject({ url: '/' })).headers.location; // 'http://a/'
 * await app.close();
 * ```
 */
export function sendAnswer(reply: FastifyReply, a: Answer): FastifyReply {
  // Node writes statusMessage with the status line when writeHead is given none.
  if (a.reason !== undefined) reply.raw.statusMessage = a.reason;
  reply.code(a.status).headers(a.headers);
  if (a.status === 304 || a.status === 204) return reply.send();
  if (typeof a.body === 'string' || a.body instanceof Uint8Array) return reply.send(a.body);
  return reply.send(Readable.from(a.body));
}
