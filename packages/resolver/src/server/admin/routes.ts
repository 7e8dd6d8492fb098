/**
 * The admin API under `/admin/` (DESIGN.md, "The resolver service"):
 * create, replace (PUT), edit (PATCH, JSON Merge Patch), move, withdraw
 * and reinstate names (a change the lifecycle refuses is 409,
 * store/lifecycle.ts; each may be conditional on the name's ETag,
 * If-Match, 412 when stale); bulk import (NDJSON, CSV)
 * and export; listing by prefix; history; the change feed;
 * partial-redirect rules and the authority registry. Every request needs `Authorization: Bearer <token>` and may
 * only touch names under the token's authority prefix.
 */
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { Store } from '../../store/store.js';
import { DEFAULT_LOCATION_SCHEMES } from '../../store/validate.js';
import type { RateLimiter } from '../http/ratelimit.js';
import type { Metrics } from '../metrics.js';
import { bulkRoutes } from './bulk.js';
import { nameRoutes } from './names.js';
import { registryRoutes } from './registry.js';
import { useStrictSchemas } from './schemas.js';
import { requireAdminToken, untaggedIfMatch } from './scope.js';

/**
 * What the admin API is allowed: the largest import body, the schemes a
 * location may have (default `DEFAULT_LOCATION_SCHEMES`), and a rate limit
 * per token (none when absent).
 *
 * @example
 * ```ts
 * import { RateLimiter } from '../http/ratelimit.js';
 * import Fastify from 'fastify';
 * import { Metrics } from '../metrics.js';
 * const opts: AdminOptions = { importBytes: 1 << 30, schemes: new Set(['https']), limiter: new RateLimiter(50, 100) };
 * const store = await openStore(':memory:');
 * const { token } = await createToken(store, { authority: 'urn:isbn' });
 * const app = Fastify();
 * registerAdmin(app, store, new Metrics(), opts);
 * const put = (url: string) => app.inject({ method: 'PUT', url: '/admin/names/urn:isbn:0451450523',
 *   headers: { authorization: `Bearer ${token}` }, payload: { locations: [url] } });
 * (await put('http://a.example/')).statusCode; // 400 (only https here)
 * (await put('https://a.example/')).statusCode; // 201
 * await app.close();
 * await store.close();
 * ```
 */
export interface AdminOptions {
  importBytes: number;
  schemes?: ReadonlySet<string>;
  limiter?: RateLimiter | undefined;
  /** The per-client limit of resolutions, which a request without a valid token takes from (admin-scope.ts). */
  clientLimiter?: RateLimiter | undefined;
  /** Refuses the writes of names this resolver mirrors or handed over (server/mirror.ts `writeGuard`), after the token check. */
  guard?: preHandlerAsyncHookHandler;
}

/**
 * Registers the admin routes on a fastify app.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * import { Metrics } from '../metrics.js';
 * const app = Fastify();
 * const store = await openStore(':memory:');
 * registerAdmin(app, store, new Metrics(), { importBytes: 1 << 20 });
 * (await app.inject({ method: 'GET', url: '/admin/names' })).statusCode; // 401 (no token)
 * const { token } = await createToken(store, { authority: 'urn:isbn' });
 * const put = await app.inject({ method: 'PUT', url: '/admin/names/urn:isbn:0451450523',
 *   headers: { authorization: `Bearer ${token}` }, payload: { locations: ['https://openlibrary.org/isbn/0451450523'] } });
 * put.statusCode; // 201
 * await app.close();
 * await store.close();
 * ```
 */
export function registerAdmin(app: FastifyInstance, store: Store, metrics: Metrics, limits: AdminOptions): void {
  const schemes = limits.schemes ?? new Set(DEFAULT_LOCATION_SCHEMES);
  for (const type of ['application/x-ndjson', 'application/ndjson', 'application/jsonl', 'text/csv']) {
    app.addContentTypeParser(type, (_req, payload, done) => done(null, payload));
  }
  // One scope: every route below it takes a token (and its limit) and strict schemas; one plugin per resource.
  app.register(async (admin) => {
    useStrictSchemas(admin);
    requireAdminToken(admin, store, { limiter: limits.limiter, clientLimiter: limits.clientLimiter, metrics });
    admin.addHook('preHandler', untaggedIfMatch);
    if (limits.guard !== undefined) admin.addHook('preHandler', limits.guard);
    await admin.register(nameRoutes, { store, schemes });
    await admin.register(bulkRoutes, { store, schemes, metrics, importBytes: limits.importBytes });
    await admin.register(registryRoutes, { store, schemes });
  }, { prefix: '/admin' });
}
