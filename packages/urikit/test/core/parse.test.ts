import { describe, expect, it } from 'vitest';
import { isValid, parse, serialize, tryParse, UriError, type Kind } from 'urikit';
import { readFileSync } from 'node:fs';

// Read with JSON.parse: the table holds lone surrogates (\ud800), which the bundler's JSON import refuses.
const table = JSON.parse(readFileSync(new URL('../data/core-references.json', import.meta.url), 'utf8')) as { cases: unknown[] };

interface Row { input: string; kind: Kind; valid: boolean; components?: Record<string, string>; code?: string; offset?: number }
const rows = table.cases as Row[];

describe('core-references.json: every grammar rule both ways', () => {
  it('has at least 150 valid and 150 invalid references', () => {
    expect(rows.filter((r) => r.valid).length).toBeGreaterThanOrEqual(150);
    expect(rows.filter((r) => !r.valid).length).toBeGreaterThanOrEqual(150);
  });
  for (const row of rows.filter((r) => r.valid)) {
    it(`valid ${row.kind} ${JSON.stringify(row.input)}`, () => {
      expect(isValid(row.input, row.kind)).toBe(true);
      const ref = parse(row.input, row.kind);
      if (row.components) expect(ref).toStrictEqual(row.components);
      expect(serialize(ref)).toBe(row.input);
      expect(tryParse(row.input, row.kind)).toStrictEqual(ref);
    });
  }
  for (const row of rows.filter((r) => !r.valid)) {
    it(`invalid ${row.kind} ${JSON.stringify(row.input)} -> ${row.code}@${row.offset}`, () => {
      expect(isValid(row.input, row.kind)).toBe(false);
      expect(tryParse(row.input, row.kind)).toBeUndefined();
      let err: unknown;
      try { parse(row.input, row.kind); } catch (e) { err = e; }
      expect(err).toBeInstanceOf(UriError);
      expect({ code: (err as UriError).code, offset: (err as UriError).offset }).toEqual({ code: row.code, offset: row.offset });
    });
  }
});

describe('kinds', () => {
  it('a URI is a URI reference and an IRI; an IRI with non-ASCII is not a URI', () => {
    for (const k of ['uri', 'uri-reference', 'iri', 'iri-reference'] as const) expect(isValid('http://a/b?c#d', k)).toBe(true);
    expect(isValid('http://a/b?c#d', 'absolute-uri')).toBe(false);
    expect(isValid('http://é/', 'iri')).toBe(true);
    expect(isValid('http://é/', 'uri')).toBe(false);
  });
  it('the default kind is uri-reference', () => {
    expect(parse('a/b')).toStrictEqual({ path: 'a/b' });
    expect(isValid('a b')).toBe(false);
  });
  it('keeps undefined and empty apart', () => {
    expect(parse('http://a')).toStrictEqual({ scheme: 'http', host: 'a', hostKind: 'reg-name', path: '' });
    expect(parse('http://@a:?#')).toStrictEqual({ scheme: 'http', userinfo: '', host: 'a', hostKind: 'reg-name', port: '', path: '', query: '', fragment: '' });
  });
  it('refuses an unknown profile through the profile entry point', () => {
    expect(() => parse('a', 'uri-reference', { profile: 'no-such' as never })).toThrow(UriError);
  });
});
