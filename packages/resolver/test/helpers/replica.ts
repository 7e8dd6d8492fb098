/**
 * A PostgreSQL primary and a streaming replica of it, built for a test
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
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** A primary and its streaming replica, running. */
export interface ReplicaPair {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` of the primary. */
  primary: string;
  /** The same of the replica. */
  replica: string;
  /** Stops replaying the primary's log on the replica (pg_wal_replay_pause). */
  pauseReplay(): Promise<void>;
  /** Replays again (pg_wal_replay_resume). */
  resumeReplay(): Promise<void>;
  /** Stops both servers and removes their directory. */
  stop(): Promise<void>;
}

/** Why a primary and replica cannot be built here, if they cannot. */
export async function replicaProblem(): Promise<string | undefined> {
  const b = binaries();
  if ('problem' in b) return b.problem;
  const user = await runAs();
  return 'problem' in user ? user.problem : undefined;
}

/** Builds and starts a primary and a streaming replica of it. */
export async function startReplicaPair(): Promise<ReplicaPair> {
  const b = binaries();
  const user = await runAs();
  if ('problem' in b) throw new Error(b.problem);
  if ('problem' in user) throw new Error(user.problem);
  const dir = mkdtempSync(join(tmpdir(), 'urikit-replica-'));
  chownSync(dir, user.uid, user.gid);
  const pgcmd = async (name: string, args: string[]) => {
    const [cmd, full] = user.wrap(join(b.bin, name), args);
    return run(cmd, full, { cwd: dir, timeout: 120_000 });
  };
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const primaryDir = join(dir, 'primary');
  const replicaDir = join(dir, 'replica');
  const conf = (port: number) => [
    `port = ${port}`,
    "listen_addresses = '127.0.0.1'",
    `unix_socket_directories = '${dir}'`,
    'fsync = off', // a test's throwaway cluster
    'shared_buffers = 16MB',
    'max_connections = 40',
    'hot_standby = on',
  ].join('\n');
  const started: string[] = [];
  const stop = async () => {
    for (const d of started.reverse()) await pgcmd('pg_ctl', ['-D', d, '-m', 'immediate', 'stop']).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await pgcmd('initdb', ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
    appendFileSync(join(primaryDir, 'postgresql.conf'), `\n${conf(primaryPort)}\n`);
    await pgcmd('pg_ctl', ['-D', primaryDir, '-l', join(dir, 'primary.log'), '-w', 'start']);
    started.push(primaryDir);
    // -R: the replica's standby.signal and primary_conninfo; -X stream: the log from the start.
    await pgcmd('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', replicaDir, '-R', '-X', 'stream', '--no-sync']);
    appendFileSync(join(replicaDir, 'postgresql.conf'), `\n${conf(replicaPort)}\n`);
    await pgcmd('pg_ctl', ['-D', replicaDir, '-l', join(dir, 'replica.log'), '-w', 'start']);
    started.push(replicaDir);
  } catch (e) {
    await stop();
    throw e;
  }
  const primary = `postgres://postgres@127.0.0.1:${primaryPort}/postgres`;
  const replica = `postgres://postgres@127.0.0.1:${replicaPort}/postgres`;
  const onReplica = async (sql: string) => {
    const c = new pg.Client({ connectionString: replica });
    await c.connect();
    try { await c.query(sql); } finally { await c.end(); }
  };
  return {
    primary,
    replica,
    pauseReplay: () => onReplica('select pg_wal_replay_pause()'),
    resumeReplay: () => onReplica('select pg_wal_replay_resume()'),
    stop,
  };
}
