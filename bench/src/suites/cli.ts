/**
 * The command line in bulk mode: `urikit normalize --jobs 2`
 * over the corpus, as a child process reading standard input and writing
 * standard output, beside `node -e` scripts that do the same job in one
 * process with fast-uri's `normalize` (and with urikit's, to show what the
 * command line itself costs). Every contender reads the same bytes from a
 * pipe and writes one line per URI to a pipe; the time is the wall clock
 * of the whole process, start-up included, so the input is the corpus
 * repeated to a few million lines. Lines per second are printed; the
 * ratio is to fast-uri in one process.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Suite } from '../run.js';
import { buildText } from './extract.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
// The command as it is run (`npx urikit`): the launcher, which runs the start-up bundle for these commands.
const BIN = fileURLToPath(new URL('../../../packages/cli/bin/urikit.js', import.meta.url));

/** A streaming line loop: chunks in, one normalized line out per line in, as the CLI does. */
function script(load: string, call: string): string {
  return `${load}
let rest = '';
const out = process.stdout;
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  const text = rest + chunk;
  const lines = text.split('\\n');
  rest = lines.pop();
  let buf = '';
  for (const line of lines) { if (line) { try { buf += ${call}(line) + '\\n'; } catch { process.stderr.write('bad\\n'); } } }
  if (!out.write(buf)) { process.stdin.pause(); out.once('drain', () => process.stdin.resume()); }
});
process.stdin.on('end', () => { if (rest) { try { out.write(${call}(rest) + '\\n'); } catch {} } });
`;
}

interface Contender {
  name: string;
  args: string[];
}

const CONTENDERS: Contender[] = [
  { name: 'urikit normalize --jobs 2', args: [BIN, 'normalize', '--jobs', '2', '--no-progress'] },
  { name: 'urikit normalize (1 thread)', args: [BIN, 'normalize', '--no-progress'] },
  { name: 'node -e fast-uri normalize (one process)', args: ['-e', script("const { normalize } = require('fast-uri');", 'normalize')] },
  { name: 'node -e urikit normalize (one process)', args: ['--input-type=module', '-e', script("import { normalize } from 'urikit';", "((s) => normalize(s, { level: 'scheme' }))")] },
];

/** Runs one contender over `input`; resolves to the wall-clock seconds and the lines written. */
function time(c: Contender, input: Buffer, onOutput?: (b: Buffer) => void): Promise<{ seconds: number; linesOut: number }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, c.args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'ignore'] });
    let linesOut = 0;
    child.stdout.on('data', (b: Buffer) => {
      onOutput?.(b);
      for (let i = b.indexOf(10); i >= 0; i = b.indexOf(10, i + 1)) linesOut++;
    });
    child.stdin.on('error', reject);
    child.on('error', reject);
    child.on('close', () => resolve({ seconds: Number(process.hrtime.bigint() - started) / 1e9, linesOut }));
    child.stdin.end(input);
  });
}

export const suite: Suite = {
  name: 'cli',
  async run(ctx) {
    const repeat = ctx.quick ? 3 : 10;
    const block = ctx.corpus.all.join('\n') + '\n';
    const input = Buffer.from(block.repeat(repeat));
    const lines = ctx.corpus.all.length * repeat;
    const runs = ctx.quick ? 1 : 2;
    const best = new Map<string, { seconds: number; linesOut: number }>();
    for (let r = 0; r < runs; r++) {
      for (const c of CONTENDERS) {
        const t = await time(c, input);
        const prev = best.get(c.name);
        if (!prev || t.seconds < prev.seconds) best.set(c.name, t);
      }
    }
    const peer = best.get(CONTENDERS[2]!.name)!;
    const peerRate = lines / peer.seconds;
    ctx.table(
      `bulk normalize over the corpus x${repeat} (${lines.toLocaleString('en-US')} lines, ${(input.length / 1e6).toFixed(1)} MB), pipe to pipe, whole process timed, best of ${runs}`,
      ['contender', 'seconds', 'lines/s', 'lines written', 'ratio to fast-uri'],
      CONTENDERS.map((c) => {
        const t = best.get(c.name)!;
        const rate = lines / t.seconds;
        return [c.name, t.seconds.toFixed(2), Math.round(rate).toLocaleString('en-US'), t.linesOut.toLocaleString('en-US'), (rate / peerRate).toFixed(2)];
      }),
    );

    // urikit extract on a file against the library call on the same text:
    // the prose of the extract suite (corpus URLs in sentences), written to a file.
    const dir = mkdtempSync(join(tmpdir(), 'urikit-bench-'));
    try {
      const file = join(dir, 'prose.txt');
      const chars = ctx.quick ? 2 << 20 : 16 << 20;
      writeFileSync(file, buildText(ctx.corpus.kasztp, chars));
      const cli: Contender = { name: 'urikit extract FILE', args: [BIN, 'extract', file] };
      const lib: Contender = {
        name: 'node -e: read FILE, extractUris(text)',
        args: ['--input-type=module', '-e', `import { readFileSync } from 'node:fs'; import { extractUris } from 'urikit';
const t0 = process.hrtime.bigint(); const n = extractUris(readFileSync(${JSON.stringify(file)}, 'utf8')).length;
process.stdout.write('call ' + (Number(process.hrtime.bigint() - t0) / 1e9) + ' ' + n + '\\n');`],
      };
      let bestCli = Infinity;
      let bestLib = Infinity;
      let bestCall = Infinity;
      let found = 0;
      for (let r = 0; r < runs + 1; r++) {
        const c = await time(cli, Buffer.alloc(0));
        bestCli = Math.min(bestCli, c.seconds);
        found = c.linesOut;
        let said = '';
        const l = await time(lib, Buffer.alloc(0), (b) => { said += b.toString(); });
        bestLib = Math.min(bestLib, l.seconds);
        bestCall = Math.min(bestCall, Number(said.split(' ')[1]));
      }
      ctx.table(
        `extract: urikit extract on a file of ${(chars / 2 ** 20).toFixed(0)} Mi chars of prose (${found.toLocaleString('en-US')} URIs) against the library call on the same text (reading the file included), best of ${runs + 1}`,
        ['urikit extract FILE (whole process), s', 'node -e: whole process, s', 'library call: read + extractUris, s', 'CLI ÷ library call', 'CLI ÷ node -e'],
        [[bestCli.toFixed(2), bestLib.toFixed(2), bestCall.toFixed(2), (bestCli / bestCall).toFixed(2), (bestCli / bestLib).toFixed(2)]],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
