import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mediaTypeError } from '../../src/formats/media-type.js';
import table from './media-type-cases.json' with { type: 'json' };

describe('media type syntax (RFC 6838 §4.2, RFC 9110 §8.3.1)', () => {
  for (const c of table.cases) {
    it(`${JSON.stringify(c.input)} -> ${c.offset === null ? 'well formed' : `offset ${c.offset}`}`, () => {
      const e = mediaTypeError(c.input);
      expect(e?.offset ?? null).toBe(c.offset);
      if (e) expect(e.reason.length).toBeGreaterThan(0);
    });
  }
  it('a name of 127 characters is one, 128 is too long', () => {
    expect(mediaTypeError(`application/${'a'.repeat(127)}`)).toBeUndefined();
    expect(mediaTypeError(`application/${'a'.repeat(128)}`)?.offset).toBe(12 + 127);
  });
  it('the offset always lies inside the input or just after it, on any string', () => {
    fc.assert(fc.property(fc.string({ maxLength: 60 }), (s) => {
      const e = mediaTypeError(s);
      if (e) expect(e.offset >= 0 && e.offset <= s.length).toBe(true);
    }));
  });
});
