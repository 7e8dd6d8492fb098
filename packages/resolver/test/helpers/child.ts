/**
 * Resolver processes for the fault tests: src/server/main.ts bundled to
 * plain JavaScript with esbuild (urikit from its TypeScript sources), run
 * with `node`, killable with SIGKILL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
let built: Promise<string> | undefined;

/** Bundles main.ts once per test process; returns the path of the .mjs. */
export function mainScript(): Promise<string> {
  return (built ??= (async () => {
    // Inside the root node_modules so that node finds fastify, kysely, better-sqlite3 and pg.
    const dir = join(root, 'node_modules', '.cache', 'urikit-resolver-test', String(process.pid));
    mkdirSync(dir, { recursive: true });
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const outfile = join(dir, 'main.mjs');
    await build({
      entryPoints: [join(root, 'packages/resolver/src/server/main.ts')],
      bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile, logLevel: 'error',
      alias: { urikit: join(root, 'packages/urikit/src/index.ts'), '@urikit/html': join(root, 'packages/html/src/index.ts') },
      external: ['fastify', 'kysely', 'better-sqlite3', 'pg', 'esbuild'],
    });
    return outfile;
  })());
}

/** A child process and its output so far. */
export interface Child {
  proc: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Runs main.mjs with `args`. */
export async function runMain(args: string[]): Promise<Child> {
  const script = await mainScript();
  const proc = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
  proc.stderr!.on('data', (d: Buffer) => { err += d.toString(); });
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  return { proc, stdout: () => out, stderr: () => err, exited };
}

/** Waits until `test` is true of the child's output (or it exits, or time runs out). */
export async function waitFor(child: Child, test: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!test()) {
    if (child.proc.exitCode !== null) throw new Error(`child exited ${child.proc.exitCode}: ${child.stderr()}`);
    if (Date.now() > deadline) throw new Error(`timed out; stderr: ${child.stderr()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Starts `main serve` and returns its URL once it listens. */
export async function startChildServer(args: string[]): Promise<Child & { url: string }> {
  const child = await runMain(['serve', '--port', '0', ...args]);
  await waitFor(child, () => child.stdout().includes('\n'));
  const { url } = JSON.parse(child.stdout().split('\n')[0]!) as { url: string };
  return { ...child, url };
}
