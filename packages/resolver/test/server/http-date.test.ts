import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { httpDate } from '../../src/server/render/http-date.js';

describe('httpDate (RFC 9110 §5.6.7 IMF-fixdate)', () => {
  it.each([
    [784111777000, 'Sun, 06 Nov 1994 08:49:37 GMT'], // RFC 9110 §5.6.7's own example
    [0, 'Thu, 01 Jan 1970 00:00:00 GMT'],
    [951782400000, 'Tue, 29 Feb 2000 00:00:00 GMT'], // a leap day of a year divisible by 400
    [4107542399999, 'Sun, 28 Feb 2100 23:59:59 GMT'], // 2100 is not a leap year
    [-1, 'Wed, 31 Dec 1969 23:59:59 GMT'],
  ])('%d → %s', (ms, expected) => {
    expect(httpDate(ms)).toBe(expected);
  });

  it('agrees with Date#toUTCString for any time between years 1 and 9999', () => {
    fc.assert(fc.property(fc.integer({ min: -62135596800000, max: 253402300799999 }), (ms) => {
      expect(httpDate(ms)).toBe(new Date(Math.floor(ms / 1000) * 1000).toUTCString());
    }), { numRuns: 20000 });
  });
});
