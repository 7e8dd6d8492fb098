import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { namesFormat, negotiate, type ResultFormat } from '../../src/formats/negotiate.js';
import table from './negotiate-cases.json' with { type: 'json' };

describe('content negotiation (RFC 9110 §12.5.1)', () => {
  for (const c of table.cases) {
    it(`${JSON.stringify(c.accept)} of ${c.offered.join(',')} -> ${c.chosen}`, () => {
      expect(negotiate(c.accept ?? undefined, c.offered as ResultFormat[]) ?? null).toBe(c.chosen);
    });
  }
  it('names a format only without wildcards', () => {
    expect(namesFormat('text/urc-0;q=0.1', 'urc-0')).toBe(true);
    expect(namesFormat('text/urc-0;q=0', 'urc-0')).toBe(false);
    expect(namesFormat('text/*', 'urc-0')).toBe(false);
    expect(namesFormat(undefined, 'urc-0')).toBe(false);
  });
  it('always answers with an offered format or undefined, in linear time on any header', () => {
    const formats: ResultFormat[] = ['urc-0', 'plain', 'html', 'json', 'uri-list'];
    fc.assert(fc.property(fc.string({ maxLength: 300 }), fc.subarray(formats, { minLength: 1 }), (accept, offered) => {
      const f = negotiate(accept, offered);
      expect(f === undefined || offered.includes(f)).toBe(true);
    }));
    const huge = 'text/html;q=0.1,'.repeat(100_000);
    expect(negotiate(huge, ['html'])).toBe('html');
  });
});
