/**
 * schemeOf reads `scheme ":"` at the start of a reference (RFC 3986 §3.1)
 * and nothing else: a table of the rule's edges, and two laws on generated
 * strings (it agrees with parse on every valid reference, and what it
 * returns is always the ABNF's scheme followed by ":").
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isValid, parse, schemeOf } from 'urikit';

// [input, scheme in lower case or undefined, why]
const CASES: [string, string | undefined, string][] = [
  ['http://a/b', 'http', 'the common case'],
  ['HTTP://A/', 'http', 'schemes are case-insensitive, lower case is canonical'],
  ['A+b.c-9:', 'a+b.c-9', 'every character the rule allows'],
  ['urn:ISBN:0451450523', 'urn', 'only the first ":" ends it'],
  ['x:', 'x', 'one letter, empty rest'],
  ['mailto:a b', 'mailto', 'the rest is not checked'],
  ['', undefined, 'empty'],
  [':x', undefined, 'empty scheme'],
  ['1a:b', undefined, 'first character not ALPHA'],
  ['+a:b', undefined, 'first character not ALPHA'],
  ['ht%74p:x', undefined, 'never percent-decoded'],
  ['a_b:c', undefined, '"_" is not in scheme'],
  ['h\u00e9:x', undefined, 'no non-ASCII character'],
  ['//h/a:b', undefined, 'a network-path reference'],
  ['a/b:c', undefined, 'a "/" before the ":"'],
  ['a?b:c', undefined, 'a "?" before the ":"'],
  ['mailto', undefined, 'no ":"'],
];

const TOKENS = ['a', 'Z', '0', '+', '-', '.', ':', '/', '?', '#', '%41', '_', '\u00e9', ' '];
const text = fc.array(fc.constantFrom(...TOKENS), { maxLength: 10 }).map((t) => t.join(''));

describe('schemeOf (RFC 3986 §3.1)', () => {
  it.each(CASES)('%j -> %j (%s)', (input, scheme) => {
    expect(schemeOf(input)).toBe(scheme);
  });
  it('agrees with parse on every valid reference', () => {
    fc.assert(fc.property(text, (s) => {
      if (isValid(s, 'iri-reference')) expect(schemeOf(s)).toBe(parse(s, 'iri-reference').scheme?.toLowerCase());
    }), { numRuns: 5000 });
  });
  it('returns the ABNF scheme that the input begins with, followed by ":"', () => {
    fc.assert(fc.property(fc.oneof(text, fc.string({ maxLength: 12 })), (s) => {
      const scheme = schemeOf(s);
      const m = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(s);
      expect(scheme).toBe(m?.[1]!.toLowerCase());
    }), { numRuns: 5000 });
  });
});
