/**
 * Bulk mode of the real binary over ../shared/corpus: one URI per line
 * from files and standard input, the line numbers of invalid lines, the
 * same output with worker threads, over-long lines, no progress line in a
 * pipe. The library itself (run in this process) is the oracle for which
 * lines are valid and what they normalize to.
 */
import { createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { extractUris, isValid, normalize, UriError } from 'urikit';
import { BIN, CORPUS, records, requireBuilt, run } from './run.js';

const FILES = ['kasztp.txt', 'node_files.txt', 'isaacs_files.txt'];

/** The lines of a corpus file as the CLI reads them: BOM skipped, CR removed, 1-based. */
function corpusLines(file: string): string[] {
  const text = readFileSync(CORPUS + file, 'utf8').replace(/^\uFEFF/, '');
  return text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

function normalizedOrUndefined(line: string): string | undefined {
  try {
    return normalize(line);
  } catch (e) {
    if (e instanceof UriError) return undefined;
    throw e;
  }
}

beforeAll(() => requireBuilt());

describe('bulk mode over ../shared/corpus', () => {
  for (const file of FILES) {
    it(`validate --json --input ${file}: one record per line, numbered, valid as the library says`, async () => {
      const lines = corpusLines(file);
      const r = await run(['validate', '--json', '--input', CORPUS + file]);
      const got = records(r.stdout);
      const expected = lines.map((l, i) => ({ line: i + 1, input: l })).filter((x) => x.input !== '');
      expect(got.length).toBe(expected.length);
      let invalid = 0;
      for (let i = 0; i < got.length; i++) {
        const rec = got[i]!;
        expect(rec.line).toBe(expected[i]!.line);
        expect(rec.input).toBe(expected[i]!.input);
        expect(rec.source).toBe(CORPUS + file);
        expect(rec.valid).toBe(isValid(expected[i]!.input));
        if (rec.valid === false) invalid++;
      }
      expect(r.code).toBe(invalid > 0 ? 1 : 0);
    });
  }

  it('validate from standard input reports exactly the invalid lines, by number, and does not stop', async () => {
    const lines = corpusLines('kasztp.txt');
    const bad = lines.flatMap((l, i) => (l !== '' && !isValid(l) ? [i + 1] : []));
    expect(bad.length).toBeGreaterThan(0);
    const r = await run(['validate'], createReadStream(CORPUS + 'kasztp.txt'));
    expect(r.code).toBe(1);
    const reported = r.stdout.split('\n').filter((l) => l !== '').map((l) => {
      const m = /^-:(\d+):(\d+): [a-z0-9-]+: /.exec(l);
      expect(m, l).not.toBeNull();
      return Number(m![1]);
    });
    expect(reported).toEqual(bad);
  });

  it('normalize --jobs 2 writes the same lines in the same order as one thread, and as the library', async () => {
    const input = Buffer.concat(FILES.map((f) => readFileSync(CORPUS + f)));
    const one = await run(['normalize', '--no-progress'], input);
    const two = await run(['normalize', '--jobs', '2'], input);
    expect(two.stdout).toBe(one.stdout);
    expect(two.stderr).toBe(one.stderr);
    expect(two.code).toBe(one.code);
    const lines = input.toString('utf8').replace(/^\uFEFF/, '').split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l)).filter((l) => l !== '');
    const expected = lines.map(normalizedOrUndefined).filter((x): x is string => x !== undefined);
    expect(one.stdout).toBe(expected.map((l) => l + '\n').join(''));
    const failures = one.stderr.split('\n').filter((l) => l !== '').length;
    expect(failures).toBe(lines.length - expected.length);
  });

  it('several --input files: line numbers restart per file, each named', async () => {
    const r = await run(['parse', '--json', '--input', CORPUS + 'isaacs_files.txt', '--input', CORPUS + 'node_files.txt']);
    const got = records(r.stdout);
    const firstOfSecond = got.findIndex((x) => x.source === CORPUS + 'node_files.txt');
    expect(firstOfSecond).toBeGreaterThan(0);
    expect(got[firstOfSecond]!.line).toBe(1);
    expect(got[firstOfSecond - 1]!.source).toBe(CORPUS + 'isaacs_files.txt');
  });

  it('a line longer than --max-line is reported with its number and skipped; the lines after it are read', async () => {
    const long = 'http://a/' + 'x'.repeat(5_000_000);
    const r = await run(['validate', '--json', '--max-line', '100000'], `http://a/1\n${long}\nhttp://a/3\nhttp://a b\n`);
    expect(r.code).toBe(1);
    const got = records(r.stdout);
    expect(got.map((x) => [x.line, x.valid])).toEqual([[1, true], [2, false], [3, true], [4, false]]);
    expect((got[1]!.error as { code: string }).code).toBe('line-too-long');
  });

  it('a final line without a line feed is read, blank lines are counted but skipped', async () => {
    const r = await run(['normalize', '--json'], '\n\nHTTP://A\n\nhttp://b');
    expect(records(r.stdout).map((x) => [x.line, x.normalized])).toEqual([[3, 'http://a/'], [5, 'http://b/']]);
  });

  it('blocks of a megabyte: a line and a multi-byte character cut at the end of the read buffer, CRLF, blank and invalid lines, no final line feed', async () => {
    // Mostly ASCII lines (each block's fast path), with a non-ASCII line placed
    // across the 1 MiB mark at each of a few offsets (that block takes the UTF-8 path).
    for (const shift of [0, 1, 2, 5]) {
      const lines: string[] = [];
      let size = 0;
      for (let i = 0; size < (1 << 20) - 64; i++) {
        const l = i % 7 === 0 ? `HTTP://Example.COM:80/${i}\r` : i % 11 === 0 ? '' : i % 13 === 0 ? `http://a b/${i}` : `http://example.com/${i}`;
        lines.push(l);
        size += Buffer.byteLength(l) + 1;
      }
      // The padding line ends 17 - shift bytes before the 1 MiB mark: the mark falls inside the é run of the next line.
      const pad = (1 << 20) - size - 20 - 17 + shift;
      lines.push(`http://example.com/${'p'.repeat(Math.max(0, pad))}`);
      lines.push('http://\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9.example/\u{1F600}');
      for (let i = 0; i < 3000; i++) lines.push(i % 5 === 0 ? `http://EXAMPLE.com/%7e${i}\r` : `http://example.org/${i}`);
      lines.push('HTTP://last.example');
      const input = lines.join('\n');
      const one = await run(['normalize'], input);
      const two = await run(['normalize', '--jobs', '2'], input);
      const expected = lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l)).filter((l) => l !== '');
      // The command reads a URI reference (an IRI is refused: ops/uri.ts), then normalizes.
      const cli = (l: string): string | undefined => (isValid(l) ? normalizedOrUndefined(l) : undefined);
      const good = expected.map(cli);
      expect(one.stdout).toBe(good.filter((x): x is string => x !== undefined).map((l) => l + '\n').join(''));
      expect(two.stdout).toBe(one.stdout);
      expect(two.stderr).toBe(one.stderr);
      const badLines = lines.flatMap((l, i) => (l !== '' && l !== '\r' && cli(l.replace(/\r$/, '')) === undefined ? [i + 1] : []));
      expect(one.stderr.split('\n').filter((l) => l !== '').map((l) => Number(/^-:(\d+):/.exec(l)![1]))).toEqual(badLines);
      expect(one.code).toBe(1);
      const v = await run(['validate'], input);
      const invalid = lines.flatMap((l, i) => (l !== '' && !isValid(l.replace(/\r$/, '')) ? [i + 1] : []));
      expect(v.stdout.split('\n').filter((l) => l !== '').map((l) => Number(/^-:(\d+):/.exec(l)![1]))).toEqual(invalid);
    }
  });

  it('a file read in blocks: the same answers as standard input, with the file named', async () => {
    const r = await run(['validate', '--input', CORPUS + 'kasztp.txt']);
    const s = await run(['validate'], readFileSync(CORPUS + 'kasztp.txt'));
    expect(r.stdout).toBe(s.stdout.replaceAll(/^-:/gm, `${CORPUS}kasztp.txt:`));
    expect(r.code).toBe(1);
  });

  for (const file of ['node_files.txt', 'isaacs_files.txt']) {
    it(`extract streams ${file} and finds what extractUris finds in the whole text, at the same offsets`, async () => {
      const text = readFileSync(CORPUS + file, 'utf8');
      const expected = extractUris(text).map((m) => ({ source: CORPUS + file, ...m }));
      expect(expected.length).toBeGreaterThan(1000);
      const r = await run(['extract', '--json', CORPUS + file]);
      expect(r.code).toBe(0);
      expect(records(r.stdout)).toEqual(expected);
    });
  }

  it('extract: characters of 2, 3 and 4 bytes cut at the 64 KiB chunk boundaries, a byte order mark, a file and standard input alike', async () => {
    const words = ['caf\u00e9', 'na\u00efve \u20ac5', '\u{1F600}', 'see http://example.com/a.', '<http://www.w3.org/Addressing/>', 'http://b\u00fccher.example/\u00e4', '(mailto:a@b.example)'];
    const dir = mkdtempSync(join(tmpdir(), 'urikit-extract-'));
    try {
      let cutInside = 0;
      for (const shift of [0, 1, 2, 3]) {
        // ASCII up to `shift` bytes before the first boundary (65,536 bytes with the mark), then a 4-byte character.
        let text = 'see http://example.com/a. '.repeat(3000).slice(0, 65536 - 3 - shift) + '\u{1F600}\u00e9 ';
        for (let i = 0; text.length < 200_000; i++) text += words[i % words.length] + (i % 9 === 8 ? '\n' : ' ');
        const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
        for (let at = 65536; at < bytes.length; at += 65536) if ((bytes[at]! & 0xc0) === 0x80) cutInside++;
        // TextDecoder drops the byte order mark: offsets count from the text after it.
        const expected = extractUris(text);
        const file = join(dir, `t${shift}.txt`);
        writeFileSync(file, bytes);
        const f = await run(['extract', '--json', file]);
        expect(records(f.stdout)).toEqual(expected.map((m) => ({ source: file, ...m })));
        const s = await run(['extract', '--json'], bytes);
        expect(records(s.stdout)).toEqual(expected.map((m) => ({ ...m })));
        const plain = await run(['extract'], bytes);
        expect(plain.stdout).toBe(expected.map((m) => m.uri + '\n').join(''));
      }
      expect(cutInside).toBeGreaterThan(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('no progress line when standard error is a pipe', async () => {
    const input = readFileSync(CORPUS + 'node_files.txt');
    const r = await run(['validate', '--jobs', '2'], input);
    expect(r.stderr).not.toContain('\r');
    expect(r.stderr).not.toContain('lines/s');
  });

  it('a progress line with the rate when standard error is a terminal (script(1) gives a pty)', () => {
    const cmd = `"${process.execPath}" "${BIN}" validate --input "${CORPUS}node_files.txt"`;
    const r = spawnSync('script', ['-qec', cmd, '/dev/null'], { encoding: 'utf8' });
    expect(r.stdout).toMatch(/\r\x1b\[K\[[#.]+\] +\d+% [\d.]+ MB +[\d,]+ lines +[\d,]+ lines\/s/);
  });

  it('a reader that goes away (| head -1) ends the run quietly', () => {
    const r = spawnSync('sh', ['-c', `"${process.execPath}" "${BIN}" normalize < "${CORPUS}node_files.txt" | head -n 1`], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(normalize(corpusLines('node_files.txt')[0]!) + '\n');
    expect(r.stderr).toBe('');
  });
});
