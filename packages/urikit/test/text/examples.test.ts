// The @example of every export of src/text, run as written in the TSDoc.
import { expect, test } from 'vitest';
import {
  extractUris, extractUrisFromStream, expandAbbreviated, establishBase, baseFromHeaders, isTextDelimiter, PROSE_SCHEMES,
} from 'urikit';

test('extractUris', () => {
  expect(extractUris('Yes, Jim, I found it under "http://www.w3.org/Addressing/",')).toEqual([
    { uri: 'http://www.w3.org/Addressing/', start: 28, end: 57, wrapped: 'quotes' },
  ]);
  expect(extractUris('from <ftp://ds.internic.\n      net/rfc/>.')[0]!.uri).toBe('ftp://ds.internic.net/rfc/');
});

test('extractUrisFromStream', async () => {
  async function* chunks(): AsyncGenerator<string> { yield 'see http://exa'; yield 'mple.com/a. Bye'; }
  const got: [string, number][] = [];
  for await (const m of extractUrisFromStream(chunks())) got.push([m.uri, m.start]);
  expect(got).toEqual([['http://example.com/a', 4]]);
});

test('expandAbbreviated', () => {
  expect(expandAbbreviated('www.w3.org/Addressing/')).toBe('http://www.w3.org/Addressing/');
  expect(expandAbbreviated('ftp.example.org/pub')).toBe('ftp://ftp.example.org/pub');
  expect(expandAbbreviated('example.com')).toBe('http://example.com');
  expect(expandAbbreviated('roy@example.com', { mailto: true })).toBe('mailto:roy@example.com');
  expect(expandAbbreviated('a sentence')).toBeUndefined();
});

test('establishBase', () => {
  expect(establishBase({ retrieval: 'http://a/old', redirects: ['http://b/new/', 'page'] })).toBe('http://b/new/page');
  expect(establishBase({ embedded: 'http://c/', retrieval: 'http://a/' })).toBe('http://c/');
  expect(establishBase({})).toBeUndefined();
});

test('baseFromHeaders', () => {
  expect(baseFromHeaders({ 'Content-Base': 'http://www.ics.uci.edu/Test/a/b/c' })).toBe('http://www.ics.uci.edu/Test/a/b/c');
  expect(baseFromHeaders({ 'content-location': 'd/e' }, 'http://a/b/c')).toBe('http://a/b/d/e');
});

test('isTextDelimiter and PROSE_SCHEMES', () => {
  expect(isTextDelimiter(0x201d)).toBe(true);
  expect(isTextDelimiter(0xe9)).toBe(false);
  expect(PROSE_SCHEMES.has('mailto')).toBe(true);
});
