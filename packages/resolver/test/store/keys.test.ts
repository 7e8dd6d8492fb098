import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { authorityPrefix, inAuthority, keyPrefix, nameKey } from '../../src/store/keys.js';
import table from './keys-cases.json' with { type: 'json' };

describe('store keys', () => {
  for (const c of table.cases) {
    it(`${c.urn} -> ${c.key}`, () => expect(nameKey(c.urn)).toMatchObject({ key: c.key, authority: c.authority, elementId: c.elementId, ...("spelling" in c ? { spelling: c.spelling } : {}) }));
  }
  for (const [prefix, canonical] of table.prefixes as Array<[string, string]>) {
    it(`authority prefix ${prefix} -> ${JSON.stringify(canonical)}`, () => expect(authorityPrefix(prefix)).toBe(canonical));
  }
  for (const [key, prefix, inside] of table.scopes as Array<[string, string, boolean]>) {
    it(`${key} ${inside ? 'is' : 'is not'} under ${JSON.stringify(prefix)}`, () => expect(inAuthority(key, prefix)).toBe(inside));
  }
  // Laws of the one key (1995 draft §2.3.1 for urn:dns:, RFC 8141 §3.1 otherwise).
  // %00 is refused outright (nameKey: nul-in-urn), so it is no spelling of a name.
  const elementId = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9.-]{0,20}(%[0-9a-fA-F]{2})?[A-Za-z0-9-]{0,5}$/).filter((e) => !e.includes('%00'));
  const flipCase = (s: string, flips: boolean[]) => [...s].map((c, i) => (flips[i % flips.length] ? (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) : c)).join('');
  it('law: every spelling of a urn:dns: name has one key, in lower case but for %hh, which spelling keeps', () => {
    fc.assert(fc.property(elementId, fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }), (e, flips) => {
      const urn = `urn:dns:library.bigstate.edu:${e}`;
      const variant = flipCase(urn, flips);
      const k = nameKey(urn);
      expect(nameKey(variant).key).toBe(k.key);
      expect(nameKey(k.key).key).toBe(k.key);
      expect(k.key.replace(/%[0-9A-F]{2}/g, '')).toBe(k.key.replace(/%[0-9A-F]{2}/g, '').toLowerCase());
      expect(nameKey(variant).spelling.length).toBe(k.key.length);
      expect(keyPrefix(variant.slice(0, 34))).toBe(k.key.slice(0, 34));
    }));
  });
  it('law: under another NID, spellings that differ in the NSS letters are two keys', () => {
    fc.assert(fc.property(elementId.filter((e) => /[a-z]/.test(e.replace(/%../g, ''))), (e) => {
      const lower = e.replace(/(%..)|[A-Z]/g, (m, t: string | undefined) => t ?? m.toLowerCase());
      expect(nameKey(`urn:example:${lower}`).key).not.toBe(nameKey(`urn:example:${lower.toUpperCase()}`).key);
      expect(nameKey(`URN:EXAMPLE:${e}`).key).toBe(nameKey(`urn:example:${e}`).key);
    }));
  });
  it('throws the parser\'s error for an invalid URN', () => {
    expect(() => nameKey('urn:a:b')).toThrow(expect.objectContaining({ code: 'bad-nid' }));
  });
});
