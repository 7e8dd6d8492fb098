/**
 * parserDifferentials and lint's parser-differential finding on published
 * SSRF and URL-confusion examples and on the differences urikit's own
 * comparison table lists (differential.json names the source of each
 * case): what urikit's RFC 3986 reading and the platform's WHATWG URL
 * reading disagree on, and what each reaches.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { lint, parserDifferentials, type ParserDifferential } from 'urikit';
import data from './differential.json' with { type: 'json' };

/** null in the table stands for "absent" (undefined). */
const expected = (d: Record<string, string | null>): Partial<ParserDifferential> =>
  Object.fromEntries(Object.entries(d).map(([k, v]) => [k, v ?? undefined])) as Partial<ParserDifferential>;

describe(`parserDifferentials (${data.source.slice(0, 100)}...)`, () => {
  for (const c of data.cases) {
    it(`${JSON.stringify(c.uri)}: ${c.note} (${c.source.split(',')[0]})`, () => {
      const got = parserDifferentials(c.uri);
      expect(got.map((d) => d.kind)).toEqual(c.differentials.map((d) => d.kind));
      c.differentials.forEach((d, i) => expect(got[i]).toMatchObject(expected(d as Record<string, string | null>)));
      for (const d of got) {
        expect(d.start).toBeGreaterThanOrEqual(0);
        expect(d.end).toBeLessThanOrEqual(c.uri.length);
      }
      // lint reports the same differences, one finding each, only when asked.
      const findings = lint(c.uri, { differential: true }).filter((f) => f.code === 'parser-differential');
      expect(findings.map((f) => [f.start, f.end])).toEqual(got.map((d) => [d.start, d.end]));
      expect(lint(c.uri).some((f) => f.code === 'parser-differential')).toBe(false);
    });
  }
  it('a host that a WHATWG parser reads as internal is an internal-host finding even without the option', () => {
    for (const c of data.cases) {
      const host = parserDifferentials(c.uri).find((d) => d.kind === 'host');
      if (host?.whatwgClass === 'loopback' || host?.whatwgClass === 'link-local' || host?.whatwgClass === 'unspecified') {
        expect(lint(c.uri).map((f) => f.code), c.uri).toContain('internal-host');
      }
    }
  });
  it('is empty for relative references and never throws', () => {
    expect(parserDifferentials('../a\\b')).toEqual([]);
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('h', 't', 'p', 's', ':', '/', '\\', '@', '%', '0', 'x', '.', '[', ']', '1', ' ', '\t', '#', '?', 'é') }), (s) => {
        for (const d of parserDifferentials(s)) {
          expect(d.start).toBeGreaterThanOrEqual(0);
          expect(d.end).toBeLessThanOrEqual(s.length);
        }
      }),
    );
  });
});
