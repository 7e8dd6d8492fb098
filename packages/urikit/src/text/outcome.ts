/**
 * The outcome of one candidate of the text scanner (2003 draft App. E):
 * not a URI, a URI, or undecided until more of a stream arrives.
 */

/**
 * Not a URI at this trigger.
 *
 * @example
 * ```ts
 * REJECT // 0
 * ```
 */
export const REJECT = 0;
/**
 * A URI, appended to the output.
 *
 * @example
 * ```ts
 * MATCH // 1
 * ```
 */
export const MATCH = 1;
/**
 * Undecided: the decision needs text past the end of the window.
 *
 * @example
 * ```ts
 * PENDING // 2
 * ```
 */
export const PENDING = 2;
/** One of {@link REJECT}, {@link MATCH}, {@link PENDING}. */
export type Outcome = typeof REJECT | typeof MATCH | typeof PENDING;
