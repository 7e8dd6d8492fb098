/**
 * Runs the real, built `urikit` binary (packages/cli/dist/bin.js) as a
 * child process, the way a script would. `npm test` builds first.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Readable } from 'node:stream';

/** The binary under test. */
export const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
/** The repository root (where ../shared is reachable). */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** The shared corpus, read in place. */
export const CORPUS = fileURLToPath(new URL('../../../../shared/corpus/', import.meta.url));

/** What a run of the binary produced. */
export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Throws a clear error when the binary has not been built. */
export function requireBuilt(): void {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run "npm run build" first (npm test does)`);
}

/** Starts the binary with `args`; standard input is `input` (string, buffer or stream), else closed. */
export function start(args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): ChildProcess {
  return spawn(process.execPath, [BIN, ...args], {
    cwd: opts.cwd ?? ROOT,
    env: { ...process.env, ...opts.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** Runs the binary to the end and collects its output. */
export function run(args: string[], input?: string | Buffer | Readable, opts: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<RunResult> {
  const child = start(args, opts);
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout!.on('data', (c: Buffer) => out.push(c));
  child.stderr!.on('data', (c: Buffer) => err.push(c));
  child.stdin!.on('error', () => { /* the child may exit before reading everything */ });
  if (input === undefined) child.stdin!.end();
  else if (typeof input === 'string' || Buffer.isBuffer(input)) child.stdin!.end(input);
  else input.pipe(child.stdin!);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({
      code,
      signal,
      stdout: Buffer.concat(out).toString('utf8'),
      stderr: Buffer.concat(err).toString('utf8'),
    }));
  });
}

/** The NDJSON records of an output. */
export function records(stdout: string): Array<Record<string, unknown>> {
  return stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** The long-running commands started by startService (a test file stops them in its afterAll). */
export const services: ChildProcess[] = [];

/** Starts a long-running command with --json and resolves to its first line of output. */
export async function startService(args: string[]): Promise<{ child: ChildProcess; info: { url: string; port: number } }> {
  // A server stopped by a test need not wait for a load balancer to notice (serve's --drain-seconds).
  const drain = args[0] === 'serve' && !args.includes('--drain-seconds') ? ['--drain-seconds', '0'] : [];
  const child = start([...args, ...drain, '--json']);
  services.push(child);
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => { stderr += c.toString(); });
  const first = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.once('line', (l) => { rl.close(); resolve(l); });
    child.once('exit', (code) => reject(new Error(`urikit ${args.join(' ')} exited ${code}: ${stderr}`)));
  });
  return { child, info: JSON.parse(first) as { url: string; port: number } };
}

/** Sends SIGTERM and resolves to the exit status. */
export function stop(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

