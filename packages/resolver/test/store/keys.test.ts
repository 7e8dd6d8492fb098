import { describe, expect, it } from 'vitest';
import { authorityPrefix, inAuthority, nameKey } from '../../src/store/keys.js';
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
  it('throws the parser\'s error for an invalid URN', () => {
    expect(() => nameKey('urn:a:b')).toThrow(expect.objectContaining({ code: 'bad-nid' }));
  });
});
