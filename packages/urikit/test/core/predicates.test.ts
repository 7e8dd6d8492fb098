/**
 * Every exported predicate (`is…`) answers `false` for a value that is not
 * what it asks about (null, undefined, a number, an object, ...) instead of
 * throwing: a predicate's caller asks "is it?", and "no" is the answer for
 * a non-string. The predicates are found by name among the exports, so a
 * new one is covered (and must be added to TRUE_FOR below).
 */
import { describe, expect, it } from 'vitest';
import * as urikit from 'urikit';

/** One argument each predicate answers true for: the guard must not change that. */
const TRUE_FOR: Record<string, unknown> = {
  isValid: 'http://example.com/',
  isValidUrn: 'urn:example:a',
  isHostname: 'example.com',
  isIPv6Address: '::1',
  isWholeScriptConfusable: '\u0430\u0440\u0440\u04cf\u0435',
  isTextDelimiter: 0x201d,
  isAnonymousFtp: urikit.ftpScheme.parse(urikit.parse('ftp://host.example/')),
  isUriError: new urikit.UriError('bad-scheme', 0, ':'),
};

const NOT_STRINGS: Array<[string, unknown]> = [
  ['null', null],
  ['undefined', undefined],
  ['42', 42],
  ['NaN', NaN],
  ['true', true],
  ['1n', 1n],
  ['a symbol', Symbol('urn:example:a')],
  ['{}', {}],
  ['[]', []],
  ["['urn:example:a']", ['urn:example:a']],
  ['an object whose toString is a URI', { toString: () => 'urn:example:a' }],
  ["new String('urn:example:a')", new String('urn:example:a')],
  ['a function', () => 'urn:example:a'],
];

const predicates = Object.entries(urikit).filter((e): e is [string, (...args: unknown[]) => unknown] => /^is[A-Z]/.test(e[0]) && typeof e[1] === 'function');

describe('exported predicates', () => {
  it('are the ones this table knows', () => {
    expect(predicates.map(([name]) => name).sort()).toEqual(Object.keys(TRUE_FOR).sort());
  });
  for (const [name, predicate] of predicates) {
    it(`${name} answers true for ${String(TRUE_FOR[name]).slice(0, 30)}`, () => {
      expect(predicate(TRUE_FOR[name])).toBe(true);
    });
    for (const [label, value] of NOT_STRINGS) {
      it(`${name}(${label}) is false`, () => {
        expect(predicate(value)).toBe(false);
      });
    }
  }
});
