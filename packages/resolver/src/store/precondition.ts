/**
 * Conditional writes: a write that must find the name as its client last
 * saw it (RFC 9110 §13.1.1 If-Match, decided by the HTTP layer) is
 * checked inside the write transaction, against the record the
 * transaction locked, so that of two writers who saw one version only
 * the first succeeds.
 */
import type { NameRecord } from './types.js';

/**
 * True if the write may go on over `current` (undefined: the store does
 * not hold the name).
 *
 * @example
 * ```ts
 * const atVersion2: Precondition = (current) => current?.version === 2;
 * atVersion2(undefined); // false
 * ```
 */
export type Precondition = (current: NameRecord | undefined) => boolean;

/**
 * A write whose precondition was false: nothing was written. `current`
 * is the record as the transaction found it (the HTTP layer answers 412
 * with its entity tag).
 *
 * @example
 * ```ts
 * const e = new PreconditionFailed('urn:ex:a', undefined);
 * e.message; // 'urn:ex:a is not as the request expected it: nothing was written'
 * ```
 */
export class PreconditionFailed extends Error {
  override readonly name = 'PreconditionFailed';
  constructor(readonly key: string, readonly current: NameRecord | undefined) {
    super(`${key} is not as the request expected it: nothing was written`);
  }
}

/**
 * Throws {@link PreconditionFailed} unless `precondition` (when there is
 * one) holds over `current`.
 *
 * @example
 * ```ts
 * requirePrecondition('urn:ex:a', undefined, undefined); // undefined (no condition)
 * requirePrecondition('urn:ex:a', undefined, (c) => c !== undefined); // throws PreconditionFailed
 * ```
 */
export function requirePrecondition(key: string, current: NameRecord | undefined, precondition: Precondition | undefined): void {
  if (precondition !== undefined && !precondition(current)) throw new PreconditionFailed(key, current);
}
