/**
 * Runs every ```ts / ```js block of README.md and docs/**\/*.md (STYLE
 * §11: the README's examples are true of the code), one test case per
 * block named `<file>:<line> <heading>`, with the self-checking comments
 * of the TSDoc examples (README.md beside this file) and the same type
 * check. A block imports what it uses (`import { parse } from 'urikit'`);
 * `urikit`, `@urikit/html` and `@urikit/resolver` name the sources. Known
 * gaps are `md <heading>[#n]` lines of expected-failures.txt.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { caseName, type DocExample } from './harness.js';
import { examplesOfMarkdown, markdownFiles, markdownKey, MD } from './markdown.js';
import { expectedFailures, packageModules, runExample, withExpectedFailure } from './run.js';
import { sourcesProgram, typeErrors } from './typecheck.js';

const list = expectedFailures();

const scratch = mkdtempSync(join(tmpdir(), 'urikit-markdown-examples-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const all: DocExample[] = markdownFiles().flatMap((file) => examplesOfMarkdown(file));

// The blocks are type-checked all at once when the first case needs it;
// they see no package's exports but those they import.
let checked: Map<DocExample, string[]> | undefined;
const typeErrorsOf = (ex: DocExample): string[] => (checked ??= typeErrors(all, () => [], sourcesProgram([]))).get(ex) ?? [];

const SLOW = 180_000;

describe('```ts blocks of README.md and docs/', () => {
  it('finds the blocks', () => expect(all.length).toBeGreaterThan(0));
  for (const ex of all) {
    it(
      caseName(ex),
      () =>
        withExpectedFailure(markdownKey(ex), list, async () => {
          await runExample(ex, { globals: {}, modules: await packageModules(), cwd: scratch });
          const errors = typeErrorsOf(ex);
          if (errors.length > 0) throw new Error(`the block does not type-check:\n${errors.join('\n')}`);
        }),
      SLOW,
    );
  }
});

describe('expected-failures.txt (Markdown blocks)', () => {
  it('names only blocks that exist', () => {
    const keys = new Set(all.map(markdownKey));
    const stale = [...list.keys()].filter((k) => k.startsWith(MD) && !keys.has(k));
    expect(stale, 'entries to remove from expected-failures.txt').toEqual([]);
  });
});
