import { describe, expect, it } from 'vitest';
import {
  getDirective, getDirectiveKeyword, getServiceDesignator, listServiceDesignators, parseDirectives, parseUrn,
  registerDirectiveKeyword, registerServiceDesignator, UriError,
} from 'urikit';
import data from './data/directives.json' with { type: 'json' };

describe(`parseDirectives (${data.source.slice(0, 40)}…)`, () => {
  it.each(data.valid)('$query', ({ query, directives }) => {
    expect(parseDirectives(query).map((d) => [d.keyword, d.value, d.ignored])).toEqual(directives);
  });
  it.each(data.invalid)('$query -> $code at $offset', ({ query, code, offset }) => {
    let err: unknown;
    try { parseDirectives(query); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(UriError);
    expect([(err as UriError).code, (err as UriError).offset]).toEqual([code, offset]);
  });
});

describe('getDirective', () => {
  it('gives the value of a directive unless absent or ignored', () => {
    const urn = parseUrn('urn:isbn:0-395-36341-1?s=I2L&c=ToC&c=Index', { profile: 'urn-2012' });
    expect(getDirective(urn.directives, 's')).toBe('I2L');
    expect(getDirective(urn.directives, 'c')).toBeUndefined();
    expect(getDirective(urn.directives, 'x')).toBeUndefined();
    expect(getDirective(undefined, 's')).toBeUndefined();
  });
});

describe('registries (2012 draft §9.2)', () => {
  it.each(data.keywords)('keyword %s is registered with global scope', (k) => {
    expect(getDirectiveKeyword(k)?.scope).toBe('global');
  });
  it.each(data.designators)('service designator %s is registered, provisional, from RFC 2483 §4', (name) => {
    const d = getServiceDesignator(name);
    expect(d?.status).toBe('provisional');
    expect(d?.reference).toMatch(/^RFC 2483 §4\.\d$/);
  });
  it('lists the designators in the order of §9.2.2', () => {
    expect(listServiceDesignators().map((d) => d.name).slice(0, 9)).toEqual(data.designators);
  });
  it('is open to registration; a newly registered keyword obeys the duplicate rule', () => {
    expect(parseDirectives('lang=en&lang=fr').every((d) => !d.ignored)).toBe(true);
    registerDirectiveKeyword({ keyword: 'lang', purpose: 'language', scope: 'specific', reference: 'test' });
    expect(parseDirectives('lang=en&lang=fr').every((d) => d.ignored)).toBe(true);
    registerServiceDesignator({ name: 'I2T', purpose: 'URI to thumbnail', status: 'exp', reference: 'test' });
    expect(getServiceDesignator('I2T')?.status).toBe('exp');
  });
  it('refuses names that could not appear in a query', () => {
    expect(() => registerDirectiveKeyword({ keyword: '1x', purpose: '', scope: 'global', reference: '' })).toThrow(expect.objectContaining({ code: 'bad-directive' }));
    expect(() => registerServiceDesignator({ name: 'a&b', purpose: '', status: 'exp', reference: '' })).toThrow(expect.objectContaining({ code: 'bad-directive' }));
  });
});
