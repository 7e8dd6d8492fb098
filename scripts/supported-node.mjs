// Runs `npm run <script> [-- args]` under a Node version urikit supports.
//
// The root package.json's `engines.node` is the floor. Under a Node that
// meets it, the script runs as usual. Under an older one (a machine whose
// `node` is 20), this says so loudly and runs the script under Node 24
// taken from the npm registry (the package node-<os>-<arch>@24, which holds
// the official binary), installed once into .node-cache/ (gitignored) and
// put first on PATH, so that every process the script starts (vitest's
// workers, the servers the tests spawn) runs on it too.
//
// Plain JavaScript that any Node from 18 on can run: it is the one file
// that must work on the Node it replaces.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The major version fetched when the running Node is too old: the current LTS line. */
const FETCHED_MAJOR = '24';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [script, ...args] = process.argv.slice(2);
if (!script) {
  console.error('usage: node scripts/supported-node.mjs <npm script> [args...]');
  process.exit(2);
}

/** [major, minor, patch] of a version string (`v22.16.0`, `22.16.0`). */
const parse = (v) => v.replace(/^v/, '').split('.').map((n) => Number.parseInt(n, 10));

/** True if `version` meets a `>=x.y.z` range. */
function meets(version, range) {
  const m = /^>=\s*(\d+(?:\.\d+){0,2})$/.exec(range.trim());
  if (!m) throw new Error(`engines.node must be of the form ">=x.y.z", not "${range}"`);
  const want = parse(m[1]);
  const have = parse(version);
  for (let i = 0; i < 3; i++) {
    if ((have[i] ?? 0) !== (want[i] ?? 0)) return (have[i] ?? 0) > (want[i] ?? 0);
  }
  return true;
}

/** Runs npm (the npm that started this script, else the one on PATH) with `node`; returns its exit status. */
function npm(node, npmArgs, env = process.env) {
  const npmCli = process.env.npm_execpath;
  const r = npmCli && /\.(c|m)?js$/.test(npmCli)
    ? spawnSync(node, [npmCli, ...npmArgs], { stdio: 'inherit', env, cwd: root })
    : spawnSync('npm', npmArgs, { stdio: 'inherit', env, cwd: root, shell: process.platform === 'win32' });
  if (r.error) throw r.error;
  return r.status ?? 1;
}

const floor = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node;
const runArgs = ['run', script, ...(args.length > 0 ? ['--', ...args] : [])];

if (meets(process.version, floor)) process.exit(npm(process.execPath, runArgs));

const pkg = `node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;
const cache = join(root, '.node-cache');
const binary = join(cache, 'node_modules', pkg, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
const banner = (lines) => console.error(['', '='.repeat(78), ...lines.map((l) => `  ${l}`), '='.repeat(78), ''].join('\n'));
banner([
  `This is Node ${process.version}; urikit supports Node ${floor} (Node 20 is past its end of life).`,
  `\`npm run ${script}\` runs under Node ${FETCHED_MAJOR} from the npm registry instead (${pkg}@${FETCHED_MAJOR}, in .node-cache/).`,
  `Install Node ${FETCHED_MAJOR} (or 22.16 or later) to run on your own Node.`,
]);
const installedVersion = () => {
  if (!existsSync(binary)) return undefined;
  const r = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
};
if (!installedVersion()?.startsWith(`v${FETCHED_MAJOR}.`)) {
  const status = npm(process.execPath, ['install', '--prefix', cache, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--ignore-scripts', '--workspaces=false', `${pkg}@${FETCHED_MAJOR}`]);
  if (status !== 0 || !installedVersion()) {
    console.error(`could not install ${pkg}@${FETCHED_MAJOR} from the npm registry: install Node ${FETCHED_MAJOR} yourself`);
    process.exit(1);
  }
}
console.error(`== running under ${binary} (${installedVersion()})\n`);
const env = { ...process.env, PATH: `${dirname(binary)}${delimiter}${process.env.PATH ?? ''}` };
process.exit(npm(binary, runArgs, env));
