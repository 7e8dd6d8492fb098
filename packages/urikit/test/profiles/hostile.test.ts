/**
 * Bad input never crashes: on generated text, every profile's parse and
 * resolve and every codec's parse either answer or throw a UriError, and
 * long hostile inputs take linear time (checked by size, not by clock:
 * they must simply finish in the test's time limit).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { getScheme, isUriError, listSchemes, parse, resolve, tryParse, type Profile } from 'urikit';

const profiles: Profile[] = ['draft-2003', 'draft-1997', 'url-1993'];
// Text built from the characters URIs are made of, so that it often parses.
const uriText = fc.array(fc.constantFrom(...'abcXYZ019:/?#[]@!$&\'()*+,;=%-._~" |\\^`{}\u00e9'.split(''), 'http://', 'ftp://h/', '%00', '%09', '%2F', '..', './', ';type=a', 'file:///', 'mailto:', 'data:,', 'gopher://h/1', 'urn:x:'), { maxLength: 30 }).map((a) => a.join(''));

const onlyUriError = (f: () => unknown): void => {
  try { f(); } catch (e) { if (!isUriError(e)) throw e; }
};

describe('no crash on generated input', () => {
  it('parse and resolve under every profile', () => {
    fc.assert(fc.property(uriText, uriText, (a, b) => {
      for (const profile of profiles) {
        onlyUriError(() => parse(a, 'uri-reference', { profile }));
        onlyUriError(() => parse(a, 'uri', { profile }));
        onlyUriError(() => resolve(`http://h/${a}`, b, { profile }));
        onlyUriError(() => resolve(a, b, { profile, strict: false }));
      }
    }), { numRuns: 400 });
  });
  it('every codec on every parsed URI', () => {
    const codecs = listSchemes().map((s) => getScheme(s)!);
    fc.assert(fc.property(uriText, (a) => {
      const ref = tryParse(a, 'uri');
      if (ref === undefined) return;
      for (const codec of codecs) {
        onlyUriError(() => codec.validate(ref));
        onlyUriError(() => {
          const typed = codec.parse(ref);
          // what parse accepted, build writes back as a URI
          expect(tryParse(codec.build(typed), 'uri')).toBeDefined();
        });
      }
    }), { numRuns: 400 });
  });
});

describe('long inputs', () => {
  const n = 200_000;
  it.each([
    ['url-1993', `http://h/${'a/'.repeat(n)}`],
    ['url-1993', `news:${'a.'.repeat(n)}b`],
    ['draft-1997', `http://${'a.'.repeat(n)}com/`],
    ['draft-1997', `http://h/${'../'.repeat(n)}`],
    ['draft-2003', `${'./'.repeat(n)}g`],
  ] as const)('%s handles %#', (profile, input) => {
    onlyUriError(() => parse(input, 'uri-reference', { profile }));
    onlyUriError(() => resolve('http://a/b/c/d', input, { profile }));
  });
  it('codecs', () => {
    const big = `mailto:${'a@b,'.repeat(n)}c@d?${'x=1&'.repeat(n)}y=2`;
    expect(getScheme('mailto')!.parse(parse(big, 'uri'))).toBeDefined();
    const tabs = `gopher://h/1${'%09'.repeat(n)}`;
    expect(getScheme('gopher')!.parse(parse(tabs, 'uri'))).toBeDefined();
    const nuls = `prospero://h/a${'%001'.repeat(n)}`;
    onlyUriError(() => getScheme('prospero')!.parse(parse(nuls, 'uri')));
    const eqs = `mailto:a@b?${'&'.repeat(n)}`;
    onlyUriError(() => getScheme('mailto')!.parse(parse(eqs, 'uri')));
  });
});
