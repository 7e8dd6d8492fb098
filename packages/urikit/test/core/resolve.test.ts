import { describe, expect, it } from 'vitest';
import { resolve, removeDotSegments, UriError } from 'urikit';
import table from '../data/rfc3986-5.4-examples.json' with { type: 'json' };

describe('RFC 3986 §5.4 examples, verbatim', () => {
  for (const c of table.cases as Array<{ section: string; ref: string; expected: string; nonStrict?: string }>) {
    it(`§${c.section} ${JSON.stringify(c.ref)} -> ${c.expected}`, () => {
      expect(resolve(table.base, c.ref)).toBe(c.expected);
      expect(resolve(table.base, c.ref, { strict: true })).toBe(c.expected);
      expect(resolve(table.base, c.ref, { strict: false })).toBe(c.nonStrict ?? c.expected);
    });
  }
});

describe('resolve: DESIGN.md rulings and edges', () => {
  const cases: Array<[string, string, string]> = [
    ['HTTPS:', 'foo/bar', 'HTTPS:foo/bar'], // RFC 3986 §5.2.3 literally
    ['foo:bar', 'baz', 'foo:baz'], // opaque bases resolve
    ['http://a/b#frag', 'c', 'http://a/c'], // a base fragment is dropped
    ['http://a/b#frag', '', 'http://a/b'],
    ['http://a/b/./c/../d?q', '', 'http://a/b/./c/../d?q'], // §5.2.2: Base.path copied, never normalized
    ['http://a', 'b', 'http://a/b'], // §5.2.3: authority and empty path
    ['http://a/b/c', '%2E%2E/x', 'http://a/b/%2E%2E/x'], // only literal dots are dot segments
    ['a:', '/.//x', 'a:/.//x'], // never produce a path beginning "//" without authority
    ['http://例え.jp/a/b', '../ç', 'http://例え.jp/ç'], // IRIs
    ['http://a/b', '//[::1]:8/./x', 'http://[::1]:8/x'],
    ['HTTP://a/b', 'http:c', 'http:c'],
  ];
  for (const [base, ref, expected] of cases) it(`${base} + ${ref}`, () => expect(resolve(base, ref)).toBe(expected));
  it('the scheme comparison of non-strict mode is case-insensitive', () => {
    expect(resolve('HTTP://a/b/c', 'http:g', { strict: false })).toBe('HTTP://a/b/g');
  });
  it('a base that is not an absolute URI is not-absolute-base', () => {
    expect(() => resolve('/a/b', 'c')).toThrowError(expect.objectContaining({ code: 'not-absolute-base', offset: 0 }) as Error);
    expect(() => resolve('http://a b/', 'c')).toThrow(UriError);
    expect(() => resolve('http://a/', 'c d')).toThrowError(expect.objectContaining({ code: 'invalid-char', offset: 1 }) as Error);
  });
});

describe('removeDotSegments (RFC 3986 §5.2.4)', () => {
  const cases: Array<[string, string]> = [
    ['/a/b/c/./../../g', '/a/g'], ['mid/content=5/../6', 'mid/6'], // §5.2.4 examples
    ['', ''], ['.', ''], ['..', ''], ['/', '/'], ['/.', '/'], ['/..', '/'], ['/../..', '/'], ['./a', 'a'], ['../a', 'a'],
    ['a/..', '/'], ['a/.', 'a/'], ['/a/b/..', '/a/'], ['/.../x', '/.../x'], ['/..x/.x', '/..x/.x'], ['//..//', '//'],
    ['a/../../b', '/b'], ['/%2E/x', '/%2E/x'],
  ];
  for (const [input, output] of cases) it(`${JSON.stringify(input)} -> ${JSON.stringify(output)}`, () => expect(removeDotSegments(input)).toBe(output));
});
