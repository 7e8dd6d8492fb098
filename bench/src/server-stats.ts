/**
 * What resolution statistics cost, in `npm run bench:server`: the resolver
 * with them on (the default) and the same resolver with them off, each on
 * its own copy of the large SQLite store, measured in pairs after the
 * main rounds: off then on, seconds apart, many rounds, the goal read from
 * the median of the pairs' ratios.
 *
 * A resolver with statistics on puts work off to its idle time (the
 * store folds the flushed counts into its sums when a flush interval
 * passed without a resolution, store/resolution-stats.ts). Each pair is
 * followed by a pause long enough for that work to run while nothing is
 * measured, so that it lands in no other server's measurement; its CPU is
 * not hidden: the CPU per answer over the whole segment, pauses included,
 * is reported beside the CPU per answer of the measurements alone.
 */
import { childCpu } from './server-children.js';
import { measure, median, type Measured, type Target } from './server-measure.js';

/** What the statistics segment measured. */
export interface StatsSegment {
  /** One pair a round: off, then on. */
  pairs: Array<{ off: Measured; on: Measured }>;
  /** CPU µs per answer over the whole segment, the pauses' idle-time work included, with statistics off and on. */
  wholeOff: number;
  wholeOn: number;
}

/**
 * Measures `off` then `on` for `rounds` rounds of `seconds` each, with
 * `pauseMs` after each pair (at least two flush intervals and the fold: 12 s).
 */
export async function measureStatistics(off: Target, on: Target, rounds: number, seconds: number, connections: number, pauseMs = 12_000): Promise<StatsSegment> {
  const pause = () => new Promise((r) => setTimeout(r, pauseMs));
  // Whatever the main rounds left to do is done before the segment starts.
  await pause();
  const cpu0 = [await childCpu(off.child), await childCpu(on.child)];
  const pairs: StatsSegment['pairs'] = [];
  for (let round = 0; round < rounds; round++) {
    const mOff = await measure(off, seconds, connections);
    const mOn = await measure(on, seconds, connections);
    pairs.push({ off: mOff, on: mOn });
    await pause();
  }
  const answers = (k: 'off' | 'on') => pairs.reduce((a, p) => a + p[k].total, 0);
  return {
    pairs,
    wholeOff: (await childCpu(off.child) - cpu0[0]!) / answers('off'),
    wholeOn: (await childCpu(on.child) - cpu0[1]!) / answers('on'),
  };
}

/** The segment's lines for RESULTS-server.md, and the median of its pairs' throughput ratios (on to off). */
export function statisticsReport(s: StatsSegment, names: number, seconds: number, pauseMs = 12_000): { lines: string[]; ratio: number; ratios: number[] } {
  const ratios = s.pairs.map((p) => p.on.rps / p.off.rps);
  const cpu = (k: 'off' | 'on') => median(s.pairs.map((p) => p[k].cpuPerRequest));
  const n = names.toLocaleString('en');
  return {
    ratio: median(ratios),
    ratios,
    lines: [
      `## Resolution statistics on (the default) to off, SQLite, ${n} names`,
      '',
      `${s.pairs.length} pairs of ${seconds} s measurements, off then on, each pair followed by ${pauseMs / 1000} s without requests (the statistics' idle-time work, the fold of the flushed counts into their sums, runs then, measured by no other server). Random names, as in the table above: nearly every answer is a new (name, day) cell.`,
      '',
      '| | statistics off | statistics on |',
      '|---|---:|---:|',
      `| requests/s (median) | ${Math.round(median(s.pairs.map((p) => p.off.rps))).toLocaleString('en')} | ${Math.round(median(s.pairs.map((p) => p.on.rps))).toLocaleString('en')} |`,
      `| server CPU µs per answer, measurements (median) | ${cpu('off').toFixed(1)} | ${cpu('on').toFixed(1)} |`,
      `| server CPU µs per answer, whole segment with the pauses' idle-time work | ${s.wholeOff.toFixed(1)} | ${s.wholeOn.toFixed(1)} |`,
      '',
      `Pairs, on to off: ${ratios.map((r) => r.toFixed(2)).join(', ')}.`,
      '',
    ],
  };
}
