/**
 * `npm run bench:server`: the resolution service under load.
 *
 * 1. Bulk import of 1,000 and 1,000,000 names (`--names`) into fresh
 *    stores, SQLite and PostgreSQL (one transaction each), timed.
 * 2. I2L (`GET /uri-res/I2L?urn:...`, a 302 to the preferred location) on
 *    each store, each request for a random name, measured with autocannon
 *    on loopback, beside a bare node:http server answering the same 302
 *    (same headers, same body) in the same run. The imports and the
 *    servers run in child processes, autocannon in this one; the servers
 *    run side by side and each round measures them all in a rotated order,
 *    so that every store is compared under the same conditions (the
 *    machine is shared, and its speed drifts; the servers a goal compares
 *    are measured one after the other). A control, node:http
 *    finding the location in a Map of as many names, shows what the larger
 *    working set alone costs on this machine; a resolver on the large
 *    PostgreSQL store without its name cache shows what the cache buys.
 * 3. Resolution statistics (on by default: counted in memory, flushed to
 *    the store in bulk every 5 s) against a resolver with them off, and
 *    the rate limit (on in every other resolver, above the benchmark's
 *    rate) against a resolver with it off, each on its own copy of the
 *    large SQLite store: the goal is at least 95% of the throughput for
 *    each. The rate limit in the same rounds; statistics in pairs after
 *    them (server-stats.ts: off then on, `--stats-rounds` pairs, default
 *    12, each followed by a pause for the statistics' idle-time work).
 * 4. The request forms as a client of `npm start` meets them
 *    (server-forms.ts): this build's `urikit serve --demo`, statistics on
 *    and off, each form (`/uri-res/I2L?<urn>`, `/<urn>`, `/<ElementID>`)
 *    against a bare node:http server answering the same 302, autocannon
 *    with `--form-connections` keep-alive connections (default 50), the
 *    demo store; the goal is the resolver's CPU per answer at most 1.25×
 *    bare's on every form. `--forms off` skips it; `--forms-only` runs it
 *    alone, printing its table.
 *
 * Ratios are the medians of the rounds' paired ratios (two servers
 * measured seconds apart), steadier than the ratio of two best rounds;
 * CPU per answer is the server's own, and PostgreSQL's for a resolver on
 * PostgreSQL (one machine, two cores for all: load generator, resolver,
 * database). Writes bench/RESULTS-server.md. Flags: `--names <n>`
 * (default 1000000), `--seconds <n>` per measurement (default 5),
 * `--rounds <n>` (default 5), `--connections <n>` (default 32), `--pg
 * <url>` (default env URIKIT_BENCH_PG or URIKIT_TEST_PG or
 * postgres://postgres@127.0.0.1:5432/test; `--pg none` skips
 * PostgreSQL), `--out <file>`. `--scale [n]`: the SQLite store of 50
 * million names instead (server-scale.ts).
 */
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { BENCH_RATE_LIMIT, runChild, spawnChild, stopChild, urnOf } from './server-children.js';
import { measure, median, type Measured, type Target } from './server-measure.js';
import { runScale, withScaleSection } from './server-scale.js';
import { measureStatistics, statisticsReport } from './server-stats.js';
import { measureForms, startBuild, type Running } from './server-forms.js';

const self = fileURLToPath(import.meta.url);
const argv = process.argv.slice(2);
const flag = (name: string, dflt: string) => { const i = argv.indexOf(`--${name}`); return i >= 0 ? argv[i + 1]! : dflt; };

interface Store { engine: 'SQLite' | 'PostgreSQL'; n: number; db: string; importMs: number }
interface Server extends Target { label: string; store?: Store; rss?: number }

/** A connection to the PostgreSQL of the benchmark (it makes the schemas and watches the backends), or why there is none. */
async function postgresAt(url: string): Promise<{ client: pg.Client } | { problem: string }> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return { client };
  } catch (e) {
    await client.end().catch(() => undefined);
    return { problem: (e as Error).message };
  }
}

/** The resolver's answer to copy: the bare server sends the same headers and body. */
function sampleAnswer(port: number): Promise<{ headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: `/uri-res/I2L?${urnOf(1)}` }, (res) => {
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
}

async function main(): Promise<void> {
  const big = Number(flag('names', '1000000'));
  const seconds = Number(flag('seconds', '5'));
  const rounds = Number(flag('rounds', '5'));
  const statsRounds = Number(flag('stats-rounds', '12'));
  const connections = Number(flag('connections', '32'));
  const pgUrl = flag('pg', process.env.URIKIT_BENCH_PG ?? process.env.URIKIT_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/test');
  const out = flag('out', fileURLToPath(new URL('../RESULTS-server.md', import.meta.url)));
  const dir = mkdtempSync(join(tmpdir(), 'urikit-bench-server-'));
  const lines: string[] = [];
  const log = (s = '') => { console.log(s); lines.push(s); };
  const postgres = pgUrl === 'none' ? { problem: 'skipped with --pg none' } : await postgresAt(pgUrl);
  const monitor = 'client' in postgres ? postgres.client : undefined;
  const schemas: string[] = [];
  const servers: Server[] = [];
  try {
    log('# Resolution service benchmark (`npm run bench:server`)');
    log();
    log(`${new Date().toISOString()} · load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} at the start · Node ${process.version} · ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'} · ${Math.round(totalmem() / 2 ** 30)} GiB · autocannon ${connections} connections × ${seconds} s per run, ${rounds} rounds over every server, in rotated order with the servers a goal compares one after the other, loopback`);
    if ('problem' in postgres) log(`\n**PostgreSQL NOT MEASURED** (${pgUrl}: ${postgres.problem}); set URIKIT_BENCH_PG or --pg.`);
    else {
      const setting = async (name: string) => (await postgres.client.query<{ v: string }>('select current_setting($1) as v', [name])).rows[0]!.v;
      log(`\nPostgreSQL ${await setting('server_version')} at ${pgUrl.replace(/\/\/[^@/]*@/, '//')}, on the same machine (shared_buffers ${await setting('shared_buffers')}, out of the box).`);
    }
    log();

    // 1. Bulk import, one transaction per store.
    const stores: Store[] = [];
    for (const engine of ['SQLite', 'PostgreSQL'] as const) {
      if (engine === 'PostgreSQL' && !monitor) continue;
      for (const n of [1000, big]) {
        let db = join(dir, `names-${n}.sqlite`);
        if (engine === 'PostgreSQL') {
          const schema = `urikit_bench_${process.pid}_${n}`;
          schemas.push(schema);
          await monitor!.query(`drop schema if exists ${schema} cascade`);
          db = `${pgUrl}${pgUrl.includes('?') ? '&' : '?'}schema=${schema}`;
        }
        const { importMs } = await spawnChild<{ importMs: number }>(self, ['import', db, String(n)]);
        stores.push({ engine, n, db, importMs });
      }
    }
    log('## Bulk import (NDJSON, one transaction, all or nothing)');
    log();
    log('| store | names | seconds | names/s |');
    log('|---|---:|---:|---:|');
    for (const s of stores) log(`| ${s.engine} | ${s.n.toLocaleString('en')} | ${(s.importMs / 1000).toFixed(1)} | ${Math.round(s.n / (s.importMs / 1000)).toLocaleString('en')} |`);
    log();

    // 2. I2L under load: the resolvers, the bare server and the controls, side by side.
    const resolver = async (label: string, store: Store, cacheMiB = -1, stats = 'on', limit = 'on') => {
      const app = `urikit-bench-${servers.length}`;
      const db = store.engine === 'PostgreSQL' ? `${store.db}&application_name=${app}` : store.db;
      const started = await spawnChild<{ port: number; rss: number }>(self, ['resolver', db, String(cacheMiB), stats, limit]);
      servers.push({ label, store, names: store.n, ...started, ...(store.engine === 'PostgreSQL' ? { pgApplication: app } : {}) });
    };
    for (const s of stores) await resolver(`urikit serve, ${s.engine}`, s);
    const pgBig = stores.find((s) => s.engine === 'PostgreSQL' && s.n === big);
    if (pgBig) await resolver('urikit serve, PostgreSQL, no name cache', pgBig, 0);
    // Statistics off, on a copy of the large SQLite store (another process's commits are no business of this one's).
    const sqliteBigStore = stores.find((s) => s.engine === 'SQLite' && s.n === big)!;
    const offCopy = join(dir, `names-${big}-statistics-off.sqlite`);
    copyFileSync(sqliteBigStore.db, offCopy);
    await resolver('urikit serve, SQLite, statistics off', { ...sqliteBigStore, db: offCopy }, -1, 'off');
    // The rate limit off, on another copy: what the protections cost.
    const unlimitedCopy = join(dir, `names-${big}-rate-limit-off.sqlite`);
    copyFileSync(sqliteBigStore.db, unlimitedCopy);
    await resolver('urikit serve, SQLite, rate limit off', { ...sqliteBigStore, db: unlimitedCopy }, -1, 'on', 'off');
    const sample = JSON.stringify(await sampleAnswer(servers[0]!.port));
    const bare = await spawnChild<{ port: number }>(self, ['bare', sample, '0']);
    servers.unshift({ label: 'bare node:http', names: big, ...bare });
    for (const n of [1000, big]) servers.push({ label: 'node:http + Map', names: n, ...(await spawnChild<{ port: number }>(self, ['bare', sample, String(n)])) });
    servers.push({ label: 'fastify alone', names: big, ...(await spawnChild<{ port: number }>(self, ['fastify', sample])) });

    const paired = (a: number, b: number) => median(results[a]!.map((m, round) => m.rps / results[b]![round]!.rps));
    const find = (label: string, n: number) => servers.findIndex((sv) => sv.label === label && sv.names === n);
    // The order of a round: the servers a goal compares measured one after
    // the other where they can be (the machine's speed drifts within a
    // round), each round starting one place further on.
    const order = [
      find('urikit serve, SQLite, statistics off', big), find('urikit serve, SQLite', big), find('urikit serve, SQLite, rate limit off', big),
      find('urikit serve, PostgreSQL', big), 0, find('urikit serve, SQLite', 1000), find('urikit serve, PostgreSQL', 1000),
      find('urikit serve, PostgreSQL, no name cache', big), find('node:http + Map', 1000), find('node:http + Map', big),
    ].filter((i) => i >= 0);
    for (let i = 0; i < servers.length; i++) if (!order.includes(i)) order.push(i);

    for (const sv of servers) await measure(sv, 2, connections, monitor); // warm-up
    const results: Measured[][] = servers.map(() => []);
    for (let round = 0; round < rounds; round++) {
      for (let k = 0; k < order.length; k++) {
        const i = order[(round + k) % order.length]!;
        results[i]!.push(await measure(servers[i]!, seconds, connections, monitor));
      }
    }

    // Statistics on and off, in pairs with pauses (server-stats.ts).
    const statsOff = find('urikit serve, SQLite, statistics off', big);
    const statistics = statisticsReport(await measureStatistics(servers[statsOff]!, servers[find('urikit serve, SQLite', big)]!, statsRounds, seconds, connections), big, seconds);

    log('## I2L resolutions (`GET /uri-res/I2L?<urn>` → 302), random names');
    log();
    log('| store | server | requests/s (median) | p50 ms | p99 ms | ratio to bare | server CPU µs per answer | PostgreSQL CPU µs per answer | resident MiB | non-302 |');
    log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
    servers.forEach((sv, i) => {
      const rs = results[i]!;
      const pgCpu = rs.every((m) => m.pgCpuPerRequest !== undefined) ? median(rs.map((m) => m.pgCpuPerRequest!)).toFixed(1) : '';
      const store = sv.store ? `${sv.store.engine}, ${sv.names.toLocaleString('en')}` : sv.label.startsWith('node:http + Map') ? `Map, ${sv.names.toLocaleString('en')}` : 'none';
      log(`| ${store} | ${sv.label} | ${Math.round(median(rs.map((m) => m.rps))).toLocaleString('en')} | ${median(rs.map((m) => m.p50))} | ${median(rs.map((m) => m.p99))} | ${i === 0 ? '1.00' : paired(i, 0).toFixed(2)} | ${median(rs.map((m) => m.cpuPerRequest)).toFixed(1)} | ${pgCpu} | ${sv.rss ? Math.round(sv.rss / 2 ** 20) : ''} | ${rs.reduce((a, m) => a + m.non3xx, 0)} |`);
    });
    log();
    log('Every round, requests/s (server CPU µs per answer, + PostgreSQL\'s):');
    log();
    servers.forEach((sv, i) => log(`- ${sv.label}, ${sv.names.toLocaleString('en')} names: ${results[i]!.map((m) => `${Math.round(m.rps)} (${m.cpuPerRequest.toFixed(1)}${m.pgCpuPerRequest !== undefined && sv.pgApplication ? ` + ${m.pgCpuPerRequest.toFixed(1)}` : ''})`).join(', ')}`));
    log();

    // 3. The goals, each from the paired rounds of this run.
    const goal = (what: string, a: number, b: number, min: number) => {
      if (a < 0 || b < 0) return log(`- ${what}: not measured`);
      const r = paired(a, b);
      // Two decimals, or three where two would show the goal itself for a ratio below it.
      const shown = r < min && r.toFixed(2) === min.toFixed(2) ? r.toFixed(3) : r.toFixed(2);
      log(`- ${what}: ${shown} (goal ≥ ${min.toFixed(2)}: ${r >= min ? 'met' : 'MISSED'}; rounds ${results[a]!.map((m, k) => (m.rps / results[b]![k]!.rps).toFixed(2)).join(', ')})`);
    };
    const sqliteSmall = find('urikit serve, SQLite', 1000);
    const sqliteBig = find('urikit serve, SQLite', big);
    const pgSmall = find('urikit serve, PostgreSQL', 1000);
    const pgBigAt = find('urikit serve, PostgreSQL', big);
    for (const line of statistics.lines) log(line);
    log('## Goals (medians of the rounds\' paired ratios)');
    log();
    goal('SQLite, 1,000 names, to bare', sqliteSmall, 0, 0.85);
    goal(`SQLite, ${big.toLocaleString('en')} names, to bare`, sqliteBig, 0, 0.85);
    goal(`PostgreSQL, ${big.toLocaleString('en')} names, to bare`, pgBigAt, 0, 0.65);
    goal(`PostgreSQL to SQLite, ${big.toLocaleString('en')} names`, pgBigAt, sqliteBig, 0.75);
    goal('PostgreSQL to SQLite, 1,000 names', pgSmall, sqliteSmall, 0.75);
    goal(`PostgreSQL, ${big.toLocaleString('en')} names: with the name cache to without`, pgBigAt, find('urikit serve, PostgreSQL, no name cache', big), 1);
    goal(`node:http + Map, ${big.toLocaleString('en')} to 1,000 names`, find('node:http + Map', big), find('node:http + Map', 1000), 0.9);
    goal(`SQLite, ${big.toLocaleString('en')} to 1,000 names`, sqliteBig, sqliteSmall, 0.9);
    log(`- SQLite, ${big.toLocaleString('en')} names: resolution statistics on (the default) to off: ${statistics.ratio < 0.95 && statistics.ratio.toFixed(2) === '0.95' ? statistics.ratio.toFixed(3) : statistics.ratio.toFixed(2)} (goal ≥ 0.95: ${statistics.ratio >= 0.95 ? 'met' : 'MISSED'}; ${statistics.ratios.length} pairs, above; in the main rounds ${results[sqliteBig]!.map((m, k) => (m.rps / results[statsOff]![k]!.rps).toFixed(2)).join(', ')})`);
    goal(`SQLite, ${big.toLocaleString('en')} names: rate limit on (as deployed) to off`, sqliteBig, find('urikit serve, SQLite, rate limit off', big), 0.95);
    // What the CPU per answer allows: when the two cores are saturated (load
    // average above 2), every server gets its share of them, and its
    // throughput to bare's tends to bare's CPU per answer over its own.
    const cpuOf = (i: number, pg = false) => median(results[i]!.map((m) => m.cpuPerRequest + (pg ? m.pgCpuPerRequest ?? 0 : 0)));
    const ceiling = (what: string, i: number, pg = false) => { if (i >= 0) log(`- ${what}: ${(cpuOf(0) / cpuOf(i, pg)).toFixed(2)} (${cpuOf(0).toFixed(1)} µs ÷ ${cpuOf(i, pg).toFixed(1)} µs${pg ? ', the resolver\'s and PostgreSQL\'s' : ''})`); };
    log();
    log('Bare\'s CPU per answer over the resolver\'s (medians of the rounds): the ratio to bare the resolver reaches on a machine whose cores are all busy, as a shared one is:');
    log();
    ceiling('SQLite, 1,000 names', sqliteSmall);
    ceiling(`SQLite, ${big.toLocaleString('en')} names`, sqliteBig);
    ceiling(`PostgreSQL, ${big.toLocaleString('en')} names`, pgBigAt, true);
    ceiling('fastify alone (the same 302, no store, no hooks, nothing in front): the floor of any resolver on fastify', find('fastify alone', big));
    log();
    log('CPU µs per answer: the process\'s own user + system time over the answers it gave, median round; PostgreSQL\'s is its backends\' for that resolver (read from /proc). Neither depends on how the load generator shares the two cores, which throughput does.');
    log(`The resolvers but the one marked off run with their rate limit on (${BENCH_RATE_LIMIT.perSecond.toLocaleString('en')} requests/s per client address, burst ${BENCH_RATE_LIMIT.burst.toLocaleString('en')}: above the benchmark's rate, so every request pays for the check and none is refused) and logging off; each fills its name cache (256 MiB by default) before it is measured.`);
    if (flag('forms', 'on') !== 'off') await formsSection(log, dir, seconds, rounds, Number(flag('form-connections', '50')));
    log(`Load average at the end: ${loadavg().map((x) => x.toFixed(1)).join(' ')} (the machine is shared: rounds of the same server can differ severalfold).`);
    writeFileSync(out, withScaleSection(out, `${lines.join('\n')}\n`));
    console.log(`\nwritten to ${out}`);
  } finally {
    for (const sv of servers) await stopChild(sv.child);
    for (const schema of schemas) await monitor?.query(`drop schema if exists ${schema} cascade`);
    await monitor?.end();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Section 4: the request forms on the demo store of `npm start`, statistics on and off, against bare (server-forms.ts). */
async function formsSection(log: (s?: string) => void, dir: string, seconds: number, rounds: number, connections: number): Promise<void> {
  const checkout = fileURLToPath(new URL('../..', import.meta.url));
  const servers: Running[] = [];
  try {
    const on = await startBuild('statistics on', checkout, join(dir, 'forms-on.sqlite'), true);
    servers.push(on);
    const off = await startBuild('statistics off', checkout, join(dir, 'forms-off.sqlite'), false);
    servers.push(off);
    log();
    log(`## Request forms on the demo store of \`npm start\` (\`urikit serve --demo\`, rate limit off), autocannon ${connections} keep-alive connections × ${seconds} s, ${rounds} rounds`);
    log();
    log('| form | statistics on µs/answer | off µs/answer | bare µs/answer | on/bare CPU (goal ≤ 1.25) | off/bare CPU | on/off requests/s (goal ≥ 0.95) | on req/s | bare req/s | non-3xx |');
    log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    await measureForms([on, off], seconds, rounds, connections, (r, bare) => {
      const us = (x: Running) => r.us.get(x)!;
      const ratio = us(on) / us(bare);
      log(`| ${r.label} | ${us(on).toFixed(1)} | ${us(off).toFixed(1)} | ${us(bare).toFixed(1)} | ${ratio.toFixed(2)} ${ratio <= 1.25 ? 'met' : 'MISSED'} | ${(us(off) / us(bare)).toFixed(2)} | ${(r.rps.get(on)! / r.rps.get(off)!).toFixed(2)} | ${Math.round(r.rps.get(on)!)} | ${Math.round(r.rps.get(bare)!)} | ${r.bad} |`);
    });
    log();
    log('One name asked again and again (the demo\'s `aj17-mcc`), so the name cache always answers: what the request path costs, the store aside. CPU per answer is the server process\'s own (from /proc); bare copies the resolver\'s answer byte for byte (headers and body).');
    log();
  } finally {
    for (const x of servers) x.proc?.kill('SIGTERM');
  }
}

if (argv[0] === '--child') await runChild(argv.slice(1));
else if (argv.includes('--forms-only')) {
  const dir = mkdtempSync(join(tmpdir(), 'urikit-bench-forms-'));
  try {
    await formsSection((s = '') => console.log(s), dir, Number(flag('seconds', '5')), Number(flag('rounds', '5')), Number(flag('form-connections', '50')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
} else if (argv.includes('--scale')) await runScale(argv, self);
else await main();
