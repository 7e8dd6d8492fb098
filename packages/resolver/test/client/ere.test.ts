// The linear-time ERE matcher used for DNS-supplied NAPTR expressions
// (RFC 3402 §3.2), checked on a table and against JavaScript's RegExp as
// an oracle on generated expressions (both choose leftmost-first).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { compileEre } from '@urikit/resolver';

const table = JSON.parse(readFileSync(new URL('./ere-cases.json', import.meta.url), 'utf8')) as {
  cases: { ere: string; i: boolean; text: string; groups?: (string | null)[] | null; error?: boolean }[];
};

describe('ERE table', () => {
  it.each(table.cases)('$ere on $text', ({ ere, i, text, groups, error }) => {
    if (error) {
      expect(() => compileEre(ere, i)).toThrow();
      return;
    }
    const m = compileEre(ere, i).exec(text);
    expect(m === undefined ? null : m.map((g) => g ?? null)).toEqual(groups);
  });
});

describe('hostile expressions run in linear time', () => {
  it.each([
    ['(a*)*b', 'a'.repeat(20_000)],
    ['(a|a)*b', 'a'.repeat(20_000)],
    ['.*.*.*.*.*.*x', 'y'.repeat(20_000)],
    ['(a+)+$', `${'a'.repeat(20_000)}!`],
  ])('%s', (ere, text) => {
    expect(compileEre(ere, false).exec(text)).toBeUndefined();
  });
});

// Expressions over {a, b} from a small grammar, written so that ERE and
// JavaScript read them the same way. A repeated body never matches the
// empty string: there JavaScript's rule that an empty iteration fails
// (ECMA-262 RepeatMatcher) departs from plain leftmost-first.
type Gen = { src: string; nullable: boolean };
const atom: fc.Arbitrary<Gen> = fc.constantFrom('a', 'b', '.', '[ab]', '[^a]').map((src) => ({ src, nullable: false }));
const expr = fc.letrec<{ e: Gen }>((tie) => ({
  e: fc.oneof({ depthSize: 'small', withCrossShrink: true },
    atom,
    fc.tuple(tie('e'), tie('e')).map(([x, y]) => ({ src: `${x.src}${y.src}`, nullable: x.nullable && y.nullable })),
    fc.tuple(tie('e'), tie('e')).map(([x, y]) => ({ src: `(${x.src}|${y.src})`, nullable: x.nullable || y.nullable })),
    fc.tuple(tie('e'), fc.constantFrom('*', '+', '?', '{1,2}', '{2}')).filter(([x]) => !x.nullable)
      .map(([x, q]) => ({ src: `(${x.src})${q}`, nullable: q === '*' || q === '?' })),
  ),
})).e.map((g) => g.src);

describe('against RegExp (leftmost-first, whole match)', () => {
  it('finds the same match as a backtracking matcher', () => {
    fc.assert(fc.property(expr, fc.stringMatching(/^[ab]{0,12}$/), fc.boolean(), fc.boolean(), (e, text, anchorStart, anchorEnd) => {
      const pattern = `${anchorStart ? '^' : ''}${e}${anchorEnd ? '$' : ''}`;
      const ours = compileEre(pattern, false).exec(text);
      const theirs = new RegExp(pattern).exec(text);
      expect(ours?.[0] ?? null).toBe(theirs?.[0] ?? null);
    }), { numRuns: 2000 });
  });
});
