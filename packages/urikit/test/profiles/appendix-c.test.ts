/**
 * The resolution tables of each generation, each under its own profile:
 * Appendix C of the 1997 draft, Appendix C of the 2003 draft, and RFC 3986
 * §5.4 (the core engineer's data file) under the default.
 */
import { describe, expect, it } from 'vitest';
import { resolve, type Profile } from 'urikit';
import c1997 from '../data/appendix-c-1997.json' with { type: 'json' };
import c2003 from '../data/appendix-c-2003.json' with { type: 'json' };
import rfc3986 from '../data/rfc3986-5.4-examples.json' with { type: 'json' };

interface Case { section: string; ref: string; expected: string; strict?: boolean; nonStrict?: string }

function table(name: string, doc: { source: string; base: string; cases: Case[] }, profile: Profile | undefined): void {
  describe(`${name}: ${doc.source}`, () => {
    for (const c of doc.cases) {
      const strict = c.strict ?? true;
      it(`${c.section} ${JSON.stringify(c.ref)}${strict ? '' : ' (non-validating)'} = ${c.expected}`, () => {
        expect(resolve(doc.base, c.ref, profile ? { profile, strict } : { strict })).toBe(c.expected);
        if (c.nonStrict !== undefined) expect(resolve(doc.base, c.ref, { strict: false })).toBe(c.nonStrict);
      });
    }
  });
}

table('draft-1997', c1997 as { source: string; base: string; cases: Case[] }, 'draft-1997');
table('draft-2003', c2003 as { source: string; base: string; cases: Case[] }, 'draft-2003');
table('rfc3986 (default)', rfc3986 as { source: string; base: string; cases: Case[] }, undefined);

describe('the generations differ where DESIGN.md says', () => {
  const base = 'http://a/b/c/d;p?q';
  it.each([
    ['rfc3986', '../../../g', 'http://a/g'],
    ['draft-2003', '../../../g', 'http://a/../g'],
    ['draft-1997', '?y', 'http://a/b/c/?y'],
    ['draft-1997', 'g?y/../x', 'http://a/b/c/x'],
    ['draft-1997', '../../../g', 'http://a/../g'],
  ] as const)('%s: %s -> %s', (profile, ref, expected) => {
    expect(resolve(base, ref, { profile })).toBe(expected);
  });
  it('an unknown profile is refused', () => {
    expect(() => resolve(base, 'g', { profile: 'draft-1066' as Profile })).toThrow(/profile/);
  });
  it('a base without a scheme is refused under every profile', () => {
    for (const profile of ['draft-2003', 'draft-1997', 'url-1993'] as const) {
      expect(() => resolve('/a/b', 'g', { profile })).toThrow();
    }
  });
});
