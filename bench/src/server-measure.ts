/**
 * One measurement of `npm run bench:server`: autocannon against one
 * server for a few seconds, requests for random names, and the CPU time
 * the answers cost: the server process's own, and for a resolver on
 * PostgreSQL the database's too (its backends, found by the
 * application_name the resolver connects with, read from /proc: the
 * database runs on the same machine here).
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import pg from 'pg';
import { childCpu, urnOf } from './server-children.js';

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

/** A server under test. */
export interface Target {
  port: number;
  child: ChildProcess;
  /** Names it holds: requests ask for one of [0, names). */
  names: number;
  /** The application_name of its PostgreSQL connections, if it has any. */
  pgApplication?: string;
}

/** What one run of one server gave. */
export interface Measured {
  rps: number;
  p50: number;
  p99: number;
  non3xx: number;
  total: number;
  /** The server process's CPU time per answer, µs. */
  cpuPerRequest: number;
  /** PostgreSQL's CPU time per answer (the server's backends), µs; undefined when it cannot be read. */
  pgCpuPerRequest: number | undefined;
}

/** Clock ticks a second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS = 100;

/**
 * The CPU time so far of the PostgreSQL backends of one application,
 * µs, by backend pid (a backend may come and go between two readings).
 */
export async function backendCpu(monitor: pg.Client | undefined, application: string | undefined): Promise<Map<number, number> | undefined> {
  if (!monitor || application === undefined) return undefined;
  const { rows } = await monitor.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [application]);
  const times = new Map<number, number>();
  try {
    for (const { pid } of rows) {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      times.set(pid, (Number(fields[11]) + Number(fields[12])) * (1e6 / TICKS));
    }
  } catch {
    return undefined; // another machine, or another user's processes
  }
  return times;
}

function cpuBetween(before: Map<number, number> | undefined, after: Map<number, number> | undefined): number | undefined {
  if (!before || !after) return undefined;
  let us = 0;
  for (const [pid, t] of after) us += t - (before.get(pid) ?? 0);
  return us;
}

/** Runs autocannon against `target` for `seconds`, with `connections` connections. */
export async function measure(target: Target, seconds: number, connections: number, monitor?: pg.Client): Promise<Measured> {
  const cpuBefore = await childCpu(target.child);
  const pgBefore = await backendCpu(monitor, target.pgApplication);
  const result = await autocannon({
    url: `http://127.0.0.1:${target.port}`,
    connections,
    duration: seconds,
    requests: [{
      method: 'GET',
      setupRequest: (req: { path?: string }) => ({ ...req, path: `/uri-res/I2L?${urnOf(Math.floor(Math.random() * target.names))}` }),
    }],
  });
  const total = Math.max(1, result.requests.total);
  const pgUs = cpuBetween(pgBefore, await backendCpu(monitor, target.pgApplication));
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non3xx: result['1xx'] + result['2xx'] + result['4xx'] + result['5xx'] + result.errors + result.timeouts,
    total: result.requests.total,
    // The server's own cost of an answer, which the load generator sharing the cores does not blur.
    cpuPerRequest: (await childCpu(target.child) - cpuBefore) / total,
    pgCpuPerRequest: pgUs === undefined ? undefined : pgUs / total,
  };
}

/** The median of `xs`. */
export function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
}
