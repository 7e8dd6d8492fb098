import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { baseFromHtml, extractLinksFromHtml, refreshUrl, srcsetUrls } from '@urikit/html';
import type { HtmlContext } from '@urikit/html';

const data = JSON.parse(readFileSync(new URL('./links-cases.json', import.meta.url), 'utf8')) as {
  cases: { note: string; html: string; documentUri: string; context?: HtmlContext; base: string; links: [string, string, string | null, string?][] }[];
};

describe('extractLinksFromHtml', () => {
  test.each(data.cases)('$note', ({ html, documentUri, context, base, links }) => {
    const r = extractLinksFromHtml(html, documentUri, context);
    expect(r.base).toBe(base);
    expect(baseFromHtml(html, documentUri, context)).toBe(base);
    expect(r.links.map((l) => (l.error ? [l.element, l.attribute, null, l.error] : [l.element, l.attribute, l.uri]))).toEqual(links);
    for (const l of r.links) expect(l.offset).toBeGreaterThanOrEqual(0);
  });
});

describe('srcsetUrls (HTML "parse a srcset attribute")', () => {
  test.each([
    ['a.png', ['a.png']],
    ['a.png 1x, b.png 2x', ['a.png', 'b.png']],
    ['a,b.png 100w', ['a,b.png']],
    ['a.png, b.png', ['a.png', 'b.png']],
    ['  , a.png 1x ,, b.png (max-width: 10px, x) 2x, c.png', ['a.png', 'b.png', 'c.png']],
    ['', []],
  ] as [string, string[]][])('%s', (value, urls) => {
    expect(srcsetUrls(value).map((u) => u.url)).toEqual(urls);
  });
});

describe('refreshUrl (HTML "shared declarative refresh steps")', () => {
  const refresh = JSON.parse(readFileSync(new URL('./refresh-cases.json', import.meta.url), 'utf8')) as { cases: [string, string | null][] };
  test.each(refresh.cases)('%j', (content, url) => {
    expect(refreshUrl(content) ?? null).toBe(url);
  });
});
