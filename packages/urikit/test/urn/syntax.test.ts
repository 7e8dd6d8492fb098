import { describe, expect, it } from 'vitest';
import { isValidUrn, parseUrn, UriError } from 'urikit';
import type { Urn, UrnProfile } from 'urikit';
import rfc8141 from './data/syntax-rfc8141.json' with { type: 'json' };
import urn2012 from './data/syntax-urn-2012.json' with { type: 'json' };
import yaurn from './data/syntax-yaurn-1995.json' with { type: 'json' };
import specUrns from './data/spec-urns.json' with { type: 'json' };

type Row = Record<string, unknown> & { input: string };
type Bad = { input: string; code: string; offset: number };

const PARTS = ['nid', 'nss', 'rComponent', 'qComponent', 'fComponent', 'schemeId', 'authorityId', 'elementId', 'experimental', 'reservedRequest'] as const;

function checkValid(row: Row, urn: Urn): void {
  for (const k of PARTS) {
    if (k in row) expect(urn[k], k).toEqual(row[k]);
    else if (k !== 'nid' && k !== 'nss') expect(urn[k], k).toBeUndefined();
  }
  if ('directives' in row) expect(urn.directives?.map((d) => [d.keyword, d.value])).toEqual(row.directives);
}

function thrown(input: string, profile: UrnProfile): UriError {
  try {
    parseUrn(input, { profile });
  } catch (e) {
    if (e instanceof UriError) return e;
    throw e;
  }
  throw new Error(`no error for ${JSON.stringify(input)}`);
}

for (const [profile, data] of [['rfc8141', rfc8141], ['urn-2012', urn2012], ['yaurn-1995', yaurn]] as const) {
  describe(`parseUrn, profile ${profile} (${data.source.slice(0, 60)}…)`, () => {
    it.each(data.valid as Row[])('valid: $input', (row) => {
      const urn = parseUrn(row.input, { profile });
      expect(urn.profile).toBe(profile);
      checkValid(row, urn);
      expect(isValidUrn(row.input, { profile })).toBe(true);
    });
    it.each(data.invalid as Bad[])('invalid: $input -> $code at $offset', (row) => {
      const e = thrown(row.input, profile);
      expect([e.code, e.offset]).toEqual([row.code, row.offset]);
      expect(isValidUrn(row.input, { profile })).toBe(false);
    });
  });
}

describe('default profile is rfc8141', () => {
  it('reads an r-component without options', () => {
    expect(parseUrn('urn:example:a?+b').rComponent).toBe('b');
    expect(isValidUrn('urn:example:a?x=y')).toBe(false);
  });
  it('refuses an unknown profile', () => {
    expect(() => parseUrn('urn:ex:a', { profile: 'nope' as UrnProfile })).toThrow(expect.objectContaining({ code: 'unknown-profile' }));
  });
});

describe('every URN written in the five documents parses under its profile', () => {
  it.each(specUrns.urns)('$doc $section: $input', (row) => {
    const urn = parseUrn(row.input, { profile: row.profile as UrnProfile });
    for (const [k, v] of Object.entries(row.expect)) expect(urn[k as keyof Urn], k).toEqual(v);
  });
  it.each(specUrns.notUrns)('$doc: $text is not a URN ($why)', (row) => {
    expect(isValidUrn(row.text)).toBe(false);
  });
});

describe('the scanner is linear and never crashes', () => {
  it('handles long inputs of every shape', () => {
    const n = 200_000;
    expect(isValidUrn(`urn:ex:${'a'.repeat(n)}`)).toBe(true);
    expect(isValidUrn(`urn:ex:a?+${'?+'.repeat(n)}`)).toBe(false);
    expect(isValidUrn(`urn:ex:a?=${'x=y&'.repeat(n)}z=1`)).toBe(true);
    expect(isValidUrn(`urn:ex:a?${'x=y&'.repeat(n)}z=1`, { profile: 'urn-2012' })).toBe(true);
    expect(isValidUrn(`<urn:dns:a.example.com:${' x'.repeat(n)}>`, { profile: 'yaurn-1995' })).toBe(true);
  });
});

describe('2012 draft §2.4: fragments only where the namespace allows them (checkNamespace)', () => {
  it('refuses a fragment on a namespace that does not specify one, only when asked', () => {
    expect(isValidUrn('urn:foo:a123,456#xyz', { profile: 'urn-2012' })).toBe(true);
    expect(() => parseUrn('urn:isbn:0-395-36341-1?s=I2L#p', { profile: 'urn-2012', checkNamespace: true })).toThrow(
      expect.objectContaining({ code: 'bad-urn-component', offset: 28 }),
    );
    expect(isValidUrn('urn:isbn:0-395-36341-1#p', { checkNamespace: true })).toBe(true); // RFC 8141 §2.3.3 allows f-components
  });
});
