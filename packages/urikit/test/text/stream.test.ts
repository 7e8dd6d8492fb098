import { expect, test } from 'vitest';
import fc from 'fast-check';
import { extractUris, extractUrisFromStream } from 'urikit';
import type { ExtractOptions, UriMatch } from 'urikit';

// Law: the stream finds exactly what extractUris finds on the whole text,
// however the text is cut into chunks (strings or UTF-8 bytes).
const TOKENS = [
  'http://example.org/a', 'https://x.example/p?q=1#f', ' ', '\n', '\r\n', '-\n', '-', '.', ',', ':', '(', ')', '<', '>', '"',
  "'", '*', 'URL:', 'urn:isbn:123', 'www.w3.org', '/path', 'word', 'é', '例', '\u{1F600}', '<http://a.example/b\n c>', 'ftp.example.org',
  'roy@example.org', '%20', '%', '%2', '0y', '[', ']', '?', '#', 'mailto:', '  ', 'x://[::1]/', 'example.com/x', 'a-', 'urn:x-y:z?+r', '\t', '\n> ', '> ',
];
const textArb = fc.array(fc.constantFrom(...TOKENS), { maxLength: 60 }).map((a) => a.join(''));
const optsArb = fc.constantFrom<ExtractOptions>({}, { abbreviated: true, emails: true }, { schemes: 'any' }, { iri: false }, { urnProfile: 'urn-2012' });

async function collect(chunks: Array<string | Uint8Array>, opts: ExtractOptions): Promise<UriMatch[]> {
  async function* gen(): AsyncGenerator<string | Uint8Array> {
    for (const c of chunks) yield c;
  }
  const out: UriMatch[] = [];
  for await (const m of extractUrisFromStream(gen(), opts)) out.push(m);
  return out;
}

function cut<T extends { length: number; slice(a: number, b?: number): T }>(whole: T, points: number[]): T[] {
  const cuts = [...new Set(points.map((p) => p % (whole.length + 1)))].sort((a, b) => a - b);
  const parts: T[] = [];
  let last = 0;
  for (const c of cuts) { parts.push(whole.slice(last, c)); last = c; }
  parts.push(whole.slice(last));
  return parts;
}

test('string chunks: same matches as the whole text', async () => {
  await fc.assert(
    fc.asyncProperty(textArb, fc.array(fc.nat(), { maxLength: 12 }), optsArb, async (text, points, opts) => {
      expect(await collect(cut(text, points), opts)).toEqual(extractUris(text, opts));
    }),
    { numRuns: Number(process.env.STREAM_RUNS ?? 400) },
  );
});

test('UTF-8 byte chunks (split inside characters): same matches', async () => {
  await fc.assert(
    fc.asyncProperty(textArb, fc.array(fc.nat(), { maxLength: 12 }), optsArb, async (text, points, opts) => {
      const bytes = new TextEncoder().encode(text);
      expect(await collect(cut(bytes, points), opts)).toEqual(extractUris(text, opts));
    }),
    { numRuns: Number(process.env.STREAM_RUNS ?? 200) },
  );
});

test('one character per chunk, a URI spanning hundreds of chunks', async () => {
  const text = 'first http://example.org/' + 'x'.repeat(300) + ', then <http://a.example/b-\n  c>.';
  expect(await collect([...text], {})).toEqual(extractUris(text));
  expect((await collect([...text], {})).map((m) => m.uri)).toEqual(['http://example.org/' + 'x'.repeat(300), 'http://a.example/b-c']);
});

test('a Node-style stream of Buffers is an async iterable', async () => {
  const { Readable } = await import('node:stream');
  const text = 'see <URL:http://example.org/r> and urn:example:z.';
  const found: string[] = [];
  for await (const m of extractUrisFromStream(Readable.from([Buffer.from(text.slice(0, 17)), Buffer.from(text.slice(17))]))) found.push(m.uri);
  expect(found).toEqual(['http://example.org/r', 'urn:example:z']);
});
