/**
 * Every package as a user gets it: `npm pack` of each, its file list
 * checked (LICENSE, README.md, package.json, the built JavaScript and
 * declarations with their maps, the sources the maps point to, the
 * package's own assets, and nothing else: no test, no build information,
 * no leftover of an older build), the four tarballs installed together
 * into a new project (their dependencies from the npm cache that `npm ci`
 * filled, the registry asked only for what the cache lacks), and used
 * there: imported as ESM, loaded with `require()` (Node 22.12 and later
 * load ES modules with it), type-checked under `moduleResolution`
 * "node16" and "bundler" with the workspace's TypeScript, and an example
 * of each run: the core, the links of a page, the resolver answering a
 * request, the `urikit` command. Each package's `engines.node` floor is
 * tested too: its example runs on that very Node, taken from the npm
 * registry (node-<os>-<arch>@<floor>, kept in the temporary folder for the
 * next run).
 * Runs against the built packages (`npm test` builds first).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
/** Each step spawns npm, node or tsc: generous on a machine the whole suite shares. */
const SLOW = 120_000;
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

interface Package {
  dir: string;
  name: string;
  /** Files a tarball may hold besides the built output of src/, its sources and the three every package has. */
  assets: RegExp[];
}
const PACKAGES: Package[] = [
  { dir: 'packages/urikit', name: 'urikit', assets: [] },
  { dir: 'packages/html', name: '@urikit/html', assets: [] },
  // The cataloguers' page, served as it is (web/admin-page.ts).
  { dir: 'packages/resolver', name: '@urikit/resolver', assets: [/^src\/web\/admin\/[\w-]+\.(js|css|svg)$/] },
  // The committed launcher and the start-up bundle (scripts/bundle-cli.mjs).
  { dir: 'packages/cli', name: '@urikit/cli', assets: [/^bin\/urikit\.js$/, /^dist\/urikit\.js$/] },
];

interface PackageJson {
  name: string;
  exports: { '.': { types: string; default: string } };
  engines: { node: string };
  bin?: Record<string, string>;
}
const packageJson = (p: Package): PackageJson => JSON.parse(readFileSync(join(ROOT, p.dir, 'package.json'), 'utf8')) as PackageJson;

function run(cmd: string, args: string[], cwd: string, input?: string): SpawnSyncReturns<string> {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', input, maxBuffer: 1 << 26 });
  if (r.error) throw r.error;
  return r;
}
/** Runs a command that must succeed; its standard output. */
function ok(cmd: string, args: string[], cwd: string, input?: string): string {
  const r = run(cmd, args, cwd, input);
  expect(r.status, `${cmd} ${args.join(' ')}\n${r.stderr}`).toBe(0);
  return r.stdout;
}

const work = mkdtempSync(join(tmpdir(), 'urikit-tarballs-'));
const app = join(work, 'app');
const packed = new Map<string, { filename: string; files: string[] }>();

beforeAll(() => {
  for (const p of PACKAGES) {
    const [info] = JSON.parse(ok('npm', ['pack', '--json', '--pack-destination', work], join(ROOT, p.dir))) as Array<{ filename: string; files: Array<{ path: string }> }>;
    packed.set(p.name, { filename: info!.filename, files: info!.files.map((f) => f.path).sort() });
  }
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'tarball-user', private: true, type: 'module' }));
  const tarballs = PACKAGES.map((p) => join(work, packed.get(p.name)!.filename));
  ok('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...tarballs], app);
}, 2 * SLOW);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('npm pack: what each tarball holds', () => {
  for (const p of PACKAGES) {
    it(`${p.name}: LICENSE, README.md, types and code, and only what the package needs`, () => {
      const pkg = packageJson(p);
      const files = packed.get(p.name)!.files;
      const bare = (f: string): string => f.replace(/^\.\//, '');
      const bins = Object.values(pkg.bin ?? {}).map(bare);
      for (const needed of ['LICENSE', 'README.md', 'package.json', bare(pkg.exports['.'].types), bare(pkg.exports['.'].default), ...bins]) {
        expect(files, needed).toContain(needed);
      }
      expect(readFileSync(join(ROOT, p.dir, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} the urikit authors\n/);
      const sources = new Set(files.filter((f) => /^src\/.*\.ts$/.test(f)).map((f) => f.slice(4, -3)));
      const unexpected = files.filter((f) => {
        if (['LICENSE', 'README.md', 'package.json'].includes(f) || p.assets.some((a) => a.test(f))) return false;
        if (/^src\/.*\.ts$/.test(f)) return f.endsWith('.test.ts') || f.endsWith('.d.ts');
        // The output of a source in the tarball: code, declarations, their maps.
        const built = /^dist\/(.*)\.(js|js\.map|d\.ts|d\.ts\.map)$/.exec(f);
        return built === null || !sources.has(built[1]!);
      });
      expect(unexpected).toEqual([]);
      // Every source is built, code and declarations.
      for (const s of sources) for (const ext of ['js', 'd.ts']) expect(files, `dist/${s}.${ext}`).toContain(`dist/${s}.${ext}`);
    });
  }
});

/** A program of each package's own example, for ESM (`import`) or CommonJS (`require`). */
const EXAMPLES = {
  urikit: "[u.resolve('http://a/b/c/d;p?q', '../g'), u.normalize('HTTP://Example.COM:80/%7ea/./b/../c'), u.isValidUrn('urn:isbn:0451450523'), u.isValidUrn(null), u.domainToASCII('B\\u00fccher.example')]",
  html: "h.extractLinksFromHtml('<base href=\"http://example.org/a/b\"><a href=\"../x\">x</a>', 'http://example.org/doc').links.map((l) => l.uri)",
};
const EXPECTED = {
  urikit: ['http://a/b/g', 'http://example.com/~a/c', true, false, 'xn--bcher-kva.example'],
  html: ['http://example.org/x'],
};

describe('the tarballs installed in a new project', () => {
  it('import: each package, and its example', () => {
    const program = `
      import * as u from 'urikit';
      import * as h from '@urikit/html';
      import * as r from '@urikit/resolver';
      import * as c from '@urikit/cli';
      console.log(JSON.stringify({ urikit: ${EXAMPLES.urikit}, html: ${EXAMPLES.html}, resolver: typeof r.startServer, cli: typeof c.main }));`;
    const out = ok(process.execPath, ['--input-type=module', '-e', program], app);
    expect(JSON.parse(out)).toEqual({ ...EXPECTED, resolver: 'function', cli: 'function' });
  }, SLOW);

  it.runIf((process.features as { require_module?: boolean }).require_module === true)('require(): each package, and its example', () => {
    const program = `
      const u = require('urikit');
      const h = require('@urikit/html');
      const r = require('@urikit/resolver');
      const c = require('@urikit/cli');
      console.log(JSON.stringify({ urikit: ${EXAMPLES.urikit}, html: ${EXAMPLES.html}, resolver: typeof r.startServer, cli: typeof c.main }));`;
    const out = ok(process.execPath, ['--input-type=commonjs', '-e', program], app);
    expect(JSON.parse(out)).toEqual({ ...EXPECTED, resolver: 'function', cli: 'function' });
  }, SLOW);

  it('the resolver answers a request: its README example', () => {
    const program = `
      import { startServer } from '@urikit/resolver';
      const server = await startServer({ port: 0, db: ':memory:', demo: true });
      const res = await fetch(server.url + '/urn:ietf:rfc:2141', { redirect: 'manual' });
      console.log(JSON.stringify([res.status, res.headers.get('location')]));
      await server.close();`;
    const [status, location] = JSON.parse(ok(process.execPath, ['--input-type=module', '-e', program], app)) as [number, string];
    expect(status).toBe(302);
    expect(location).toMatch(/^https?:\/\//);
  }, SLOW);

  it('the urikit command (node_modules/.bin/urikit)', () => {
    const bin = join(app, 'node_modules/.bin/urikit');
    expect(ok(bin, ['normalize', 'HTTP://Example.COM:80/%7ea/./b/../c'], app)).toBe('http://example.com/~a/c\n');
    // A command that loads the resolver, and one reading standard input.
    expect(ok(bin, ['urn', 'mint', '--help'], app)).toMatch(/mint/);
    expect(ok(bin, ['validate', '--json'], app, 'http://a/b\nurn:isbn:0451450523\n').trim().split('\n')).toHaveLength(2);
    const refused = run(bin, ['validate'], app, 'http://a b/\n');
    expect([refused.status, refused.stdout + refused.stderr]).toEqual([1, expect.stringContaining('invalid-char')]);
  }, SLOW);

  for (const resolution of ['node16', 'bundler'] as const) {
    it(`type-checks a TypeScript user of the four packages under moduleResolution "${resolution}"`, () => {
      writeFileSync(
        join(app, 'user.ts'),
        `import { parse, resolve, isValidUrn, type UriReference } from 'urikit';
        import { extractLinksFromHtml, type HtmlLink } from '@urikit/html';
        import { startServer, type RunningServer } from '@urikit/resolver';
        import { main } from '@urikit/cli';

        const ref: UriReference = parse('http://example.com/a');
        const target: string = resolve('http://a/b/c/d;p?q', '../g');
        const urn: boolean = isValidUrn('urn:isbn:0451450523');
        const links: HtmlLink[] = extractLinksFromHtml('<a href="x">x</a>', 'http://a/').links;
        const start: (opts?: { port?: number }) => Promise<RunningServer> = startServer;
        export const all = [ref.host, target, urn, links.length, start, main] as const;
        // @ts-expect-error: a number is not a URI reference
        resolve('http://a/', 42);
        `,
      );
      const config = {
        compilerOptions: {
          module: resolution === 'node16' ? 'node16' : 'esnext',
          moduleResolution: resolution,
          target: 'es2022',
          strict: true,
          noEmit: true,
          // A user of the resolver has Node's types; the workspace's stand in for them.
          types: ['node'],
          typeRoots: [join(ROOT, 'node_modules/@types')],
        },
        files: ['user.ts'],
      };
      writeFileSync(join(app, `tsconfig.${resolution}.json`), JSON.stringify(config));
      const r = run(process.execPath, [TSC, '-p', `tsconfig.${resolution}.json`], app);
      expect(r.stdout + r.stderr).toBe('');
      expect(r.status).toBe(0);
    }, SLOW);
  }
});

/** The Node binary of `version` from the npm registry (node-<os>-<arch>), installed once into the temporary folder. */
function nodeOf(version: string): string {
  const nodePackage = `node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;
  const prefix = join(tmpdir(), `urikit-node-${version}`);
  const node = join(prefix, 'node_modules', nodePackage, 'bin', 'node');
  if (!existsSync(node)) {
    ok('npm', ['install', '--prefix', prefix, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--ignore-scripts', '--workspaces=false', '--loglevel=error', `${nodePackage}@${version}`], tmpdir());
  }
  return node;
}

/** What each package runs on the oldest Node of its engines: a program for `node --input-type=module -e`, and its output. */
const ON_FLOOR: Record<string, { program: string; output: unknown }> = {
  urikit: { program: `import * as u from 'urikit'; console.log(JSON.stringify(${EXAMPLES.urikit}));`, output: EXPECTED.urikit },
  '@urikit/html': { program: `import * as h from '@urikit/html'; console.log(JSON.stringify(${EXAMPLES.html}));`, output: EXPECTED.html },
  '@urikit/resolver': {
    program: `import { startServer } from '@urikit/resolver';
      const server = await startServer({ port: 0, db: ':memory:', demo: true });
      console.log(JSON.stringify((await fetch(server.url + '/urn:ietf:rfc:2141', { redirect: 'manual' })).status));
      await server.close();`,
    output: 302,
  },
  '@urikit/cli': {
    program: `import { execFileSync } from 'node:child_process';
      console.log(JSON.stringify(execFileSync(process.execPath, ['node_modules/@urikit/cli/bin/urikit.js', 'normalize', 'HTTP://A:80/%7e'], { encoding: 'utf8' })));`,
    output: 'http://a/~\n',
  },
};

describe('each package on the oldest Node of its engines (from the npm registry)', () => {
  for (const p of PACKAGES) {
    const floor = /^>=(\d+\.\d+\.\d+)$/.exec(packageJson(p).engines.node)?.[1];
    it(`${p.name} runs its example from the tarball on Node ${floor}`, () => {
      expect(floor, `engines.node of ${p.name} is ">=x.y.z"`).toBeDefined();
      const node = nodeOf(floor!);
      expect(ok(node, ['--version'], app).trim()).toBe(`v${floor}`);
      expect(JSON.parse(ok(node, ['--input-type=module', '-e', ON_FLOOR[p.name]!.program], app))).toEqual(ON_FLOOR[p.name]!.output);
    }, SLOW);
  }
});
