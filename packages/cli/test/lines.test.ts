/**
 * The laws of the line splitter of bulk mode (packages/cli/src/lines.ts),
 * on generated inputs cut into generated reads (fast-check): every line
 * comes out once and whole, in order, whatever the reads; a line longer
 * than the limit, and only such a line, comes out as too long instead;
 * nothing else comes out; and the bytes held stay bounded.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { chunkReader, countLines, readLines, type Piece } from '../src/lines.js';

/** Splits `bytes` into chunks at the given cut points. */
function chunked(bytes: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let at = 0;
  for (const p of points) {
    if (p > at) out.push(bytes.subarray(at, p));
    at = Math.max(at, p);
  }
  if (at < bytes.length) out.push(bytes.subarray(at));
  return out;
}

/** The pieces, their bytes copied (a piece's bytes are good only until the next one is read). */
async function collect(chunks: Buffer[], blockSize: number, maxLine: number): Promise<Piece[]> {
  const pieces: Piece[] = [];
  for await (const p of readLines(chunkReader(chunks), { blockSize, maxLine })) {
    pieces.push(p.kind === 'lines' ? { kind: 'lines', bytes: Buffer.from(p.bytes) } : p);
  }
  return pieces;
}

/** The numbered lines the pieces hold (numbered as bulk mode counts), null for a too-long one. */
function lineOf(pieces: Piece[]): Array<[number, string | null]> {
  const seen: Array<[number, string | null]> = [];
  let next = 1;
  for (const p of pieces) {
    if (p.kind === 'too-long') {
      seen.push([next++, null]);
      continue;
    }
    const ls = p.bytes.toString('utf8').split('\n');
    if (ls[ls.length - 1] === '') ls.pop();
    for (const l of ls) seen.push([next++, l]);
  }
  return seen;
}

/** The numbered lines of the text, as bulk mode numbers them (a final line feed ends the last line). */
function numbered(text: string): Array<[number, string]> {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((l, i) => [i + 1, l]);
}

const lineArb = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.constant(''),
  fc.string({ minLength: 30, maxLength: 90 }),
).map((s) => s.replaceAll('\n', ' '));

describe('readLines', () => {
  it('every line comes out whole and in order, or (exactly when longer than maxLine bytes) as too-long', async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(lineArb, { maxLength: 40 }),
      fc.boolean(),
      fc.array(fc.nat({ max: 4000 }), { maxLength: 30 }),
      fc.integer({ min: 1, max: 64 }),
      fc.integer({ min: 0, max: 120 }),
      async (lines, finalNewline, cuts, blockSize, maxLine) => {
        const text = lines.join('\n') + (finalNewline && lines.length > 0 ? '\n' : '');
        const bytes = Buffer.from(text);
        const pieces = await collect(chunked(bytes, cuts), blockSize, maxLine);
        for (const p of pieces) if (p.kind === 'lines') expect(p.bytes.length).toBeGreaterThan(0);
        const expected = numbered(text).map(([n, l]): [number, string | null] => [n, Buffer.byteLength(l) > maxLine ? null : l]);
        expect(lineOf(pieces)).toEqual(expected);
      },
    ), { numRuns: 400 });
  });

  it('a multi-byte character cut across two reads comes out whole', async () => {
    const text = 'http://a/\u00e9\nhttp://b/\u{1F600}x\nhttp://c/\u4e2d\n';
    const bytes = Buffer.from(text);
    for (let cut = 1; cut < bytes.length; cut++) {
      for (const blockSize of [4, 11, 64]) {
        const pieces = await collect([bytes.subarray(0, cut), bytes.subarray(cut)], blockSize, 1 << 20);
        expect(lineOf(pieces).map(([, l]) => l)).toEqual(['http://a/\u00e9', 'http://b/\u{1F600}x', 'http://c/\u4e2d']);
      }
    }
  });

  it('a line too long is skipped across any number of reads; the next line is read whole', async () => {
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 1, max: 20 }),
      fc.integer({ min: 1, max: 50 }),
      fc.integer({ min: 1, max: 64 }),
      async (chunkSize, maxLine, blockSize) => {
        const long = 'x'.repeat(maxLine + 1 + chunkSize);
        const text = `a\n${long}\nb\n`;
        const bytes = Buffer.from(text);
        const cuts = Array.from({ length: Math.ceil(bytes.length / chunkSize) }, (_, i) => i * chunkSize);
        const pieces = await collect(chunked(bytes, cuts), blockSize, maxLine);
        expect(lineOf(pieces)).toEqual([[1, 'a'], [2, null], [3, 'b']]);
      },
    ));
  });

  it('holds at most max(blockSize, maxLine + 1) bytes in any block', async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(lineArb, { minLength: 1, maxLength: 60 }),
      fc.integer({ min: 1, max: 16 }),
      fc.integer({ min: 1, max: 64 }),
      fc.integer({ min: 0, max: 64 }),
      async (lines, chunkSize, blockSize, maxLine) => {
        const bytes = Buffer.from(lines.join('\n') + '\n');
        const cuts = Array.from({ length: Math.ceil(bytes.length / chunkSize) }, (_, i) => i * chunkSize);
        for (const p of await collect(chunked(bytes, cuts), blockSize, maxLine)) {
          if (p.kind === 'lines') expect(p.bytes.length).toBeLessThanOrEqual(Math.max(blockSize, maxLine + 1));
        }
      },
    ));
  });

  it('countLines counts line feeds before end', () => {
    expect(countLines(Buffer.from('a\nb\nc'), 5)).toBe(2);
    expect(countLines(Buffer.from('a\nb\nc'), 2)).toBe(1);
    expect(countLines(Buffer.from(''), 0)).toBe(0);
  });
});
