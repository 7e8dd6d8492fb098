/**
 * Resolver processes for the fault tests: src/server/main.ts bundled to
 * plain JavaScript with esbuild (urikit from its TypeScript sources), run
 * with `node`, killable with SIGKILL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const built = new Map<string, Promise<string>>();
let cleanupSet = false;

/**
 * Bundles `entry` (a path from the repository's root) once per test
 * process, urikit from its TypeScript sources; returns the path of the .mjs.
 */
export function bundledScript(entry: string): Promise<string> {
  let script = built.get(entry);
  if (!script) {
    script = (async () => {
      // Inside the root node_modules so that node finds fastify, kysely and pg.
      const dir = join(root, 'node_modules', '.cache', 'urikit-resolver-test', String(process.pid));
      mkdirSync(dir, { recursive: true });
      if (!cleanupSet) process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
      cleanupSet = true;
      const outfile = join(dir, `${basename(entry, '.ts')}.mjs`);
      await build({
        entryPoints: [join(root, entry)],
        bundle: true, platform: 'node', format: 'esm', target: 'node22', outfile, logLevel: 'error',
        alias: { urikit: join(root, 'packages/urikit/src/index.ts'), '@urikit/html': join(root, 'packages/html/src/index.ts') },
        external: ['fastify', '@fastify/swagger', 'ajv', 'kysely', 'pg', 'esbuild'],
      });
      return outfile;
    })();
    built.set(entry, script);
  }
  return script;
}

/** src/server/main.ts bundled (see {@link bundledScript}). */
export function mainScript(): Promise<string> {
  return bundledScript('packages/resolver/src/server/main.ts');
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
