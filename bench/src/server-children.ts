/**
 * The child processes of `npm run bench:server`: a bulk import, a
 * resolver, and the bare node:http server it is compared with. Each runs
 * in a process of its own, so that the load generator's heap and CPU stay
 * apart from what is measured; each answers 'cpu' with its CPU time so
 * far and stops on any other message.
 */
import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import Fastify from 'fastify';
import { importNames, openStore, startServer } from '@urikit/resolver';

/** The record of name i: the same shape in every store. */
export const urnOf = (i: number) => `urn:isbn:978${String(i).padStart(10, '0')}`;
export const urlOf = (i: number) => `https://books.example.org/isbn/978${String(i).padStart(10, '0')}`;

/** NDJSON lines for names [0, n), in chunks. */
async function* ndjson(n: number): AsyncGenerator<string> {
  let chunk = '';
  for (let i = 0; i < n; i++) {
    chunk += `{"urn":"${urnOf(i)}","locations":["${urlOf(i)}"]}\n`;
    if (chunk.length > 1 << 16) { yield chunk; chunk = ''; }
  }
  if (chunk) yield chunk;
}

/** This process's CPU time so far (user + system), in microseconds. */
function cpuMicros(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

function answerCpuUntilStopped(stop: () => Promise<void> | void): void {
  process.on('message', (m) => {
    if (m === 'cpu') process.send!({ cpu: cpuMicros() });
    else void Promise.resolve(stop()).then(() => process.exit(0));
  });
}

/** Imports names [0, n) into a new store, in one transaction. */
async function childImport(db: string, n: number): Promise<void> {
  const store = await openStore(db);
  const t0 = performance.now();
  const report = await importNames(store, ndjson(n), { format: 'ndjson' });
  const importMs = performance.now() - t0;
  await store.close();
  if (!report.ok || report.created !== n) throw new Error(`import failed: ${JSON.stringify(report.errors.slice(0, 3))}`);
  process.send!({ importMs }, () => process.exit(0));
}

/**
 * The rate limit of the resolvers under test: on, as in a deployment, per
 * client address, at a rate above anything autocannon sends from its one
 * address, so that every request pays for the check and none is refused
 * (a 429 would count as a non-302): the protections are measured, not left out.
 */
export const BENCH_RATE_LIMIT = { perSecond: 1_000_000, burst: 2_000_000 };

/**
 * A resolver on `db` with a name cache of `cacheMiB` (the server's default
 * if negative), statistics and the rate limit on or off, measured once the
 * cache is filled.
 */
async function childResolver(db: string, cacheMiB: number, stats: string, limit: string): Promise<void> {
  const server = await startServer({ port: 0, db, rateLimit: limit === 'off' ? false : BENCH_RATE_LIMIT, logger: false, ...(cacheMiB >= 0 ? { nameCacheBytes: cacheMiB * 2 ** 20 } : {}), ...(stats === 'off' ? { stats: false as const } : {}) });
  // The steady state of a running resolver: its name cache filled.
  await server.nameCacheReady;
  process.send!({ port: server.port, rss: process.memoryUsage().rss });
  answerCpuUntilStopped(() => server.close());
}

/**
 * A bare node:http server answering the same 302 the resolver sends for
 * name `i`; with `mapSize` > 0, it finds the location in a Map of that
 * many names first: the least any store of that size can cost (the
 * control that shows what a larger working set costs on this machine).
 */
async function childBare(headersJson: string, mapSize: number): Promise<void> {
  const template = JSON.parse(headersJson) as { headers: Record<string, string>; body: string };
  const locations = new Map<string, string>();
  for (let i = 0; i < mapSize; i++) locations.set(urnOf(i), urlOf(i));
  const server = http.createServer((req, res) => {
    // The same work a client sees: one redirect with the resolver's headers and body.
    const url = req.url ?? '';
    const location = mapSize > 0 ? locations.get(url.slice(url.indexOf('?') + 1)) ?? '' : urlOf(Number(url.slice(-10)));
    res.writeHead(302, 'Found', { ...template.headers, location, 'content-length': String(Buffer.byteLength(`Found: ${location}\n`)) });
    res.end(`Found: ${location}\n`);
  });
  server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as { port: number }).port }));
  answerCpuUntilStopped(() => { server.close(); });
}

/**
 * fastify answering the same 302 as the bare server, from the same
 * headers, with no store, no hooks and nothing in front: the least a
 * resolver built on fastify can cost (the floor of its ratio to bare).
 */
async function childFastify(headersJson: string): Promise<void> {
  const template = JSON.parse(headersJson) as { headers: Record<string, string>; body: string };
  const app = Fastify({ logger: false });
  app.get('/*', (request, reply) => {
    const url = request.url;
    const location = urlOf(Number(url.slice(-10)));
    void reply.code(302).headers(template.headers).header('location', location).send(`Found: ${location}\n`);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.send!({ port: (app.server.address() as { port: number }).port });
  answerCpuUntilStopped(() => app.close());
}

/** Runs the child named by `argv` (after `--child`). */
export async function runChild(argv: string[]): Promise<void> {
  if (argv[0] === 'import') await childImport(argv[1]!, Number(argv[2]));
  else if (argv[0] === 'resolver') await childResolver(argv[1]!, Number(argv[2]), argv[3] ?? 'on', argv[4] ?? 'on');
  else if (argv[0] === 'fastify') await childFastify(argv[1]!);
  else await childBare(argv[1]!, Number(argv[2]));
}

/** Forks `script --child ...args` and waits for its first message. */
export function spawnChild<T = { port: number }>(script: string, args: string[]): Promise<{ child: ChildProcess } & T> {
  const child = fork(script, ['--child', ...args], { stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    child.once('message', (m: T) => resolve({ child, ...m }));
    child.once('exit', (code) => reject(new Error(`child ${args[0]} exited ${code}`)));
  });
}

/** Stops a child and waits for it to exit. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.send('stop');
  await exited;
}

/** A child's CPU time so far, in microseconds. */
export function childCpu(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once('message', (m: { cpu: number }) => resolve(m.cpu));
    child.send('cpu');
  });
}
