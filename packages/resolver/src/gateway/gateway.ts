/**
 * The gateway of the 1995 draft §4 ("Proxies and gateways allow Internet
 * users who do not have URN or HTTP clients to resolve URNs"): it serves
 * `/urn:...` and `/resolve?urn=...`, resolves through {@link resolveUrn}
 * with its cache (§5), and answers in HTML with active links, or passes
 * JSON and text/urc-0 through. The web page is at `/`.
 */
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { isUriError } from 'urikit';
import { ResolverError } from '../errors/resolver-error.js';
import { MemoryCache, DiskCache } from '../client/cache.js';
import { ResolutionError, resolveUrn } from '../client/resolve-urn.js';
import type { ResolveOptions, ResolveResult } from '../client/types.js';
import { formatUrc0Text } from '../formats/urc0.js';
import { registerWebPage } from '../web/register.js';
import { registerSecurityHeaders } from '../web/headers.js';
import { negotiateFormat, type GatewayFormat } from './negotiate.js';
import { renderErrorPage, renderResultPage } from './render.js';
import { PROBLEM_JSON, problemDocument } from '../server/render/problem.js';

/**
 * Options of {@link startGateway} and {@link createGateway}: where to
 * listen, and how to resolve (the options of {@link resolveUrn}).
 *
 * @example
 * ```ts
 * import { readdirSync } from 'node:fs';
 * const server = await startServer({ port: 0, db: ':memory:', demo: true });
 * const opts: GatewayOptions = { port: 0, resolvers: [server.url], cacheDir: 'gateway-cache' };
 * const gw = await startGateway(opts);
 * const res = await fetch(`${gw.url}/urn:foo:a123,456`, { headers: { accept: 'application/json' } });
 * res.status; // 200
 * (await res.json()).locations // [{ url: 'http://example.org/foo/a123,456' }]
 * readdirSync('gateway-cache').length // 1 (the resolver's answer, kept on disk)
 * await gw.close();
 * await server.close();
 * ```
 */
export interface GatewayOptions extends Omit<ResolveOptions, 'accept'> {
  // `service` defaults to I2Ls here: the page lists every location.
  /** The port, 0 for any free one; 8080 by default. */
  port?: number;
  /** The address to listen on, 127.0.0.1 by default. */
  host?: string;
  /** Keep the cache on disk in this directory instead of in memory. */
  cacheDir?: string;
}

// What the gateway asks the resolver for, per format it answers in; the
// format asked first is passed through unchanged when the resolver has it.
const UPSTREAM_ACCEPT: Record<GatewayFormat, string | undefined> = {
  'text/html': undefined,
  'application/json': 'application/json, text/urc-0;q=0.9, text/uri-list;q=0.5, text/plain;q=0.3',
  'text/urc-0': 'text/urc-0, application/json;q=0.9, text/uri-list;q=0.5, text/plain;q=0.3',
};

/** The gateway's status for a resolution: a redirect followed or listed is a 200 page; 4xx stay. */
function pageStatus(result: ResolveResult): number {
  return result.status < 400 ? 200 : result.status;
}

/** The HTTP status for a failed resolution. */
function errorStatus(e: unknown): number {
  if (e instanceof ResolutionError) return e.code === 'redirect-loop' ? 508 : 502;
  if (isUriError(e)) return 400;
  if (e instanceof ResolverError) return 502;
  return 500;
}

/** Sends a resolution result in the negotiated format. */
function sendResult(reply: FastifyReply, urn: string, format: GatewayFormat, result: ResolveResult): FastifyReply {
  const status = pageStatus(result);
  if (format === 'application/json') {
    if (result.contentType === 'application/json' && result.body !== undefined) {
      return reply.code(status).header('content-type', 'application/json; charset=utf-8').send(result.body);
    }
    const { body: _body, ...rest } = result;
    return reply.code(status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(rest));
  }
  if (format === 'text/urc-0') {
    // 1995 draft §3.4.2; an upstream urc-0 body is passed through byte for byte.
    if (result.contentType === 'text/urc-0' && result.body !== undefined) {
      return reply.code(status).header('content-type', 'text/urc-0').send(Buffer.from(result.body, 'latin1'));
    }
    let text: string;
    try {
      text = formatUrc0Text(result.locations.map((l) => ({ url: l.url, ...(l.meta !== undefined ? { meta: l.meta } : {}) })));
    } catch (e) {
      return reply.code(502).header('content-type', 'text/plain; charset=utf-8').send(`the answer cannot be written as text/urc-0: ${e instanceof Error ? e.message : String(e)}\n`);
    }
    return reply.code(status).header('content-type', 'text/urc-0').send(text);
  }
  return reply.code(status).header('content-type', 'text/html; charset=utf-8').send(renderResultPage(urn, result));
}

/** Sends a failed resolution in the negotiated format. */
function sendError(reply: FastifyReply, urn: string, format: GatewayFormat, e: unknown, statusOverride?: number): FastifyReply {
  const status = statusOverride ?? errorStatus(e);
  const message = e instanceof Error ? e.message : String(e);
  if (format === 'application/json') {
    const extra = { detail: message, ...(isUriError(e) || e instanceof ResolverError ? { code: e.code, offset: e.offset } : {}), urn };
    return reply.code(status).header('content-type', PROBLEM_JSON).send(problemDocument(status, 'URN resolution failed', extra));
  }
  if (format === 'text/urc-0') return reply.code(status).header('content-type', 'text/plain; charset=utf-8').send(`${message}\n`);
  return reply.code(status).header('content-type', 'text/html; charset=utf-8').send(renderErrorPage(urn, message));
}

/**
 * Builds the gateway as a Fastify app without listening (for tests and
 * for mounting under another server).
 *
 * @example
 * ```ts
 * const server = await startServer({ port: 0, db: ':memory:', demo: true });
 * const app = createGateway({ resolvers: [server.url] });
 * const res = await app.inject({ url: '/urn:foo:a123,456', headers: { accept: 'application/json' } });
 * res.statusCode // 200
 * res.json() // matches { locations: [{ url: 'http://example.org/foo/a123,456' }] }
 * await app.close();
 * await server.close();
 * ```
 */
export function createGateway(opts: GatewayOptions = {}): FastifyInstance {
  const cache = opts.cache ?? (opts.cacheDir ? new DiskCache(opts.cacheDir) : new MemoryCache());
  const { port: _port, host: _host, cacheDir: _dir, ...rest } = opts;
  // A person wants every location, not only the preferred one: I2Ls (RFC 2483: the list of locations) unless told otherwise.
  const clientOpts: ResolveOptions = { ...rest, service: rest.service ?? 'I2Ls', cache };
  const app = Fastify({ logger: false });
  const handle = async (urn: string, accept: string | undefined, reply: FastifyReply) => {
    const format = negotiateFormat(accept);
    const upstream = UPSTREAM_ACCEPT[format];
    try {
      const result = await resolveUrn(urn, upstream ? { ...clientOpts, accept: upstream } : clientOpts);
      return sendResult(reply, urn, format, result);
    } catch (e) {
      return sendError(reply, urn, format, e);
    }
  };
  registerSecurityHeaders(app);
  registerWebPage(app, { mode: 'gateway', resolveUrn: (urn) => resolveUrn(urn, clientOpts) });
  app.get('/resolve', async (request, reply) => {
    const urn = (request.query as Record<string, unknown>)['urn'];
    if (typeof urn !== 'string' || urn === '') {
      return sendError(reply, '', negotiateFormat(request.headers.accept), new Error('give the URN to resolve as /resolve?urn=urn:...'), 400);
    }
    return handle(urn, request.headers.accept, reply);
  });
  app.get('/*', async (request, reply) => {
    // The URN is the raw request target without its "/": its "?" belongs to
    // the URN (RFC 8141 r- and q-components), not to the gateway.
    const target = (request.raw.url ?? '/').slice(1);
    if (target.slice(0, 4).toLowerCase() !== 'urn:') {
      return reply.code(404).header('content-type', 'text/html; charset=utf-8').send(renderErrorPage(target, 'This gateway serves /urn:... and /resolve?urn=...; the page at / looks at any URI.'));
    }
    return handle(target, request.headers.accept, reply);
  });
  return app;
}

/**
 * Starts the gateway (`urikit gateway`) on `host:port` and resolves
 * with its URL, port and a `close()` that stops it.
 *
 * @example
 * ```ts
 * const gw = await startGateway({ port: 0, resolvers: ['http://127.0.0.1:1'] });
 * (await fetch(`${gw.url}/urn:isbn:0451450523`)).status // 502 (no resolver could be reached)
 * await gw.close();
 * ```
 */
export async function startGateway(opts: GatewayOptions = {}): Promise<{ url: string; port: number; close(): Promise<void> }> {
  const app = createGateway(opts);
  const host = opts.host ?? '127.0.0.1';
  await app.listen({ port: opts.port ?? 8080, host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (opts.port ?? 8080);
  const shown = host.includes(':') ? `[${host}]` : host;
  return { url: `http://${shown}:${port}`, port, close: async () => { await app.close(); } };
}
