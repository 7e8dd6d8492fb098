/** The @example lines of src/security and src/iri TSDoc, run as written (STYLE §11). */
import { describe, expect, it } from 'vitest';
import { lint, LINT_RULES, iriToUri, uriToIri } from 'urikit';

describe('TSDoc examples of src/security and src/iri.ts', () => {
  it('lint.ts', () => {
    expect(lint('http://www.example.com&story=breaking_news@10.0.0.1/top_story.htm').map((f) => f.code)).toEqual([
      'userinfo', 'deceptive-userinfo', 'ip-host', 'internal-host',
    ]);
    expect(lint('https://example.com/')).toEqual([]);
    expect(lint('http://a b/')).toMatchObject([{ code: 'invalid-char', severity: 'error', start: 8, end: 9 }]);
    expect(LINT_RULES['password'][0]).toBe('error');
  });
  it('iri.ts', () => {
    expect(iriToUri('http://www.example.org/red%09ros\u00E9#red')).toBe('http://www.example.org/red%09ros%C3%A9#red');
    expect(iriToUri('http://r\u00E9sum\u00E9.example.org/')).toBe('http://xn--rsum-bpad.example.org/');
    expect(iriToUri('http://r\u00E9sum\u00E9.example.org/', { host: 'percent-encode' })).toBe('http://r%C3%A9sum%C3%A9.example.org/');
    expect(iriToUri('/\u{10300}')).toBe('/%F0%90%8C%80');
    expect(uriToIri('http://www.example.org/D%C3%BCrst')).toBe('http://www.example.org/Dürst');
    expect(uriToIri('http://www.example.org/D%FCrst')).toBe('http://www.example.org/D%FCrst');
    expect(uriToIri('http://xn--99zt52a.example.org/%e2%80%ae')).toBe('http://納豆.example.org/%e2%80%ae');
    expect(uriToIri('/a%2Fb%20c')).toBe('/a%2Fb%20c');
  });
});
