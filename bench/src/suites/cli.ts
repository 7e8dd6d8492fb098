/**
 * The command line in bulk mode (issue 9): `urikit normalize --jobs 2`
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
import { fileURLToPath } from 'node:url';
import type { Suite } from '../run.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = fileURLToPath(new URL('../../../packages/cli/dist/bin.js', import.meta.url));

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
function time(c: Contender, input: Buffer): Promise<{ seconds: number; linesOut: number }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, c.args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'ignore'] });
    let linesOut = 0;
    child.stdout.on('data', (b: Buffer) => {
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
  },
};
