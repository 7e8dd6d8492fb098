import { describe, expect, it } from 'vitest';
import { isValid, parse, removeDotSegments, resolve, UriError, type Kind } from 'urikit';

// 1 MB of the characters that drive the scanner's branches. Each case asserts
// the answer (valid, or the code and offset of the error), never a time; the
// benchmark shows time per byte staying flat (bench/RESULTS.md).
const MB = 1 << 20;
const fill = (unit: string) => unit.repeat(Math.ceil(MB / unit.length)).slice(0, MB - (MB % unit.length));

type Case = [name: string, input: string, kind: Kind, expected: true | [code: string, offset: number]];
const cases: Case[] = [
  ['%%%', fill('%'), 'uri-reference', ['bad-percent', 0]],
  ['%41%41...', fill('%41'), 'uri-reference', true],
  ['/%4/%4', '/' + fill('%4/'), 'uri-reference', ['bad-percent', 1]],
  [':::', fill(':'), 'uri-reference', ['colon-in-first-segment', 0]],
  ['a::::', 'a' + fill(':'), 'uri', true],
  ['aaaa...: as a URI', fill('a') + ':', 'uri', true],
  ['aaaa...! as a URI', fill('a') + '!', 'uri', ['missing-scheme', 0]],
  ['aaaa...:x as a reference', fill('a') + '%', 'uri-reference', ['bad-percent', MB]],
  ['[[[', fill('['), 'uri-reference', ['invalid-char', 0]],
  ['//[[[', '//' + fill('['), 'uri-reference', ['unclosed-ip-literal', 2]],
  ['//[:::...', '//[' + fill(':'), 'uri-reference', ['unclosed-ip-literal', 2]],
  ['//[:::...]', '//[' + fill(':') + ']', 'uri-reference', ['bad-ipv6', 5]],
  ['//[1:1:...]', '//[' + fill('1:') + '1]', 'uri-reference', ['bad-ipv6', 19]],
  ['//[v1.:::]', '//[v1.' + fill(':') + ']', 'uri-reference', true],
  ['//[::1%25aaaa]', '//[::1%25' + fill('a') + ']', 'uri-reference', true],
  ['//a:::', '//a' + fill(':'), 'uri-reference', ['bad-port', 4]],
  ['//u:u:u...@h', '//' + fill('u:') + '@h', 'uri-reference', true],
  ['//@@@', '//' + fill('@'), 'uri-reference', ['invalid-char', 3]],
  ['//h:999...', '//h:' + fill('9'), 'uri-reference', true],
  ['///', fill('/'), 'uri-reference', true],
  ['...', fill('.'), 'uri-reference', true],
  ['./././', fill('./'), 'uri-reference', true],
  ['../../', fill('../'), 'uri-reference', true],
  ['???', fill('?'), 'uri-reference', true],
  ['###', '#' + fill('#'), 'uri-reference', ['invalid-char', 1]],
  ['ééé as an IRI', fill('é'), 'iri-reference', true],
  ['lone surrogates', '/' + fill('\uD800'), 'iri-reference', ['invalid-char', 1]],
  ['surrogate pairs', '/' + fill('\uD83D\uDE00'), 'iri-reference', true],
];

describe('hostile input of 1 MB', () => {
  for (const [name, input, kind, expected] of cases) {
    it(`${name} (${kind})`, () => {
      expect(isValid(input, kind)).toBe(expected === true);
      if (expected === true) {
        expect(parse(input, kind).path.length + (parse(input, kind).query?.length ?? 0)).toBeGreaterThanOrEqual(0);
      } else {
        let err: unknown;
        try { parse(input, kind); } catch (e) { err = e; }
        expect(err).toBeInstanceOf(UriError);
        expect([(err as UriError).code, (err as UriError).offset]).toEqual(expected);
      }
    });
  }
  it('resolution of 1 MB of "../" and "./" stays correct', () => {
    expect(resolve('http://a/b/c', fill('../') + 'g')).toBe('http://a/g');
    expect(resolve('http://a/b/c', fill('./') + 'g')).toBe('http://a/b/g');
    expect(removeDotSegments('/' + 'a/'.repeat(200_000) + '../'.repeat(200_000))).toBe('/');
    expect(removeDotSegments('/' + 'a/'.repeat(200_000) + '../'.repeat(199_999))).toBe('/a/');
    expect(removeDotSegments(fill('/.'))).toBe('/');
  });
});
