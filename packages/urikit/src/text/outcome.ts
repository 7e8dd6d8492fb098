/**
 * The outcome of one candidate of the text scanner (2003 draft App. E):
 * not a URI, a URI, or undecided until more of a stream arrives; and the
 * part of the scanner that the readers of scheme-less forms (shorthand.ts)
 * use, so that they need not import the scanner that calls them.
 */
import type { UriMatch } from './match.js';

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

/** What a body scan found (fields reused between candidates). */
export interface Body {
  /** End of the URI characters in the text (exclusive), trailing punctuation not yet removed. */
  end: number;
  /** Where the next search may resume (after `>` for an angle-bracketed URI). */
  resume: number;
  /** The URI characters before the last ignored white space, joined. */
  built: string;
  /** Start of the last run of URI characters (after the last ignored white space). */
  segStart: number;
  /** Offsets in the joined URI of hyphens followed by a line break. */
  hyphens: number[] | undefined;
}

/**
 * The members of the text scanner (scanner.ts) that the readers of
 * abbreviated forms and e-mail addresses (shorthand.ts) call back.
 */
export interface ScannerView {
  readonly text: string;
  readonly final: boolean;
  readonly floor: number;
  readonly iri: boolean;
  resume: number;
  readonly body: Body;
  boundaryBefore(c: number): boolean;
  openerBefore(p: number): number;
  scanBody(s: number, i: number, inAuthority: boolean, angle: boolean, urn: number, iri: boolean): Outcome;
  trim(min: number, open: number): void;
  emit(s: number, c: number, hasAuthority: boolean, wrapped: UriMatch['wrapped'], urlPrefix: boolean, prefix: string | undefined, out: UriMatch[]): boolean;
}
