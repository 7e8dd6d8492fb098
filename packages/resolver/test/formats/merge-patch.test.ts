// JSON Merge Patch (RFC 7396): the examples of the RFC verbatim, and its laws.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applyMergePatch } from '../../src/formats/merge-patch.js';
import data from './merge-patch-cases.json' with { type: 'json' };

describe('applyMergePatch (RFC 7396)', () => {
  for (const c of data.cases) {
    it(`${JSON.stringify(c.original)} + ${JSON.stringify(c.patch)} = ${JSON.stringify(c.result)}`, () => {
      const original = structuredClone(c.original);
      expect(applyMergePatch(original, c.patch)).toEqual(c.result);
      expect(original).toEqual(c.original);
    });
  }

  it('a member named __proto__ is a member, never the prototype', () => {
    const out = applyMergePatch({}, JSON.parse('{"__proto__": {"polluted": true}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('leaves every member the patch does not name as it was, and is idempotent', () => {
    const doc = fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
    fc.assert(fc.property(doc, doc, (target, patch) => {
      const out = applyMergePatch(target, patch) as Record<string, unknown>;
      for (const k of Object.keys(target)) if (!(k in patch)) expect(out[k]).toEqual(target[k]);
      expect(applyMergePatch(out, patch)).toEqual(out);
    }), { numRuns: 500 });
  });
});
