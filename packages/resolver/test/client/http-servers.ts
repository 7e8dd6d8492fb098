/**
 * Small resolvers on 127.0.0.1 for the client's tests: each answers from a
 * table of URNs (RFC 2169 `/uri-res/<service>?<urn>` and 1995 `/<ElementID>`
 * forms) and records what it was asked.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the test server saw it. */
export interface SeenRequest {
  url: string;
  headers: IncomingMessage['headers'];
}

/** A running test server. */
export interface TestServer {
  url: string;
  port: number;
  seen: SeenRequest[];
  close(): Promise<void>;
}

/** Starts a node:http server on 127.0.0.1, port 0, with `handler`. */
export async function startTestServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<TestServer> {
  const seen: SeenRequest[] = [];
  const server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/** A port on 127.0.0.1 where nothing listens (a resolver that is down). */
export async function closedPort(): Promise<number> {
  const s = await startTestServer((_q, r) => r.end());
  await s.close();
  return s.port;
}

/** The URN a resolver request asks for, in either request form. */
export function urnOf(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  if (url.startsWith('/uri-res/') && q >= 0) return decodeURIComponent(url.slice(q + 1));
  return decodeURIComponent(url.slice(1));
}

/** What a table resolver answers for one URN. */
export type Answer =
  | { redirect: string; status?: 301 | 302 }
  | { status: number; type: string; body: string; headers?: Record<string, string> };

/** A resolver answering from `table` (URN -> answer), 404 for the rest. */
export function tableResolver(table: Record<string, Answer>) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const a = table[urnOf(req)];
    if (!a) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    if ('redirect' in a) {
      res.writeHead(a.status ?? 301, 'Moved to another URN', { location: a.redirect }).end();
      return;
    }
    res.writeHead(a.status, { 'content-type': a.type, ...a.headers }).end(a.body);
  };
}
