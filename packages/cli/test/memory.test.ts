/**
 * Constant memory on any input size (issue 9, bulk mode): 1 GiB of URIs,
 * generated as a stream and piped into the binary's standard input (never
 * written to disk), is validated with a peak resident set far below the
 * input size and close to that of a 32 MiB run. The peak is what the
 * binary's own `--stats` reports (process.resourceUsage().maxRSS).
 */
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { isValid } from 'urikit';
import { CORPUS, requireBuilt, run } from './run.js';

const GiB = 1024 * 1024 * 1024;
/** Twice the highest peak seen on the development machine (136 MB at 1 GiB). */
const PEAK_LIMIT = 256 * 1024 * 1024;

/** One block of real URIs: the three corpus files, without their BOM, each line ending in LF. */
const text = ['kasztp.txt', 'node_files.txt', 'isaacs_files.txt']
  .map((f) => readFileSync(CORPUS + f, 'utf8').replace(/^\uFEFF/, '').replace(/\r?\n$/, ''))
  .join('\n') + '\n';
const BLOCK = Buffer.from(text);
const BLOCK_LINES = text.split('\n').slice(0, -1);
const BLOCK_INVALID = BLOCK_LINES.filter((l) => l !== '' && !isValid(l)).length;
const BLOCK_INPUTS = BLOCK_LINES.filter((l) => l !== '').length;

/** `total` bytes of repeated blocks, produced on demand (the pipe's backpressure paces it). */
function generate(total: number): Readable {
  let sent = 0;
  return new Readable({
    highWaterMark: 1 << 20,
    read() {
      if (sent >= total) { this.push(null); return; }
      const b = sent + BLOCK.length > total ? BLOCK.subarray(0, total - sent) : BLOCK;
      sent += b.length;
      this.push(b);
    },
  });
}

/** What the binary must count for `total` bytes: whole blocks, then the lines of the cut one. */
function expectedCounts(total: number): { inputs: number; invalid: number } {
  const whole = Math.floor(total / BLOCK.length);
  const rest = BLOCK.subarray(0, total - whole * BLOCK.length).toString('utf8').split('\n').filter((l) => l !== '');
  return { inputs: whole * BLOCK_INPUTS + rest.length, invalid: whole * BLOCK_INVALID + rest.filter((l) => !isValid(l)).length };
}

interface Stats { lines: number; inputs: number; invalid: number; bytes: number; seconds: number; linesPerSecond: number; maxRssBytes: number }

async function validateStream(total: number): Promise<Stats> {
  const r = await run(['validate', '--stats', '--no-progress'], generate(total));
  const line = r.stderr.split('\n').find((l) => l.startsWith('{"stats"'));
  expect(line, r.stderr.slice(0, 2000)).toBeDefined();
  const stats = (JSON.parse(line!) as { stats: Stats }).stats;
  const counts = expectedCounts(total);
  expect(stats.bytes).toBe(total);
  expect(stats.inputs).toBe(counts.inputs);
  expect(stats.invalid).toBe(counts.invalid);
  // validate prints one line per invalid input on standard output.
  expect(r.stdout.split('\n').filter((l) => l !== '').length).toBe(counts.invalid);
  expect(r.code).toBe(counts.invalid > 0 ? 1 : 0);
  return stats;
}

beforeAll(() => requireBuilt());

describe('constant memory in bulk mode', () => {
  it('1 GiB streamed through validate: peak RSS bounded, close to a 32 MiB run', { timeout: 180_000 }, async () => {
    const small = await validateStream(32 * 1024 * 1024);
    const big = await validateStream(GiB);
    const mb = (n: number): string => (n / 1e6).toFixed(1);
    console.log(
      `[memory] 32 MiB: peak RSS ${mb(small.maxRssBytes)} MB, ${small.linesPerSecond} lines/s\n` +
      `[memory] 1 GiB (${big.lines} lines, ${big.invalid} invalid) in ${big.seconds} s: peak RSS ${mb(big.maxRssBytes)} MB, ${big.linesPerSecond} lines/s`,
    );
    expect(big.maxRssBytes).toBeLessThan(PEAK_LIMIT);
    // 32 times the input, nowhere near 32 times the memory.
    expect(big.maxRssBytes).toBeLessThan(small.maxRssBytes * 3);
  });
});
