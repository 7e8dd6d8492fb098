/**
 * Resolution requests: every GET and HEAD that no other route of the app
 * takes (1995 draft §3.3, RFC 2169 §2, 2012 draft §2.3), read from the
 * request, answered by the {@link UrnResolutionService} and written by
 * `wire.ts`, by one function ({@link Resolutions.respond}) whichever way
 * the request came:
 *
 * - off node's server, before fastify routes it ({@link Resolutions.take}),
 *   the pipeline's work done with the same {@link Exchanges} as fastify's
 *   hooks: fastify's own work for a request (its request and reply
 *   objects, routing, hooks, serializing a reply) cost more than the
 *   whole answer (bench/RESULTS-server-forms.md);
 * - through fastify (its hooks, then the route `GET /*`): what the front
 *   leaves to it, and `app.inject`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { storeFault } from '../store/store-fault.js';
import { storeFaultAnswer, type ExchangeLog, type Exchanges } from './http/exchange.js';
import { refusalOf, readRequestForm, type AnswersFor } from './http/request-form.js';
import { isSimpleRequest } from './http/simple.js';
import { sendProblem } from './http/pipeline.js';
import { problemAnswer, type Answer } from './render/answer.js';
import { writeAnswer } from './render/wire.js';
import type { ResolutionRequest, UrnResolutionService } from './resolution/resolve.js';

/**
 * True for the paths of the other routes (a miss there is a 404, not a
 * resolution): the cataloguers' API and page, the monitors' endpoints.
 *
 * @example
 * ```ts
 * isOtherRoute('/admin/names'); // true
 * isOtherRoute('/administration-report'); // false (a name)
 * ```
 */
export function isOtherRoute(url: string): boolean {
  return url.startsWith('/admin/') || url === '/admin' || url.startsWith('/healthz') || url.startsWith('/metrics');
}

/** The longest first segment the router could decode to one of another route's (`healthz`, `metrics`: 7 characters, each at most 3 escaped). */
const LONGEST_ESCAPED_ROUTE = 21;

/**
 * True for a target the front answers as a resolution without asking
 * fastify's router: not one of the other routes' paths (the page at `/`,
 * OAI-PMH at `/oai`, those of {@link isOtherRoute}), nor a first segment
 * with escapes short enough to be one once decoded (the router decodes
 * before it matches: `/%6Fai` is `/oai` there), which is left to it.
 */
function isPlainResolution(url: string): boolean {
  const n = url.length;
  let escaped = false;
  let i = 1;
  for (; i < n; i++) {
    const c = url.charCodeAt(i);
    if (c === 0x2f || c === 0x3f || c === 0x23) break;
    if (c === 0x25) escaped = true;
  }
  if (i === 1 || (escaped && i - 1 <= LONGEST_ESCAPED_ROUTE)) return false;
  return !isOtherRoute(url) && !url.startsWith('/oai');
}

/**
 * What the answer to a resolution depends on besides the request.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * import { Metrics } from './metrics.js';
 * import { Exchanges } from './http/exchange.js';
 * const opts: ResolutionsOptions = { base: () => 'https://urn.example.org', exchanges: new Exchanges({ metrics: new Metrics(), accessLog: false }),
 *   log: Fastify().log, answersFor: (host) => host === 'urn.example.org' };
 * opts.base(); // 'https://urn.example.org'
 * ```
 */
export interface ResolutionsOptions {
  /** The resolver's own URL from its configuration (absolute `Location`s for HTTP/1.0, the `urn+a` pointer, record pointers): never the request's `Host`, which a client chooses. */
  base: () => string;
  /** The pipeline's work (pipeline.ts's, shared). */
  exchanges: Exchanges;
  /** Where the front logs (fastify's own logger). */
  log: ExchangeLog & { error(fields: object, message: string): void };
  /** The hosts an absolute-form target may name (request-form.ts). */
  answersFor: AnswersFor;
}

/**
 * The resolution requests of one server.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * import { Metrics } from './metrics.js';
 * import { registerPipeline } from './http/pipeline.js';
 * import { openStore } from '../store/open.js';
 * import { loadDemoData } from '../demo/index.js';
 * import { UrnResolutionService } from './resolution/resolve.js';
 * const store = await openStore(':memory:');
 * await loadDemoData(store);
 * const service = new UrnResolutionService(store, { cacheControl: 'no-cache', seeOther: false, urnLength: 4096,
 *   urc0LineLength: 76, about: { contact: 'mailto:admin@example.org', meta: 'urikit' } });
 * const app = Fastify();
 * const exchanges = registerPipeline(app, { metrics: new Metrics(), accessLog: false });
 * const resolutions = new Resolutions(service, { base: () => 'http://127.0.0.1', exchanges, log: app.log, answersFor: () => false });
 * resolutions.register(app);
 * (await app.inject({ url: '/urn:isbn:0451450523' })).headers.location; // 'https://openlibrary.org/isbn/0451450523'
 * (await app.inject({ method: 'POST', url: '/aj17-mcc' })).statusCode; // 405
 * await app.close();
 * await store.close();
 * ```
 */
export class Resolutions {
  constructor(readonly service: UrnResolutionService, readonly opts: ResolutionsOptions) {}

  /**
   * Answers `req` if it is a GET or HEAD of a resolution, with the
   * pipeline's work around it (in flight, client, rate limit, metrics and
   * log): true when it did; false leaves the request to fastify
   * (another route, another method, a refused request line).
   */
  take(req: IncomingMessage, res: ServerResponse): boolean {
    const method = req.method;
    if (method !== 'GET' && method !== 'HEAD') return false;
    const url = readRequestForm(req, this.opts.answersFor);
    if (!isPlainResolution(url) || refusalOf(req) !== undefined) return false;
    this.#exchange(req, res, method, url);
    return true;
  }

  /** The pipeline's work around {@link respond}, as fastify's hooks do it (pipeline.ts). */
  #exchange(req: IncomingMessage, res: ServerResponse, method: string, url: string): void {
    const started = performance.now();
    const { exchanges, log } = this.opts;
    const client = exchanges.open(req, res);
    let kind = 'limited';
    res.once('finish', () => { exchanges.finish(log, method, url, client, kind, res.statusCode, performance.now() - started); });
    const limited = exchanges.admit(client);
    if (limited !== undefined) {
      writeAnswer(req, res, limited, exchanges.fields());
      return;
    }
    const answered = this.respond(req, res, url);
    if (typeof answered === 'string') kind = answered;
    else void answered.then((k) => { kind = k; });
  }

  /**
   * Answers the resolution request `req` for `url` (its origin-form) on
   * `res`, store faults included (503/507, counted and logged, never a
   * 500), and gives what kind of request it was, for /metrics: at once
   * when the service can answer without waiting (a kept answer), else
   * once it has.
   */
  respond(req: IncomingMessage, res: ServerResponse, url: string): string | Promise<string> {
    // 1995 draft §3.3: a Simple-Request is answered with the result alone, in text/urc-0.
    const simple = isSimpleRequest(req.socket);
    const headers = req.headers;
    const request: ResolutionRequest = {
      target: url,
      httpVersion: simple ? '0.9' : req.httpVersion,
      accept: simple ? 'text/urc-0' : headers.accept,
      ifNoneMatch: headers['if-none-match'],
      ifModifiedSince: headers['if-modified-since'],
      host: headers.host,
      base: this.opts.base(),
      userAgent: headers['user-agent'],
    };
    try {
      const now = this.service.answerNow(request);
      if (now !== undefined) return this.#write(req, res, now, simple);
    } catch (e) {
      return this.#fail(req, res, e);
    }
    return this.service.answer(request).then((a) => this.#write(req, res, a, simple), (e: unknown) => this.#fail(req, res, e));
  }

  /** Writes an answer of the service, and gives its kind. */
  #write(req: IncomingMessage, res: ServerResponse, a: Answer, simple: boolean): string {
    const exchanges = this.opts.exchanges;
    if (a.staleMs !== undefined) exchanges.opts.metrics.staleAnswers++;
    writeAnswer(req, res, a, exchanges.fields());
    return simple ? 'simple' : a.kind;
  }

  /** Answers what the service threw: a store's fault (503/507, counted), else a 500 (logged). */
  #fail(req: IncomingMessage, res: ServerResponse, e: unknown): string {
    const { exchanges, log } = this.opts;
    const fault = storeFault(e);
    if (fault !== undefined) exchanges.fault(log, fault);
    else log.error({ err: e }, 'request failed');
    // A stack or an engine's message is for the log, never for a client.
    writeAnswer(req, res, fault !== undefined ? storeFaultAnswer(fault) : problemAnswer(500, 'Internal Server Error', { detail: 'the server failed' }), exchanges.fields());
    return fault !== undefined ? 'store-fault' : 'error';
  }

  /**
   * Registers the route `GET|HEAD /*` (what fastify is left: the front's
   * answers and `app.inject`'s go through {@link respond} alike), 405
   * for the other methods on those paths, and a target fastify cannot
   * decode (`%zz`) answered as the front answers it.
   */
  register(app: FastifyInstance): void {
    app.route({
      method: ['GET', 'HEAD'],
      url: '/*',
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        if (isOtherRoute(request.url)) { reply.callNotFound(); return reply; }
        // Written on node's response by respond(); fastify's onResponse hook still counts it.
        reply.hijack();
        request.answerKind = await this.respond(request.raw, reply.raw, request.url);
        return reply;
      },
    });
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

  /**
   * For fastify's `frameworkErrors`: a target its router cannot decode
   * (FST_ERR_BAD_URL) is, for a GET or HEAD, a resolution request like
   * any other (the service says what is wrong with the name, and where);
   * any other framework error is a 400 with the pipeline's headers.
   */
  readonly frameworkError = (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const req = request.raw;
    const method = req.method ?? '';
    // What the router could not decode is no other route's path.
    const url = readRequestForm(req, this.opts.answersFor);
    if ((method === 'GET' || method === 'HEAD') && refusalOf(req) === undefined && url.charCodeAt(0) === 0x2f) {
      this.#exchange(req, reply.raw, method, url);
      return;
    }
    const { exchanges, log } = this.opts;
    const started = performance.now();
    const client = exchanges.open(req, reply.raw);
    reply.raw.once('finish', () => { exchanges.finish(log, method, url, client, 'error', reply.raw.statusCode, performance.now() - started); });
    writeAnswer(req, reply.raw, problemAnswer(400, 'Bad Request', { detail: error.message, code: error.code }), exchanges.fields());
  };
}
