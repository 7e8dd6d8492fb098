import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isValid, parse, percentDecode, percentEncode, UriError, type PercentComponent } from 'urikit';

describe('percentEncode (RFC 3986 §2.1, §2.5)', () => {
  const cases: Array<[string, PercentComponent, string]> = [
    ['a b/c?d#e', 'path-segment', 'a%20b%2Fc%3Fd%23e'],
    ['a b/c?d#e', 'path', 'a%20b/c%3Fd%23e'],
    ['a b/c?d#e', 'query', 'a%20b/c?d%23e'],
    ['a b/c?d#e', 'fragment', 'a%20b/c?d%23e'],
    ['us:er@x', 'userinfo', 'us:er%40x'],
    ['ex:am ple', 'host', 'ex%3Aam%20ple'],
    ["-._~!$&'()*+,;=:@/?", 'component', "-._~%21%24%26%27%28%29%2A%2B%2C%3B%3D%3A%40%2F%3F"],
    ['100%', 'query', '100%25'],
    ['café', 'component', 'caf%C3%A9'],
    ['€', 'path', '%E2%82%AC'],
    ['\u{1F600}', 'path', '%F0%9F%98%80'],
    ['\u07FF\u0800\uFFFF', 'path', '%DF%BF%E0%A0%80%EF%BF%BF'],
    ['', 'path', ''],
    ['plain', 'component', 'plain'],
  ];
  for (const [text, component, encoded] of cases) {
    it(`${JSON.stringify(text)} as ${component}`, () => expect(percentEncode(text, component)).toBe(encoded));
  }
  it('refuses a lone surrogate and an unknown component', () => {
    expect(() => percentEncode('a\uD800', 'path')).toThrowError(expect.objectContaining({ code: 'invalid-char', offset: 1 }) as Error);
    expect(() => percentEncode('a\uDC00b', 'path')).toThrowError(expect.objectContaining({ code: 'invalid-char', offset: 1 }) as Error);
    expect(() => percentEncode('a', 'nope' as PercentComponent)).toThrow(UriError);
  });
});

describe('percentDecode (RFC 3986 §2.1, RFC 3629 §4)', () => {
  const good: Array<[string, string]> = [
    ['caf%C3%A9', 'café'], ['%e2%82%ac', '€'], ['%F0%9F%98%80', '\u{1F600}'], ['a%20b', 'a b'], ['%25', '%'],
    ['%DF%BF%E0%A0%80%EF%BF%BF%F4%8F%BF%BF', '\u07FF\u0800\uFFFF\u{10FFFF}'], ['é%41', 'éA'], ['', ''], ['%2F', '/'],
  ];
  for (const [text, decoded] of good) it(JSON.stringify(text), () => expect(percentDecode(text)).toBe(decoded));
  const bad: Array<[string, string, number, string]> = [
    ['a%', 'bad-percent', 1, 'a%'], ['a%4', 'bad-percent', 1, 'a%4'], ['%G0', 'bad-percent', 0, '%G0'],
    ['%C3', 'bad-utf8', 0, '%C3'], ['x%C3%28', 'bad-utf8', 1, 'x%C3('], ['%80', 'bad-utf8', 0, '%80'],
    ['%C0%AF', 'bad-utf8', 0, '%C0%AF'], // overlong "/"
    ['%E0%80%AF', 'bad-utf8', 0, '%E0%80%AF'], // overlong
    ['%ED%A0%80', 'bad-utf8', 0, '%ED%A0%80'], // a UTF-16 surrogate
    ['%F4%90%80%80', 'bad-utf8', 0, '%F4%90%80%80'], // above U+10FFFF
    ['%F5%80%80%80', 'bad-utf8', 0, '%F5%80%80%80'], ['%FF', 'bad-utf8', 0, '%FF'],
    ['%E2%82', 'bad-utf8', 0, '%E2%82'], ['%E2%82%', 'bad-utf8', 0, '%E2%82%'],
  ];
  for (const [text, code, offset, lenient] of bad) {
    it(`${JSON.stringify(text)} -> ${code}@${offset}; lenient ${JSON.stringify(lenient)}`, () => {
      expect(() => percentDecode(text)).toThrowError(expect.objectContaining({ code, offset }) as Error);
      expect(percentDecode(text, { lenient: true })).toBe(lenient);
    });
  }
  it('round-trips any well-formed text through every component', () => {
    const components: PercentComponent[] = ['userinfo', 'host', 'path', 'path-segment', 'query', 'fragment', 'component'];
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.constantFrom(...components), (text, component) => {
      const encoded = percentEncode(text, component);
      expect(percentDecode(encoded)).toBe(text);
      expect(/^[\x21-\x7e]*$/.test(encoded)).toBe(true);
    }), { numRuns: 3000 });
  });
  it('an encoded text is a valid component of its kind', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 30 }), (text) => {
      expect(parse('s://' + percentEncode(text, 'userinfo') + '@h/' + percentEncode(text, 'path') + '?' + percentEncode(text, 'query') + '#' + percentEncode(text, 'fragment'), 'uri')).toMatchObject({ path: '/' + percentEncode(text, 'path') });
      expect(isValid('s://' + percentEncode(text, 'host'), 'uri')).toBe(true);
      expect(parse('x:' + percentEncode(text, 'path-segment'), 'uri').path).not.toContain('/');
    }), { numRuns: 2000 });
  });
});
