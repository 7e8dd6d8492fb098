/**
 * Runs every TSDoc `@example` of packages/urikit/src, packages/html/src,
 * packages/resolver/src and packages/cli/src (STYLE §11), one test case per example named
 * `<file>:<line> <export name>`: it passes when the example runs, its
 * self-checking comments hold and it type-checks. Then checks that every
 * public export (value or type) of each package has TSDoc with an `@example`. The
 * convention is in README.md beside this file; known gaps are in
 * expected-failures.txt (STYLE §8), not skipped.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type ts from 'typescript';
import { caseName, examplesOfFile, failureKey, ROOT, sourceFiles, type DocExample } from './harness.js';
import { expectedFailures, loadPackage, packageModules, runExample, withExpectedFailure } from './run.js';
import { exportDocs } from './coverage.js';
import { MD } from './markdown.js';
import { sourcesProgram, typeErrors } from './typecheck.js';

const list = expectedFailures();

// The examples run in a scratch directory, removed at the end.
const scratch = mkdtempSync(join(tmpdir(), 'urikit-doc-examples-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Each tree of sources, its index, and the packages whose exports its examples see (the later wins). */
const TREES: { dir: string; index: string; scope: string[] }[] = [
  { dir: 'packages/urikit/src', index: 'packages/urikit/src/index.ts', scope: ['urikit'] },
  { dir: 'packages/html/src', index: 'packages/html/src/index.ts', scope: ['urikit', '@urikit/html'] },
  { dir: 'packages/resolver/src', index: 'packages/resolver/src/index.ts', scope: ['urikit', '@urikit/resolver'] },
  { dir: 'packages/cli/src', index: 'packages/cli/src/index.ts', scope: ['urikit', '@urikit/cli'] },
];

const all: DocExample[] = [];

// One TypeScript program over the sources, made when a case first needs it
// (collection has found every example by then): the examples are
// type-checked against it, all at once, and the TSDoc coverage reads it.
let program: ts.Program | undefined;
const sources = (): ts.Program => (program ??= sourcesProgram(all.map((e) => e.file)));
let checked: Map<DocExample, string[]> | undefined;
const scopeOf = (ex: DocExample): string[] => TREES.find((t) => ex.file.startsWith(`${t.dir}/`))!.scope;
const typeErrorsOf = (ex: DocExample): string[] => (checked ??= typeErrors(all, scopeOf, sources())).get(ex) ?? [];

// The first case builds the program and type-checks every example.
const SLOW = 180_000;

for (const tree of TREES) {
  describe(`@example of ${tree.dir}`, () => {
    for (const file of sourceFiles(tree.dir)) {
      for (const ex of examplesOfFile(file)) {
        all.push(ex);
        it(
          caseName(ex),
          () =>
            withExpectedFailure(failureKey(ex), list, async () => {
              const globals: Record<string, unknown> = {};
              const modules = await packageModules();
              // The example's own module first, for the exports of a module that
              // the package does not re-export (helpers documented in place);
              // the public exports win over its names.
              Object.assign(globals, (await import(/* @vite-ignore */ join(ROOT, file))) as Record<string, unknown>);
              for (const name of tree.scope) Object.assign(globals, await loadPackage(name));
              await runExample(ex, { globals, modules, cwd: scratch });
              const errors = typeErrorsOf(ex);
              if (errors.length > 0) throw new Error(`the example does not type-check:\n${errors.join('\n')}`);
            }),
          SLOW,
        );
      }
    }
  });
}

const TSDOC = 'tsdoc ';

describe('every public export has TSDoc with an @example', () => {
  for (const tree of TREES) {
    it(
      tree.index,
      () => {
        const docs = exportDocs(sources(), tree.index);
        expect(docs.length, 'value exports found').toBeGreaterThan(0);
        const missing = docs.filter((d) => d.problem !== undefined);
        const unlisted = missing.filter((d) => !list.has(`${TSDOC}${d.file} ${d.name}`)).map((d) => `${d.file}:${d.line} ${d.name}: ${d.problem}`);
        const keys = new Set(missing.map((d) => `${TSDOC}${d.file} ${d.name}`));
        const fixed = [...list.keys()].filter((k) => k.startsWith(`${TSDOC}${tree.dir}/`) && !keys.has(k));
        expect(unlisted, 'exports without TSDoc or @example').toEqual([]);
        expect(fixed, 'entries to remove from expected-failures.txt (documented now, or gone)').toEqual([]);
      },
      SLOW,
    );
  }
});

describe('expected-failures.txt', () => {
  it('names only examples that exist', () => {
    const keys = new Set(all.map(failureKey));
    // `md ` entries are Markdown blocks: markdown-examples.test.ts checks them.
    const stale = [...list.keys()].filter((k) => !k.startsWith(TSDOC) && !k.startsWith(MD) && !keys.has(k));
    expect(stale, 'entries to remove from expected-failures.txt').toEqual([]);
  });
  it('gives a reason for every entry', () => {
    expect([...list].filter(([, reason]) => reason === '').map(([k]) => k)).toEqual([]);
  });
});
