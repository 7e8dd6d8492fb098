/**
 * lint (2003 draft §7) over the corpus sample and over a set of hostile
 * URIs (deceptive userinfo, rare IP formats, encoded CR LF, mixed-script
 * names). No peer has the operation; the table shows what the corpus
 * sample sets off.
 */
import { lint } from 'urikit';
import type { Suite } from '../run.js';

const HOSTILE = [
  'http://www.example.com&story=breaking_news@10.0.0.1/top_story.htm',
  'http://user:secret@0x7f.1:25/%0D%0AQUIT',
  'http://xn--pypal-4ve.com/login',
  'http://2130706433/',
  'http://[::ffff:127.0.0.1]:8080/admin',
  'gopher://example.com:25/_HELO%0D%0AMAIL%20FROM',
];

export const suite: Suite = {
  name: 'lint',
  async run(ctx) {
    const sample = ctx.corpus.sample;
    await ctx.compare('lint corpus', [
      { name: 'urikit lint', fn: () => { for (const s of sample) lint(s); } },
    ], { perCall: sample.length, note: 'URLs/s, no peer has the operation' });
    const hostile = Array.from({ length: 1000 }, (_, i) => HOSTILE[i % HOSTILE.length]!);
    await ctx.compare('lint hostile', [
      { name: 'urikit lint', fn: () => { for (const s of hostile) lint(s); } },
    ], { perCall: hostile.length, note: 'URIs/s, every one with findings' });
    const counts = new Map<string, number>();
    for (const s of sample) for (const f of lint(s)) counts.set(f.code, (counts.get(f.code) ?? 0) + 1);
    ctx.table(
      `findings on the ${sample.length} URLs of the corpus sample`,
      ['code', 'findings'],
      [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([code, k]) => [code, String(k)]),
    );
  },
};
