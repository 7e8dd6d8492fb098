/**
 * Packaging (issue 9): every package is ESM with type declarations and a
 * clean `exports` map whose files exist after the build, the core is
 * tree-shakable, and each package loads by its name in plain Node (no
 * loader) from the repository root. The binary starts with a shebang.
 */
import { readFileSync, existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, CORPUS, ROOT } from './run.js';

// `subpaths`: entries besides "." and "./package.json". The resolver's
// "./defaults" is its option defaults alone (no run-time import), which the
// CLI's help and option parsing read without loading the server.
const PACKAGES = [
  { dir: 'packages/urikit', name: 'urikit', probe: 'parse', subpaths: [] },
  { dir: 'packages/html', name: '@urikit/html', probe: undefined, subpaths: [] },
  { dir: 'packages/resolver', name: '@urikit/resolver', probe: 'startServer', subpaths: ['./defaults'] },
  { dir: 'packages/cli', name: '@urikit/cli', probe: 'main', subpaths: [] },
];

interface PackageJson {
  name: string;
  type?: string;
  sideEffects?: boolean;
  exports: Record<string, string | { types?: string; default?: string }>;
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
}

describe('packaging', () => {
  for (const p of PACKAGES) {
    const pkg = JSON.parse(readFileSync(`${ROOT}${p.dir}/package.json`, 'utf8')) as PackageJson;

    it(`${p.name}: ESM, an exports map of "." (types first, then default: import, and require where Node loads ESM with it)${p.subpaths.map((s) => `, "${s}"`).join('')} and "./package.json", all built`, () => {
      expect(pkg.name).toBe(p.name);
      expect(pkg.type).toBe('module');
      expect(Object.keys(pkg.exports).sort()).toEqual(['.', ...p.subpaths, './package.json'].sort());
      for (const entry of ['.', ...p.subpaths]) {
        const target = pkg.exports[entry] as { types: string; default: string };
        expect(Object.keys(target)).toEqual(['types', 'default']);
        expect(existsSync(`${ROOT}${p.dir}/${target.types}`), target.types).toBe(true);
        expect(existsSync(`${ROOT}${p.dir}/${target.default}`), target.default).toBe(true);
      }
      // Dependencies point one way: cli -> resolver -> html -> urikit (DESIGN.md).
      const order = PACKAGES.map((x) => x.name);
      for (const dep of Object.keys(pkg.dependencies ?? {})) {
        if (order.includes(dep)) expect(order.indexOf(dep)).toBeLessThan(order.indexOf(p.name));
      }
    });

    it(`${p.name}: loads by name in plain Node`, () => {
      const code = `const m = await import(${JSON.stringify(p.name)}); console.log(JSON.stringify(Object.keys(m).length > 0 || ${JSON.stringify(p.probe ?? '')} === ''))`;
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: ROOT, encoding: 'utf8' });
      expect(r.stderr).toBe('');
      expect(r.stdout.trim()).toBe('true');
      if (p.probe) {
        const probe = spawnSync(process.execPath, ['--input-type=module', '-e', `const m = await import(${JSON.stringify(p.name)}); console.log(typeof m.${p.probe})`], { cwd: ROOT, encoding: 'utf8' });
        expect(probe.stdout.trim()).toBe('function');
      }
    });
  }

  it('the core is tree-shakable (sideEffects: false)', () => {
    const pkg = JSON.parse(readFileSync(`${ROOT}packages/urikit/package.json`, 'utf8')) as PackageJson;
    expect(pkg.sideEffects).toBe(false);
  });

  it('the urikit binary is a committed launcher of dist/bin.js, both with a node shebang', () => {
    const pkg = JSON.parse(readFileSync(`${ROOT}packages/cli/package.json`, 'utf8')) as PackageJson;
    // Committed, so that `npm ci` links node_modules/.bin/urikit on a fresh clone before any build.
    expect(pkg.bin).toEqual({ urikit: './bin/urikit.js' });
    expect(readFileSync(`${ROOT}packages/cli/bin/urikit.js`, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(readFileSync(BIN, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
  });

  it('npx urikit runs the launcher from the repository root', () => {
    const r = spawnSync(process.execPath, [`${ROOT}packages/cli/bin/urikit.js`, 'validate', 'http://a/b'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
  });

  it('the start-up bundle dist/urikit.js (what the launcher runs for the core-only commands) answers as dist/bin.js does', () => {
    const bundle = `${ROOT}packages/cli/dist/urikit.js`;
    expect(readFileSync(bundle, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    const corpus = readFileSync(`${CORPUS}kasztp.txt`);
    const cases: Array<{ args: string[]; input?: Buffer | string }> = [
      { args: ['normalize'], input: corpus },
      { args: ['validate', '--json'], input: corpus.subarray(0, 200_000) },
      { args: ['extract', '--json', `${CORPUS}isaacs_files.txt`] },
      { args: ['parse', 'http://a b/', 'http://a/b?c#d'] },
      { args: ['urn', 'normalize', 'URN:EXAMPLE:a%2c'] },
      { args: ['normalize', '--jobs', '2'], input: 'HTTP://A:80/\nhttp://a b/\n' },
      { args: ['frobnicate'] },
      { args: ['--version'] },
      { args: ['extract', '--help'] },
    ];
    for (const c of cases) {
      const opts = { encoding: 'utf8' as const, input: c.input ?? '', maxBuffer: 1 << 28, cwd: ROOT };
      const a = spawnSync(process.execPath, [bundle, ...c.args], opts);
      const b = spawnSync(process.execPath, [BIN, ...c.args], opts);
      expect([a.status, a.stdout, a.stderr], c.args.join(' ')).toEqual([b.status, b.stdout, b.stderr]);
    }
    // Through the launcher: a core-only command, and one that loads the resolver (run from dist/bin.js).
    const launcher = `${ROOT}packages/cli/bin/urikit.js`;
    expect(spawnSync(process.execPath, [launcher, 'normalize', 'HTTP://A:80'], { encoding: 'utf8' }).stdout).toBe('http://a/\n');
    expect(spawnSync(process.execPath, [launcher, 'urn', 'mint', '--help'], { encoding: 'utf8' }).status).toBe(0);
  });
});
