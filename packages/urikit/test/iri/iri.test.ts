/**
 * IRIs (RFC 3987): iriToUri (§3.1) and uriToIri (§3.2) on the RFC's
 * examples and edge cases, round trips with non-BMP characters, and the
 * core's resolve / normalize / equivalent on IRIs.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { iriToUri, uriToIri, isValid, resolve, normalize, equivalent, isUriError } from 'urikit';
import data from './iri.json' with { type: 'json' };

describe(`iriToUri (${data.source})`, () => {
  for (const c of data.iriToUri) {
    it(`${c.iri} -> ${c.uri}: ${c.comment}`, () => {
      const uri = iriToUri(c.iri, c.options as Parameters<typeof iriToUri>[1]);
      expect(uri).toBe(c.uri);
      expect(isValid(uri, 'uri-reference')).toBe(true);
    });
  }
  it('throws the parser\'s UriError on what is not an IRI reference', () => {
    for (const [bad, offset] of [['http://a b/', 8], ['\\\\WINDOWS\\filë', 0], ['http://ƒøø.ßår/\n', 15]] as const) {
      let err: unknown;
      try {
        iriToUri(bad);
      } catch (e) {
        err = e;
      }
      expect(isUriError(err)).toBe(true);
      expect((err as { offset: number }).offset).toBe(offset);
    }
  });
  it('throws bad-idna when the host cannot go through IDNA', () => {
    expect(() => iriToUri('http://a\u200Db.example/')).toThrowError(expect.objectContaining({ code: 'bad-idna' }));
  });
});

describe(`uriToIri (${data.source})`, () => {
  for (const c of data.uriToIri) {
    it(`${c.uri} -> ${c.iri}: ${c.comment}`, () => {
      const iri = uriToIri(c.uri, c.options as Parameters<typeof uriToIri>[1]);
      expect(iri).toBe(c.iri);
      expect(isValid(iri, 'iri-reference')).toBe(true);
    });
  }
  it('throws the parser\'s UriError on what is not a URI reference', () => {
    expect(() => uriToIri('http://ü/')).toThrowError(expect.objectContaining({ code: 'invalid-char', offset: 7 }));
  });
});

// Characters an IRI may carry in a path: letters of several scripts and planes,
// less the bidi formatting characters that uriToIri keeps escaped (RFC 3987
// §3.2 step 3, §4.1): LRM, RLM, ALM (U+061C, Unicode 6.3), the embeddings and
// overrides, and the isolates.
const ucschar = fc.oneof(
  fc.integer({ min: 0xa0, max: 0xd7ff }),
  fc.integer({ min: 0xf900, max: 0xfdcf }),
  fc.integer({ min: 0x10000, max: 0x1fffd }),
  fc.integer({ min: 0x20000, max: 0x2fffd }),
  fc.integer({ min: 0xe1000, max: 0xefffd }),
).filter((c) => c !== 0x61c && !(c >= 0x200e && c <= 0x200f) && !(c >= 0x202a && c <= 0x202e) && !(c >= 0x2066 && c <= 0x2069) && (c & 0xfffe) !== 0xfffe);
const segment = fc.array(fc.oneof(ucschar.map((c) => String.fromCodePoint(c)), fc.constantFrom('a', 'Z', '0', '-', '.', '_', '~', '!', '$', '&', "'", '(', ')', '*', '+', ',', ';', '=', ':', '@')), { maxLength: 12 }).map((a) => a.join(''));

describe('IRI <-> URI round trips (RFC 3987 §3.1, §3.2)', () => {
  it('uriToIri(iriToUri(iri)) is iri for path, query and fragment, non-BMP included', () => {
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 4 }), segment, segment, (segs, q, f) => {
        const iri = `http://example.com/${segs.join('/')}?${q}#${f}`;
        const uri = iriToUri(iri);
        expect(/^[\x21-\x7e]*$/.test(uri)).toBe(true);
        expect(isValid(uri, 'uri')).toBe(true);
        expect(uriToIri(uri)).toBe(iri);
      }),
    );
  });
  it('iriToUri(uriToIri(uri)) is uri for URIs whose escapes are upper-case UTF-8', () => {
    fc.assert(
      fc.property(fc.array(ucschar, { minLength: 1, maxLength: 10 }), (cps) => {
        const uri = iriToUri(`/${String.fromCodePoint(...cps)}`);
        expect(iriToUri(uriToIri(uri))).toBe(uri);
      }),
    );
  });
  it('round-trips internationalized hosts through IDNA', () => {
    for (const iri of ['http://例え.テスト/パス', 'http://bücher.example/ü', 'http://𐌀𐌁.example/𐌀', 'http://納豆.example.org/😀']) {
      expect(uriToIri(iriToUri(iri))).toBe(iri);
    }
  });
  it('every valid JSON-Schema-Test-Suite iri / iri-reference row maps to a URI (../shared/conformance, in place)', () => {
    const rows = (JSON.parse(readFileSync(new URL('../../../../../shared/conformance/jsts-format.json', import.meta.url), 'utf8')) as Array<{ format: string; input: string; valid: boolean }>).filter(
      (r) => r.format === 'iri-reference' || r.format === 'iri',
    );
    let checked = 0;
    for (const r of rows) {
      if (!isValid(r.input, 'iri-reference')) continue;
      const uri = iriToUri(r.input);
      expect(isValid(uri, 'uri-reference'), r.input).toBe(true);
      checked++;
    }
    expect(checked).toBeGreaterThan(10);
  });
});

describe('core operations on IRIs', () => {
  it('resolve works on IRIs (RFC 3986 §5.2 applies unchanged, RFC 3987 §6.5)', () => {
    expect(resolve('http://例え.jp/a/b/c', '../d/é?q=π#ƒ')).toBe('http://例え.jp/a/d/é?q=π#ƒ');
    expect(resolve('http://例え.jp/a/b/c', '//ü.example/x')).toBe('http://ü.example/x');
    expect(resolve('http://例え.jp/a/b/c', '𐌀')).toBe('http://例え.jp/a/b/𐌀');
  });
  it('resolution commutes with iriToUri', () => {
    const base = 'http://例え.jp/a/b/c';
    for (const ref of ['../d/é', '𐌀?π', '#ƒ', '/ü/./x/../y']) {
      expect(iriToUri(resolve(base, ref))).toBe(resolve(iriToUri(base), iriToUri(ref)));
    }
  });
  it('normalize works on IRIs (RFC 3987 §5.3.2: ASCII case only, dot segments)', () => {
    expect(normalize('HTTP://例え.JP/a/./b/../é%7e?Q')).toBe('http://例え.jp/a/é~?Q');
    expect(normalize('http://a/𐌀/./x')).toBe('http://a/𐌀/x');
  });
  it('equivalent works on IRIs', () => {
    expect(equivalent('http://例え.jp/é', 'HTTP://例え.JP/é')).toBe(true);
    expect(equivalent('http://例え.jp/%7e', 'http://例え.jp/~', { level: 'syntax' })).toBe(true);
    expect(equivalent('http://例え.jp:80/', 'http://例え.jp/', { level: 'scheme' })).toBe(true);
  });
  it('an IRI and its URI are equivalent once both are mapped (RFC 3987 §5.3.1)', () => {
    const iri = 'http://例え.jp/é';
    expect(equivalent(iriToUri(iri), iriToUri(iriToUri(iri)), { level: 'syntax' })).toBe(true);
    expect(equivalent(iriToUri(iri), 'http://xn--r8jz45g.jp/%c3%a9', { level: 'syntax' })).toBe(true);
  });
});
