/**
 * The resolution route: every GET and HEAD that no other route of the app
 * takes is a resolution request (1995 draft §3.3, RFC 2169 §2, 2012 draft
 * §2.3), read from the request, answered by the
 * {@link UrnResolutionService} and written by `wire.ts`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isSimpleRequest } from './http/simple.js';
import { sendProblem } from './http/pipeline.js';
import type { ResolutionRequest, UrnResolutionService } from './resolution/resolve.js';
import { sendAnswer } from './render/wire.js';
import type { Metrics } from './metrics.js';

/** Paths of the other routes: a miss there is a 404, not a resolution. */
function isOtherRoute(url: string): boolean {
  return url.startsWith('/admin/') || url === '/admin' || url.startsWith('/healthz') || url.startsWith('/metrics');
}

/**
 * A fastify handler that answers a resolution request; `base()` is the
 * resolver's own URL from its configuration (absolute `Location`s for
 * HTTP/1.0, the `urn+a` pointer, record pointers): never the request's
 * `Host`, which a client chooses.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * const store = await openStore(':memory:');
 * await loadDemoData(store);
 * const service = new UrnResolutionService(store, { cacheControl: 'no-cache', seeOther: false, urnLength: 4096,
 *   urc0LineLength: 76, about: { contact: 'mailto:admin@example.org', meta: 'urikit' } });
 * const app = Fastify();
 * app.get('/*', resolutionHandler(service, () => 'http://127.0.0.1'));
 * (await app.inject({ url: '/urn:isbn:0451450523' })).headers.location; // 'https://openlibrary.org/isbn/0451450523'
 * await app.close();
 * await store.close();
 * ```
 */
export function resolutionHandler(service: UrnResolutionService, base: () => string, metrics?: Metrics): (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply> {
  return async (request, reply) => {
    const url = request.url;
    if (isOtherRoute(url)) { reply.callNotFound(); return reply; }
    // 1995 draft §3.3: a Simple-Request is answered with the result alone, in text/urc-0.
    const simple = isSimpleRequest(request.raw.socket);
    const req: ResolutionRequest = {
      target: url,
      httpVersion: simple ? '0.9' : request.raw.httpVersion,
      accept: simple ? 'text/urc-0' : request.headers.accept,
      ifNoneMatch: request.headers['if-none-match'],
      ifModifiedSince: request.headers['if-modified-since'],
      host: request.headers.host,
      base: base(),
      userAgent: request.headers['user-agent'],
    };
    const a = await service.answer(req);
    request.answerKind = simple ? 'simple' : a.kind;
    if (a.staleMs !== undefined && metrics !== undefined) metrics.staleAnswers++;
    return sendAnswer(reply, a);
  };
}

/**
 * Registers the resolution route (GET and HEAD of any path the other
 * routes do not take) and 405 for the other methods on those paths.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * const store = await openStore(':memory:');
 * const service = new UrnResolutionService(store, { cacheControl: 'no-cache', seeOther: false, urnLength: 4096,
 *   urc0LineLength: 76, about: { contact: 'mailto:admin@example.org', meta: 'urikit' } });
 * const app = Fastify();
 * registerResolution(app, service, () => 'http://127.0.0.1');
 * (await app.inject({ method: 'POST', url: '/aj17-mcc' })).statusCode; // 405
 * await app.close();
 * await store.close();
 * ```
 */
export function registerResolution(app: FastifyInstance, service: UrnResolutionService, base: () => string, metrics?: Metrics): void {
  app.route({ method: ['GET', 'HEAD'], url: '/*', handler: resolutionHandler(service, base, metrics) });
  // In a scope of its own, whose one body parser reads any body to its end
  // (within the body limit, so that its framing is checked before the
  // answer, RFC 9112 §6) and keeps none of it: whatever the type (an HTML
  // form, JSON, another) the answer is the 405, not a 415 or a 400 about a
  // body the resource would never take.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => { done(null, undefined); });
    scope.route({
      method: ['POST', 'PUT', 'DELETE', 'PATCH'],
      url: '/*',
      handler: (request, reply) => {
        if (isOtherRoute(request.url)) { reply.callNotFound(); return reply; }
        // RFC 9110 §15.5.6: a resolution is only read.
        reply.header('allow', 'GET, HEAD, OPTIONS');
        return sendProblem(reply, 405, 'Method Not Allowed', { detail: `a resolution request is a GET or HEAD, not ${request.method}` });
      },
    });
  });
}
