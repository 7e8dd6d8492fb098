/**
 * Mounts the web page at `/` of `urikit serve` and `urikit gateway`.
 */
import type { FastifyInstance } from 'fastify';
import type { ResolveResult } from '../client/types.js';
import { renderPage } from './page.js';

/**
 * Options of {@link registerWebPage}: which program mounts the page and
 * how it resolves a URN typed into it.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * // A stand-in resolver: every URN has one location.
 * const opts: WebPageOptions = { mode: 'gateway', resolveUrn: async (urn) => ({ status: 200, locations: [{ url: 'https://example.org/a' }], via: [urn] }) };
 * const app = Fastify();
 * registerWebPage(app, opts);
 * const html = (await app.inject({ url: '/?uri=urn:ex:a' })).body;
 * html.includes('<title>urikit gateway</title>') // true
 * html.includes('<a href="https://example.org/a" rel="noopener noreferrer">') // true
 * await app.close();
 * ```
 */
export interface WebPageOptions {
  /** `serve` (the resolver itself) or `gateway` (a resolver's front for browsers). */
  mode: 'serve' | 'gateway';
  /** Resolves a URN for the page; without it URNs are parsed but not resolved. */
  resolveUrn?: (urn: string) => Promise<ResolveResult>;
}

/**
 * Registers `GET /` on a Fastify app: a server-rendered form (GET query
 * parameters `uri` and `compare`) that works without JavaScript (1995
 * draft §4: gateways for users without a URN client). The app adds the
 * security headers (`registerSecurityHeaders`).
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * const app = Fastify();
 * registerWebPage(app, { mode: 'gateway', resolveUrn: (u) => resolveUrn(u) });
 * (await app.inject({ url: '/?uri=HTTP://A/b' })).statusCode // 200
 * ```
 */
export function registerWebPage(app: FastifyInstance, opts: WebPageOptions): void {
  app.get('/', async (request, reply) => {
    const q = request.query as Record<string, unknown>;
    const html = await renderPage({
      uri: typeof q['uri'] === 'string' ? q['uri'] : undefined,
      compare: typeof q['compare'] === 'string' ? q['compare'] : undefined,
      mode: opts.mode,
      resolveUrn: opts.resolveUrn,
    });
    return reply
      .header('content-type', 'text/html; charset=utf-8')
      .send(html);
  });
}
