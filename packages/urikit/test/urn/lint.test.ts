/**
 * `lint` on URNs: the 2012 draft §2.5.2 rule that an unreserved character
 * is never percent-encoded in a URN ("a character MUST NOT be
 * percent-encoded if the character is not a reserved character").
 */
import { describe, expect, it } from 'vitest';
import { lint } from 'urikit';

const CASES: Array<{ uri: string; at: number[]; why: string }> = [
  { uri: 'urn:ex:%41', at: [7], why: '"A" is unreserved (the issue\'s reproducer)' },
  { uri: 'URN:ex:a%2d%2E%5f%7E', at: [8, 11, 14, 17], why: '"-", ".", "_", "~" are unreserved' },
  { uri: 'urn:ex:a%2Cb%2F%25', at: [], why: '",", "/" and "%" are reserved or the escape itself' },
  { uri: 'urn:ex:a?+%41?=%30#%7a', at: [10, 15, 19], why: 'the r-, q- and f-components are part of the URN too' },
  { uri: 'urn:ex:%C3%A9', at: [], why: 'octets of non-ASCII characters must be encoded' },
  { uri: 'http://h/%41', at: [], why: 'not a URN: RFC 3986 §2.3 only says "should" decode' },
  { uri: 'foo:urn:%41', at: [], why: 'the scheme is not urn' },
];

describe('lint: percent-encoded unreserved characters in a URN (2012 draft §2.5.2)', () => {
  for (const c of CASES) {
    it(`${c.uri}: ${c.why}`, () => {
      const found = lint(c.uri).filter((f) => f.code === 'urn-encoded-unreserved');
      expect(found.map((f) => [f.start, f.end, f.severity])).toEqual(c.at.map((i) => [i, i + 3, 'warning']));
    });
  }
});
