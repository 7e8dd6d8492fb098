/**
 * HTTP servers on 127.0.0.1 that behave like the origins a link checker
 * meets (a good page, a missing one, a server under load, one that refuses
 * HEAD, redirect chains and loops, a slow one), and count on their side
 * what the checker did to them.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the server saw it. */
export interface Seen {
  method: string;
  path: string;
  userAgent: string | undefined;
  /** performance.now() when the request arrived. */
  at: number;
}

type Route = (req: IncomingMessage, res: ServerResponse, hits: number, origin: Origin) => void;

/** The behaviours, by path. `hits` counts earlier requests to the same path (any method). */
const ROUTES: Record<string, Route> = {
  '/ok': (_q, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'),
  '/missing': (_q, res) => res.writeHead(404).end('not here'),
  '/error': (_q, res) => res.writeHead(500).end('oops'),
  '/busy-then-ok': (_q, res, hits) => (hits === 0 ? res.writeHead(503, { 'retry-after': '120' }).end() : res.writeHead(200).end('ok')),
  '/too-many': (_q, res) => res.writeHead(429).end(),
  '/no-head': (req, res) => (req.method === 'HEAD' ? res.writeHead(405, { allow: 'GET' }).end() : res.writeHead(200).end('ok')),
  '/chain-1': (_q, res) => res.writeHead(301, { location: '/chain-2' }).end(),
  '/chain-2': (_q, res) => res.writeHead(302, { location: 'chain-3' }).end(),
  '/chain-3': (_q, res) => res.writeHead(307, { location: '/ok' }).end(),
  '/to-private': (_q, res) => res.writeHead(302, { location: 'http://10.255.255.1/x' }).end(),
  '/to-ftp': (_q, res) => res.writeHead(302, { location: 'ftp://127.0.0.1/pub/x' }).end(),
  '/loop-a': (_q, res) => res.writeHead(302, { location: '/loop-b' }).end(),
  '/loop-b': (_q, res) => res.writeHead(302, { location: '/loop-a' }).end(),
  '/slow': (_q, res) => { const t = setTimeout(() => res.writeHead(200).end('late'), 5000); res.on('close', () => clearTimeout(t)); },
  '/big': (req, res, _hits, origin) => {
    if (req.method === 'HEAD') return void res.writeHead(405).end();
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let sent = 0;
    const pump = (): void => {
      while (sent < 64 * 1024 * 1024 && !res.destroyed) {
        sent += chunk.length;
        origin.bodyBytesSent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    res.on('close', () => { if (!res.writableFinished) origin.bodyAborted = true; });
    pump();
  },
  '/held': (_q, res) => { const t = setTimeout(() => res.writeHead(200).end('ok'), 60); res.on('close', () => clearTimeout(t)); },
};

/** A started server and what it saw. */
export interface Origin {
  url(path: string): string;
  seen: Seen[];
  /** The most requests in flight at once. */
  maxInFlight: number;
  bodyBytesSent: number;
  bodyAborted: boolean;
  close(): Promise<void>;
}

/** Starts an origin on 127.0.0.1 on a free port. */
export async function startOrigin(host = '127.0.0.1'): Promise<Origin> {
  const hits = new Map<string, number>();
  let inFlight = 0;
  const origin: Origin = {
    url: (path) => `http://${host}:${port}${path}`,
    seen: [],
    maxInFlight: 0,
    bodyBytesSent: 0,
    bodyAborted: false,
    close: () => new Promise((done) => { server.closeAllConnections(); server.close(() => done()); }),
  };
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    origin.seen.push({ method: req.method ?? '', path, userAgent: req.headers['user-agent'], at: performance.now() });
    inFlight++;
    origin.maxInFlight = Math.max(origin.maxInFlight, inFlight);
    res.on('close', () => inFlight--);
    const n = hits.get(path) ?? 0;
    hits.set(path, n + 1);
    const route = ROUTES[path];
    if (route) route(req, res, n, origin);
    else res.writeHead(404).end();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as AddressInfo).port;
  return origin;
}

/** A port on 127.0.0.1 where nothing listens (bound, then closed). */
export async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((done) => s.listen(0, '127.0.0.1', done));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((done) => s.close(() => done()));
  return port;
}
