/**
 * HAProxy (Debian's `haproxy`, which .ci/run installs) for the fleet
 * tests: started in the foreground on a configuration the test writes,
 * stopped with it. The configurations the tests use are those
 * docs/resolver.md documents for a deployment: resolvers behind HAProxy
 * checked on /healthz, and PostgreSQL behind HAProxy checked for the
 * primary (pg-primary-check.sh beside this file).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Why HAProxy cannot be run here, if it cannot. */
export function haproxyProblem(): string | undefined {
  const r = spawnSync('haproxy', ['-v'], { encoding: 'utf8' });
  if (r.error !== undefined || r.status !== 0) return 'haproxy is not installed (apt-get install haproxy; .ci/run installs it)';
  if (spawnSync('psql', ['--version']).status !== 0) return 'psql is not installed (the primary check runs it)';
  return undefined;
}

/** A running HAProxy. */
export interface Haproxy {
  proc: ChildProcess;
  /** What it printed (its alerts and warnings). */
  output(): string;
  stop(): Promise<void>;
}

/**
 * The check HAProxy runs for each PostgreSQL server (`external-check
 * command`): succeeds only on a primary (not in recovery). HAProxy passes
 * the server's address and port as the third and fourth arguments.
 * psql reads the password, if one is needed, from ~/.pgpass as usual.
 */
export const PG_PRIMARY_CHECK = `#!/bin/sh
# HAProxy external-check: exit 0 only when the server at $3:$4 is a PostgreSQL primary.
exec psql -h "$3" -p "$4" -U postgres -d postgres -X -q -t -A -c 'select pg_is_in_recovery()' 2>/dev/null | grep -qx f
`;

/** Writes the primary check into `dir` and returns its path. */
export function writePrimaryCheck(dir: string): string {
  const file = join(dir, 'pg-primary-check.sh');
  writeFileSync(file, PG_PRIMARY_CHECK);
  chmodSync(file, 0o755);
  return file;
}

/** Resolves once something accepts connections on 127.0.0.1:`port`. */
export async function listening(port: number, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const ok = await new Promise<boolean>((r) => {
      const s = connect(port, '127.0.0.1', () => { s.destroy(); r(true); });
      s.on('error', () => r(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on 127.0.0.1:${port} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Starts HAProxy on `config` (in the foreground, `-db`) and waits for `port` to listen. */
export async function startHaproxy(config: string, port: number): Promise<Haproxy> {
  const dir = mkdtempSync(join(tmpdir(), 'urikit-haproxy-'));
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, config);
  const proc = spawn('haproxy', ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
  proc.stderr!.on('data', (d: Buffer) => { out += d.toString(); });
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  try {
    await Promise.race([listening(port), exited.then(() => { throw new Error(`haproxy exited: ${out}`); })]);
  } catch (e) {
    proc.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return {
    proc,
    output: () => out,
    stop: async () => {
      if (proc.exitCode === null) { proc.kill('SIGTERM'); await exited; }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
