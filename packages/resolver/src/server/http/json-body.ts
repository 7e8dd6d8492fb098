/**
 * JSON request bodies with a bounded nesting depth: a body nested deeper
 * than the limit is refused with 400 and the offset of the bracket that
 * goes too deep, before it is parsed (a deep value is cheap to send and
 * costly to walk: every recursive step after the parser, serializing it
 * included, would fail with a stack overflow). The size is fastify's
 * `bodyLimit` (413). RFC 8259 §9: "An implementation may set limits on
 * the maximum depth of nesting."
 */
import type { FastifyInstance } from 'fastify';
import { jsonTooDeepAt } from '../../formats/json-depth.js';

/**
 * A request body refused before parsing: 400 with `code` `too-deep` and
 * the offset (the pipeline's error handler writes it as
 * `application/problem+json`).
 *
 * @example
 * ```ts
 * const e = new JsonDepthError(64, 70);
 * e.statusCode; // 400
 * e.code; // 'too-deep'
 * ```
 */
export class JsonDepthError extends Error {
  readonly statusCode = 400;
  readonly code = 'too-deep';
  constructor(readonly maxDepth: number, readonly offset: number) {
    super(`the JSON body is nested more than ${maxDepth} levels deep`);
    this.name = 'JsonDepthError';
  }
}

/**
 * Replaces the app's `application/json` body parser with fastify's own
 * (prototype poisoning refused) behind the depth check, and reads
 * `application/merge-patch+json` with it.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * const app = Fastify();
 * registerJsonBody(app, 2);
 * app.post('/x', async (request) => request.body);
 * (await app.inject({ method: 'POST', url: '/x', payload: '[[1]]', headers: { 'content-type': 'application/json' } })).statusCode; // 200
 * (await app.inject({ method: 'POST', url: '/x', payload: '[[[1]]]', headers: { 'content-type': 'application/json' } })).statusCode; // 400
 * await app.close();
 * ```
 */
export function registerJsonBody(app: FastifyInstance, maxDepth: number): void {
  const parse = app.getDefaultJsonParser('error', 'ignore');
  app.removeContentTypeParser('application/json');
  // A JSON Merge Patch (RFC 7396 §4) is JSON, read the same way.
  app.addContentTypeParser(['application/json', 'application/merge-patch+json'], { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    const at = jsonTooDeepAt(text, maxDepth);
    if (at >= 0) { done(new JsonDepthError(maxDepth, at), undefined); return; }
    parse(request, text, done);
  });
}
