import { describe, expect, it } from 'vitest';
import { applyProbe, DEFAULT_SCHEDULE, initialHealth, isBroken, type LinkHealth, type ProbeResult } from '@urikit/resolver';

const S = DEFAULT_SCHEDULE;
const URL_ = 'https://a.example/x';
const probe = (outcome: ProbeResult['outcome'], extra: Partial<ProbeResult> = {}): ProbeResult => ({ url: URL_, outcome, finalUrl: URL_, elapsedMs: 1, method: 'HEAD', redirects: 0, ...extra });
const failing = (n: number): LinkHealth => ({ ...initialHealth(URL_), state: 'failing', consecutiveFailures: n, failingSince: 10 });

// from, outcome, then: state, failures, next check after `now`, failingSince
const T = 1_000;
const CASES: Array<[string, LinkHealth, ProbeResult, LinkHealth['state'], number, number, number | undefined]> = [
  ['first ok', initialHealth(URL_), probe('ok'), 'ok', 0, S.okIntervalMs, undefined],
  ['first failure', initialHealth(URL_), probe('broken'), 'failing', 1, S.failingIntervalMs, T],
  ['another failure keeps the start of the run', failing(3), probe('broken'), 'failing', 4, S.failingIntervalMs, 10],
  ['ok ends a run of failures', failing(6), probe('ok'), 'ok', 0, S.okIntervalMs, undefined],
  ['"later" on a failing link neither adds nor resets', failing(2), probe('retry'), 'failing', 2, S.retryIntervalMs, 10],
  ['"later" on a new link', initialHealth(URL_), probe('retry'), 'retry', 0, S.retryIntervalMs, undefined],
  ['Retry-After longer than the retry delay is honoured', initialHealth(URL_), probe('retry', { retryAfterMs: 5 * 3600_000 }), 'retry', 0, 5 * 3600_000, undefined],
  ['Retry-After is capped at the failing interval', initialHealth(URL_), probe('retry', { retryAfterMs: 365 * 24 * 3600_000 }), 'retry', 0, S.failingIntervalMs, undefined],
  ['blocked is not a failure', failing(2), probe('blocked'), 'blocked', 0, S.okIntervalMs, undefined],
];

describe('applyProbe', () => {
  it.each(CASES)('%s', (_name, from, result, state, failures, after, since) => {
    const h = applyProbe(from, result, T);
    expect([h.state, h.consecutiveFailures, h.nextCheck - T, h.failingSince, h.lastCheck]).toEqual([state, failures, after, since, T]);
  });

  it('reports a location broken after the schedule\'s number of failures in a row', () => {
    let h = initialHealth(URL_);
    const seen: boolean[] = [];
    for (let i = 0; i < S.reportAfterFailures; i++) {
      h = applyProbe(h, probe('broken'), T * (i + 1));
      seen.push(isBroken(h));
    }
    expect(seen).toEqual([...Array(S.reportAfterFailures - 1).fill(false), true]);
    expect(isBroken(applyProbe(h, probe('ok'), T * 100))).toBe(false);
  });
});
