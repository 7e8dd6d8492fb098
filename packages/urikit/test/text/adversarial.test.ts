import { expect, test } from 'vitest';
import { extractUris, extractUrisFromStream } from 'urikit';

// 10 MB of long runs of "(", "<", ":", ".", "-" and letters, and of their
// mixtures, with URIs planted between the runs. The scan must find exactly
// the planted URIs; a super-linear scanner would not finish in the test's
// time-out (tests assert results, never times).
// None of the runs spells a URI itself ("http:http:…" would be one, a valid
// URI with a rootless path), so the planted ones are all there is to find.
const RUNS = ['(', '<', ':', '.', '-', 'a', 'a:', '(<', '<a:', 'a.', 'a-', '@', 'a@', ':/', '-\n', '<:', '(:', '.-', 'a-\n', '<URL:', 'w.'];
const PLANT = (i: number): string => `http://example.org/planted/${i}`;

function build(size: number): { text: string; planted: string[] } {
  const parts: string[] = [];
  const planted: string[] = [];
  const block = Math.floor(size / RUNS.length / 4);
  let total = 0;
  for (let i = 0; total < size; i++) {
    const run = RUNS[i % RUNS.length]!;
    const piece = run.repeat(Math.ceil(block / run.length));
    const uri = PLANT(i);
    parts.push(piece, ' ', uri, ' ');
    planted.push(uri);
    total += piece.length + uri.length + 2;
  }
  return { text: parts.join(''), planted };
}

test('10 MB of adversarial runs: exactly the planted URIs', () => {
  const { text, planted } = build(10 * 1024 * 1024);
  expect(text.length).toBeGreaterThanOrEqual(10 * 1024 * 1024);
  const found = extractUris(text).map((m) => m.uri);
  expect(found.length).toBe(planted.length);
  expect(found).toEqual(planted);
  // Abbreviated forms and e-mail addresses on: still nothing but the planted URIs.
  const all = extractUris(text, { abbreviated: true, emails: true }).map((m) => m.uri);
  expect(all.length).toBe(planted.length);
  expect(all).toEqual(planted);
});

test('the same text through the stream in 64 KiB chunks gives the same matches', async () => {
  const { text, planted } = build(2 * 1024 * 1024);
  async function* chunks(): AsyncGenerator<string> {
    for (let i = 0; i < text.length; i += 65536) yield text.slice(i, i + 65536);
  }
  const found: string[] = [];
  for await (const m of extractUrisFromStream(chunks())) found.push(m.uri);
  expect(found.length).toBe(planted.length);
  expect(found).toEqual(planted);
});

test('one long URI made of a single run is one match', () => {
  const text = 'see http://example.org/' + 'a('.repeat(500_000) + ' end';
  const found = extractUris(text);
  expect(found).toHaveLength(1);
  expect(found[0]!.start).toBe(4);
  expect(found[0]!.end).toBe(text.length - 4);
});

test('a bracketed URI broken after a hyphen on every line: one match, both readings', () => {
  const text = '<http://example.org/' + 'a-\n  '.repeat(200_000) + 'z>';
  const found = extractUris(text);
  expect(found).toHaveLength(1);
  expect(found[0]!.uri).toBe('http://example.org/' + 'a-'.repeat(200_000) + 'z');
  expect(found[0]!.alternatives).toEqual(['http://example.org/' + 'a'.repeat(200_000) + 'z']);
});
