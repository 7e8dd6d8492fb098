/**
 * `urikit serve`: the URN resolution service of the 1995 draft (§3) with
 * RFC 2169 / RFC 2483 requests, on one port for HTTP/1.1, HTTP/1.0 and
 * HTTP/0.9 Simple-Requests, through one pipeline.
 *
 * ```text
 *   TCP :4500 ── front (front.ts): Simple-Request → HTTP/1.0 exchange (simple.ts); "GET alb002 HTTP/1.0" → "/alb002"
 *        │
 *        └── node:http ── GET|HEAD of a name: resolution front (route.ts) ─┐ exchange.ts: CORS, security headers, rate limit, metrics, log
 *             └── fastify: onRequest (the same) → route → onResponse   │
 *                            ├── GET|HEAD /*  resolution (route.ts) ──┴──> UrnResolutionService.answer ──> Answer ──> wire.ts
 *                            ├── /          web page
 *                            ├── /admin/*   admin API; /admin/ the cataloguers' page; /admin/openapi.json
 *                            └── /healthz, /metrics
 * ```
 */
import { DEFAULT_ADMIN_RATE_LIMIT, DEFAULT_DELEGATE_TIMEOUT_MS, DEFAULT_RATE_LIMIT } from '../defaults/index.js';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { registerWebPage } from '../web/index.js';
import { loadDemoData, DEMO_AUTHORITY } from '../demo/index.js';
import { openStore } from '../store/open.js';
import { authorityPrefix } from '../store/keys.js';
import { DEFAULT_LOCATION_SCHEMES, MAX_NAME_LENGTH } from '../store/validate.js';
import { OAI_TOKEN_KEY } from '../store/settings.js';
import { ownOrigins, ownUrnReader } from './resolution/own-urls.js';
import type { Store } from '../store/store.js';
import { registerAdmin } from './admin/routes.js';
import { Metrics, storeAvailabilityMetrics, storeGauges } from './metrics.js';
import { DEFAULT_NAME_CACHE_BYTES, DEFAULT_LIMITS, DEFAULT_PORT, DEFAULT_SHUTDOWN_TIMEOUT_MS, type ServerOptions } from './options.js';
import { HealthCheck } from './health.js';
import { DEFAULT_STALE_IF_ERROR_MS } from '../store/open.js';
import { registerPipeline } from './http/pipeline.js';
import { RateLimiter } from './http/ratelimit.js';
import { UrnResolutionService } from './resolution/resolve.js';
import { Resolutions } from './route.js';
import { answerClientError, Front, type ClientError } from './http/front.js';
import { parseQuery } from './http/query-string.js';
import { HostAuthorities } from './resolution/host-authorities.js';
import { readRequestForm, ServedHosts } from './http/request-form.js';
import { ClientAddresses } from './http/client-address.js';
import { localResolveUrn } from './resolution/local.js';
import { subjectSources } from './resolution/subject.js';
import { resolveUrn } from '../client/resolve-urn.js';
import { LinkHealthView } from '../links/view.js';
import { StatsCounter } from '../stats/counter.js';
import { registerAdminReports } from './admin/reports.js';
import { registerAdminMint } from './admin/mint.js';
import { LinkWorker } from './link-worker.js';
import { HarvestWorker } from './harvest-worker.js';
import { Mirrors, writeGuard } from './mirror.js';
import { registerAdminHandover } from './admin/handover.js';
import { OaiProvider } from '../oai/provider.js';
import { StoreOaiRepository } from '../oai/store-repository.js';
import { registerOai } from './oai-route.js';
import { registerAdminHarvests } from './admin/harvests.js';
import { registerAdminPage } from '../web/admin-page.js';
import { registerOpenApi } from './openapi.js';
import { packageRoot } from '../web/package-root.js';

/**
 * A running resolution service.
 *
 * @example
 * ```ts
 * const s: RunningServer = await startServer({ port: 0, db: ':memory:' });
 * s.url.startsWith('http://127.0.0.1:'); // true
 * s.store.engine; // 'sqlite'
 * await s.close();
 * ```
 */
export interface RunningServer {
  /** `http://host:port`. */
  url: string;
  port: number;
  /** The store it serves (for tests and the CLI). */
  store: Store;
  /** The fastify app that answers every request. */
  app: FastifyInstance;
  /** Resolves, with the number of names cached, when the name cache has been filled (see `ServerOptions.nameCacheBytes`). */
  nameCacheReady: Promise<number>;
  /** The statistics counter, unless statistics are off. */
  stats?: StatsCounter;
  /** The link health resolution orders locations by. */
  linkHealth: LinkHealthView;
  /** Every route it answers, method and URL pattern as registered (the OpenAPI document at /admin/openapi.json is checked against them). */
  routes: ReadonlyArray<{ method: string; url: string }>;
  /**
   * Stops: answers `draining` on /healthz for `drainMs` (default
   * `ServerOptions.shutdown.drainMs`) while still answering every request,
   * then stops accepting, finishes the requests in flight, flushes the
   * statistics and closes the store if it opened it, all within the
   * shutdown bound.
   */
  close(opts?: { drainMs?: number }): Promise<void>;
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
 * (await fetch(`${server.url}/urn:ietf:rfc:2141`, { redirect: 'manual' })).status; // 302
 * await server.close();
 * ```
 */
export async function startServer(opts: ServerOptions = {}): Promise<RunningServer> {
  const limits = { ...DEFAULT_LIMITS, ...opts.limits };
  if (!(limits.urnLength >= MAX_NAME_LENGTH)) throw new RangeError(`limits.urnLength is at least ${MAX_NAME_LENGTH}, the longest name the store takes: every name registered must be one a request can ask for`);
  const ownsStore = opts.store === undefined;
  // A store given by the caller is served as it is (it may be shared; its owner chose its name cache).
  const staleIfErrorMs = (opts.staleIfErrorSeconds ?? DEFAULT_STALE_IF_ERROR_MS / 1000) * 1000;
  const store = opts.store ?? (await openStore(opts.db, {
    nameCacheBytes: opts.nameCacheBytes ?? DEFAULT_NAME_CACHE_BYTES,
    staleIfErrorMs,
    ...(opts.dbReplica !== undefined ? { replica: opts.dbReplica } : {}),
  }));
  try {
    if (opts.demo) await loadDemoData(store);
    const authorityOpt = opts.authority ?? (opts.demo ? DEMO_AUTHORITY : undefined);
    const authority = authorityOpt === undefined ? undefined : authorityPrefix(authorityOpt);
    const authorities = new HostAuthorities(store, {
      fallback: authority !== '' ? authority : undefined,
      held: (opts.authorities ?? []).map(authorityPrefix),
    });
    await authorities.refresh();
    // What resolution consults besides the store: link health (kept fresh
    // from the store, and at once from this process's checker) and the
    // statistics counter (flushed in bulk, never on the request's path).
    const linkHealth = new LinkHealthView(store.linkHealth);
    await linkHealth.refresh();
    const stats = opts.stats === false ? undefined : new StatsCounter(store.stats, {
      ...(opts.stats?.flushIntervalMs !== undefined ? { flushIntervalMs: opts.stats.flushIntervalMs } : {}),
      ...(opts.stats?.robotPatterns !== undefined ? { robotPatterns: opts.stats.robotPatterns } : {}),
    });
    const mirrors = opts.mirror === undefined || opts.mirror.sources.length === 0 ? undefined : new Mirrors(store, opts.mirror.sources, { pageDelayMs: 0, ...opts.mirror.harvest }, {
      onReport: (r) => app.log[r.status === 'ok' ? 'debug' : 'warn']({ repository: r.repo, status: r.status, pages: r.pages, applied: r.applied, refused: r.refused, ...(r.error !== undefined ? { error: r.error } : {}) }, 'mirror harvest'),
      onError: (e, source) => app.log.error({ err: e, repository: source.baseUrl }, 'mirror harvest failed'),
    });
    const promoted = await mirrors?.load();
    const service = new UrnResolutionService(store, {
      ...(authority !== undefined && authority !== '' ? { authority } : {}),
      authorities,
      cacheControl: opts.cacheControl ?? 'public, max-age=300',
      seeOther: opts.seeOther ?? false,
      urnLength: limits.urnLength,
      urc0LineLength: opts.urc0LineLength ?? 76,
      about: {
        contact: opts.about?.contact ?? 'mailto:postmaster@localhost',
        meta: opts.about?.meta ?? 'This resolver runs urikit serve: the URN resolution service of draft-ietf-uri-yaurn-00 (1995)\nwith RFC 2169 /uri-res/ requests, RFC 2483 services and 2012 draft s= directives.',
        // a mirror promoted (a handover's last step) is no longer named
        get mirrorOf() { return mirrors?.mirrorOf ?? []; },
        ...(opts.mirrors !== undefined && opts.mirrors.length > 0 ? { mirrors: opts.mirrors } : {}),
      },
    }, { health: linkHealth, ...(stats !== undefined ? { stats } : {}) });
    const metrics = new Metrics();
    const limiter = opts.rateLimit === false ? undefined : new RateLimiter(opts.rateLimit?.perSecond ?? DEFAULT_RATE_LIMIT.perSecond, opts.rateLimit?.burst ?? DEFAULT_RATE_LIMIT.burst);
    let ownUrl = '';
    // The resolver's URL as clients know it (behind a proxy, not the address it listens on).
    const publicUrl = opts.publicUrl?.replace(/\/+$/, '');

    // What an absolute-form target may name (RFC 9110 §7.4): this server's own URL and public URL are added once it listens.
    const servedHosts = new ServedHosts((host) => authorities.holds(host));
    let httpServer!: http.Server;
    let front!: Front;
    // Set before the server listens (it needs the pipeline's exchanges).
    let resolutions!: Resolutions;
    const app = Fastify({
      logger: opts.logger === undefined || opts.logger === false ? false : { level: opts.logger === true ? 'info' : opts.logger },
      // The pipeline logs what is asked for (every request with accessLog, else admin requests and errors).
      logController: new LogController({ disableRequestLogging: true }),
      bodyLimit: limits.bodyBytes,
      return503OnClosing: true,
      routerOptions: { querystringParser: parseQuery },
      // The request line's target in origin-form, its Host, and what is refused before any route (request-form.ts).
      rewriteUrl: (req) => readRequestForm(req, servedHosts.answersFor),
      // A request line in the draft's form on a connection node's parser reads is handed to the front (front.ts).
      // (fastify's type of the error has `rawPacket` as a serialized Buffer; node gives a Buffer.)
      clientErrorHandler: (e, socket) => { const ce = e as unknown as ClientError; if (!front.takeOver(ce, socket)) answerClientError(ce, socket); },
      // A target the router cannot decode: as the resolution front answers it (route.ts).
      frameworkErrors: (error, request, reply) => resolutions.frameworkError(error, request, reply),
      serverFactory: (handler) => {
        httpServer = http.createServer({
          maxHeaderSize: limits.headerBytes,
          requestTimeout: limits.requestTimeoutMs,
          headersTimeout: limits.headersTimeoutMs,
          connectionsCheckingInterval: Math.max(100, Math.min(30_000, limits.headersTimeoutMs / 4, limits.requestTimeoutMs / 4)),
        }, (req, res) => {
          // A resolution is answered before fastify routes it (route.ts); the rest is fastify's.
          if (!resolutions.take(req, res)) void handler(req, res);
        });
        return httpServer;
      },
    });
    const proxies = opts.trustProxy !== undefined && opts.trustProxy.length > 0 ? new ClientAddresses(opts.trustProxy) : undefined;
    // Set when the server starts to stop: /healthz says so, and every answer closes its connection.
    const lifecycle = { draining: false };
    const exchanges = registerPipeline(app, { metrics, limiter, accessLog: opts.accessLog ?? false, jsonDepth: limits.jsonDepth, proxies, lifecycle });
    resolutions = new Resolutions(service, { base: () => publicUrl ?? ownUrl, exchanges, log: app.log, answersFor: servedHosts.answersFor });
    const routes: Array<{ method: string; url: string }> = [];
    app.addHook('onRoute', (r) => { for (const method of [r.method].flat()) routes.push({ method, url: r.url }); });
    await registerOpenApi(app, packageRoot().version);

    const health = new HealthCheck(store, staleIfErrorMs, lifecycle);
    app.get('/healthz', async (_request, reply) => {
      const h = await health.report();
      return reply.code(h.status).send(h.body);
    });
    // What fails underneath is logged once when it fails and once when it is back (the engine's message stays in the log).
    store.availability.onChange((part, up) => {
      if (up) app.log.info({ part }, 'store part back');
      else app.log.error({ part, fault: store.availability.snapshot()[part]?.fault }, 'store part away');
    });
    app.get('/metrics', async (_request, reply) => reply.type('text/plain; version=0.0.4; charset=utf-8').send(metrics.render(storeGauges(store)) + storeAvailabilityMetrics(store)));
    const adminLimiter = opts.adminRateLimit === false ? undefined : new RateLimiter(opts.adminRateLimit?.perSecond ?? DEFAULT_ADMIN_RATE_LIMIT.perSecond, opts.adminRateLimit?.burst ?? DEFAULT_ADMIN_RATE_LIMIT.burst);
    const schemes = new Set([...DEFAULT_LOCATION_SCHEMES, ...(opts.locationSchemes ?? []).map((x) => x.toLowerCase())]);
    const guard = writeGuard(() => mirrors, authorities);
    registerAdmin(app, store, metrics, { importBytes: limits.importBytes, schemes, limiter: adminLimiter, clientLimiter: limiter, guard });
    const checker = typeof opts.checkLinks === 'object' ? opts.checkLinks : {};
    const auth = { limiter: adminLimiter, clientLimiter: limiter, metrics };
    registerAdminReports(app, store, { stats, auth, ...(checker.schedule !== undefined ? { schedule: checker.schedule } : {}) });
    registerAdminMint(app, store, { auth, schemes, guard });
    registerAdminHandover(app, store, { auth, mirrors: () => mirrors, authorities });
    registerAdminHarvests(app, store, { auth });
    registerWebPage(app, { mode: 'serve', resolveUrn: (urn) => localResolveUrn(store, urn, {
      ...subjectSources(authorities, linkHealth),
      askDelegate: (child, resolver) => resolveUrn(child, { resolvers: [resolver], service: 'I2Ls', timeout: DEFAULT_DELEGATE_TIMEOUT_MS }),
    }) });
    registerAdminPage(app);
    let oai: OaiProvider | undefined;
    if (opts.oai !== false) registerOai(app, () => oai!);
    resolutions.register(app);
    await app.ready();

    front = new Front(httpServer, limits.headersTimeoutMs, (e) => app.log.error({ err: e }, 'the listening socket failed'));

    const host = opts.host ?? '127.0.0.1';
    await new Promise<void>((resolveListen, reject) => {
      front.server.once('error', reject);
      front.server.listen(opts.port ?? DEFAULT_PORT, host, () => { front.server.off('error', reject); resolveListen(); });
    });
    // node:http starts tracking connections (idle ones for close, and the
    // request and header timeouts) on 'listening'; the front listens for it.
    httpServer.emit('listening');
    const port = (front.server.address() as AddressInfo).port;
    const shown = host.includes(':') ? `[${host}]` : host;
    const url = `http://${shown}:${port}`;
    ownUrl = url;
    servedHosts.add(url);
    if (publicUrl !== undefined) servedHosts.add(publicUrl);
    // A move to one of this server's own URLs for a name is a move to that name (the cycle check, store/lifecycle.ts).
    const dropOwnUrls = store.writer.addOwnUrls(ownUrnReader(ownOrigins(url, publicUrl), (h) => authorities.forHost(h), { port: String(port), held: (h) => authorities.held(h) }));
    if (opts.oai !== false) {
      // OAI-PMH §4.2: adminEmail is an address with a dotted domain (the schema's pattern).
      const contact = (opts.about?.contact ?? '').replace(/^mailto:/i, '');
      const host = new URL(publicUrl ?? ownUrl).hostname;
      const fallback = `postmaster@${host.includes('.') && !/^[\d.]+$/.test(host) ? host : 'localhost.localdomain'}`;
      oai = new OaiProvider(new StoreOaiRepository(store.harvest), {
        repositoryName: opts.oai?.repositoryName ?? 'urikit resolver',
        baseUrl: `${publicUrl ?? ownUrl}/oai`,
        adminEmails: opts.oai?.adminEmails ?? [/^\S+@(\S+\.)+\S+$/.test(contact) ? contact : fallback],
        pageSize: opts.oai?.pageSize ?? 500,
        // one key per store: a harvest goes on at any server process of it
        tokenKey: () => store.settings.secret(OAI_TOKEN_KEY),
      });
    }
    app.log.info({ url, engine: store.engine }, 'urikit resolver listening');
    if (promoted !== undefined && promoted.length > 0) app.log.warn({ authorities: promoted }, 'mirrors promoted before (a handover) are not harvested: drop them from --mirror');
    // Names one key under the 1995 draft §2.3.1 case rule, kept apart by migration 0011: the operator decides.
    const collisions = await store.listing.keyCollisions();
    if (collisions.length > 0) app.log.warn({ collisions }, 'names that are one name under the 1995 draft §2.3.1 case rule are kept under their old keys: only the lower-case one resolves');
    linkHealth.start(opts.linkHealthRefreshMs ?? 60_000, (e) => app.log.error({ err: e }, 'reloading the link health failed'));
    // What other processes change of what this one keeps in memory (a cron link check, another server's registry edit).
    const changes = await store.changes.watch(opts.changePollMs ?? 1000, async (topic) => {
      if (topic === 'link_health') await linkHealth.refresh();
      else await authorities.refresh();
    }, (e) => app.log.warn({ err: e }, 'reading the store\'s changes failed'));
    const worker = opts.checkLinks === undefined || opts.checkLinks === false ? undefined : new LinkWorker(store, {
      ...checker,
      pausedPrefixes: (checker.pausedPrefixes ?? []).map(authorityPrefix),
      view: linkHealth,
      onResult: (result) => metrics.observeLinkCheck(result.outcome),
      onPass: (summary) => {
        app.log.info({ summary }, 'link check pass');
        void store.linkHealth.countByState().then((states) => { metrics.linkStates = states; }, (e: unknown) => app.log.error({ err: e }, 'counting link states failed'));
      },
      onError: (e) => app.log.error({ err: e }, 'link check pass failed'),
    }, checker.pauseMs ?? 600_000);
    worker?.start();
    const harvester = opts.harvest === undefined || opts.harvest.sources.length === 0 ? undefined : new HarvestWorker(store, opts.harvest, {
      onReport: (r) => app.log[r.status === 'ok' ? 'info' : 'warn']({ repository: r.repo, status: r.status, pages: r.pages, applied: r.applied, refused: r.refused, ...(r.error !== undefined ? { error: r.error } : {}) }, 'harvest'),
      onError: (e, source) => app.log.error({ err: e, repository: source.baseUrl }, 'harvest failed'),
    });
    harvester?.start();
    mirrors?.start();
    const warming = (store.nameCache?.warm() ?? Promise.resolve(0))
      .then((cached) => { app.log.info({ cached }, 'name cache filled'); return cached; })
      .catch((e: unknown) => { app.log.error({ err: e }, 'filling the name cache failed'); return 0; });

    const timeoutMs = opts.shutdown?.timeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
    let closing: Promise<void> | undefined;
    const close = (how: { drainMs?: number } = {}) => (closing ??= (async () => {
      const drainMs = how.drainMs ?? opts.shutdown?.drainMs ?? 0;
      const deadline = Date.now() + timeoutMs;
      const left = () => Math.max(0, deadline - Date.now());
      // 1. /healthz answers 503 "draining" while every request is still answered (each closing its
      //    connection), so that a load balancer takes the server out before it stops accepting.
      lifecycle.draining = true;
      if (drainMs > 0) await new Promise((r) => setTimeout(r, Math.min(drainMs, left())));
      // 2. No new connection; the requests in flight are finished; keep-alive connections are closed when idle.
      const frontClosed = new Promise<void>((r) => front.server.close(() => r()));
      httpServer.closeIdleConnections();
      while (metrics.inFlight > 0 && left() > 0) {
        await new Promise((r) => setTimeout(r, 10));
        httpServer.closeIdleConnections();
      }
      httpServer.closeAllConnections();
      // Stops the timeout checks ('not running' is expected: the front listened).
      httpServer.close(() => undefined);
      await frontClosed;
      await app.close();
      dropOwnUrls();
      await worker?.close();
      await harvester?.close();
      await mirrors?.close();
      linkHealth.close();
      changes.close();
      // 3. The counts of the last seconds go to the store, and the store closes, within what is left of the bound.
      const bounded = async (what: string, work: () => Promise<unknown>) => {
        const done = await Promise.race([work().then(() => true, (e: unknown) => { app.log.error({ err: e }, `${what} failed`); return true; }), new Promise<false>((r) => setTimeout(() => r(false), left()).unref())]);
        if (!done) app.log.error(`${what}: not done within the shutdown bound of ${timeoutMs} ms`);
      };
      if (stats !== undefined) await bounded('the last statistics flush', () => stats.close());
      if (ownsStore) await bounded('closing the store', () => store.close());
      await warming;
    })());
    return { url, port, store, app, close, nameCacheReady: warming, ...(stats !== undefined ? { stats } : {}), linkHealth, routes };
  } catch (e) {
    if (ownsStore) await store.close();
    throw e;
  }
}
