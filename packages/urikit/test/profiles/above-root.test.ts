/**
 * The 2003 draft §5.2 step 7 choice for ".." above the root (keep, remove,
 * error) under every profile, from the table in ../data/above-root.json.
 */
import { describe, expect, it } from 'vitest';
import { resolve, type Profile } from 'urikit';
import table from '../data/above-root.json' with { type: 'json' };

interface Case { profile: Profile; base: string; ref: string; keep: string; remove: string; default: 'keep' | 'remove' }

describe(table.source, () => {
  for (const c of table.cases as Case[]) {
    it(`${c.profile}: ${c.base} + ${c.ref}`, () => {
      const profile = c.profile;
      expect(resolve(c.base, c.ref, { profile, aboveRoot: 'keep' })).toBe(c.keep);
      expect(resolve(c.base, c.ref, { profile, aboveRoot: 'remove' })).toBe(c.remove);
      expect(resolve(c.base, c.ref, { profile })).toBe(c[c.default]);
      if (c.keep === c.remove) expect(resolve(c.base, c.ref, { profile, aboveRoot: 'error' })).toBe(c.keep);
      else expect(() => resolve(c.base, c.ref, { profile, aboveRoot: 'error' })).toThrowError(expect.objectContaining({ code: 'above-root' }) as Error);
    });
  }
});
