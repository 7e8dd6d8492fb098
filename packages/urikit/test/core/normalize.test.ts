import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { equivalent, isValid, normalize, UriError, type CompareLevel } from 'urikit';

const table = JSON.parse(readFileSync(new URL('../data/rfc3986-6-normalization.json', import.meta.url), 'utf8')) as {
  normalize: Array<{ section: string; input: string; syntax: string | null; scheme: string | null; error?: string }>;
  equivalent: Array<{ section: string; a: string; b: string; level: CompareLevel; ignoreFragment?: boolean; equivalent: boolean }>;
};

describe('normalize (RFC 3986 §6.2.2, §6.2.3)', () => {
  for (const row of table.normalize) {
    it(`§${row.section} ${JSON.stringify(row.input)}`, () => {
      if (row.error !== undefined) {
        expect(() => normalize(row.input)).toThrowError(expect.objectContaining({ code: row.error }) as Error);
        return;
      }
      expect(normalize(row.input, { level: 'syntax' })).toBe(row.syntax);
      expect(normalize(row.input, { level: 'scheme' })).toBe(row.scheme);
      expect(normalize(row.input)).toBe(row.scheme);
    });
  }
});

describe('equivalent (RFC 3986 §6.2)', () => {
  for (const row of table.equivalent) {
    it(`§${row.section} ${row.a} ${row.equivalent ? '==' : '!='} ${row.b} at ${row.level}`, () => {
      const opts = { level: row.level, ignoreFragment: row.ignoreFragment ?? false };
      expect(equivalent(row.a, row.b, opts)).toBe(row.equivalent);
      expect(equivalent(row.b, row.a, opts)).toBe(row.equivalent);
    });
  }
  it('throws on an invalid reference above the simple level', () => {
    expect(() => equivalent('http://a b', 'http://a')).toThrow(UriError);
    expect(equivalent('http://a b', 'http://a b', { level: 'simple' })).toBe(true);
  });
});

const TOKENS = ['a', 'B', 'é', '.', '..', '/', '//', '?', '#', ':', '@', '%41', '%2e', '%2E', '%7e', '%3a', '%c3%a9', '[::1]', '[0:0::1%25A]', '[v1.X]', ':80', ':', '80', 'http:', 'HTTP:', 'foo:', 'ws:', '%2F', 'urn:', 'URN:ex:', 'mailto:', 'file:', 'ftp:', 'data:', 'news:', 'telnet:', 'gopher:', ';type=a', ',', '=', '&'];
const reference = fc.array(fc.constantFrom(...TOKENS), { maxLength: 12 }).map((t) => t.join('')).filter((s) => isValid(s, 'iri-reference'));
const level = fc.constantFrom('syntax' as const, 'scheme' as const);

describe('laws of the ladder', () => {
  it('normalize is idempotent and yields a valid reference', () => {
    fc.assert(fc.property(reference, level, (s, l) => {
      const n = normalize(s, { level: l });
      expect(isValid(n, 'iri-reference')).toBe(true);
      expect(normalize(n, { level: l })).toBe(n);
      expect(equivalent(s, n, { level: l })).toBe(true);
    }), { numRuns: 4000 });
  });
  it('equivalent is symmetric and reflexive', () => {
    fc.assert(fc.property(reference, reference, fc.constantFrom<CompareLevel>('simple', 'syntax', 'scheme'), fc.boolean(), (a, b, l, ignoreFragment) => {
      expect(equivalent(a, b, { level: l, ignoreFragment })).toBe(equivalent(b, a, { level: l, ignoreFragment }));
      expect(equivalent(a, a, { level: l, ignoreFragment })).toBe(true);
    }), { numRuns: 4000 });
  });
  it('a higher rung never separates what a lower rung joined', () => {
    fc.assert(fc.property(reference, reference, (a, b) => {
      if (equivalent(a, b, { level: 'simple' })) expect(equivalent(a, b, { level: 'syntax' })).toBe(true);
      if (equivalent(a, b, { level: 'syntax' })) expect(equivalent(a, b, { level: 'scheme' })).toBe(true);
    }), { numRuns: 4000 });
  });
});
