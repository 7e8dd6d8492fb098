/**
 * Security headers of every page and answer that `urikit serve` and
 * `urikit gateway` send: no script runs, nothing loads from elsewhere, and
 * no body is sniffed into another type (the pages need inline styles and
 * their own form only).
 */
import type { FastifyInstance } from 'fastify';

/**
 * The headers themselves.
 *
 * @example
 * ```ts
 * SECURITY_HEADERS['x-content-type-options']; // 'nosniff'
 * ```
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'",
};

/**
 * Adds {@link SECURITY_HEADERS} to every reply of `app`, errors included.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * const app = Fastify();
 * registerSecurityHeaders(app);
 * app.get('/x', async () => 'x');
 * (await app.inject({ url: '/x' })).headers['x-content-type-options']; // 'nosniff'
 * ```
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(SECURITY_HEADERS);
    done();
  });
}
