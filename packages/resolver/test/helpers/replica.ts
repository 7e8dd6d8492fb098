/**
 * A PostgreSQL primary, and a streaming replica of it if asked, built for a test
 * from the PostgreSQL binaries on the machine (initdb, pg_basebackup,
 * pg_ctl; /usr/lib/postgresql/<version>/bin, or env URIKIT_PG_BIN), on
 * 127.0.0.1 and free ports, in a temporary directory removed afterwards.
 * initdb refuses to run as root, and tests run as root in CI: then every
 * command runs as the `postgres` user (runuser), which owns the directory.
 */
import { execFile } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** The directory of initdb, pg_basebackup, pg_ctl and postgres, or why there is none. */
function binaries(): { bin: string } | { problem: string } {
  const names = ['initdb', 'pg_basebackup', 'pg_ctl', 'postgres'];
  const candidates = process.env.URIKIT_PG_BIN !== undefined
    ? [process.env.URIKIT_PG_BIN]
    : existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a)).map((v) => `/usr/lib/postgresql/${v}/bin`) : [];
  for (const bin of candidates) if (names.every((n) => existsSync(join(bin, n)))) return { bin };
  return { problem: `no ${names.join(', ')} in ${candidates.join(', ') || '/usr/lib/postgresql/*/bin'} (set URIKIT_PG_BIN)` };
}

/** The user the servers run as: `postgres` when this process is root (initdb refuses root), else this process's. */
async function runAs(): Promise<{ uid: number; gid: number; wrap: (cmd: string, args: string[]) => [string, string[]] } | { problem: string }> {
  if (process.getuid?.() !== 0) return { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0, wrap: (cmd, args) => [cmd, args] };
  try {
    const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
    const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
    if (!existsSync('/usr/sbin/runuser') && !existsSync('/sbin/runuser')) return { problem: 'running as root without runuser to run PostgreSQL as the postgres user' };
    return { uid, gid, wrap: (cmd, args) => ['runuser', ['-u', 'postgres', '--', cmd, ...args]] };
  } catch {
    return { problem: 'running as root and there is no postgres user to run PostgreSQL as (initdb refuses root)' };
  }
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** One PostgreSQL server of a test cluster, with the operator's commands. */
export interface PgServer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`. */
  url: string;
  port: number;
  /** `pg_ctl stop -m <mode>` (fast: what a restart does; immediate: a crash). */
  stop(mode?: 'fast' | 'immediate' | 'smart'): Promise<void>;
  start(): Promise<void>;
  /** `pg_ctl restart -m <mode>`. */
  restart(mode?: 'fast' | 'immediate'): Promise<void>;
  /** `pg_ctl promote`: a standby becomes a primary (failover). */
  promote(): Promise<void>;
  /** Ends every other backend (`pg_terminate_backend`, SQLSTATE 57P01 to its client); how many. */
  terminateBackends(): Promise<number>;
}

/** A primary, optionally with a streaming replica of it, running. */
export interface PgCluster {
  primary: PgServer;
  replica: PgServer | undefined;
  /** Stops replaying the primary's log on the replica (pg_wal_replay_pause). */
  pauseReplay(): Promise<void>;
  /** Replays again (pg_wal_replay_resume). */
  resumeReplay(): Promise<void>;
  /** Stops every server and removes their directory. */
  stop(): Promise<void>;
}

/** Why a primary and replica cannot be built here, if they cannot. */
export async function replicaProblem(): Promise<string | undefined> {
  const b = binaries();
  if ('problem' in b) return b.problem;
  const user = await runAs();
  return 'problem' in user ? user.problem : undefined;
}

async function query(url: string, sql: string): Promise<pg.QueryResult> {
  const c = new pg.Client({ connectionString: url });
  c.on('error', () => undefined);
  await c.connect();
  try { return await c.query(sql); } finally { await c.end().catch(() => undefined); }
}

/**
 * Builds and starts a primary and, with `replica`, a streaming replica of
 * it (pg_basebackup -R); with `synchronous`, the primary commits only once
 * the replica has the commit on disk (synchronous_standby_names = '*'),
 * so that a failover to it loses no acknowledged write.
 */
export async function startPgCluster(opts: { replica: boolean; synchronous?: boolean }): Promise<PgCluster> {
  const b = binaries();
  const user = await runAs();
  if ('problem' in b) throw new Error(b.problem);
  if ('problem' in user) throw new Error(user.problem);
  const dir = mkdtempSync(join(tmpdir(), 'urikit-pg-'));
  chownSync(dir, user.uid, user.gid);
  const pgcmd = async (name: string, args: string[]) => {
    const [cmd, full] = user.wrap(join(b.bin, name), args);
    return run(cmd, full, { cwd: dir, timeout: 120_000 });
  };
  const conf = (port: number) => [
    `port = ${port}`,
    "listen_addresses = '127.0.0.1'",
    `unix_socket_directories = '${dir}'`,
    'fsync = off', // a test's throwaway cluster
    'shared_buffers = 16MB',
    'max_connections = 200',
    'hot_standby = on',
    // A replica that is stopped and started again reconnects to the primary within a second.
    'wal_retrieve_retry_interval = 200ms',
  ].join('\n');
  const running = new Set<string>();
  const server = (name: string, port: number): PgServer => {
    const data = join(dir, name);
    const ctl = async (...args: string[]) => pgcmd('pg_ctl', ['-D', data, ...args]);
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    return {
      url,
      port,
      stop: async (mode = 'fast') => { await ctl('-m', mode, '-w', 'stop'); running.delete(data); },
      start: async () => { await ctl('-l', join(dir, `${name}.log`), '-w', 'start'); running.add(data); },
      restart: async (mode = 'fast') => { await ctl('-m', mode, '-l', join(dir, `${name}.log`), '-w', 'restart'); running.add(data); },
      promote: async () => { await ctl('-w', 'promote'); },
      terminateBackends: async () => (await query(url, 'select pg_terminate_backend(pid) from pg_stat_activity where pid <> pg_backend_pid() and backend_type = \'client backend\'')).rowCount ?? 0,
    };
  };
  const primary = server('primary', await freePort());
  const replica = opts.replica ? server('replica', await freePort()) : undefined;
  const stop = async () => {
    for (const d of [...running].reverse()) await pgcmd('pg_ctl', ['-D', d, '-m', 'immediate', 'stop']).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await pgcmd('initdb', ['-D', join(dir, 'primary'), '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
    appendFileSync(join(dir, 'primary', 'postgresql.conf'), `\n${conf(primary.port)}\n`);
    await primary.start();
    if (replica) {
      // -R: the replica's standby.signal and primary_conninfo; -X stream: the log from the start.
      await pgcmd('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-D', join(dir, 'replica'), '-R', '-X', 'stream', '--no-sync']);
      appendFileSync(join(dir, 'replica', 'postgresql.conf'), `\n${conf(replica.port)}\n`);
      await replica.start();
      // Set on the primary alone, after the base backup copied its configuration: a promoted replica then waits for no standby.
      if (opts.synchronous === true) await query(primary.url, "alter system set synchronous_standby_names = '*'").then(() => query(primary.url, 'select pg_reload_conf()'));
    }
  } catch (e) {
    await stop();
    throw e;
  }
  const onReplica = async (sql: string) => { if (replica) await query(replica.url, sql); };
  return {
    primary,
    replica,
    pauseReplay: () => onReplica('select pg_wal_replay_pause()'),
    resumeReplay: () => onReplica('select pg_wal_replay_resume()'),
    stop,
  };
}
