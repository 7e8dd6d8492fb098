/**
 * `node bench/dist/server-ab.js --a DIR --b DIR`: the request path of two
 * builds of the resolver side by side, as a client sees it (server-forms.ts:
 * each checkout's own `urikit serve --demo`, every request form, beside a
 * bare node:http server answering the same 302), and B's CPU per answer
 * to A's per form.
 *
 * Both builds must be built (`npm run build` in each). Flags: `--a`,
 * `--b` (checkouts; default b is this one), `--seconds` (default 5),
 * `--rounds` (default 5), `--connections` (default 50), `--db sqlite|URL`
 * (a postgres:// URL runs both on PostgreSQL, each in a schema of its
 * own), `--stats on|off` (default on, as deployed).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureForms, startBuild, type Running } from './server-forms.js';

const argv = process.argv.slice(2);
const flag = (name: string, dflt: string) => { const i = argv.indexOf(`--${name}`); return i >= 0 ? argv[i + 1]! : dflt; };
const here = resolve(fileURLToPath(import.meta.url), '../../..');

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
    await measureForms([A, B], seconds, rounds, connections, (r, bare) => {
      const us = (s: Running) => r.us.get(s)!;
      console.log(`| ${r.label} | ${us(A).toFixed(1)} | ${us(B).toFixed(1)} | ${us(bare).toFixed(1)} | ${(us(B) / us(A)).toFixed(2)} | ${(us(A) / us(bare)).toFixed(2)} | ${(us(B) / us(bare)).toFixed(2)} | ${Math.round(r.rps.get(A)!)} | ${Math.round(r.rps.get(B)!)} | ${r.bad} |`);
    });
  } finally {
    for (const s of servers) s.proc?.kill('SIGTERM');
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
