// The @example of every export of @urikit/html, run as written in the TSDoc.
import { expect, test } from 'vitest';
import { baseFromHtml, extractLinksFromHtml, srcsetUrls, URL_ATTRIBUTES } from '@urikit/html';

test('extractLinksFromHtml', () => {
  const { base, links } = extractLinksFromHtml(
    '<base href="http://www.ics.uci.edu/Test/a/b/c"><a href="../x">x</a><img srcset="i.png 1x, j.png 2x">',
    'http://example.org/doc',
  );
  expect(base).toBe('http://www.ics.uci.edu/Test/a/b/c');
  expect(links.map((l) => l.uri)).toEqual([
    'http://www.ics.uci.edu/Test/a/x', 'http://www.ics.uci.edu/Test/a/b/i.png', 'http://www.ics.uci.edu/Test/a/b/j.png',
  ]);
});

test('baseFromHtml', () => {
  expect(baseFromHtml('<base href="http://www.ics.uci.edu/Test/a/b/c">', 'http://a/doc')).toBe('http://www.ics.uci.edu/Test/a/b/c');
  expect(baseFromHtml('<p>no base</p>', 'http://a/b/doc.html')).toBe('http://a/b/doc.html');
});

test('srcsetUrls and URL_ATTRIBUTES', () => {
  expect(srcsetUrls('a.png 1x, b,c.png 2x').map((u) => u.url)).toEqual(['a.png', 'b,c.png']);
  expect(URL_ATTRIBUTES.get('img')?.get('srcset')).toBe('srcset');
});
