import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isValid, parse, removeDotSegments, resolve, serialize } from 'urikit';
import { removeDotSegmentsOracle, resolveOracle } from './oracle.js';

// References built from the tokens that matter to the grammar and to
// resolution, kept when they are valid (about half are).
const TOKENS = ['a', 'b', 'é', '.', '..', '/', '//', '?', '#', ':', '@', '%41', '%2E', '%', '[', ']', '::1', 'v1.x', '1.2.3.4', '80', 'g:', 'http:', ';', '=', ' ', '\uD83D\uDE00', '\uD800'];
const anyText = fc.array(fc.constantFrom(...TOKENS), { maxLength: 12 }).map((t) => t.join(''));
const reference = anyText.filter((s) => isValid(s, 'iri-reference'));
const absolute = fc
  .tuple(fc.constantFrom('http:', 'foo:', 'A+b.c-:', 'urn:'), fc.constantFrom('', '//', '//h', '//u@h:1', '//[::1]'), anyText)
  .map(([s, a, rest]) => s + a + rest)
  .filter((s) => isValid(s, 'iri'));
const pathText = fc.array(fc.constantFrom('a', 'b', '.', '..', '/', '%2E', 'c.'), { maxLength: 14 }).map((t) => t.join(''));

describe('laws', () => {
  it('round-trip: parse(serialize(parse(x))) equals parse(x), serialize(parse(x)) is x', () => {
    fc.assert(fc.property(reference, (s) => {
      const ref = parse(s, 'iri-reference');
      expect(serialize(ref)).toBe(s);
      expect(parse(serialize(ref), 'iri-reference')).toStrictEqual(ref);
    }), { numRuns: 3000 });
  });
  it('an arbitrary string is refused or round-trips; parse and isValid agree', () => {
    fc.assert(fc.property(fc.oneof(anyText, fc.string({ unit: 'binary', maxLength: 30 })), (s) => {
      for (const kind of ['uri', 'uri-reference', 'absolute-uri', 'iri', 'iri-reference'] as const) {
        const ok = isValid(s, kind);
        if (ok) expect(serialize(parse(s, kind))).toBe(s);
        else expect(() => parse(s, kind)).toThrow();
      }
    }), { numRuns: 3000 });
  });
  it('removeDotSegments equals the literal §5.2.4 buffer algorithm', () => {
    fc.assert(fc.property(pathText, (p) => { expect(removeDotSegments(p)).toBe(removeDotSegmentsOracle(p)); }), { numRuns: 5000 });
  });
  it('resolve equals the literal §5.2 transcription, strict and not', () => {
    fc.assert(fc.property(absolute, reference, fc.boolean(), (b, r, strict) => {
      expect(resolve(b, r, { strict })).toBe(resolveOracle(b, r, strict));
    }), { numRuns: 5000 });
  });
  it('resolve of references with leading dot segments equals the literal transcription (the fast path of resolve.ts)', () => {
    const seg = fc.constantFrom('a', 'b.c', '', '.', '..', '%2E', 'x:y');
    const base = fc.tuple(fc.constantFrom('http://h', 'http://u@h:8', 'foo:', 'foo://h', 'x-y:'), fc.array(seg, { maxLength: 5 }), fc.constantFrom('', '?q', '#f', '?q#f'))
      .map(([head, segs, tail]) => (segs.length === 0 ? head : head + '/' + segs.join('/')) + tail)
      .filter((s) => isValid(s, 'iri'));
    // Also empty, query-only, fragment-only, absolute-path and network-path references, which the fast path takes too.
    const ref = fc.tuple(fc.constantFrom('', '', '/', '//h/', '//h'), fc.array(fc.constantFrom('../', './', '..', '.'), { maxLength: 4 }), fc.array(seg, { maxLength: 3 }), fc.constantFrom('', '?', '?y', '#s', '/'))
      .map(([head, dots, segs, tail]) => head + dots.join('') + segs.join('/') + tail)
      .filter((s) => isValid(s, 'iri-reference'));
    fc.assert(fc.property(base, ref, (b, r) => { expect(resolve(b, r)).toBe(resolveOracle(b, r)); }), { numRuns: 10000 });
  });
  it('resolve yields a valid URI (IRI for non-ASCII input) with no fragment but the reference\'s', () => {
    fc.assert(fc.property(absolute, reference, (b, r) => {
      const t = resolve(b, r);
      expect(isValid(t, 'iri')).toBe(true);
      expect(parse(t, 'iri').fragment).toBe(parse(r, 'iri-reference').fragment);
      if (/^[\x00-\x7f]*$/.test(b + r)) expect(isValid(t, 'uri')).toBe(true);
    }), { numRuns: 3000 });
  });
});
