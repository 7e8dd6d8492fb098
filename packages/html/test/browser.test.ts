/**
 * @urikit/html against a real browser: hand-made documents (SVG links of
 * every element the browser reads an href on, <base> in <template> or
 * <svg>, NBSP before a base, a base with tabs or newlines inside, empty
 * form actions on a URL with a fragment, javascript:/data: bases, <iframe
 * srcdoc>, <template> contents, meta refreshes, documents in legacy
 * encodings, values to repair), each with headless Chromium's answer beside it
 * (browser/chromium-cases.json, recorded once by
 * browser/record-chromium.mjs: the browser and the date are in the file).
 * A document in a legacy encoding is served in it (`bytes`), with the
 * Content-Type or charset of its `context`, which urikit is given too.
 * urikit must find the same links, with the same flags, and resolve them to
 * the same URIs (IRIs compared through RFC 3987 §3.1), except where a case
 * carries a ruling and urikit's own answer.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { extractLinksFromHtml, type ExtractLinksOptions, type HtmlContext } from '@urikit/html';
import { iriToUri } from 'urikit';

interface Answer { base: string; links: Array<Array<string | null>> }
interface Case { note: string; html: string; documentUri: string; context?: HtmlContext; bytes?: string; options?: ExtractLinksOptions; chromium: Answer; urikit?: Answer; ruling?: string }
const data = JSON.parse(readFileSync(new URL('./browser/chromium-cases.json', import.meta.url), 'utf8')) as { recorded: { browser: string; date: string }; cases: Case[] };

describe(`links as ${data.recorded.browser} finds them (recorded ${data.recorded.date})`, () => {
  for (const c of data.cases) {
    it(`${c.note}${c.ruling ? ' (ruling)' : ''}`, () => {
      const r = extractLinksFromHtml(c.html, c.documentUri, c.context, c.options);
      const ours: Answer = {
        base: iriToUri(r.base),
        links: r.links.map((l) => [
          l.element, l.attribute, l.uri === undefined ? null : iriToUri(l.uri),
          ...(l.svg ? ['svg'] : []), ...(l.inTemplate ? ['template'] : []), ...(l.inSrcdoc ? ['srcdoc'] : []),
        ]),
      };
      expect(ours).toEqual(c.urikit ?? c.chromium);
      if (c.urikit) expect(c.urikit, 'a ruling is only needed where urikit and the browser differ').not.toEqual(c.chromium);
    });
  }
  it('in repair mode the raw value and its error stay beside the repaired value', () => {
    const [link] = extractLinksFromHtml('<a href="?search=option<T>">s</a>', 'https://doc.rust-lang.org/std/', undefined, { repair: true }).links;
    expect(link).toMatchObject({ value: '?search=option<T>', error: 'invalid-char', repaired: '?search=option%3CT%3E', uri: 'https://doc.rust-lang.org/std/?search=option%3CT%3E' });
    const [plain] = extractLinksFromHtml('<a href="?search=option<T>">s</a>', 'https://doc.rust-lang.org/std/').links;
    expect(plain).toEqual({ element: 'a', attribute: 'href', value: '?search=option<T>', error: 'invalid-char', offset: 3 });
  });
});
