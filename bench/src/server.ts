/**
 * `npm run bench:server`: the resolution service under load (issue 7).
 *
 * 1. Bulk import of 1,000,000 names into a fresh SQLite store (one
 *    transaction), timed.
 * 2. I2L (`GET /uri-res/I2L?urn:...`, a 302 to the preferred location) on
 *    stores of 1,000 and of 1,000,000 names, each request for a random
 *    name, measured with autocannon on loopback, beside a bare node:http
 *    server answering the same 302 (same headers, same body) in the same
 *    run. The imports and the servers run in child processes, autocannon
 *    in this one; the servers run side by side and each round measures
 *    them all, so the two stores are compared under the same conditions
 *    (the machine is shared, and its speed drifts). A control, node:http
 *    finding the location in a Map of as many names, shows what the
 *    larger working set alone costs on this machine.
 *
 * Writes bench/RESULTS-server.md. Flags: `--names <n>` (default
 * 1000000), `--seconds <n>` per measurement (default 5), `--rounds <n>`
 * rounds (default 5; the best of each server is shown),
 * `--connections <n>` (default 32), `--out <file>`.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { importNames, openStore, startServer } from '@urikit/resolver';

/** The part of autocannon's programmatic API used here (the package ships no types). */
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  '1xx': number; '2xx': number; '3xx': number; '4xx': number; '5xx': number;
  errors: number; timeouts: number;
}
type Autocannon = (opts: {
  url: string; connections: number; duration: number;
  requests: Array<{ method: string; setupRequest: (req: { path?: string }) => { path?: string } }>;
}) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const self = fileURLToPath(import.meta.url);
const argv = process.argv.slice(2);
const flag = (name: string, dflt: string) => { const i = argv.indexOf(`--${name}`); return i >= 0 ? argv[i + 1]! : dflt; };

/** The record of name i: the same shape in both stores. */
const urnOf = (i: number) => `urn:isbn:978${String(i).padStart(10, '0')}`;
const urlOf = (i: number) => `https://books.example.org/isbn/978${String(i).padStart(10, '0')}`;

/** NDJSON lines for names [0, n), in chunks. */
async function* ndjson(n: number): AsyncGenerator<string> {
  let chunk = '';
  for (let i = 0; i < n; i++) {
    chunk += `{"urn":"${urnOf(i)}","locations":["${urlOf(i)}"]}\n`;
    if (chunk.length > 1 << 16) { yield chunk; chunk = ''; }
  }
  if (chunk) yield chunk;
}

// ---- child processes: the servers under test ----

/** Imports names [0, n) into a new SQLite store, in a process of its own (the load generator's heap stays small). */
async function childImport(db: string, n: number): Promise<void> {
  const store = await openStore(db);
  const t0 = performance.now();
  const report = await importNames(store, ndjson(n), { format: 'ndjson' });
  const importMs = performance.now() - t0;
  await store.close();
  if (!report.ok || report.created !== n) throw new Error(`import failed: ${JSON.stringify(report.errors.slice(0, 3))}`);
  process.send!({ importMs }, () => process.exit(0));
}

/** This process's CPU time so far (user + system), in microseconds. */
function cpuMicros(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

async function childResolver(db: string): Promise<void> {
  const server = await startServer({ port: 0, db, rateLimit: false, logger: false });
  // Measured once the name cache is filled: the steady state of a running resolver.
  await server.nameCacheReady;
  process.send!({ port: server.port });
  process.on('message', (m) => {
    if (m === 'cpu') process.send!({ cpu: cpuMicros() });
    else void server.close().then(() => process.exit(0));
  });
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
  process.on('message', (m) => {
    if (m === 'cpu') process.send!({ cpu: cpuMicros() });
    else { server.close(); process.exit(0); }
  });
}

function spawnChild<T = { port: number }>(args: string[]): Promise<{ child: ChildProcess } & T> {
  const child = fork(self, ['--child', ...args], { stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    child.once('message', (m: T) => resolve({ child, ...m }));
    child.once('exit', (code) => reject(new Error(`child exited ${code}`)));
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.send('stop');
  await exited;
}

/** A server child's CPU time so far, in microseconds. */
function serverCpu(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once('message', (m: { cpu: number }) => resolve(m.cpu));
    child.send('cpu');
  });
}

interface Measured { rps: number; p50: number; p99: number; non3xx: number; total: number; cpuPerRequest: number }

async function measure(server: { port: number; child: ChildProcess }, names: number, seconds: number, connections: number): Promise<Measured> {
  const cpuBefore = await serverCpu(server.child);
  const result = await autocannon({
    url: `http://127.0.0.1:${server.port}`,
    connections,
    duration: seconds,
    requests: [{
      method: 'GET',
      setupRequest: (req: { path?: string }) => ({ ...req, path: `/uri-res/I2L?${urnOf(Math.floor(Math.random() * names))}` }),
    }],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non3xx: result['1xx'] + result['2xx'] + result['4xx'] + result['5xx'] + result.errors + result.timeouts,
    total: result.requests.total,
    // The server's own cost of an answer, which the load generator sharing the cores does not blur.
    cpuPerRequest: (await serverCpu(server.child) - cpuBefore) / result.requests.total,
  };
}

async function main(): Promise<void> {
  const big = Number(flag('names', '1000000'));
  const seconds = Number(flag('seconds', '5'));
  const rounds = Number(flag('rounds', '5'));
  const connections = Number(flag('connections', '32'));
  const out = flag('out', fileURLToPath(new URL('../RESULTS-server.md', import.meta.url)));
  const dir = mkdtempSync(join(tmpdir(), 'urikit-bench-server-'));
  const lines: string[] = [];
  const log = (s = '') => { console.log(s); lines.push(s); };
  try {
    log('# Resolution service benchmark (`npm run bench:server`)');
    log();
    log(`${new Date().toISOString()} · load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} at the start · Node ${process.version} · ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'} · ${Math.round(totalmem() / 2 ** 30)} GiB · autocannon ${connections} connections × ${seconds} s per run, ${rounds} rounds over the five servers (bare; node:http + Map and urikit on each store), in rotated order, the best round of each shown, loopback`);
    log();

    // 1. Bulk import, SQLite, one transaction.
    const stores: Array<{ n: number; db: string; importMs: number }> = [];
    for (const n of [1000, big]) {
      const db = join(dir, `names-${n}.sqlite`);
      const { importMs } = await spawnChild<{ importMs: number }>(['import', db, String(n)]);
      stores.push({ n, db, importMs });
    }
    log('## Bulk import (NDJSON, SQLite, one transaction, all or nothing)');
    log();
    log('| names | seconds | names/s | goal |');
    log('|---:|---:|---:|---|');
    for (const s of stores) log(`| ${s.n.toLocaleString('en')} | ${(s.importMs / 1000).toFixed(1)} | ${Math.round(s.n / (s.importMs / 1000)).toLocaleString('en')} | ${s.n >= 1_000_000 ? (s.importMs < 60_000 ? 'under a minute: met' : 'under a minute: MISSED') : ''} |`);
    log();

    // 2. I2L under load: a resolver on each store and the bare server, side by side.
    const resolvers: Array<{ n: number; child: ChildProcess; port: number }> = [];
    for (const s of stores) resolvers.push({ ...s, ...(await spawnChild(['resolver', s.db])) });
    // The bare server copies the resolver's answer, headers and all.
    const sample = await new Promise<{ headers: Record<string, string>; body: string }>((resolve, reject) => {
      http.get({ host: '127.0.0.1', port: resolvers[0]!.port, path: `/uri-res/I2L?${urnOf(1)}` }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => { body += d.toString(); });
        res.on('end', () => {
          if (res.statusCode !== 302) reject(new Error(`resolver answered ${res.statusCode}: ${body}`));
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string' && !['date', 'connection', 'keep-alive', 'location', 'content-length'].includes(k)) headers[k] = v;
          resolve({ headers, body });
        });
      }).on('error', reject);
    });
    const bare = await spawnChild(['bare', JSON.stringify(sample), '0']);
    const maps = [];
    for (const s of stores) maps.push({ n: s.n, ...(await spawnChild(['bare', JSON.stringify(sample), String(s.n)])) });
    const servers = [
      { label: 'bare node:http', n: 0, port: bare.port, child: bare.child, names: big },
      ...maps.map((m) => ({ label: 'node:http + Map', n: m.n, port: m.port, child: m.child, names: m.n })),
      ...resolvers.map((r) => ({ label: 'urikit serve', n: r.n, port: r.port, child: r.child, names: r.n })),
    ];
    for (const sv of servers) await measure(sv, sv.names, 2, connections); // warm-up
    // Every round measures every server, in a rotated order so that none
    // is always first; the table shows the best round of each (another
    // process on the machine can only slow a run down).
    const results: Measured[][] = servers.map(() => []);
    for (let round = 0; round < rounds; round++) {
      for (let k = 0; k < servers.length; k++) {
        const i = (round + k) % servers.length;
        results[i]!.push(await measure(servers[i]!, servers[i]!.names, seconds, connections));
      }
    }
    for (const sv of servers) await stopChild(sv.child);
    const best = (xs: Measured[]) => xs.reduce((m, x) => (x.rps > m.rps ? x : m));
    const bestOf = results.map(best);
    const bareBest = bestOf[0]!;
    const rows: string[][] = [];
    // The median round of CPU per answer: steadier than throughput on a shared machine.
    const medianCpu = (xs: Measured[]) => [...xs].map((x) => x.cpuPerRequest).sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const cpuOf = results.map(medianCpu);
    servers.forEach((sv, i) => {
      const r = bestOf[i]!;
      rows.push([i === 0 ? 'any' : sv.n.toLocaleString('en'), sv.label, Math.round(r.rps).toLocaleString('en'), String(r.p50), String(r.p99), (r.rps / bareBest.rps).toFixed(2), cpuOf[i]!.toFixed(1), String(r.non3xx)]);
    });
    // The large store against the small one, for the resolver and for the Map control.
    const perRound: string[] = [];
    for (const label of ['node:http + Map', 'urikit serve']) {
      const small = servers.findIndex((sv) => sv.label === label && sv.n === 1000);
      const large = servers.findIndex((sv) => sv.label === label && sv.n === big);
      // Rounds pair the two stores a few seconds apart: the median of the
      // paired ratios is steadier than the ratio of two best rounds.
      const ratios = results[small]!.map((m, round) => results[large]![round]!.rps / m.rps);
      const median = [...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)]!;
      const delta = cpuOf[large]! - cpuOf[small]!;
      rows.push([`${big.toLocaleString('en')} vs 1,000`, label, `${(median * 100).toFixed(0)} % (median round)`, '', '', '', `${delta >= 0 ? '+' : '−'}${Math.abs(delta).toFixed(1)}`, '']);
      perRound.push(`${label}: ${ratios.map((r) => `${(r * 100).toFixed(0)} %`).join(', ')}`);
    }
    const allRounds = servers.map((sv, i) => `${sv.label}${sv.n ? `, ${sv.n.toLocaleString('en')} names` : ''}: ${results[i]!.map((m) => `${Math.round(m.rps)} (${m.cpuPerRequest.toFixed(1)} µs)`).join(', ')} requests/s (server CPU per answer)`);
    log('## I2L resolutions (`GET /uri-res/I2L?<urn>` → 302), random names');
    log();
    log('| store | server | requests/s | p50 ms | p99 ms | ratio to bare | server CPU µs per answer | non-302 |');
    log('|---|---|---:|---:|---:|---:|---:|---:|');
    for (const row of rows) log(`| ${row.join(' | ')} |`);
    log();
    log('Every round (the table shows the best of each server):');
    log();
    for (const line of allRounds) log(`- ${line}`);
    log(`- ${big.toLocaleString('en')} names vs 1,000, round by round: ${perRound.join('; ')}`);
    log();
    log('Server CPU µs per answer: the server process\'s own user + system time over the answers it gave, median round; it does not depend on how the load generator shares the two cores. The "vs" rows give the median of the rounds\' paired ratios and the difference of CPU per answer.');
    log();
    log('Goals: at least 0.70 of the bare server\'s throughput; no loss from 1,000 to 1,000,000 names.');
    log(`Load average at the end: ${loadavg().map((x) => x.toFixed(1)).join(' ')} (the machine is shared: rounds of the same server can differ severalfold).`);
    log('The resolver runs with rate limiting off (one client address here) and logging off, as the bare server does.');
    writeFileSync(out, `${lines.join('\n')}\n`);
    console.log(`\nwritten to ${out}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (argv[0] === '--child') {
  if (argv[1] === 'import') await childImport(argv[2]!, Number(argv[3]));
  else if (argv[1] === 'resolver') await childResolver(argv[2]!);
  else await childBare(argv[2]!, Number(argv[3]));
} else {
  await main();
}
