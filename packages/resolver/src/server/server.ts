/**
 * `urikit serve`: the URN resolution service of the 1995 draft (§3) with
 * RFC 2169 / RFC 2483 requests, on one port for HTTP/1.1, HTTP/1.0 and
 * HTTP/0.9 Simple-Requests.
 *
 * ```text
 *   TCP :4500 ── front (simple.ts) ── Simple-Request ──> UrnResolutionService ── HTTP/0.9 body
 *                   │
 *                   └── node:http ── GET/HEAD resolution ──> UrnResolutionService (fast path)
 *                                 └── /, /admin/*, /healthz, /metrics ──> fastify
 * ```
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerWebPage } from '../web/index.js';
import { loadDemoData, DEMO_AUTHORITY } from '../demo/index.js';
import { openStore } from '../store/open.js';
import { authorityPrefix } from '../store/keys.js';
import type { Store } from '../store/store.js';
import { registerAdmin } from './admin.js';
import { CORS_HEADERS, messageAnswer, type Answer } from './answer.js';
import { Metrics } from './metrics.js';
import { DEFAULT_NAME_CACHE_BYTES, DEFAULT_LIMITS, DEFAULT_PORT, type ServerOptions } from './options.js';
import { RateLimiter } from './ratelimit.js';
import { UrnResolutionService, type ResolutionRequest } from './resolve.js';
import { createFront } from './simple.js';
import { localResolveUrn } from './local.js';
import { writeAnswer, writeSimpleResponse } from './wire.js';

/**
 * A running resolution service.
 *
 * @example
 * ```ts
 * const s: RunningServer = await startServer({ port: 0, db: ':memory:' });
 * await s.close();
 * ```
 */
export interface RunningServer {
  /** `http://host:port`. */
  url: string;
  port: number;
  /** The store it serves (for tests and the CLI). */
  store: Store;
  /** The fastify app behind /, /admin/, /healthz and /metrics. */
  app: FastifyInstance;
  /** Resolves, with the number of names cached, when the name cache has been filled (see `ServerOptions.nameCacheBytes`). */
  nameCacheReady: Promise<number>;
  /** Stops accepting, finishes the requests in flight, closes the store if it opened it. */
  close(): Promise<void>;
}

const PREFLIGHT_HEADERS = {
  ...CORS_HEADERS,
  'access-control-allow-methods': 'GET, HEAD, POST, PUT, DELETE, OPTIONS',
  'access-control-allow-headers': 'Authorization, Content-Type, Accept, If-None-Match, If-Modified-Since',
  'access-control-max-age': '86400',
};

/** Paths fastify answers; every other GET/HEAD is a resolution request. */
function isResolution(method: string | undefined, url: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  if (url.length < 2 || url.charCodeAt(0) !== 0x2f || url.charCodeAt(1) === 0x3f) return false;
  return !(url.startsWith('/admin/') || url === '/admin' || url.startsWith('/healthz') || url.startsWith('/metrics'));
}

/** The Host a client used, if it is a plain host[:port]; else the listening address. */
function baseUrl(host: string | undefined, fallback: string): string {
  if (host !== undefined && host.length <= 261 && /^[A-Za-z0-9.\-[\]:]+$/.test(host)) return `http://${host}`;
  return fallback;
}

/**
 * Starts the resolution service: opens the store (SQLite `./urikit.sqlite`
 * by default, or `db` / env `URIKIT_DB`), loads the demonstration names if
 * asked, and listens on `host:port` (127.0.0.1:4500 by default, the 1995
 * draft §3.2 port) for HTTP/1.1, HTTP/1.0 and HTTP/0.9 Simple-Requests.
 *
 * @example
 * ```ts
 * const server = await startServer({ port: 0, db: ':memory:', demo: true });
 * console.log(`curl -i ${server.url}/urn:ietf:rfc:2141`);
 * await server.close();
 * ```
 */
export async function startServer(opts: ServerOptions = {}): Promise<RunningServer> {
  const limits = { ...DEFAULT_LIMITS, ...opts.limits };
  const ownsStore = opts.store === undefined;
  const store = opts.store ?? (await openStore(opts.db));
  try {
    if (opts.demo) await loadDemoData(store);
    // A store given by the caller is served as it is (it may be shared; its owner calls cacheNames).
    if (ownsStore) store.cacheNames(opts.nameCacheBytes ?? DEFAULT_NAME_CACHE_BYTES);
    const authorityOpt = opts.authority ?? (opts.demo ? DEMO_AUTHORITY : undefined);
    const authority = authorityOpt === undefined ? undefined : authorityPrefix(authorityOpt);
    const service = new UrnResolutionService(store, {
      ...(authority !== undefined && authority !== '' ? { authority } : {}),
      cacheControl: opts.cacheControl ?? 'public, max-age=300',
      seeOther: opts.seeOther ?? false,
      urnLength: limits.urnLength,
      urc0LineLength: opts.urc0LineLength ?? 76,
      about: {
        contact: opts.about?.contact ?? 'mailto:postmaster@localhost',
        meta: opts.about?.meta ?? 'This resolver runs urikit serve: the URN resolution service of draft-ietf-uri-yaurn-00 (1995)\nwith RFC 2169 /uri-res/ requests, RFC 2483 services and 2012 draft s= directives.',
      },
    });
    const metrics = new Metrics();
    const limiter = opts.rateLimit === false ? undefined : new RateLimiter(opts.rateLimit?.perSecond ?? 100, opts.rateLimit?.burst ?? 200);
    let fallbackBase = '';

    const limited = (address: string | undefined): Answer | undefined => {
      if (!limiter) return undefined;
      const wait = limiter.take(address ?? '');
      if (wait === 0) return undefined;
      metrics.rateLimited++;
      return messageAnswer(429, 'Too Many Requests', `slow down: at most ${limiter.perSecond} requests a second`, undefined, 'limited', undefined, { 'retry-after': String(wait) });
    };

    const resolve = async (request: ResolutionRequest, address: string | undefined): Promise<Answer> => {
      return limited(address) ?? (await service.answer(request));
    };

    let app: FastifyInstance;
    const serveResolution = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
      const start = performance.now();
      metrics.inFlight++;
      let status = 500;
      let kind = 'resolve';
      try {
        const request: ResolutionRequest = {
          target: req.url ?? '/',
          httpVersion: req.httpVersion,
          accept: req.headers.accept,
          ifNoneMatch: req.headers['if-none-match'],
          ifModifiedSince: req.headers['if-modified-since'],
          // Only the urn+a pointer needs the absolute URL.
          base: (req.url ?? '').includes('urn+') ? baseUrl(req.headers.host, fallbackBase) : undefined,
        };
        const a = await resolve(request, req.socket.remoteAddress);
        status = a.status;
        kind = a.kind;
        const writing = writeAnswer(res, a);
        if (writing) await writing;
      } catch (e) {
        app.log.error({ err: e, url: req.url }, 'resolution failed');
        if (!res.headersSent) await writeAnswer(res, messageAnswer(500, 'Internal Server Error', 'the resolver failed to answer', undefined, 'error'));
        else res.destroy();
      } finally {
        metrics.inFlight--;
        const seconds = (performance.now() - start) / 1000;
        metrics.observe(kind, status, seconds);
        if (opts.accessLog) app.log.info({ method: req.method, url: req.url, status, ms: seconds * 1000, remote: req.socket.remoteAddress }, 'resolution');
      }
    };

    let httpServer!: http.Server;
    app = Fastify({
      logger: opts.logger === undefined || opts.logger === false ? false : { level: opts.logger === true ? 'info' : opts.logger },
      bodyLimit: limits.bodyBytes,
      return503OnClosing: true,
      serverFactory: (handler) => {
        httpServer = http.createServer({
          maxHeaderSize: limits.headerBytes,
          requestTimeout: limits.requestTimeoutMs,
          headersTimeout: limits.headersTimeoutMs,
          connectionsCheckingInterval: Math.max(100, Math.min(30_000, limits.headersTimeoutMs / 4, limits.requestTimeoutMs / 4)),
        }, (req, res) => {
          if (req.method === 'OPTIONS') {
            res.writeHead(204, PREFLIGHT_HEADERS);
            res.end();
            return;
          }
          if (isResolution(req.method, req.url ?? '')) {
            // serveResolution answers every failure itself; a failure to answer ends the connection.
            serveResolution(req, res).catch(() => res.destroy());
            return;
          }
          // In flight until the response is finished or the connection is gone (timeouts included).
          metrics.inFlight++;
          res.once('close', () => { metrics.inFlight--; });
          handler(req, res);
        });
        return httpServer;
      },
    });

    app.addHook('onRequest', async (request, reply) => {
      reply.header('access-control-allow-origin', '*');
      if (request.url.startsWith('/healthz') || request.url.startsWith('/metrics')) return;
      const a = limited(request.ip);
      if (a) {
        void reply.code(429).headers(a.headers).send(a.body);
        return reply;
      }
      return undefined;
    });
    app.addHook('onResponse', async (request, reply) => {
      if (request.url.startsWith('/healthz') || request.url.startsWith('/metrics')) return;
      metrics.observe(request.url.startsWith('/admin') ? 'admin' : 'other', reply.statusCode, reply.elapsedTime / 1000);
    });
    app.setNotFoundHandler((request, reply) => {
      void reply.code(404).type('application/problem+json').send({ type: 'about:blank', title: 'Not Found', status: 404, detail: `no ${request.method} ${request.url.slice(0, 200)} here` });
    });
    app.setErrorHandler((err: { statusCode?: number; message: string; code?: string }, request, reply) => {
      const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 600 ? err.statusCode : 500;
      if (status >= 500) request.log.error({ err }, 'request failed');
      void reply.code(status).type('application/problem+json').send({ type: 'about:blank', title: http.STATUS_CODES[status] ?? 'Error', status, detail: status >= 500 ? 'the server failed' : err.message, ...(err.code ? { code: err.code } : {}) });
    });

    app.get('/healthz', async (_request, reply) => {
      try {
        await store.ping();
        return { status: 'ok', engine: store.engine };
      } catch (e) {
        // The engine's message (host, user, database) is for the log, not for any client.
        app.log.error({ err: e }, 'health check failed');
        return reply.code(503).send({ status: 'unavailable', engine: store.engine });
      }
    });
    app.get('/metrics', async (_request, reply) => reply.type('text/plain; version=0.0.4; charset=utf-8').send(metrics.render({ urikit_name_cache_names: store.cachedNames })));
    registerAdmin(app, store, metrics, { importBytes: limits.importBytes });
    registerWebPage(app, { mode: 'serve', resolveUrn: (urn) => localResolveUrn(store, urn) });
    await app.ready();

    const front = createFront(httpServer, (target, socket) => {
      // 1995 draft §3.3: a Simple-Request is answered with the result alone, in text/urc-0.
      void (async () => {
        metrics.inFlight++;
        const start = performance.now();
        try {
          const a = await resolve({ target, httpVersion: '0.9', accept: 'text/urc-0' }, socket.remoteAddress);
          metrics.observe('simple', a.status, (performance.now() - start) / 1000);
          await writeSimpleResponse(socket, a);
        } catch (e) {
          app.log.error({ err: e }, 'simple request failed');
          socket.destroy();
        } finally {
          metrics.inFlight--;
        }
      })();
    }, limits.headersTimeoutMs, (e) => app.log.error({ err: e }, 'the listening socket failed'));

    const host = opts.host ?? '127.0.0.1';
    await new Promise<void>((resolveListen, reject) => {
      front.once('error', reject);
      front.listen(opts.port ?? DEFAULT_PORT, host, () => { front.off('error', reject); resolveListen(); });
    });
    // node:http starts tracking connections (idle ones for close, and the
    // request and header timeouts) on 'listening'; the front listens for it.
    httpServer.emit('listening');
    const port = (front.address() as AddressInfo).port;
    const shown = host.includes(':') ? `[${host}]` : host;
    const url = `http://${shown}:${port}`;
    fallbackBase = url;
    app.log.info({ url, engine: store.engine }, 'urikit resolver listening');
    const warming = store.warmNameCache()
      .then((cached) => { app.log.info({ cached }, 'name cache filled'); return cached; })
      .catch((e: unknown) => { app.log.error({ err: e }, 'filling the name cache failed'); return 0; });

    let closing: Promise<void> | undefined;
    const close = () => (closing ??= (async () => {
      // net.Server#close waits for every connection to end; keep-alive ones are closed below.
      const frontClosed = new Promise<void>((r) => front.close(() => r()));
      httpServer.closeIdleConnections();
      const deadline = Date.now() + 10_000;
      while (metrics.inFlight > 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 10));
        httpServer.closeIdleConnections();
      }
      httpServer.closeAllConnections();
      // Stops the timeout checks ('not running' is expected: the front listened).
      httpServer.close(() => undefined);
      await frontClosed;
      await app.close();
      if (ownsStore) await store.close();
      await warming;
    })());
    return { url, port, store, app, close, nameCacheReady: warming };
  } catch (e) {
    if (ownsStore) await store.close();
    throw e;
  }
}
