/**
 * HAProxy (Debian's `haproxy`, which .ci/run installs) for the fleet
 * tests: started in the foreground, stopped with the test. The
 * configurations are read from docs/resolver.md, where a deployment's
 * are documented (resolvers behind HAProxy checked on /healthz, and
 * PostgreSQL behind HAProxy with its primary check), with the test's
 * addresses put in: what is documented is what is tested.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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

const DOC = join(dirname(fileURLToPath(import.meta.url)), '../../../../docs/resolver.md');

/** The fenced blocks of docs/resolver.md with info string `lang`. */
function docBlocks(lang: string): string[] {
  const out: string[] = [];
  const re = new RegExp(`^\`\`\`${lang}\n([^]*?)^\`\`\`$`, 'gm');
  for (const m of readFileSync(DOC, 'utf8').matchAll(re)) out.push(m[1]!);
  return out;
}

/** The one block of docs/resolver.md with info string `lang` that contains `marker`. */
function docBlock(lang: string, marker: string): string {
  const found = docBlocks(lang).filter((b) => b.includes(marker));
  if (found.length !== 1) throw new Error(`docs/resolver.md has ${found.length} \`\`\`${lang} blocks with "${marker}" (the fault suite runs the documented configuration)`);
  return found[0]!;
}

/** `text` with `from` replaced by `to`; throws if `from` is not there (the documentation changed). */
export function put(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`the documented configuration has no "${from}"`);
  return text.replaceAll(from, to);
}

/** The HAProxy configuration docs/resolver.md gives for PostgreSQL, or for the resolvers. */
export function documentedConfig(which: 'postgres' | 'resolvers'): string {
  return docBlock('haproxy', `listen ${which}`);
}

/**
 * Writes the primary check of docs/resolver.md (HAProxy's `external-check
 * command` for each PostgreSQL server) into `dir`; its path.
 */
export function writePrimaryCheck(dir: string): string {
  const file = join(dir, 'pg-primary-check.sh');
  writeFileSync(file, docBlock('sh', 'pg_is_in_recovery'));
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
