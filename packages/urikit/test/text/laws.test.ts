import { expect, test } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extractUris, isValid } from 'urikit';
import type { ExtractOptions } from 'urikit';

const TOKENS = [
  'http://example.org/a', 'ftp://f.example/p', ' ', '\n', '-\n', '.', ',', ':', '(', ')', '<', '>', '"', "'", '*', 'URL:',
  'urn:isbn:1', 'www.w3.org', 'example.com/x', '/p', 'w', 'é', '\u{1F600}', 'a@b.org', '%41', '%', '[', ']', '?', '#', 'x:y', '//', '\n> ', '> ',
];
const textArb = fc.array(fc.constantFrom(...TOKENS), { maxLength: 50 }).map((a) => a.join(''));
const optsArb = fc.constantFrom<ExtractOptions>({}, { abbreviated: true, emails: true }, { schemes: 'any' }, { iri: false }, { urnProfile: 'urn-2012' });

test('every match is a valid URI, spans are ordered and disjoint, and the span is the URI as written', () => {
  fc.assert(
    fc.property(textArb, optsArb, (text, opts) => {
      let last = 0;
      for (const m of extractUris(text, opts)) {
        expect(isValid(m.uri, opts.iri === false ? 'uri' : 'iri')).toBe(true);
        expect(m.start).toBeGreaterThanOrEqual(last);
        expect(m.end).toBeGreaterThan(m.start);
        last = m.end;
        const written = text.slice(m.start, m.end).replace(/[\r\n]+[ >]*/g, '').replace(/[ \t]/g, '');
        if (m.abbreviated) expect(m.uri.endsWith(written)).toBe(true);
        else expect(written).toBe(m.uri);
      }
    }),
    { numRuns: 2000 },
  );
});

test('every URI linkify-it finds in corpus prose that is a valid URI reference is found at the same offset', () => {
  const require = createRequire(import.meta.url);
  const LinkifyIt = require('linkify-it') as new () => { match(t: string): { index: number; url: string }[] | null };
  const lines = readFileSync(new URL('../../../../../shared/corpus/kasztp.txt', import.meta.url), 'utf8').replace(/^\uFEFF/, '').split('\n');
  const prose = ['See', 'The draft is at', 'Mirrors (and notes):', '> quoted:', 'Er sagte, unter'];
  const wrap = [(u: string) => `${u}.`, (u: string) => `"${u}",`, (u: string) => `<${u}>;`, (u: string) => `(${u})!`, (u: string) => `[x](${u})?`];
  const parts: string[] = [];
  for (let i = 0; i < 3000; i++) parts.push(`${prose[i % prose.length]} ${wrap[i % wrap.length]!(lines[(i * 13) % lines.length]!.trim())}\n`);
  const text = parts.join('');
  const ours = new Set(extractUris(text, { abbreviated: true, emails: true }).map((m) => m.start));
  const missed = (new LinkifyIt().match(text) ?? []).filter((m) => isValid(m.url, 'iri-reference') && !ours.has(m.index));
  expect(missed.map((m) => m.url)).toEqual([]);
});
