import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildUrn, displayUrn, identifierToNss, isValidUrn, parseUrn, UriError } from 'urikit';
import data from './data/presentation.json' with { type: 'json' };

describe(`identifierToNss (${data.source.slice(0, 40)}…)`, () => {
  it.each(data.identifierToNss)('$text -> $nss', ({ text, nss }) => {
    expect(identifierToNss(text)).toBe(nss);
    expect(isValidUrn(`urn:example:${nss}`)).toBe(true);
    expect(isValidUrn(`urn:example:${nss}`, { profile: 'urn-2012' })).toBe(true);
  });
  it.each(data.refused)('refuses $text$codeUnits ($code at $offset)', (row) => {
    const { code, offset } = row;
    const text = 'codeUnits' in row ? String.fromCharCode(...(row.codeUnits as number[])) : (row.text as string);
    let err: unknown;
    try { identifierToNss(text); } catch (e) { err = e; }
    expect([(err as UriError).code, (err as UriError).offset]).toEqual([code, offset]);
  });
  it('always gives a canonical NSS that decodes back to the identifier (UTF-8)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1 }).filter((s) => !s.includes('\u0000')), (text) => {
        const nss = identifierToNss(text);
        expect(isValidUrn(`urn:example:${nss}`, { profile: 'urn-2012' })).toBe(true);
        expect(decodeURIComponent(nss)).toBe(text);
        // §2.5.2: a character of the repertoire is never encoded
        expect(identifierToNss(decodeURIComponent(nss))).toBe(nss);
      }),
      { numRuns: 500 },
    );
  });
});

describe('displayUrn', () => {
  it.each(data.displayUrn)('$urn -> $display', ({ urn, display, profile }) => {
    expect(displayUrn(urn, profile ? { profile: profile as 'urn-2012' } : undefined)).toBe(display);
  });
  it('accepts a parsed URN', () => {
    expect(displayUrn(parseUrn('urn:example:%C3%A9'))).toBe('urn:example:é');
  });
});

describe('buildUrn', () => {
  it.each(data.build)('$expect', ({ parts, expect: out }) => {
    expect(buildUrn(parts as Parameters<typeof buildUrn>[0])).toBe(out);
  });
  it.each(data.buildRefused)('refuses $why', ({ parts, code }) => {
    expect(() => buildUrn(parts as Parameters<typeof buildUrn>[0])).toThrow(expect.objectContaining({ code }));
  });
});
