/**
 * What cuts across every request of `urikit serve`, wired once as fastify
 * hooks on the one app (fastify "Hooks", "Encapsulation"): CORS and
 * security headers, the in-flight gauge, rate limits, metrics, the access
 * log (each the work of exchange.ts, which the resolution front of
 * server/route.ts does too), the CORS preflight, and
 * `application/problem+json` (RFC 9457) for every error the framework
 * raises. HTTP/1.1, HTTP/1.0 and HTTP/0.9 Simple-Requests (see
 * `simple.ts`) all pass through these hooks.
 */
import http from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Exchanges, isOperational, rateLimitedAnswer, storeFaultAnswer, type ExchangeOptions } from './exchange.js';
import { registerJsonBody } from './json-body.js';
import type { RateLimiter } from './ratelimit.js';
import { refusalOf } from './request-form.js';
import type { Answer } from '../render/answer.js';
import { PROBLEM_JSON, problemDocument } from '../render/problem.js';
import { storeFault, type StoreFault } from '../../store/store-fault.js';
import { jsonPointer } from '../../store/validate.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `token`: a route of the admin API, limited per token (admin-scope.ts), not from the client's resolution bucket. */
    limit?: 'token';
  }
  interface FastifyRequest {
    /** What kind of request it was, for /metrics (set by the route that answered). */
    answerKind: string;
    /** The client's address: the peer, or past trusted proxies the one they report (client-address.ts). */
    client: string;
  }
}

/** What an error raised inside fastify (a body parser, a schema, a route) may carry. */
interface FrameworkError {
  statusCode?: number;
  message: string;
  code?: string;
  offset?: number;
  validation?: SchemaError[];
}

/** One error of a route schema (Ajv's shape). */
interface SchemaError { instancePath?: string; message?: string; keyword?: string; params?: { additionalProperty?: string } }

/**
 * The code and JSON Pointer (RFC 6901) of the value at fault when a route
 * schema refused a body: a member the schema does not know is named
 * itself (`/locatons`), before any other error (a location of unknown
 * members fails each branch of its `oneOf`: the member is the news).
 */
function schemaProblem(errors: readonly SchemaError[]): { code: string; pointer: string } {
  const unknown = errors.find((e) => e.keyword === 'additionalProperties' && e.params?.additionalProperty !== undefined);
  if (unknown) return { code: 'unknown-field', pointer: jsonPointer(unknown.instancePath ?? '', unknown.params!.additionalProperty!) };
  return { code: 'invalid-field', pointer: errors[0]!.instancePath ?? '' };
}

/**
 * The methods this service answers on some route: the CORS preflight's
 * `Access-Control-Allow-Methods`, and `Allow` where a method is answered
 * on none (RFC 9110 §10.2.1).
 *
 * @example
 * ```ts
 * SERVICE_METHODS; // 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS'
 * ```
 */
export const SERVICE_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';

const PREFLIGHT_HEADERS = {
  'access-control-allow-methods': SERVICE_METHODS,
  'access-control-allow-headers': 'Authorization, Content-Type, Accept, If-Match, If-None-Match, If-Modified-Since',
  'access-control-max-age': '86400',
};

/**
 * Options of {@link registerPipeline}.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * import { Metrics } from '../metrics.js';
 * const opts: PipelineOptions = { metrics: new Metrics(), accessLog: false };
 * const app = Fastify();
 * registerPipeline(app, opts);
 * app.get('/x', async () => 'x');
 * (await app.inject({ url: '/x' })).headers['x-content-type-options']; // 'nosniff'
 * await app.close();
 * ```
 */
export interface PipelineOptions extends ExchangeOptions {
  /** The deepest a JSON request body may nest (400 beyond; default 64). */
  jsonDepth?: number;
}

/**
 * Sends an `application/problem+json` body (RFC 9457).
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * const app = Fastify();
 * app.get('/x', (_request, reply) => sendProblem(reply, 409, 'Conflict', { detail: 'no' }));
 * (await app.inject({ url: '/x' })).headers['content-type']; // 'application/problem+json; charset=utf-8'
 * ```
 */
export function sendProblem(reply: FastifyReply, status: number, title: string, extra: Record<string, unknown> = {}): FastifyReply {
  return reply.code(status).type(PROBLEM_JSON).send(problemDocument(status, title, extra));
}

/**
 * Answers a fault of the store on a fastify reply: {@link storeFaultAnswer}
 * (503, or 507 for a full disk, with `Retry-After`).
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * const app = Fastify();
 * app.get('/x', (_request, reply) => sendStoreFault(reply, new StoreFault('store-unavailable', 'primary', { outcome: 'not-committed' })));
 * const r = await app.inject({ url: '/x' });
 * [r.statusCode, r.headers['retry-after'], r.json().code, r.json().outcome]; // [503, '5', 'store-unavailable', 'not-committed']
 * ```
 */
export function sendStoreFault(reply: FastifyReply, fault: StoreFault): FastifyReply {
  return sendAnswerOn(reply, storeFaultAnswer(fault));
}

/**
 * Answers 429 Too Many Requests on a fastify reply: {@link rateLimitedAnswer}
 * (RFC 6585 §4, with `Retry-After`, `RateLimit-Policy` and `RateLimit`).
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * import { RateLimiter } from './ratelimit.js';
 * const app = Fastify();
 * const limiter = new RateLimiter(1, 1);
 * app.get('/x', (_request, reply) => sendRateLimited(reply, limiter, 3, 'client'));
 * const r = await app.inject({ url: '/x' });
 * r.statusCode; // 429
 * r.headers['ratelimit']; // 'client;r=0;t=3'
 * r.headers['ratelimit-policy']; // 'client;q=1;w=1'
 * ```
 */
export function sendRateLimited(reply: FastifyReply, limiter: RateLimiter, wait: number, policy: string): FastifyReply {
  return sendAnswerOn(reply, rateLimitedAnswer(limiter, wait, policy));
}

/** Sends an answer of exchange.ts on a fastify reply (the hooks' own headers stay). */
function sendAnswerOn(reply: FastifyReply, a: Answer): FastifyReply {
  return reply.code(a.status).headers(a.headers).send(a.body);
}

/**
 * Registers the hooks and handlers every request goes through on the
 * service's root app (so that they hold for every route, admin and web
 * page included), and gives their {@link Exchanges}, which the resolution
 * front of server/route.ts shares.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * import { Metrics } from '../metrics.js';
 * const app = Fastify();
 * registerPipeline(app, { metrics: new Metrics(), accessLog: false });
 * const r = await app.inject({ url: '/nothing' });
 * r.statusCode; // 404
 * r.headers['access-control-allow-origin']; // '*'
 * ```
 */
export function registerPipeline(app: FastifyInstance, opts: PipelineOptions): Exchanges {
  const exchanges = new Exchanges(opts);
  app.decorateRequest('answerKind', '');
  app.decorateRequest('client', '');
  registerJsonBody(app, opts.jsonDepth ?? 64);

  app.addHook('onRequest', (request, reply, done) => {
    request.client = exchanges.open(request.raw, reply.raw);
    reply.headers(exchanges.fields());
    // A request line or Host refused when it was read (request-form.ts): answered before any route or limit.
    const refusal = refusalOf(request.raw);
    if (refusal !== undefined) {
      request.answerKind = 'refused';
      if (refusal.close) reply.header('connection', 'close');
      sendProblem(reply, refusal.status, refusal.title, { code: refusal.code, detail: refusal.detail });
      return;
    }
    if (isOperational(request.url) || request.routeOptions.config.limit === 'token') { done(); return; }
    const limited = exchanges.admit(request.client);
    if (limited === undefined) { done(); return; }
    request.answerKind = limited.kind;
    // Answered from the hook: the route is not run.
    sendAnswerOn(reply, limited);
  });

  app.addHook('onResponse', (request, reply, done) => {
    const url = request.url;
    exchanges.finish(request.log, request.method, url, request.client, request.answerKind || (url.startsWith('/admin') ? 'admin' : 'other'), reply.statusCode, reply.elapsedTime);
    done();
  });

  const preflight = (_request: FastifyRequest, reply: FastifyReply) => { void reply.code(204).headers(PREFLIGHT_HEADERS).send(); };
  app.options('/', preflight);
  app.options('/*', preflight);

  app.setNotFoundHandler((request, reply) => {
    void sendProblem(reply, 404, 'Not Found', { detail: `no ${request.method} ${request.url.slice(0, 200)} here` });
  });
  app.setErrorHandler((err: FrameworkError, request, reply) => {
    // The store's faults, whatever route met them: 503 (507 for a full disk) with Retry-After, never a 500.
    const fault = storeFault(err);
    if (fault !== undefined) {
      exchanges.fault(request.log, fault);
      void sendStoreFault(reply, fault);
      return;
    }
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 600 ? err.statusCode : 500;
    if (status >= 500) request.log.error({ err }, 'request failed');
    // A stack or an engine's message is for the log, never for a client.
    const extra: Record<string, unknown> = { detail: status >= 500 ? 'the server failed' : err.message };
    if (err.validation !== undefined && err.validation.length > 0) {
      // A route schema refused the request: the JSON Pointer (RFC 6901) of the first value at fault.
      const { code, pointer } = schemaProblem(err.validation);
      extra.code = code;
      extra.pointer = pointer;
      if (code === 'unknown-field') extra.detail = `"${pointer}" is not a field this request takes`;
    } else if (err.code) {
      extra.code = err.code;
    }
    if (status < 500 && typeof err.offset === 'number') extra.offset = err.offset;
    void sendProblem(reply, status, http.STATUS_CODES[status] ?? 'Error', extra);
  });
  return exchanges;
}
