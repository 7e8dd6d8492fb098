import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { jsonDeeperThan, jsonTooDeepAt } from '../../src/formats/json-depth.js';

/** The literal oracle: the depth of a parsed value, recursively (only ever called on shallow values). */
function depthOf(v: unknown): number {
  if (v === null || typeof v !== 'object') return 0;
  const children = Array.isArray(v) ? v : Object.values(v);
  return 1 + children.reduce((m: number, c) => Math.max(m, depthOf(c)), 0);
}

describe('JSON nesting depth (RFC 8259 §9)', () => {
  it('the text scan and the value walk agree with the recursive depth of any value', () => {
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 10 }), (v, max) => {
      const depth = depthOf(v);
      const text = JSON.stringify(v);
      expect(jsonTooDeepAt(text, max) >= 0).toBe(depth > max);
      expect(jsonDeeperThan(v, max)).toBe(depth > max);
    }));
  });
  it('names the bracket that goes too deep, outside strings', () => {
    expect(jsonTooDeepAt('{"a":"[[[[","b":[{"c":[]}]}', 2)).toBe(17);
    expect(jsonTooDeepAt('{"a":"\\"[[[["}', 1)).toBe(-1);
  });
  it('takes 100,000 levels in one pass, without recursion', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(jsonTooDeepAt(deep, 64)).toBe(64);
    expect(jsonDeeperThan(JSON.parse(deep), 64)).toBe(true);
  });
});
