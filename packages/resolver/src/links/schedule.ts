/**
 * When locations are checked again, and how politely. The defaults are
 * EZID's published practice: a good link is rechecked after 30 days, a bad
 * one after 52 hours, and its owner is told after 7 failures in a row.
 */

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/**
 * The recheck intervals of the link checker.
 *
 * @example
 * ```ts
 * const s: LinkSchedule = { ...DEFAULT_SCHEDULE, okIntervalMs: 7 * 24 * 3600_000 };
 * s.reportAfterFailures; // 7
 * ```
 */
export interface LinkSchedule {
  /** After a good answer (EZID: 30 days). */
  okIntervalMs: number;
  /** After a conclusive failure (EZID: 52 hours). */
  failingIntervalMs: number;
  /** After "retry later" (429, 503, timeout), unless the server's Retry-After asks for longer. */
  retryIntervalMs: number;
  /** Failures in a row after which a location is reported broken (EZID: 7). */
  reportAfterFailures: number;
}

/**
 * EZID's intervals: 30 days, 52 hours, and 7 failures before a report;
 * "retry later" after 1 hour.
 *
 * @example
 * ```ts
 * DEFAULT_SCHEDULE.failingIntervalMs / 3600_000; // 52
 * ```
 */
export const DEFAULT_SCHEDULE: LinkSchedule = Object.freeze({
  okIntervalMs: 30 * DAY,
  failingIntervalMs: 52 * HOUR,
  retryIntervalMs: 1 * HOUR,
  reportAfterFailures: 7,
});

/**
 * How hard the checker may press on the hosts it probes.
 *
 * @example
 * ```ts
 * const p: Politeness = { ...DEFAULT_POLITENESS, perHostDelayMs: 2000 };
 * p.perHostConcurrency; // 1
 * ```
 */
export interface Politeness {
  /** Requests in flight at once to one host. */
  perHostConcurrency: number;
  /** The least time between the starts of two requests to one host. */
  perHostDelayMs: number;
  /** Requests started per second over all hosts (0 = no global limit). */
  globalRate: number;
  /** Requests in flight at once over all hosts. */
  concurrency: number;
}

/**
 * One request at a time per host, one second apart; 20 requests per second
 * and 16 in flight in all.
 *
 * @example
 * ```ts
 * DEFAULT_POLITENESS.perHostConcurrency; // 1
 * ```
 */
export const DEFAULT_POLITENESS: Politeness = Object.freeze({
  perHostConcurrency: 1,
  perHostDelayMs: 1000,
  globalRate: 20,
  concurrency: 16,
});
