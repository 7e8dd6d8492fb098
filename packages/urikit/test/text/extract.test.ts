import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { extractUris, isValid } from 'urikit';
import type { ExtractOptions, UriMatch } from 'urikit';

interface Case { note: string; text: string; options?: ExtractOptions; expected: UriMatch[] }
const data = JSON.parse(readFileSync(new URL('./extract-cases.json', import.meta.url), 'utf8')) as { source: string; cases: Case[] };
const appendix = JSON.parse(readFileSync(new URL('./appendix-e.json', import.meta.url), 'utf8')) as {
  source: string;
  paragraphs: { document: string; section: string; text: string; expected: string[] }[];
};

// The span with what extraction ignores taken out: white space, and the
// "> " quote markers that begin a line of quoted mail.
const noWhite = (s: string): string => s.replace(/[\r\n]+[ >]*/g, '').replace(/[ \t]/g, '');

describe('Appendix E: the "Yes, Jim" paragraphs, verbatim', () => {
  test.each(appendix.paragraphs)('$document $section', ({ text, expected }) => {
    const found = extractUris(text);
    expect(found.map((m) => m.uri)).toEqual(expected);
    // Each span is the URI as written: the same characters once white space is ignored.
    for (const m of found) expect(noWhite(text.slice(m.start, m.end))).toBe(m.uri);
  });

  // The spec texts themselves, read in place: [file, where the passage begins, its last characters, its paragraph].
  test.each([
    ['001_a5df19b9d0d91704.txt', 'Yes, Jim', '#WARNING>.', 'draft-fielding-url-syntax-05 (1997)'],
    ['004_7ddd58859f8846ad.txt', 'Alberti, R.', 'protspec.txt>', 'Berners-Lee, "Uniform Resource Locators" (1993 draft)'],
  ])('%s read in place from the spec text', (file, first, last, document) => {
    const spec = readFileSync(new URL(`../../../../../shared/spec/${file}`, import.meta.url), 'utf8');
    const from = spec.indexOf(first);
    const to = spec.indexOf(last, from) + last.length;
    expect(from).toBeGreaterThan(0);
    const found = extractUris(spec.slice(from, to)).map((m) => m.uri);
    expect(found).toEqual(appendix.paragraphs.find((p) => p.document === document)!.expected);
  });
});

describe(`plain-text cases (${data.cases.length})`, () => {
  test('the table has at least 100 cases', () => expect(data.cases.length).toBeGreaterThanOrEqual(100));
  test.each(data.cases)('$note', ({ text, options, expected }) => {
    const found = extractUris(text, options);
    expect(found).toEqual(expected);
    for (const m of found) {
      expect(isValid(m.uri, options?.iri === false ? 'uri' : 'iri')).toBe(true);
      if (!m.abbreviated) expect(noWhite(text.slice(m.start, m.end))).toBe(m.uri);
    }
  });
});
