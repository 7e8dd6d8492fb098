/**
 * The harness itself, on the example forms of its README (convention.json):
 * what it reads from each comment, and which examples pass or fail.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { compile, type Assertion, type DocExample } from './harness.js';
import { examplesOfMarkdown } from './markdown.js';
import { runExample, withExpectedFailure } from './run.js';

interface Case { code: string; assertions?: Partial<Assertion>[]; error?: string; passes?: boolean }
interface MarkdownCase { text: string; blocks: Pick<DocExample, 'name' | 'index' | 'code' | 'line'>[] }
const data = JSON.parse(readFileSync(new URL('./convention.json', import.meta.url), 'utf8')) as { read: Case[]; run: Case[]; markdown: MarkdownCase[] };

const example = (code: string): DocExample => ({
  file: 'packages/urikit/test/doc-examples/convention.json',
  line: 1,
  name: 'case',
  index: 1,
  code,
  lineMap: code.split('\n').map((_, i) => i + 1),
});

const squeeze = (a: Assertion): Assertion => ({ ...a, text: a.text.replace(/\s+/g, ' ') });

describe('reads the self-checking comments', () => {
  for (const c of data.read) {
    it(c.code, () => {
      if (c.error !== undefined) {
        expect(() => compile(example(c.code))).toThrow(c.error);
        return;
      }
      const read = compile(example(c.code)).assertions.map(squeeze);
      expect(read).toHaveLength(c.assertions!.length);
      c.assertions!.forEach((want, i) => expect(read[i]).toMatchObject(want.text === undefined ? want : { ...want, text: want.text.replace(/\s+/g, ' ') }));
    });
  }
});

describe('runs examples', () => {
  for (const c of data.run) {
    it(`${c.code} ${c.passes ? 'passes' : 'fails'}`, async () => {
      const run = runExample(example(c.code), { globals: {}, modules: {} });
      if (c.passes) await run;
      else await expect(run).rejects.toThrow();
    });
  }
});

describe('reads the ```ts blocks of Markdown', () => {
  for (const c of data.markdown) {
    it(JSON.stringify(c.text), () => {
      const blocks = examplesOfMarkdown('doc.md', c.text).map(({ name, index, code, line }) => ({ name, index, code, line }));
      expect(blocks).toEqual(c.blocks);
    });
  }
});

describe('the expected-failures list', () => {
  const list = new Map([['f.ts known', 'a known gap']]);
  const fail = (): void => {
    throw new Error('fails');
  };
  it('a listed case that fails passes', async () => {
    await expect(withExpectedFailure('f.ts known', list, fail)).resolves.toBeUndefined();
  });
  it('a listed case that passes fails, asking for the entry to go', async () => {
    await expect(withExpectedFailure('f.ts known', list, () => {})).rejects.toThrow('remove it from');
  });
  it('an unlisted case that fails fails', async () => {
    await expect(withExpectedFailure('f.ts other', list, fail)).rejects.toThrow('fails');
  });
});
