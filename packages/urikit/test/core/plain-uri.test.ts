/**
 * The shortcuts of src/plain-uri.ts against the scanner: the same
 * components, in the same order, for every string the shortcut takes;
 * serialize of a parse result changed after the parse is its new
 * serialization; hasDotSegment against a transcription of its definition
 * (RFC 3986 §3.3, §5.2.4).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isValid, normalize, parse, serialize, type UriReference } from 'urikit';
import { PLAIN_NORMAL, PLAIN_NORMAL_FORM, plainComponents, plainNormalForm, plainNormalPass } from '../../src/plain-uri.js';
import { beginEdits, endEdits, lastPass } from '../../src/normalizing-pass.js';
import { hasDotSegment } from '../../src/relative-path.js';

const SCHEMES = ['http', 'https', 'ftp', 'file', 'a+b.c-d', 'x1'];
const HOSTS = ['', 'a', 'example.com', 'www.x-y_z.org', '1.2.3.4', '1.2.3.04', '255.255.255.255', '256.1.1.1', '1.2.3', '1.2.3.4.5', "a!$&'()*+,;=~", 'localhost', 'A', 'a:80', 'u@h', 'a%41'];
const PATHS = ['/', '/a', '/a/b.html', '//', '/./a', '/../a', '/a/.', '/a/..', '/.well-known/x', '/..a', '/a.', '/a:b@c', "/!$&'()*+,;=", '/%41', '/a b', '/é', '/a?', '/a?b=c&d', '/?x/../', '/#f', '/a?q#f', ''];
const TAILS = ['', '?', '?q', '?a/./b', '#', '#f'];

/** A URL built from the pieces, valid or not, plain or not. */
const url = fc
  .tuple(fc.constantFrom(...SCHEMES), fc.constantFrom(...HOSTS), fc.array(fc.constantFrom(...PATHS), { maxLength: 3 }), fc.constantFrom(...TAILS))
  .map(([s, h, p, t]) => `${s}://${h}${p.join('')}${t}`);

/** The same URL with its scheme in upper case: the scanner reads it, not the shortcut. */
const upperScheme = (s: string): string => s.slice(0, s.indexOf(':')).toUpperCase() + s.slice(s.indexOf(':'));

describe('plain-uri.ts', () => {
  it('plainComponents returns what the scanner returns, keys in the same order', () => {
    fc.assert(fc.property(url, (s) => {
      const plain = plainComponents(s, 'uri');
      expect(plain !== undefined).toBe(PLAIN_NORMAL.test(s));
      if (plain === undefined) return;
      const scanned = parse(upperScheme(s), 'uri');
      scanned.scheme = scanned.scheme!.toLowerCase();
      expect(plain).toStrictEqual(scanned);
      expect(Object.keys(plain)).toEqual(Object.keys(parse(upperScheme(s), 'uri')));
    }), { numRuns: 5000 });
  });

  it('takes no string it should not, and no unknown kind', () => {
    expect(plainComponents('http://a/b', 'nonsense' as 'uri')).toBeUndefined();
    expect(() => parse('http://a/b', 'nonsense' as 'uri')).toThrow();
    for (const s of ['http://a/b#f', 'http://a:1/', 'http://u@a/', 'HTTP://a/', 'http://A/', 'http://a', 'http://a?q', 'http://a/%41', 'http://a/é']) {
      expect(plainComponents(s, 'uri')).toBeUndefined();
    }
    expect(parse('http://1.2.3.4/', 'uri').hostKind).toBe('ipv4');
    expect(parse('http://1.2.3.04/', 'uri').hostKind).toBe('reg-name');
  });

  it('plainNormalForm: 0 only for a string that is its own normal form, -1 for every string with a dot segment', () => {
    const schemes = fc.constantFrom('http', 'https', 'ftp', 'file', 'urn', 'gopher', 'mailto', 'x-y', 'zz');
    const hosts = fc.constantFrom('', 'a', 'localhost', 'localhosts', '1.2.3.4');
    const paths = fc.array(fc.constantFrom('/', '/a', '/.', '/..', '/.a', '/1', '/a;type=I', '/b.c', '/:'), { minLength: 0, maxLength: 4 });
    const tails = fc.constantFrom('', '?', '?q', '?x/../', '#f');
    const plainish = fc.tuple(schemes, hosts, paths, tails).map(([s, h, p, t]) => `${s}://${h}${p.join('')}${t}`);
    fc.assert(fc.property(fc.oneof(url, plainish), fc.boolean(), (s, schemeLevel) => {
      const level = schemeLevel ? 'scheme' : 'syntax';
      const found = plainNormalForm(s, schemeLevel);
      expect(found >= 0).toBe(PLAIN_NORMAL_FORM.test(s));
      if (found >= 0) expect(PLAIN_NORMAL.test(s)).toBe(true);
      if (found === 0) expect(normalize(s, { level })).toBe(s);
      if (found === 1) {
        // The pass over a plain string changes nothing but leaves a step to do.
        beginEdits(schemeLevel);
        plainNormalPass(s);
        expect(endEdits(s)).toBe(s);
        expect(lastPass.step).not.toBe('none');
      }
      if (isValid(s, 'uri')) {
        const path = parse(s).path;
        if (hasDotSegment(path, 0, path.length)) expect(found).toBe(-1);
      }
    }), { numRuns: 8000 });
  });
});

describe('serialize of a parse result', () => {
  it('is the input when nothing changed, and the new serialization when something did', () => {
    const changes: Array<(r: UriReference) => void> = [
      () => {},
      (r) => { r.path = '/x'; },
      (r) => { r.path = `${r.path}`; },
      (r) => { r.fragment = 'f'; },
      (r) => { delete r.query; },
      (r) => { r.query = 'q2'; },
      (r) => { r.port = '8'; },
      (r) => { r.userinfo = 'u'; },
      (r) => { r.host = 'other'; },
      (r) => { delete r.host; r.path = '/p'; },
      (r) => { r.scheme = 'ftp'; },
      (r) => { parse('z:/other'); },
    ];
    const inputs = ['http://a/b', 'http://a/b?q', 'HTTP://u@A:1/b?q#f', 'x:y', '../a?#', 'http://1.2.3.4/'];
    for (const s of inputs) {
      for (const change of changes) {
        const ref = parse(s);
        const copy = { ...ref };
        change(ref);
        change(copy);
        // The copy was never a parse result: serialize joins its components.
        expect(serialize(ref)).toBe(serialize(copy));
      }
      expect(serialize(parse(s))).toBe(s);
    }
  });
});

describe('hasDotSegment', () => {
  /** RFC 3986 §3.3: the segments of text[start, end) are split at "/"; a dot segment is "." or "..". */
  const oracle = (text: string, start: number, end: number): boolean => text.slice(start, end).split('/').some((g) => g === '.' || g === '..');
  it('agrees with the transcription of its definition', () => {
    const text = fc.array(fc.constantFrom('a', '.', '..', '/', '.a', 'a.', '?', '%2E'), { maxLength: 10 }).map((t) => t.join(''));
    fc.assert(fc.property(text, fc.nat(), fc.nat(), (t, x, y) => {
      const start = t.length === 0 ? 0 : x % (t.length + 1);
      const end = start + (y % (t.length - start + 1));
      expect(hasDotSegment(t, start, end)).toBe(oracle(t, start, end));
    }), { numRuns: 20000 });
  });
});
