/**
 * When locations are checked again, and how politely. The defaults are
 * EZID's published practice: a good link is rechecked after 30 days, a bad
 * one after 52 hours, and its owner is told after 7 failures in a row.
 */

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

// The defaults live in defaults.ts (one place, read by the command line too).
export { DEFAULT_POLITENESS, DEFAULT_SCHEDULE } from '../defaults/index.js';

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

