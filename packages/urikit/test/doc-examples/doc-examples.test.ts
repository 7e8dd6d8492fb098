/**
 * Runs every TSDoc `@example` of packages/urikit/src, packages/html/src and
 * packages/resolver/src (STYLE §11), one test case per example named
 * `<file>:<line> <export name>` that passes when the example runs, its
 * self-checking comments hold and it type-checks; and it checks that every public export of
 * `urikit` has an example. The convention that makes examples check
 * themselves is in README.md beside this file; known gaps are in
 * expected-failures.txt (STYLE §8), not skipped.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { caseName, examplesOfFile, expectedFailures, failureKey, ROOT, runExample, sourceFiles, withExpectedFailure, type DocExample } from './harness.js';
import { undocumentedExports } from './coverage.js';
import { typeErrors } from './typecheck.js';

const list = expectedFailures();

// The packages, imported when a case first needs them, so that one package
// that does not load fails its own cases and not the whole file.
const packages: Record<string, () => Promise<Record<string, unknown>>> = {
  urikit: () => import('urikit'),
  '@urikit/html': () => import('@urikit/html'),
  '@urikit/resolver': () => import('@urikit/resolver'),
};
const loaded = new Map<string, Promise<Record<string, unknown>>>();
const load = (name: string): Promise<Record<string, unknown>> => {
  let p = loaded.get(name);
  if (p === undefined) loaded.set(name, (p = packages[name]!()));
  return p;
};

/** Each tree of sources, with the packages whose exports its examples see (the later wins). */
const TREES: { dir: string; scope: string[] }[] = [
  { dir: 'packages/urikit/src', scope: ['urikit'] },
  { dir: 'packages/html/src', scope: ['urikit', '@urikit/html'] },
  { dir: 'packages/resolver/src', scope: ['urikit', '@urikit/resolver'] },
];

const all: DocExample[] = [];

// The examples are type-checked together, once, when the first case asks
// (collection has found them all by then).
let checked: Map<DocExample, string[]> | undefined;
const scopeOf = (ex: DocExample): string[] => TREES.find((t) => ex.file.startsWith(`${t.dir}/`))!.scope;
const typeErrorsOf = (ex: DocExample): string[] => (checked ??= typeErrors(all, scopeOf)).get(ex) ?? [];

for (const tree of TREES) {
  describe(`@example of ${tree.dir}`, () => {
    for (const file of sourceFiles(tree.dir)) {
      for (const ex of examplesOfFile(file)) {
        all.push(ex);
        it(caseName(ex), () =>
          withExpectedFailure(failureKey(ex), list, async () => {
            const globals: Record<string, unknown> = {};
            const modules: Record<string, unknown> = {};
            for (const name of Object.keys(packages)) modules[name] = await load(name).catch(() => undefined);
            // The example's own module first, for the exports of a module that
            // the package does not re-export (helpers documented in place);
            // the public exports win over its names.
            Object.assign(globals, (await import(/* @vite-ignore */ join(ROOT, file))) as Record<string, unknown>);
            for (const name of tree.scope) Object.assign(globals, await load(name));
            await runExample(ex, { globals, modules });
            const errors = typeErrorsOf(ex);
            if (errors.length > 0) throw new Error(`the example does not type-check:\n${errors.join('\n')}`);
          }),
          // The first case type-checks every example.
          120_000,
        );
      }
    }
  });
}

const missing = undocumentedExports('packages/urikit/src/index.ts');

describe('every public export of urikit has TSDoc with an @example', () => {
  for (const m of missing.all) {
    const key = `tsdoc ${m.file} ${m.name}`;
    if (m.problem === undefined) continue;
    it(key, () =>
      withExpectedFailure(key, list, () => {
        throw new Error(`${m.file}:${m.line} ${m.name}: ${m.problem}`);
      }),
    );
  }
  it('checks the exports', () => expect(missing.all.length).toBeGreaterThan(50));
});

describe('expected-failures.txt', () => {
  it('names only examples and exports that exist', () => {
    const keys = new Set([...all.map(failureKey), ...missing.all.filter((m) => m.problem !== undefined).map((m) => `tsdoc ${m.file} ${m.name}`)]);
    const stale = [...list.keys()].filter((k) => !keys.has(k));
    expect(stale, 'entries to remove from expected-failures.txt').toEqual([]);
  });
  it('gives a reason for every entry', () => {
    expect([...list].filter(([, reason]) => reason === '').map(([k]) => k)).toEqual([]);
  });
});
