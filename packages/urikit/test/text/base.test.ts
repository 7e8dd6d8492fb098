import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { baseFromHeaders, establishBase, expandAbbreviated, isUriError } from 'urikit';
import type { AbbreviatedOptions, BaseLayers, HeaderFields } from 'urikit';

const base = JSON.parse(readFileSync(new URL('./base-cases.json', import.meta.url), 'utf8')) as {
  layers: { note: string; layers: BaseLayers; expected?: string | null; error?: string }[];
  headers: { note: string; headers: HeaderFields; outer?: string; expected: string | null }[];
};
const abbreviated = JSON.parse(readFileSync(new URL('./abbreviated-cases.json', import.meta.url), 'utf8')) as {
  cases: { input: string; options?: AbbreviatedOptions; expected: string | null }[];
};

describe('establishBase (§5.1)', () => {
  test.each(base.layers)('$note', ({ layers, expected, error }) => {
    if (error !== undefined) {
      let thrown: unknown;
      try { establishBase(layers); } catch (e) { thrown = e; }
      expect(isUriError(thrown, error as 'bad-base')).toBe(true);
    } else {
      expect(establishBase(layers) ?? null).toBe(expected);
    }
  });
});

describe('baseFromHeaders (1997 §5.1.1)', () => {
  test.each(base.headers)('$note', ({ headers, outer, expected }) => {
    expect(baseFromHeaders(headers, outer) ?? null).toBe(expected);
  });
  test('a Map and [name, value] pairs work like an object', () => {
    expect(baseFromHeaders(new Map([['Content-Location', 'x']]), 'http://a/b/')).toBe('http://a/b/x');
    expect(baseFromHeaders([['CONTENT-BASE', 'http://c/']])).toBe('http://c/');
  });
});

describe('expandAbbreviated (App. F)', () => {
  test.each(abbreviated.cases)('$input', ({ input, options, expected }) => {
    expect(expandAbbreviated(input, options) ?? null).toBe(expected);
  });
});
