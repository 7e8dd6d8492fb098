/**
 * `node bench/dist/server-ab.js --a DIR --b DIR`: the request path of two
 * builds of the resolver side by side, as a client sees it: each checkout's
 * own `urikit serve --demo` (the store of `npm start`) in a process of its
 * own, driven by autocannon over keep-alive connections, each request form
 * in turn (`/uri-res/I2L?<urn>`, `/<urn>`, `/<ElementID>`), beside a bare
 * node:http server answering the same 302. Rounds alternate the servers
 * (A, B, bare, then B, A, bare, ...) so that the machine's drift falls on
 * both; the figure is the server's own CPU time per answer (read from
 * /proc, so a loaded machine changes it less than requests a second), as
 * medians over the rounds, and B's ratio to A per form.
 *
 * Both builds must be built (`npm run build` in each). Flags: `--a`,
 * `--b` (checkouts; default b is this one), `--seconds` (default 5),
 * `--rounds` (default 5), `--connections` (default 50), `--db sqlite|URL`
 * (a postgres:// URL runs both on PostgreSQL, each in a schema of its
 * own), `--stats on|off` (default on, as deployed).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './server-measure.js';

const argv = process.argv.slice(2);
const flag = (name: string, dflt: string) => { const i = argv.indexOf(`--${name}`); return i >= 0 ? argv[i + 1]! : dflt; };
const here = resolve(fileURLToPath(import.meta.url), '../../..');

/** The demo name every form asks for, and its three request forms (1995 draft §3.3, RFC 2169 §2.1). */
const ELEMENT_ID = 'aj17-mcc';
const URN = `urn:dns:library.bigstate.edu:${ELEMENT_ID}`;
export const FORMS: ReadonlyArray<{ label: string; path: string }> = [
  { label: '/uri-res/I2L?<urn>', path: `/uri-res/I2L?${URN}` },
  { label: '/<urn>', path: `/${URN}` },
  { label: '/<ElementID>', path: `/${ELEMENT_ID}` },
];

interface AutocannonResult { requests: { average: number; total: number }; '3xx': number; errors: number; timeouts: number }
type Autocannon = (opts: { url: string; connections: number; duration: number; requests: Array<{ method: string; path: string }> }) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/** A server process under test and the CPU time it has used, µs (utime + stime of /proc/<pid>/stat, USER_HZ 100). */
interface Running { label: string; port: number; proc: ChildProcess | undefined; cpu(): number }

function procCpu(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** `urikit serve --demo` of the checkout `dir`, on its own store; resolves once it listens. */
function startBuild(label: string, dir: string, db: string, stats: boolean): Promise<Running> {
  const args = [join(dir, 'packages/cli/dist/bin.js'), 'serve', '--demo', '--json', '--port', '0', '--db', db, '--no-rate-limit'];
  if (!stats) args.push('--no-stats');
  const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((ok, fail) => {
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line !== undefined) ok({ label, port: (JSON.parse(line) as { port: number }).port, proc, cpu: () => procCpu(proc.pid!) });
    });
    proc.once('exit', (code) => fail(new Error(`${label} exited ${code} before listening: ${out}`)));
  });
}

/** A bare node:http server in this process's child answering `answer` (status, headers, body) to every request. */
function startBare(answer: { status: number; headers: Record<string, string>; body: string }): Promise<Running> {
  const code = `const http=require('node:http');const a=${JSON.stringify(answer)};
http.createServer((q,s)=>{s.writeHead(a.status,a.headers);s.end(a.body)}).listen(0,'127.0.0.1',function(){console.log(JSON.stringify({port:this.address().port}))});`;
  const proc = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((ok) => proc.stdout!.once('data', (d: Buffer) => ok({ label: 'bare node:http', port: (JSON.parse(d.toString()) as { port: number }).port, proc, cpu: () => procCpu(proc.pid!) })));
}

/** The answer the resolver gives to `path`, to be copied by the bare server (Date and Connection left to node:http). */
function sample(port: number, path: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((ok, fail) => {
    http.get({ host: '127.0.0.1', port, path }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => { body += d.toString(); });
      res.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string' && !['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(k)) headers[k] = v;
        ok({ status: res.statusCode!, headers, body });
      });
    }).on('error', fail);
  });
}

/** One round of autocannon against `server` on `path`: CPU µs per answer and requests a second. */
async function round(server: Running, path: string, seconds: number, connections: number): Promise<{ us: number; rps: number; bad: number }> {
  const before = server.cpu();
  const r = await autocannon({ url: `http://127.0.0.1:${server.port}`, connections, duration: seconds, requests: [{ method: 'GET', path }] });
  const total = Math.max(1, r.requests.total);
  return { us: (server.cpu() - before) / total, rps: r.requests.average, bad: total - r['3xx'] + r.errors + r.timeouts };
}

async function main(): Promise<void> {
  const a = resolve(flag('a', ''));
  const b = resolve(flag('b', here));
  if (flag('a', '') === '') throw new Error('--a DIR: the checkout to compare with (built)');
  const seconds = Number(flag('seconds', '5'));
  const rounds = Number(flag('rounds', '5'));
  const connections = Number(flag('connections', '50'));
  const stats = flag('stats', 'on') !== 'off';
  const dbFlag = flag('db', 'sqlite');
  const tmp = mkdtempSync(join(tmpdir(), 'urikit-ab-'));
  const dbOf = (which: string) => dbFlag === 'sqlite' ? join(tmp, `${which}.sqlite`) : `${dbFlag}${dbFlag.includes('?') ? '&' : '?'}schema=urikit_ab_${which}_${process.pid}`;
  const servers: Running[] = [];
  try {
    const A = await startBuild('A', a, dbOf('a'), stats);
    servers.push(A);
    const B = await startBuild('B', b, dbOf('b'), stats);
    servers.push(B);
    console.log(`# A/B of the request path: A ${a}, B ${b}; ${dbFlag === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, statistics ${stats ? 'on' : 'off'}; autocannon ${connections} connections × ${seconds} s, ${rounds} rounds; Node ${process.version}; load ${loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
    console.log('| form | A µs/answer | B µs/answer | bare µs/answer | B/A CPU | A/bare | B/bare | A req/s | B req/s | non-3xx |');
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const form of FORMS) {
      const answer = await sample(A.port, form.path);
      const bAnswer = await sample(B.port, form.path);
      if (answer.status !== bAnswer.status) throw new Error(`${form.label}: A answers ${answer.status}, B ${bAnswer.status}`);
      const bare = await startBare(answer);
      servers.push(bare);
      const got = new Map<Running, Array<{ us: number; rps: number; bad: number }>>([[A, []], [B, []], [bare, []]]);
      for (let i = 0; i < rounds; i++) {
        const order = i % 2 === 0 ? [A, B, bare] : [B, A, bare];
        for (const s of order) got.get(s)!.push(await round(s, form.path, seconds, connections));
      }
      const us = (s: Running) => median(got.get(s)!.map((r) => r.us));
      const rps = (s: Running) => median(got.get(s)!.map((r) => r.rps));
      const bad = [A, B].reduce((n, s) => n + got.get(s)!.reduce((m, r) => m + r.bad, 0), 0);
      console.log(`| ${form.label} | ${us(A).toFixed(1)} | ${us(B).toFixed(1)} | ${us(bare).toFixed(1)} | ${(us(B) / us(A)).toFixed(2)} | ${(us(A) / us(bare)).toFixed(2)} | ${(us(B) / us(bare)).toFixed(2)} | ${Math.round(rps(A))} | ${Math.round(rps(B))} | ${bad} |`);
      bare.proc!.kill();
      servers.pop();
    }
  } finally {
    for (const s of servers) s.proc?.kill('SIGTERM');
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
