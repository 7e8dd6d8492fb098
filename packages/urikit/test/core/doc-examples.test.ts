/**
 * Runs the `@example` of every export of the core modules (STYLE §11:
 * "an @example that a test runs"): each line `expression // result` of an
 * example is evaluated and compared with the result written after `//`
 * (a trailing "(...)" remark is ignored; "throws UriError <code> at offset
 * <n>" expects that error).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import * as urikit from 'urikit';
import * as chars from '../../src/chars.js';
import * as percent from '../../src/percent.js';

const FILES = ['chars.ts', 'parse.ts', 'serialize.ts', 'resolve.ts', 'remove-dot-segments.ts', 'percent.ts', 'normalize.ts', 'host/ipv4.ts', 'host/ipv6.ts'];
const scope = { ...urikit, ...chars, ...percent };
const names = Object.keys(scope);
const values = names.map((n) => (scope as Record<string, unknown>)[n]);
const evaluate = (expr: string): unknown => new Function(...names, `return (${expr});`)(...values) as unknown;

interface Example { file: string; expr: string; expected: string }

function examples(file: string): Example[] {
  const text = readFileSync(new URL(`../../src/${file}`, import.meta.url), 'utf8');
  return fromBlocks(file, text.split(/@example\s*\n/).slice(1));
}

function fromBlocks(file: string, blocks: string[]): Example[] {
  const out: Example[] = [];
  for (const block of blocks) {
    const body = block.slice(block.indexOf('```ts') + 5, block.indexOf('```', block.indexOf('```ts') + 5));
    const lines = body.split('\n').map((l) => l.replace(/^\s*\*\s?/, ''));
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      const k = line.indexOf(' // ');
      if (k < 0 || line.trimStart().startsWith('//')) continue;
      let expected = line.slice(k + 4);
      // A result continued on the next lines as "//   ..." comments.
      while (i + 1 < lines.length && /^\s*\/\/\s/.test(lines[i + 1]!)) expected += ' ' + lines[++i]!.replace(/^\s*\/\/\s*/, '');
      out.push({ file, expr: line.slice(0, k).trim().replace(/;$/, ''), expected: expected.trim() });
    }
  }
  return out;
}

describe('the README section of the core (docs/readme/10-core.md)', () => {
  const text = readFileSync(new URL('../../../../docs/readme/10-core.md', import.meta.url), 'utf8');
  const all = fromBlocks('10-core.md', text.split(/(?=```ts\n)/).slice(1));
  it('finds the examples', () => expect(all.length).toBeGreaterThan(30));
  for (const ex of all) it(`${ex.expr} -> ${ex.expected}`, () => check(ex));
});

function check(ex: Example): void {
  const thrown = /^throws UriError ([a-z0-9-]+) at offset (\d+)/.exec(ex.expected);
  if (thrown) {
    expect(() => evaluate(ex.expr)).toThrowError(expect.objectContaining({ code: thrown[1], offset: Number(thrown[2]) }) as Error);
    return;
  }
  const expected = ex.expected.replace(/\s*\([^()]*\)$/, '');
  const value = evaluate(ex.expr);
  if (expected.startsWith('"')) expect(value).toBe(JSON.parse(expected));
  else expect(value).toStrictEqual(evaluate(expected));
}

describe('TSDoc examples of the core', () => {
  const all = FILES.flatMap(examples);
  it('finds examples in every file', () => {
    for (const f of FILES) expect(all.some((e) => e.file === f)).toBe(true);
  });
  for (const ex of all) {
    it(`${ex.file}: ${ex.expr} -> ${ex.expected}`, () => check(ex));
  }
});
