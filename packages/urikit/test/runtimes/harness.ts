/**
 * Runs tables.js (the core's test tables, runtime-neutral) on the bundled
 * core in another JavaScript runtime: Node, Deno and Bun as a child
 * process, Chromium on a page served from 127.0.0.1.
 *
 * The run directory holds what a user's bundler makes of `urikit` (esbuild,
 * from the package's public export, for the browser, minified), tables.js,
 * the data files as one module, and two entry points: cli.js prints the
 * result as JSON, index.html leaves it in `window.__result`.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { TABLE_FILES, type RunResult } from './tables.js';

export type { RunResult, TableResult } from './tables.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const TEST_DIR = fileURLToPath(new URL('../', import.meta.url));
const CONFORMANCE = join(ROOT, '..', 'shared', 'conformance');

/** Where a path of TABLE_FILES is on disk. */
const dataPath = (path: string): string => (path.startsWith('conformance/') ? join(CONFORMANCE, path.slice('conformance/'.length)) : join(TEST_DIR, path));

/** Makes the run directory: the bundled core, tables.js, the data and the entry points. */
export async function prepareRunDirectory(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'urikit-runtimes-'));
  // The bundle a user's bundler makes: `urikit` resolved through node_modules
  // and the package's exports (packages/urikit/dist), never a source file.
  await build({
    stdin: { contents: "export * from 'urikit';", resolveDir: ROOT, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    outfile: join(dir, 'urikit.js'),
    logLevel: 'silent',
  });
  copyFileSync(fileURLToPath(new URL('./tables.js', import.meta.url)), join(dir, 'tables.js'));
  const files = Object.fromEntries(TABLE_FILES.map((p) => [p, readFileSync(dataPath(p), 'utf8')]));
  writeFileSync(join(dir, 'data.js'), `export default ${JSON.stringify(files)};\n`);
  writeFileSync(join(dir, 'main.js'), [
    "import * as urikit from './urikit.js';",
    "import files from './data.js';",
    "import { runTables } from './tables.js';",
    'export const result = runTables(urikit, files);',
    '',
  ].join('\n'));
  writeFileSync(join(dir, 'cli.js'), "import { result } from './main.js';\nconsole.log(JSON.stringify(result));\n");
  writeFileSync(join(dir, 'index.html'), [
    '<!DOCTYPE html><meta charset="utf-8"><title>urikit tables</title>',
    '<script>addEventListener("error", (e) => { window.__error = String(e.message || e.error); });</script>',
    '<script type="module">import { result } from "./main.js"; window.__result = result;</script>',
    '',
  ].join('\n'));
  return dir;
}

/** Runs `command` to its end; resolves with its standard output, rejects with what it said if it failed. */
function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, NO_COLOR: '1', ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve(out);
      else reject(new Error(`${command} ${args.join(' ')} exited with ${signal ?? code}: ${err.slice(-2000)}${out.slice(-2000)}`));
    });
  });
}

/** The result a runtime printed on its last line of output. */
const lastJson = (out: string): RunResult => JSON.parse(out.trim().split('\n').at(-1)!) as RunResult;

/** A JavaScript runtime the tables run in: its binary, or why it cannot run here. */
export interface Runtime {
  name: string;
  /** Why it cannot run here, or undefined. */
  problem: string | undefined;
  run(dir: string): Promise<RunResult>;
}

const PLATFORM = `${process.platform}-${process.arch}`;

/**
 * The first of `candidates` (paths under node_modules) that is a runtime's
 * binary: tens of megabytes, where the placeholder a package ships before
 * its postinstall puts the binary there is a few hundred bytes.
 */
function installed(candidates: string[]): string | undefined {
  return candidates.map((c) => join(ROOT, 'node_modules', c)).find((p) => existsSync(p) && statSync(p).size > 1_000_000);
}

/**
 * Node, on the same bundle: the baseline the other runtimes are compared
 * with (same tables, same counts).
 */
export const node: Runtime = {
  name: 'Node',
  problem: undefined,
  run: async (dir) => lastJson(await run(process.execPath, ['cli.js'], { cwd: dir })),
};

// The npm package `deno` names one platform package per system (optional
// dependencies); its binary is read in place. The package's postinstall,
// which only links it to deno/deno, is off (allowScripts in package.json).
const denoBinary = installed([`@deno/${PLATFORM}-glibc/deno`, `@deno/${PLATFORM}/deno`, 'deno/deno']);
export const deno: Runtime = {
  name: 'Deno',
  problem: denoBinary === undefined ? `no Deno binary for ${PLATFORM} under node_modules (the devDependency "deno" installs @deno/${PLATFORM}-glibc; run npm ci)` : undefined,
  // No permission is granted: the run needs none (static imports of local modules, console output).
  run: async (dir) => lastJson(await run(denoBinary!, ['run', '--no-config', '--no-lock', '--no-remote', '--no-npm', '--no-prompt', 'cli.js'], {
    cwd: dir,
    env: { DENO_DIR: join(dir, '.deno'), DENO_NO_UPDATE_CHECK: '1' },
  })),
};

// As for Deno: `bun` names @oven/bun-<platform>, whose binary is read in
// place; an npm that ran the postinstall anyway (npm before allowScripts)
// has moved it to bun/bin/bun.exe.
const bunArch = process.arch === 'arm64' ? 'aarch64' : process.arch;
const bunBinary = installed([`@oven/bun-${process.platform}-${bunArch}/bin/bun`, 'bun/bin/bun.exe']);
export const bun: Runtime = {
  name: 'Bun',
  problem: bunBinary === undefined ? `no Bun binary for ${PLATFORM} under node_modules (the devDependency "bun" installs @oven/bun-${process.platform}-${bunArch}; run npm ci)` : undefined,
  run: async (dir) => lastJson(await run(bunBinary!, ['--no-install', 'cli.js'], { cwd: dir, env: { DO_NOT_TRACK: '1' } })),
};

const CHROMIUM = process.env['URIKIT_CHROMIUM'] ?? '/usr/bin/chromium';
export const browser: Runtime = {
  name: 'Chromium',
  problem: existsSync(CHROMIUM) ? undefined : `Chromium is not installed at ${CHROMIUM} (apt-get install chromium; .ci/run installs it)`,
  async run(dir) {
    // The page and its modules from 127.0.0.1, as a site would serve them.
    const types: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8' };
    const server = createServer((req, res) => {
      const name = new URL(req.url ?? '/', 'http://localhost').pathname.slice(1);
      const file = join(dir, name);
      const type = types[name.slice(name.lastIndexOf('.'))];
      if (!/^[a-z]+\.(html|js)$/.test(name) || type === undefined || !existsSync(file)) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': type }).end(readFileSync(file));
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const profile = mkdtempSync(join(tmpdir(), 'urikit-chromium-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/index.html`);
      const handle = await page.waitForFunction(() => {
        const w = window as unknown as { __result?: unknown; __error?: string };
        return w.__result ?? (w.__error !== undefined ? { error: w.__error } : undefined);
      }, undefined, { timeout: 240_000 });
      const value = (await handle.jsonValue()) as RunResult | { error: string };
      if ('error' in value) throw new Error(`the page failed: ${value.error}`);
      // The page's user agent gives the major version only (156.0.0.0).
      const version = context.browser()?.version();
      return version === undefined ? value : { ...value, runtime: `Chromium ${version}` };
    } finally {
      await context.close();
      await new Promise((ok) => server.close(ok));
      rmSync(profile, { recursive: true, force: true });
    }
  },
};
