/**
 * What every admin route shares: the bearer token that authenticates a
 * request (DESIGN.md: "bearer tokens, stored hashed"), the authority it
 * may touch, and `application/problem+json` answers (RFC 9457). Each group
 * of admin routes calls {@link requireAdminToken} in its own plugin.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { inAuthority, keyPrefix, prefixInAuthority } from '../../store/keys.js';
import type { Store } from '../../store/store.js';
import { verifyToken } from '../../store/tokens.js';
import { storeFault } from '../../store/store-fault.js';
import type { Metrics } from '../metrics.js';
import { sendProblem, sendRateLimited } from '../http/pipeline.js';
import type { RateLimiter } from '../http/ratelimit.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The admin token that authenticated this request. */
    adminToken?: { id: string; authority: string };
  }
  interface FastifyContextConfig {
    /** A write of one name: it compares If-Match with the name's ETag itself ({@link NAME_WRITE}). */
    nameEntityTag?: boolean;
  }
}

/**
 * Sends an `application/problem+json` answer (RFC 9457).
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * const app = Fastify();
 * app.get('/x', (_request, reply) => problem(reply, 403, 'Forbidden', { detail: 'no' }));
 * (await app.inject({ url: '/x' })).json(); // { type: 'about:blank', title: 'Forbidden', status: 403, detail: 'no' }
 * await app.close();
 * ```
 */
export function problem(reply: FastifyReply, status: number, title: string, extra: Record<string, unknown> = {}): FastifyReply {
  return sendProblem(reply, status, title, extra);
}

/**
 * The limits of the admin routes: one bucket per token (`limiter`), and
 * the client's own bucket, the one its resolutions take from, for a
 * request without a valid token (`clientLimiter`: a client that tries
 * tokens is a client like any other).
 *
 * @example
 * ```ts
 * import { RateLimiter } from '../http/ratelimit.js';
 * const opts: AdminAuthOptions = { limiter: new RateLimiter(20, 100), clientLimiter: new RateLimiter(100, 200) };
 * opts.limiter!.perSecond; // 20
 * ```
 */
export interface AdminAuthOptions {
  limiter?: RateLimiter | undefined;
  clientLimiter?: RateLimiter | undefined;
  metrics?: Metrics;
}

/**
 * Puts {@link adminAuth} on every route of an admin scope (a fastify
 * plugin), and marks each route `config.limit = 'token'`: the pipeline
 * then takes nothing from the client's resolution bucket for it, as the
 * token's own limit applies (pipeline.ts).
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * const store = await openStore(':memory:');
 * const app = Fastify();
 * await app.register(async (admin) => {
 *   requireAdminToken(admin, store);
 *   admin.get('/admin/x', async (request) => request.routeOptions.config.limit);
 * });
 * (await app.inject({ url: '/admin/x' })).statusCode; // 401
 * const { token } = await createToken(store, { authority: '*' });
 * (await app.inject({ url: '/admin/x', headers: { authorization: `Bearer ${token}` } })).body; // 'token'
 * await app.close();
 * await store.close();
 * ```
 */
export function requireAdminToken(scope: FastifyInstance, store: Store, opts: AdminAuthOptions = {}): void {
  scope.addHook('onRoute', (route) => { route.config = { ...route.config, limit: 'token' }; });
  scope.addHook('onRequest', adminAuth(store, opts));
}

/**
 * The members of a problem (RFC 9457 §3.2 extension members) for a
 * refused input: its message as `detail`, and where it has them its
 * `code`, the `offset` of the first wrong character and the JSON Pointer
 * (RFC 6901) of the field at fault.
 *
 * @example
 * ```ts
 * inputProblem({ message: '"/locatons" is not a field of a record', code: 'unknown-field', pointer: '/locatons' });
 * // { detail: '"/locatons" is not a field of a record', code: 'unknown-field', pointer: '/locatons' }
 * ```
 */
export function inputProblem(e: { message: string; code?: string | undefined; offset?: number | undefined; pointer?: string | undefined }): Record<string, unknown> {
  return { detail: e.message, ...(e.code !== undefined ? { code: e.code } : {}), ...(e.offset !== undefined ? { offset: e.offset } : {}), ...(e.pointer !== undefined ? { pointer: e.pointer } : {}) };
}

/**
 * An `onRequest` hook that lets through only requests with a valid
 * `Authorization: Bearer <token>`, and records the token on the request;
 * anything else is 401 (429 past the client's rate, `clientLimiter`);
 * past the token's rate (`limiter`, one bucket per token), 429.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * const store = await openStore(':memory:');
 * const app = Fastify();
 * app.addHook('onRequest', adminAuth(store));
 * app.get('/x', async (request) => request.adminToken?.authority);
 * (await app.inject({ url: '/x' })).statusCode; // 401
 * const { token } = await createToken(store, { authority: 'urn:isbn' });
 * (await app.inject({ url: '/x', headers: { authorization: `Bearer ${token}` } })).body; // 'urn:isbn'
 * await app.close();
 * await store.close();
 * ```
 */
export function adminAuth(store: Store, opts: AdminAuthOptions = {}): (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined> {
  return async (request, reply) => {
    let token: Awaited<ReturnType<typeof verifyToken>>;
    try {
      token = await verifyToken(store, request.headers.authorization);
    } catch (e) {
      // The store is away before anything was written: a write request learns that it was not made.
      const fault = storeFault(e);
      throw fault !== undefined && request.method !== 'GET' && request.method !== 'HEAD' ? fault.withOutcome('not-committed') : e;
    }
    if (!token) {
      const wait = opts.clientLimiter?.take(request.client || (request.raw.socket.remoteAddress ?? '')) ?? 0;
      if (wait > 0) {
        if (opts.metrics) opts.metrics.rateLimited++;
        return sendRateLimited(reply, opts.clientLimiter!, wait, 'client');
      }
      reply.header('www-authenticate', 'Bearer realm="urikit admin"');
      return problem(reply, 401, 'Unauthorized', { detail: 'send Authorization: Bearer <token> (urikit token create --authority <prefix>)' });
    }
    request.adminToken = token;
    // Each token has its own bucket: one busy script cannot starve the others, nor the resolution side.
    const wait = opts.limiter?.take(token.id) ?? 0;
    if (wait > 0) {
      if (opts.metrics) opts.metrics.rateLimited++;
      return sendRateLimited(reply, opts.limiter!, wait, 'token');
    }
    return undefined;
  };
}

/**
 * The route config of a write to one name: its `If-Match` is compared
 * with the name's entity tag, in the write transaction (admin.ts).
 *
 * @example
 * ```ts
 * NAME_WRITE.nameEntityTag; // true
 * ```
 */
export const NAME_WRITE = { nameEntityTag: true } as const;

/**
 * A `preHandler` hook for the admin writes that have no entity tag (an
 * import, a mint, the rules, the authorities): `If-Match` is a
 * precondition there too (RFC 9110 §13.1.1: evaluated before the
 * method), which only `*` can meet; a listed tag is 412. The writes of
 * one name ({@link NAME_WRITE}) compare it themselves.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * const app = Fastify();
 * app.addHook('preHandler', untaggedIfMatch);
 * app.post('/import', async () => 'ok');
 * (await app.inject({ method: 'POST', url: '/import', headers: { 'if-match': '"3"' } })).statusCode; // 412
 * (await app.inject({ method: 'POST', url: '/import', headers: { 'if-match': '*' } })).statusCode; // 200
 * await app.close();
 * ```
 */
export async function untaggedIfMatch(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  const h = request.headers['if-match'];
  if (h === undefined || request.method === 'GET' || request.method === 'HEAD' || h.trim() === '*') return undefined;
  if (request.routeOptions.config?.nameEntityTag === true) return undefined;
  return problem(reply, 412, 'Precondition Failed', { code: 'precondition-failed', detail: `${request.method} ${request.routeOptions.url ?? ''} has no entity tag to match: only the writes of one name take If-Match with its ETag` });
}

/**
 * A listing prefix or cursor: a key's characters, printable US-ASCII (a NUL would fail in PostgreSQL, not here).
 *
 * @example
 * ```ts
 * isKeyText('urn:isbn:978'); // true
 * isKeyText('urn:isbn: 978'); // false
 * ```
 */
export function isKeyText(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c <= 0x20 || c >= 0x7f) return false;
  }
  return true;
}

/**
 * The key prefix a request may read (a listing, an export, a report): the
 * one asked for when it lies inside the token's authority, the whole
 * authority when none is asked; else a 403 or 400 has been sent and the
 * result is undefined.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * const app = Fastify();
 * app.get('/x', async (request, reply) => {
 *   request.adminToken = { id: 't', authority: 'urn:isbn' };
 *   return scopedPrefix(request, reply, (request.query as { prefix?: string }).prefix) ?? reply;
 * });
 * (await app.inject({ url: '/x' })).body; // 'urn:isbn:'
 * (await app.inject({ url: '/x?prefix=URN:ISBN:978' })).body; // 'urn:isbn:978'
 * (await app.inject({ url: '/x?prefix=urn:issn:' })).statusCode; // 403
 * await app.close();
 * ```
 */
export function scopedPrefix(request: FastifyRequest, reply: FastifyReply, asked: string | undefined): string | undefined {
  const raw = asked ?? '';
  const auth = request.adminToken!.authority;
  if (raw.length > 4096) { problem(reply, 400, 'Invalid prefix', { detail: 'a prefix is at most 4096 characters' }); return undefined; }
  // As keys are written (store/keys.ts: NID case, and the 1995 draft §2.3.1 case rule under dns).
  const prefix = keyPrefix(raw);
  // The names of the authority are those under "<authority>:" (urn:isbnx:1 starts with urn:isbn too).
  if (auth !== '' && (prefix === '' || prefix === auth)) return `${auth}:`;
  if (!prefixInAuthority(prefix, auth)) { problem(reply, 403, 'Forbidden', { detail: `the prefix is outside this token's authority "${auth}"` }); return undefined; }
  if (!isKeyText(prefix)) { problem(reply, 400, 'Invalid prefix', { detail: 'a prefix is printable US-ASCII, as URNs are' }); return undefined; }
  return prefix;
}

/**
 * True if the token may touch the name `key`; else a 403 has been sent.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * const app = Fastify();
 * app.get('/x', async (request, reply) => {
 *   request.adminToken = { id: 't', authority: 'urn:isbn' };
 *   return inScope(request, reply, 'urn:issn:0167-6423') ? 'yes' : reply;
 * });
 * (await app.inject({ url: '/x' })).statusCode; // 403
 * await app.close();
 * ```
 */
export function inScope(request: FastifyRequest, reply: FastifyReply, key: string): boolean {
  if (inAuthority(key, request.adminToken!.authority)) return true;
  problem(reply, 403, 'Forbidden', { detail: `${key} is outside this token's authority "${request.adminToken!.authority}"` });
  return false;
}
