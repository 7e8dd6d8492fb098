/**
 * The health of one location (a URL that some name resolves to) and how a
 * probe's outcome changes it. Pure: no I/O, no clock of its own.
 *
 * The outcomes follow what users of the link checkers of EZID and the
 * national resolvers call false positives: a 429 or 503 (RFC 9110 §15.6.4,
 * RFC 6585 §4: the server says "later") and a timeout mean "retry later",
 * not "broken"; they neither reset nor add to the count of failures.
 */
import { DEFAULT_SCHEDULE, type LinkSchedule } from './schedule.js';

/**
 * What one probe of a URL found.
 *
 * - `ok`: a 2xx answer after at most the allowed redirects;
 * - `broken`: any other final answer (4xx but 429, 5xx but 503), a redirect
 *   loop or too many redirects, a refused connection, an unknown host;
 * - `retry`: 429, 503, a timeout or a name server that did not answer:
 *   the server may be fine later;
 * - `blocked`: not fetched, because the host's address is not allowed
 *   (loopback, private, link-local... unless the operator allows them), or
 *   the URL's scheme is not HTTP(S) (ftp:), which this checker does not
 *   speak.
 *
 * @example
 * ```ts
 * const o: ProbeOutcome = 'retry';
 * applyProbe(initialHealth('https://a.example/'), { url: 'https://a.example/', outcome: o, finalUrl: 'https://a.example/', elapsedMs: 1, method: 'HEAD', redirects: 0 }, 0).consecutiveFailures; // 0
 * ```
 */
export type ProbeOutcome = 'ok' | 'broken' | 'retry' | 'blocked';

/**
 * The result of probing one URL.
 *
 * @example
 * ```ts
 * const r: ProbeResult = { url: 'https://a.example/', outcome: 'ok', status: 200, finalUrl: 'https://a.example/', elapsedMs: 12, method: 'HEAD', redirects: 0 };
 * applyProbe(initialHealth(r.url), r, 0).state; // 'ok'
 * ```
 */
export interface ProbeResult {
  url: string;
  outcome: ProbeOutcome;
  /** The status code of the last answer, if one came. */
  status?: number;
  /** The URL after the redirects that were followed. */
  finalUrl: string;
  /** Wall-clock time of the whole probe, redirects included. */
  elapsedMs: number;
  /** The method of the last request: HEAD, or GET when HEAD was refused or failed. */
  method: 'HEAD' | 'GET';
  redirects: number;
  /** A stable error code: `timeout`, `refused`, `dns` (no such name), `dns-temporary` (no answer from the name server), `network`, `redirect-loop`, `too-many-redirects`, `bad-redirect`, `bad-url`, `unsupported-scheme`, `http-<status>`, `blocked-address (<class>)`. */
  error?: string;
  /** A Retry-After the server sent with a 429 or 503, in milliseconds. */
  retryAfterMs?: number;
}

/**
 * Where a location stands: `unchecked` (never probed), `ok`, `failing`
 * (the last conclusive probe failed), `retry` (the last probe said
 * "later"), `blocked` (not probed: its address is not allowed, or its
 * scheme is not HTTP(S)).
 *
 * @example
 * ```ts
 * const s: LinkState = 'failing';
 * isBroken({ ...initialHealth('https://a.example/'), state: s, consecutiveFailures: 1 }); // false
 * ```
 */
export type LinkState = 'unchecked' | 'ok' | 'failing' | 'retry' | 'blocked';

/**
 * The health record of one location.
 *
 * @example
 * ```ts
 * const h: LinkHealth = initialHealth('https://a.example/');
 * h.state; // 'unchecked'
 * ```
 */
export interface LinkHealth {
  url: string;
  state: LinkState;
  /** When it was last probed (ms since the epoch), 0 if never. */
  lastCheck: number;
  /** When it is due again (ms since the epoch); 0 = at once. */
  nextCheck: number;
  status?: number;
  finalUrl?: string;
  elapsedMs?: number;
  /** Conclusive failures in a row (a `retry` neither adds nor resets). */
  consecutiveFailures: number;
  error?: string;
  /** When the current run of failures began, if one is running. */
  failingSince?: number;
}

/**
 * A location that has never been probed: due at once.
 *
 * @example
 * ```ts
 * initialHealth('https://a.example/'); // { url: 'https://a.example/', state: 'unchecked', lastCheck: 0, nextCheck: 0, consecutiveFailures: 0 }
 * ```
 */
export function initialHealth(url: string): LinkHealth {
  return { url, state: 'unchecked', lastCheck: 0, nextCheck: 0, consecutiveFailures: 0 };
}

/**
 * The health after a probe at time `now`, with its next check set by the
 * schedule: healthy links are rechecked rarely, failing ones sooner, and
 * "retry later" after the server's Retry-After or the schedule's delay.
 *
 * @example
 * ```ts
 * const h = applyProbe(initialHealth('https://a.example/'), { url: 'https://a.example/', outcome: 'broken', status: 404, finalUrl: 'https://a.example/', elapsedMs: 5, method: 'GET', redirects: 0 }, 1000);
 * [h.state, h.consecutiveFailures, h.nextCheck - 1000]; // ['failing', 1, 52 * 3600_000]
 * ```
 */
export function applyProbe(prev: LinkHealth, r: ProbeResult, now: number, schedule: LinkSchedule = DEFAULT_SCHEDULE): LinkHealth {
  const next: LinkHealth = {
    url: prev.url,
    state: prev.state,
    lastCheck: now,
    nextCheck: now,
    finalUrl: r.finalUrl,
    elapsedMs: r.elapsedMs,
    consecutiveFailures: prev.consecutiveFailures,
  };
  if (r.status !== undefined) next.status = r.status;
  if (r.error !== undefined) next.error = r.error;
  switch (r.outcome) {
    case 'ok':
      next.state = 'ok';
      next.consecutiveFailures = 0;
      next.nextCheck = now + schedule.okIntervalMs;
      break;
    case 'broken':
      next.state = 'failing';
      next.consecutiveFailures = prev.consecutiveFailures + 1;
      next.failingSince = prev.failingSince ?? now;
      next.nextCheck = now + schedule.failingIntervalMs;
      break;
    case 'retry':
      // a "later" keeps the record of conclusive failures as it was
      next.state = prev.state === 'failing' ? 'failing' : 'retry';
      if (prev.failingSince !== undefined) next.failingSince = prev.failingSince;
      next.nextCheck = now + Math.max(schedule.retryIntervalMs, Math.min(r.retryAfterMs ?? 0, schedule.failingIntervalMs));
      break;
    case 'blocked':
      next.state = 'blocked';
      next.consecutiveFailures = 0;
      next.nextCheck = now + schedule.okIntervalMs;
      break;
  }
  return next;
}

/**
 * True if the location should be reported to its owner as broken: failing
 * `schedule.reportAfterFailures` times in a row (EZID notifies after 7).
 *
 * @example
 * ```ts
 * isBroken({ ...initialHealth('https://a.example/'), state: 'failing', consecutiveFailures: 7 }); // true
 * ```
 */
export function isBroken(h: LinkHealth, schedule: LinkSchedule = DEFAULT_SCHEDULE): boolean {
  return h.state === 'failing' && h.consecutiveFailures >= schedule.reportAfterFailures;
}
