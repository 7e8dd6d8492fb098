/**
 * The laws of the line splitter of bulk mode (packages/cli/src/lines.ts),
 * on generated inputs cut into generated chunks (fast-check): every line
 * comes out once, whole and with its number, whatever the chunking; a line
 * longer than the limit may instead be reported as too long, with its
 * number; nothing else comes out; and the bytes held stay bounded.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { countLines, splitLines, type Piece } from '../src/lines.js';

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

async function* from(chunks: Buffer[]): AsyncGenerator<Buffer> {
  for (const c of chunks) yield c;
}

async function collect(chunks: Buffer[], blockSize: number, maxLine: number): Promise<Piece[]> {
  const pieces: Piece[] = [];
  for await (const p of splitLines(from(chunks), { blockSize, maxLine })) pieces.push(p);
  return pieces;
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

describe('splitLines', () => {
  it('every line comes out whole with its number, or (if longer than maxLine) as too-long with its number', async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(lineArb, { maxLength: 40 }),
      fc.boolean(),
      fc.array(fc.nat({ max: 4000 }), { maxLength: 30 }),
      fc.integer({ min: 1, max: 64 }),
      fc.integer({ min: 8, max: 120 }),
      async (lines, finalNewline, cuts, blockSize, maxLine) => {
        const text = lines.join('\n') + (finalNewline && lines.length > 0 ? '\n' : '');
        const bytes = Buffer.from(text);
        const pieces = await collect(chunked(bytes, cuts), blockSize, maxLine);
        const seen: Array<[number, string | null]> = [];
        let next = 1;
        for (const p of pieces) {
          if (p.kind === 'too-long') {
            seen.push([p.line, null]);
            next = p.line + 1;
            continue;
          }
          expect(p.firstLine).toBe(next);
          const t = p.bytes.toString('utf8');
          expect(p.lines).toBe(countLines(p.bytes, p.bytes.length));
          const ls = t.split('\n');
          if (ls[ls.length - 1] === '') ls.pop();
          ls.forEach((l, i) => seen.push([p.firstLine + i, l]));
          next = p.firstLine + p.lines;
        }
        const expected = numbered(text);
        expect(seen.length).toBe(expected.length);
        for (let i = 0; i < expected.length; i++) {
          const [n, l] = expected[i]!;
          expect(seen[i]![0]).toBe(n);
          if (seen[i]![1] === null) expect(Buffer.byteLength(l)).toBeGreaterThan(maxLine);
          else expect(seen[i]![1]).toBe(l);
        }
      },
    ), { numRuns: 300 });
  });

  it('a line longer than maxLine plus the largest chunk is always reported as too long', async () => {
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 1, max: 20 }),
      fc.integer({ min: 1, max: 50 }),
      async (chunkSize, maxLine) => {
        const long = 'x'.repeat(maxLine + chunkSize + 1);
        const text = `a\n${long}\nb\n`;
        const bytes = Buffer.from(text);
        const cuts = Array.from({ length: Math.ceil(bytes.length / chunkSize) }, (_, i) => i * chunkSize);
        const pieces = await collect(chunked(bytes, cuts), 4, maxLine);
        expect(pieces.filter((p) => p.kind === 'too-long')).toEqual([{ kind: 'too-long', line: 2 }]);
        const out = pieces.flatMap((p) => (p.kind === 'lines' ? [p.bytes.toString('utf8')] : [])).join('');
        expect(out).toBe('a\nb\n');
      },
    ));
  });

  it('holds at most blockSize + maxLine + one chunk of bytes in any block', async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(lineArb, { minLength: 1, maxLength: 60 }),
      fc.integer({ min: 1, max: 16 }),
      fc.integer({ min: 1, max: 64 }),
      fc.integer({ min: 8, max: 64 }),
      async (lines, chunkSize, blockSize, maxLine) => {
        const bytes = Buffer.from(lines.join('\n') + '\n');
        const cuts = Array.from({ length: Math.ceil(bytes.length / chunkSize) }, (_, i) => i * chunkSize);
        for (const p of await collect(chunked(bytes, cuts), blockSize, maxLine)) {
          if (p.kind === 'lines') expect(p.bytes.length).toBeLessThanOrEqual(blockSize + maxLine + 2 * chunkSize);
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
