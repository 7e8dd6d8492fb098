/**
 * The request path as a client of `npm start` sees it: a build's own
 * `urikit serve --demo` (the demo store) in a process of its own, driven
 * by autocannon over keep-alive connections, each request form in turn
 * (`/uri-res/I2L?<urn>`, `/<urn>`, `/<ElementID>`, 1995 draft §3.3 and
 * RFC 2169 §2.1), beside a bare node:http server answering the same 302.
 * Rounds alternate the servers so that the machine's drift falls on all;
 * the figure is the server's own CPU time per answer (read from /proc, so
 * a loaded machine changes it less than requests a second), as medians
 * over the rounds. Used by `npm run bench:server` (this build, statistics
 * on and off) and by server-ab.ts (two builds).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { median } from './server-measure.js';

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
export interface Running { label: string; port: number; proc: ChildProcess | undefined; cpu(): number }

function procCpu(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** `urikit serve --demo` of the checkout `dir`, on its own store (rate limit off: one client address sends every request); resolves once it listens. */
export function startBuild(label: string, dir: string, db: string, stats: boolean): Promise<Running> {
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
export function startBare(answer: { status: number; headers: Record<string, string>; body: string }): Promise<Running> {
  const code = `const http=require('node:http');const a=${JSON.stringify(answer)};
http.createServer((q,s)=>{s.writeHead(a.status,a.headers);s.end(a.body)}).listen(0,'127.0.0.1',function(){console.log(JSON.stringify({port:this.address().port}))});`;
  const proc = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((ok) => proc.stdout!.once('data', (d: Buffer) => ok({ label: 'bare node:http', port: (JSON.parse(d.toString()) as { port: number }).port, proc, cpu: () => procCpu(proc.pid!) })));
}

/** The answer the resolver gives to `path`, to be copied by the bare server (Date and Connection left to node:http). */
export function sample(port: number, path: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
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
export async function round(server: Running, path: string, seconds: number, connections: number): Promise<{ us: number; rps: number; bad: number }> {
  const before = server.cpu();
  const r = await autocannon({ url: `http://127.0.0.1:${server.port}`, connections, duration: seconds, requests: [{ method: 'GET', path }] });
  const total = Math.max(1, r.requests.total);
  return { us: (server.cpu() - before) / total, rps: r.requests.average, bad: total - r['3xx'] + r.errors + r.timeouts };
}

/** Per form, each server's CPU µs per answer and requests a second (medians of the rounds), and the non-3xx answers of the builds. */
export interface FormResult { label: string; us: Map<Running, number>; rps: Map<Running, number>; bad: number }

/**
 * Measures `builds` (servers of `startBuild`) on every form beside a bare
 * server copying the first build's answer: `rounds` rounds, the builds'
 * order reversed every other round, bare last.
 */
export async function measureForms(builds: Running[], seconds: number, rounds: number, connections: number, onForm?: (r: FormResult, bare: Running) => void): Promise<FormResult[]> {
  const out: FormResult[] = [];
  for (const form of FORMS) {
    const answer = await sample(builds[0]!.port, form.path);
    for (const b of builds.slice(1)) {
      const other = await sample(b.port, form.path);
      if (other.status !== answer.status) throw new Error(`${form.label}: ${builds[0]!.label} answers ${answer.status}, ${b.label} ${other.status}`);
    }
    const bare = await startBare(answer);
    try {
      // A warm-up round each, not counted: the first seconds of a process are its JIT's.
      for (const s of [...builds, bare]) await round(s, form.path, Math.min(2, seconds), connections);
      const got = new Map<Running, Array<{ us: number; rps: number; bad: number }>>([...builds, bare].map((s) => [s, []]));
      for (let i = 0; i < rounds; i++) {
        const order = i % 2 === 0 ? [...builds, bare] : [...[...builds].reverse(), bare];
        for (const s of order) got.get(s)!.push(await round(s, form.path, seconds, connections));
      }
      const r: FormResult = {
        label: form.label,
        us: new Map([...got].map(([s, rs]) => [s, median(rs.map((x) => x.us))])),
        rps: new Map([...got].map(([s, rs]) => [s, median(rs.map((x) => x.rps))])),
        bad: builds.reduce((n, s) => n + got.get(s)!.reduce((m, x) => m + x.bad, 0), 0),
      };
      onForm?.(r, bare);
      out.push(r);
    } finally {
      bare.proc?.kill();
    }
  }
  return out;
}
