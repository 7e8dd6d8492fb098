/**
 * The url-1993 profile: the per-scheme BNF of the 1993 draft through
 * `isValid(input, 'uri', { profile: 'url-1993' })`, the partial form, and
 * resolution by the partial-form rules.
 */
import { describe, expect, it } from 'vitest';
import { isValid, parse, resolve, tryParse } from 'urikit';
import table from './url-1993.json' with { type: 'json' };

const profile = 'url-1993' as const;

describe(table.source, () => {
  describe('valid under the 1993 BNF', () => {
    for (const c of table.valid) {
      it(`${c.uri} (${c.rule})`, () => {
        expect(isValid(c.uri, 'uri', { profile })).toBe(true);
        expect(parse(c.uri, 'uri', { profile }).scheme).toBe(c.uri.slice(0, c.uri.indexOf(':')));
      });
    }
  });
  describe('invalid under the 1993 BNF', () => {
    for (const c of table.invalid) {
      it(`${c.uri} (${c.rule})`, () => {
        expect(isValid(c.uri, 'uri', { profile })).toBe(false);
        expect(tryParse(c.uri, 'uri', { profile })).toBeUndefined();
      });
    }
  });
  describe('partial forms', () => {
    for (const p of table.partialValid) it(`${JSON.stringify(p)} is a partial form`, () => {
      expect(isValid(p, 'uri-reference', { profile })).toBe(true);
      expect(isValid(p, 'uri', { profile })).toBe(false);
    });
    for (const p of table.partialInvalid) it(`${JSON.stringify(p)} is not`, () => {
      expect(isValid(p, 'uri-reference', { profile })).toBe(false);
    });
  });
  describe(`resolution against ${table.base}`, () => {
    for (const c of table.resolve) {
      it(`${JSON.stringify(c.ref)} -> ${c.expected} (${c.rule})`, () => {
        expect(resolve(table.base, c.ref, { profile })).toBe(c.expected);
      });
    }
  });
  it('splits a 1993 URL into the generic components', () => {
    expect(parse('gopher://host:70/1sel?find#x', 'uri', { profile })).toStrictEqual({
      scheme: 'gopher', host: 'host', hostKind: 'reg-name', port: '70', path: '/1sel', query: 'find', fragment: 'x',
    });
    expect(parse('telnet://guest@128.141.77.1', 'uri', { profile })).toStrictEqual({
      scheme: 'telnet', userinfo: 'guest', host: '128.141.77.1', hostKind: 'ipv4', path: '',
    });
  });
  it("'absolute-uri' refuses a fragment and the IRI kinds are not 1993 kinds", () => {
    expect(isValid('http://h/a#f', 'absolute-uri', { profile })).toBe(false);
    expect(isValid('http://h/a', 'iri', { profile })).toBe(false);
  });
});
