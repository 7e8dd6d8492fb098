import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildUrn, normalizeUrn, parseUrn, urnEquivalent } from 'urikit';
import type { UrnEquivalencePurpose, UrnProfile } from 'urikit';
import t2012 from './data/equivalence-2012.json' with { type: 'json' };
import t8141 from './data/equivalence-rfc8141.json' with { type: 'json' };

describe(`2012 draft §5.1 table, verbatim (${t2012.source.slice(0, 50)}…)`, () => {
  const ids = Object.keys(t2012.urns) as Array<keyof typeof t2012.urns>;
  for (const purpose of ['name', 'cache'] as const) {
    const classOf = new Map<string, number>();
    t2012.classes[purpose].forEach((cls, k) => cls.forEach((id) => classOf.set(id, k)));
    const pairs = ids.flatMap((a) => ids.map((b) => [a, b] as const));
    it.each(pairs)(`purpose ${purpose}: URN %s vs URN %s`, (a, b) => {
      const expected = classOf.get(a) === classOf.get(b);
      expect(urnEquivalent(t2012.urns[a], t2012.urns[b], { profile: 'urn-2012', purpose })).toBe(expected);
    });
  }
});

describe('RFC 8141 §3.2 examples under the default profile', () => {
  type Group = { section: string; equivalent?: string[]; distinct?: string[]; notEquivalentTo?: string[] };
  for (const g of t8141.groups as Group[]) {
    it(g.section.slice(0, 120), () => {
      const eq = g.equivalent ?? [];
      const distinct = g.distinct ?? [];
      for (const a of eq) for (const b of eq) expect(urnEquivalent(a, b), `${a} ~ ${b}`).toBe(true);
      for (const a of distinct) for (const b of distinct) expect(urnEquivalent(a, b), `${a} vs ${b}`).toBe(a === b);
      for (const a of [...eq, ...distinct]) {
        for (const b of g.notEquivalentTo ?? []) {
          expect(urnEquivalent(a, b), `${a} !~ ${b}`).toBe(false);
          expect(urnEquivalent(b, a), `${b} !~ ${a}`).toBe(false);
        }
      }
    });
  }
});

describe('normalizeUrn', () => {
  it.each([
    ['URN:FOO:a123%2c456#xyz', undefined, 'urn:foo:a123%2C456'],
    ['urn:example:a?+r%2f?=q#f', undefined, 'urn:example:a'],
    ['urn:example:a?+r%2f?=s=1&c=2#f', 'cache', 'urn:example:a?+r%2F?=c=2&s=1'],
    ['urn:example:a?=not%2fdirectives#f', 'cache', 'urn:example:a?=not%2Fdirectives'],
  ] as const)('%s (%s) -> %s', (input, purpose, out) => {
    expect(normalizeUrn(input, purpose ? { purpose } : undefined)).toBe(out);
  });
  it('reorders 2012 directives stably by keyword for caching (step 5b)', () => {
    expect(normalizeUrn('urn:foo:a?s=I2L&c=ToC&b=2&b=1#f', { profile: 'urn-2012', purpose: 'cache' })).toBe('urn:foo:a?b=2&b=1&c=ToC&s=I2L');
    expect(urnEquivalent('urn:foo:a?s=I2L&c=ToC', 'URN:FOO:a?c=ToC&s=I2L', { profile: 'urn-2012', purpose: 'cache' })).toBe(true);
  });
  it('applies the 1995 rules under yaurn-1995', () => {
    expect(normalizeUrn('<URN:DNS:Library.BigState.EDU: aj17-%4dcc>', { profile: 'yaurn-1995' })).toBe('urn:dns:library.bigstate.edu:aj17-%4Dcc');
    expect(urnEquivalent('urn:dns:a.example.com:X', 'urn:dns:a.example.com:x', { profile: 'yaurn-1995' })).toBe(false);
    expect(urnEquivalent('urn:x-a:Auth:x', 'urn:x-a:auth:x', { profile: 'yaurn-1995' })).toBe(false);
  });
  it('can leave the namespaces out', () => {
    expect(normalizeUrn('urn:isbn:0-395-36341-1')).toBe('urn:isbn:0395363411');
    expect(normalizeUrn('urn:isbn:0-395-36341-1', { namespaces: false })).toBe('urn:isbn:0-395-36341-1');
  });
  it('throws on what is not a URN', () => {
    expect(() => urnEquivalent('urn:ex:a', 'http://a/')).toThrow(expect.objectContaining({ code: 'bad-urn' }));
  });
});

// Generators: small alphabets so that equal-after-normalization inputs collide often.
const nidArb = fc.constantFrom('ex', 'EX', 'eX', 'isbn', 'ISBN', 'uuid', 'foo', 'ietf', 'nbn', 'issn', 'oid', 'publicid', 'UUID');
const pieceArb = fc.constantFrom('a', 'A', '%2c', '%2C', ',', '0', '-', 'x', 'X', ':', '%c3%a9', '%C3%A9', '1', '9', 'rfc', 'fi');
const nssArb = fc.array(pieceArb, { minLength: 1, maxLength: 6 }).map((p) => p.join(''));
// NSSs that some namespace accepts, in forms its extra equivalences merge
const isbnArb = fc.constantFrom(
  '0-395-36341-1', '0395363411', '0-8044-2957-x', '080442957X', '978-0-395-36341-6', 'rfc:1', 'RFC:1', 'fi-x', 'FI-x',
  'f81d4fae-7dec-11d0-a765-00a0c91e6bf6', 'F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6', '1050-124x', '1050-124X', 'de:BVB:19-1', 'DE:bvb:19-1',
  'params:XML:ns:a', 'params:xml:ns:A', '1.3.6.1', '-:W3C:DTD+HTML+4.01:EN', 'a%2Fb',
);
const compArb = fc.option(fc.array(fc.constantFrom('a', 'b=1', 'c=2', '%2f', '%2F', '&', 'B'), { minLength: 1, maxLength: 4 }).map((p) => `x${p.join('')}`), { nil: undefined });
const urn8141Arb = fc.record({ nid: nidArb, nss: fc.oneof(nssArb, isbnArb), rComponent: compArb, qComponent: compArb, fComponent: compArb }).map((u) => buildUrn(u));
const dirArb = fc.array(fc.tuple(fc.constantFrom('s', 'c', 'x', 'y-1'), fc.constantFrom('I2L', 'ToC', '', '%2f', '%2F')), { minLength: 1, maxLength: 4 });
const urn2012Arb = fc.record({ nid: nidArb, nss: fc.oneof(nssArb, isbnArb), dirs: fc.option(dirArb, { nil: undefined }), fComponent: compArb }).map((u) =>
  buildUrn({ profile: 'urn-2012', nid: u.nid, nss: u.nss, fComponent: u.fComponent, directives: u.dirs?.map(([keyword, value]) => ({ keyword, value })) }),
);
const profiles: Array<[UrnProfile, fc.Arbitrary<string>]> = [['rfc8141', urn8141Arb], ['urn-2012', urn2012Arb]];

describe('laws (fast-check)', () => {
  for (const [profile, arb] of profiles) {
    for (const purpose of ['name', 'cache'] as UrnEquivalencePurpose[]) {
      const opts = { profile, purpose };
      it(`${profile}/${purpose}: urnEquivalent is reflexive, symmetric and transitive`, () => {
        fc.assert(
          fc.property(arb, arb, arb, (a, b, c) => {
            expect(urnEquivalent(a, a, opts)).toBe(true);
            expect(urnEquivalent(a, b, opts)).toBe(urnEquivalent(b, a, opts));
            if (urnEquivalent(a, b, opts) && urnEquivalent(b, c, opts)) expect(urnEquivalent(a, c, opts)).toBe(true);
          }),
          { numRuns: 400 },
        );
      });
      it(`${profile}/${purpose}: normalizeUrn is idempotent and its output is a URN`, () => {
        fc.assert(
          fc.property(arb, (a) => {
            const n = normalizeUrn(a, opts);
            expect(normalizeUrn(n, opts)).toBe(n);
            expect(urnEquivalent(a, n, opts)).toBe(true);
          }),
          { numRuns: 400 },
        );
      });
      it(`${profile}/${purpose}: the namespaces only remove false negatives (2012 draft §5)`, () => {
        fc.assert(
          fc.property(arb, arb, (a, b) => {
            if (urnEquivalent(a, b, { ...opts, namespaces: false })) expect(urnEquivalent(a, b, opts)).toBe(true);
          }),
          { numRuns: 400 },
        );
      });
    }
    it(`${profile}: parseUrn(buildUrn(x)) round-trips`, () => {
      fc.assert(
        fc.property(arb, (s) => {
          const x = parseUrn(s, { profile });
          expect(parseUrn(buildUrn(x), { profile })).toEqual(x);
        }),
        { numRuns: 400 },
      );
    });
  }
  it('yaurn-1995: parseUrn(buildUrn(x)) round-trips and normalizeUrn is idempotent', () => {
    const arb = fc
      .record({ s: fc.constantFrom('dns', 'DNS', 'x-a', 'X-B'), a: fc.constantFrom('a.example.com', 'A.Example.COM', 'b.edu'), e: fc.constantFrom('x', 'X', 'urn+m', 'a%2fb', 'a%2Fb', 'a:b', 'URN+q') })
      .map((u) => `urn:${u.s}:${u.a}:${u.e}`);
    fc.assert(
      fc.property(arb, arb, (s, t) => {
        const x = parseUrn(s, { profile: 'yaurn-1995' });
        expect(parseUrn(buildUrn(x), { profile: 'yaurn-1995' })).toEqual(x);
        const n = normalizeUrn(s, { profile: 'yaurn-1995' });
        expect(normalizeUrn(n, { profile: 'yaurn-1995' })).toBe(n);
        expect(urnEquivalent(s, t, { profile: 'yaurn-1995' })).toBe(urnEquivalent(t, s, { profile: 'yaurn-1995' }));
      }),
      { numRuns: 300 },
    );
  });
});
