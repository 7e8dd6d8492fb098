/**
 * `npm run bench:server -- --scale [n]`: the resolver on a SQLite store of
 * n names (default 50,000,000), the size of a national library's
 * URN:NBNs.
 *
 * 1. `urikit import --exclusive` (the CLI, a process of its own) reads n
 *    generated names as NDJSON on its standard input into a new store, in
 *    one transaction: names/s by the clock, and by the import process's own
 *    CPU time (which the other processes sharing the machine do not blur).
 *    The same for a store of 1,000 names.
 * 2. I2L (`GET /uri-res/I2L?urn:...`, random names) on the large store,
 *    beside the 1,000-name store and a bare node:http server answering the
 *    same 302, measured in the same rounds in rotated order (the children
 *    and the measurement of `npm run bench:server`).
 * 3. The resolver's resident memory per million names: its RSS after the
 *    warm-up minus that of the resolver on 1,000 names, over n / 10^6;
 *    and the store's size on disk.
 *
 * Writes its own section of bench/RESULTS-server.md (between the markers
 * of {@link SCALE_BEGIN}), leaving the rest of the file as it is. Flags:
 * `--scale <n>`, `--seconds <n>` (default 10), `--rounds <n>` (default 5),
 * `--connections <n>` (default 32), `--dir <folder>` for the stores
 * (default the system's temporary folder; removed afterwards),
 * `--name-cache-mb <n>` for the large store's resolver (default: room
 * for every name, 170 bytes a name, as `urikit serve --name-cache-mb`
 * would be set for such a store), `--shared-import` (the import through
 * the WAL, as beside a server, instead of `urikit import --exclusive`, the
 * way to load a new store), `--no-huge-pages` (the servers without
 * the huge-page setting of docs/resolver.md), `--out`.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statfsSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { spawnChild, stopChild, urlOf, urnOf } from './server-children.js';
import { measure, median, type Measured, type Target } from './server-measure.js';

/** The markers of the scale section in RESULTS-server.md: the normal mode keeps what is between them. */
export const SCALE_BEGIN = '<!-- bench:server --scale: begin -->';
export const SCALE_END = '<!-- bench:server --scale: end -->';

/** `text` with the scale section of the file at `file` (if any) after it: what the normal mode writes. */
export function withScaleSection(file: string, text: string): string {
  const old = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const a = old.indexOf(SCALE_BEGIN);
  const b = old.indexOf(SCALE_END);
  return a >= 0 && b > a ? `${text.trimEnd()}\n\n${old.slice(a, b + SCALE_END.length)}\n` : text;
}

/** The file at `file` with its scale section replaced by `section` (appended if it has none). */
function writeScaleSection(file: string, section: string): void {
  const old = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const block = `${SCALE_BEGIN}\n${section.trimEnd()}\n${SCALE_END}`;
  const a = old.indexOf(SCALE_BEGIN);
  const b = old.indexOf(SCALE_END);
  writeFileSync(file, a >= 0 && b > a ? `${old.slice(0, a)}${block}${old.slice(b + SCALE_END.length)}` : `${old.trimEnd()}\n\n${block}\n`);
}

interface Imported { wallMs: number; cpuMicros: number; maxRssKiB: number; bytes: number }

/** `urikit import --db <db> -` of names [0, n) on its standard input, timed; its CPU time from cpu-report.ts. */
async function cliImport(db: string, n: number, exclusive: boolean): Promise<Imported> {
  const bin = fileURLToPath(new URL('../../packages/cli/bin/urikit.js', import.meta.url));
  const report = fileURLToPath(new URL('./cpu-report.js', import.meta.url));
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', report, bin, 'import', '--json', ...(exclusive ? ['--exclusive'] : []), '--db', db, '-'], { stdio: ['pipe', 'pipe', 'inherit', 'pipe'] });
  let out = '';
  let usage = '';
  child.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
  (child.stdio[3] as NodeJS.ReadableStream).on('data', (d: Buffer) => { usage += d.toString(); });
  const exited = new Promise<number>((resolve) => child.once('close', (code) => resolve(code ?? 1)));
  const stdin = child.stdin!;
  // An import that stops early (a bad line, a full disk) closes its input: its report says why.
  let closed = false;
  stdin.on('error', () => { closed = true; });
  void exited.then(() => { closed = true; });
  let chunk = '';
  for (let i = 0; i < n && !closed; i++) {
    chunk += `{"urn":"${urnOf(i)}","locations":["${urlOf(i)}"]}\n`;
    if (chunk.length > 1 << 16) {
      if (!stdin.write(chunk)) await Promise.race([new Promise((r) => stdin.once('drain', r)), exited]);
      chunk = '';
    }
    if (i % 5_000_000 === 0 && i > 0) console.log(`  ${i.toLocaleString('en')} names sent`);
  }
  if (!closed) stdin.end(chunk);
  const code = await exited;
  const wallMs = performance.now() - t0;
  const r = JSON.parse(out || '{}') as { ok?: boolean; created?: number; errors?: unknown[] };
  if (code !== 0 || r.ok !== true || r.created !== n) throw new Error(`urikit import failed (exit ${code}): ${out.slice(0, 500)}`);
  const u = JSON.parse(usage) as { userMicros: number; systemMicros: number; maxRssKiB: number };
  const bytes = ['', '-wal'].reduce((s, ext) => s + (existsSync(db + ext) ? statSync(db + ext).size : 0), 0);
  return { wallMs, cpuMicros: u.userMicros + u.systemMicros, maxRssKiB: u.maxRssKiB, bytes };
}

/** Reads every row of the names table of the SQLite file `db` once; the milliseconds it took. */
function warmNamesTable(db: string): number {
  const t0 = performance.now();
  const raw = new DatabaseSync(db, { readOnly: true });
  try {
    raw.prepare('select sum(length(data)) from names').get();
  } finally {
    raw.close();
  }
  return performance.now() - t0;
}

/** Resident memory of a process, bytes (Linux /proc). */
function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : NaN;
}

const fmt = (x: number) => Math.round(x).toLocaleString('en');
const gib = (bytes: number) => (bytes / 2 ** 30).toFixed(1);

/** Runs the scale mode with the command line's flags (`script` is the benchmark's entry, for its children). */
export async function runScale(argv: string[], script: string): Promise<void> {
  const flag = (name: string, dflt: string) => { const i = argv.indexOf(`--${name}`); const v = i >= 0 ? argv[i + 1] : undefined; return v !== undefined && !v.startsWith('--') ? v : dflt; };
  const n = Number(flag('scale', '50000000'));
  const seconds = Number(flag('seconds', '10'));
  const rounds = Number(flag('rounds', '5'));
  const connections = Number(flag('connections', '32'));
  const out = flag('out', fileURLToPath(new URL('../RESULTS-server.md', import.meta.url)));
  const parent = flag('dir', tmpdir());
  // The arena of the name cache: about 140 bytes a name of this shape, with room to spare.
  const cacheMiB = Number(flag('name-cache-mb', String(Math.max(256, Math.ceil((n * 170) / 2 ** 20)))));
  // About 600 bytes a name in the store, as much again in the WAL until it is checkpointed, and the staged rows.
  const need = n * 1500;
  const free = statfsSync(parent).bavail * statfsSync(parent).bsize;
  if (free < need) throw new Error(`${parent} has ${gib(free)} GiB free; ${n.toLocaleString('en')} names need about ${gib(need)} GiB (--dir elsewhere, or a smaller --scale)`);
  const dir = mkdtempSync(join(parent, 'urikit-bench-scale-'));
  const lines: string[] = [];
  const log = (s = '') => { console.log(s); lines.push(s); };
  const servers: Array<Target & { label: string; rss: number }> = [];
  try {
    log(`## ${n.toLocaleString('en')} names on SQLite (\`npm run bench:server -- --scale${n === 50_000_000 ? '' : ` ${n}`}\`)`);
    log();
    log(`${new Date().toISOString()} · load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} at the start · Node ${process.version} · ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'} · ${Math.round(totalmem() / 2 ** 30)} GiB · autocannon ${connections} connections × ${seconds} s per run, ${rounds} rounds in rotated order, loopback`);
    log();
    const small = join(dir, 'names-1000.sqlite');
    const big = join(dir, `names-${n}.sqlite`);
    console.log(`importing 1,000 and ${n.toLocaleString('en')} names with urikit import ...`);
    // A first load into a new store, which no server reads yet: the store held exclusively (docs/resolver.md), unless --shared-import.
    const exclusive = !argv.includes('--shared-import');
    const imports = [{ n: 1000, db: small, r: await cliImport(small, 1000, exclusive) }, { n, db: big, r: await cliImport(big, n, exclusive) }];
    log(`### \`urikit import${exclusive ? ' --exclusive' : ''}\` (NDJSON on standard input, one transaction, all or nothing)`);
    log();
    log(exclusive
      ? 'A first load into a new store, held exclusively (`--exclusive`: a rollback journal instead of the WAL, each page written once; `--shared-import` measures the import beside readers instead).'
      : 'The import beside readers (`--shared-import`: through the WAL, as into a store a server is reading).');
    log();
    log('| names | seconds | names/s | names per CPU second of the import | import peak RSS MiB | store on disk GiB |');
    log('|---:|---:|---:|---:|---:|---:|');
    for (const { n: k, r } of imports) log(`| ${k.toLocaleString('en')} | ${(r.wallMs / 1000).toFixed(1)} | ${fmt(k / (r.wallMs / 1000))} | ${fmt(k / (r.cpuMicros / 1e6))} | ${fmt(r.maxRssKiB / 1024)} | ${(r.bytes / 2 ** 30).toFixed(2)} |`);
    log();
    log(`Load average after the import: ${loadavg().map((x) => x.toFixed(1)).join(' ')}. Names per CPU second: the names over the import process's own user + system time, what it would reach alone on a core.`);
    log();

    // A resolver that has run a while finds its store's table in the OS page
    // cache; right after an import that wrote gigabytes it does not: read
    // the names table of each store once, as a warm server's reads would have.
    const warmMs = imports.map(({ db }) => warmNamesTable(db));
    log(`Before the servers start, the names table of each store is read once into the OS page cache (${warmMs.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ')}), as a resolver that has run a while finds it.`);
    log();
    // The deployment setting of docs/resolver.md for a name cache of gigabytes: its buffers in 2 MiB pages.
    const hugePages = !argv.includes('--no-huge-pages');
    if (hugePages) process.env.GLIBC_TUNABLES = [process.env.GLIBC_TUNABLES, 'glibc.malloc.hugetlb=1'].filter(Boolean).join(':');
    log(`Every server runs with ${hugePages ? '`GLIBC_TUNABLES=glibc.malloc.hugetlb=1` (the setting docs/resolver.md gives for a name cache of gigabytes: its buffers in 2 MiB pages; `--no-huge-pages` leaves it out)' : 'the C library\'s default pages (`--no-huge-pages`)'}.`);
    log();
    console.log('starting the servers ...');
    for (const s of imports) {
      const started = await spawnChild<{ port: number; rss: number }>(script, ['resolver', s.db, s.n === n ? String(cacheMiB) : '-1', 'on', 'on']);
      servers.push({ label: `urikit serve, ${s.n.toLocaleString('en')} names`, names: s.n, ...started });
    }
    const bare = await spawnChild<{ port: number }>(script, ['bare', JSON.stringify(await sampleOf(servers[0]!.port)), '0']);
    servers.unshift({ label: 'bare node:http', names: n, rss: 0, ...bare });
    for (const sv of servers) await measure(sv, 3, connections); // warm-up
    for (const sv of servers) sv.rss = rssOf(sv.child.pid!);
    const results: Measured[][] = servers.map(() => []);
    for (let round = 0; round < rounds; round++) {
      for (let k = 0; k < servers.length; k++) {
        const i = (round + k) % servers.length;
        results[i]!.push(await measure(servers[i]!, seconds, connections));
      }
    }
    const paired = (a: number, b: number) => median(results[a]!.map((m, k) => m.rps / results[b]![k]!.rps));
    log('### I2L resolutions (`GET /uri-res/I2L?<urn>` → 302), random names');
    log();
    log('| server | requests/s (median) | p50 ms | p99 ms (median round) | p99 ms (worst round) | ratio to bare | server CPU µs per answer | resident MiB after warm-up | non-302 |');
    log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
    servers.forEach((sv, i) => {
      const rs = results[i]!;
      log(`| ${sv.label} | ${fmt(median(rs.map((m) => m.rps)))} | ${median(rs.map((m) => m.p50))} | ${median(rs.map((m) => m.p99))} | ${Math.max(...rs.map((m) => m.p99))} | ${i === 0 ? '1.00' : paired(i, 0).toFixed(2)} | ${median(rs.map((m) => m.cpuPerRequest)).toFixed(1)} | ${sv.rss ? fmt(sv.rss / 2 ** 20) : ''} | ${rs.reduce((a, m) => a + m.non3xx, 0)} |`);
    });
    log();
    log('Every round, requests/s (server CPU µs per answer):');
    log();
    servers.forEach((sv, i) => log(`- ${sv.label}: ${results[i]!.map((m) => `${Math.round(m.rps)} (${m.cpuPerRequest.toFixed(1)})`).join(', ')}`));
    log();
    const ratio = paired(2, 1);
    const p99 = median(results[2]!.map((m) => m.p99));
    const importRate = n / (imports[1]!.r.wallMs / 1000);
    const perMillion = (servers[2]!.rss - servers[1]!.rss) / (n / 1e6);
    log('### Goals');
    log();
    log(`- import: ${fmt(importRate)} names/s by the clock (goal ≥ 150,000: ${importRate >= 150_000 ? 'met' : 'MISSED'}); ${fmt(n / (imports[1]!.r.cpuMicros / 1e6))} names per CPU second of the import process`);
    log(`- I2L, ${n.toLocaleString('en')} names to 1,000: ${ratio.toFixed(2)} (goal ≥ 0.90: ${ratio >= 0.9 ? 'met' : 'MISSED'}; rounds ${results[2]!.map((m, k) => (m.rps / results[1]![k]!.rps).toFixed(2)).join(', ')})`);
    log(`- I2L p99 on ${n.toLocaleString('en')} names: ${p99} ms, median round (goal ≤ 10 ms: ${p99 <= 10 ? 'met' : 'MISSED'})`);
    log(`- resident memory of the resolver: ${(perMillion / 2 ** 20).toFixed(1)} MiB per million names (${fmt(servers[2]!.rss / 2 ** 20)} MiB on ${n.toLocaleString('en')} names − ${fmt(servers[1]!.rss / 2 ** 20)} MiB on 1,000, after the warm-up; its name cache was given ${fmt(cacheMiB)} MiB (\`--name-cache-mb\`), room for every name, and filled before the measurement)`);
    log(`- the store on disk: ${gib(imports[1]!.r.bytes)} GiB (${fmt(imports[1]!.r.bytes / n)} bytes a name: the current row, the history row and their indexes)`);
    log();
    log(`Load average at the end: ${loadavg().map((x) => x.toFixed(1)).join(' ')} (the machine is shared with other work: the ratios come from rounds measured seconds apart).`);
    writeScaleSection(out, lines.join('\n'));
    console.log(`\nwritten to ${out}`);
  } finally {
    for (const sv of servers) await stopChild(sv.child);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The resolver's answer for name 1, which the bare server copies (headers and body). */
async function sampleOf(port: number): Promise<{ headers: Record<string, string>; body: string }> {
  const res = await fetch(`http://127.0.0.1:${port}/uri-res/I2L?${urnOf(1)}`, { redirect: 'manual' });
  const body = await res.text();
  if (res.status !== 302) throw new Error(`resolver answered ${res.status}: ${body}`);
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => { if (!['date', 'connection', 'keep-alive', 'location', 'content-length'].includes(k)) headers[k] = v; });
  return { headers, body };
}
