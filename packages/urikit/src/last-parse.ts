/**
 * The components `parse` returned last and the string they were sliced
 * from, so that `serialize` of an unchanged result returns that string
 * instead of joining the components again. The scanner's components are
 * slices of the input with their delimiters left out, and RFC 3986 §5.3
 * puts back exactly those delimiters, so joining them gives the input
 * (the round trip of serialize.ts). Module state, as the scanner's: one
 * entry, written by every parse under the default profile.
 */
import type { UriReference } from './types.js';

/** The last parse: its result `ref`, its `input`, and the seven components serialize reads as they were when `ref` was returned. */
interface LastParse {
  readonly ref: UriReference;
  readonly input: string;
  readonly scheme: string | undefined;
  readonly userinfo: string | undefined;
  readonly host: string | undefined;
  readonly port: string | undefined;
  readonly path: string;
  readonly query: string | undefined;
  readonly fragment: string | undefined;
  /** Built by plain-uri.ts (one of its two object shapes), not by the scanner. */
  readonly plain: boolean;
}

// A new object per parse rather than one object's fields written again:
// storing young strings into an old object costs a write barrier each
// (measured: nine stores made parse 1.2x slower on the web corpus, one 1.03x).
let last: LastParse | undefined;

/**
 * @internal Notes that `ref`, with these components, was parsed from `input`.
 *
 * @example
 * ```ts
 * const ref = { path: 'a' };
 * recordParse('a', ref, undefined, undefined, undefined, undefined, 'a', undefined, undefined);
 * sourceOf(ref) // "a"
 * ```
 */
export function recordParse(
  input: string, ref: UriReference, scheme: string | undefined, userinfo: string | undefined, host: string | undefined,
  port: string | undefined, path: string, query: string | undefined, fragment: string | undefined, plain = false,
): void {
  last = { ref, input, scheme, userinfo, host, port, path, query, fragment, plain };
}

/**
 * @internal The string `ref` was parsed from, when `ref` is the last parse's
 * result and its seven components are still those it was returned with
 * (RFC 3986 §5.3: their serialization is that string); else `undefined`.
 * A caller may have changed `ref` since it was returned.
 *
 * @example
 * ```ts
 * const ref = { path: 'a' };
 * recordParse('a', ref, undefined, undefined, undefined, undefined, 'a', undefined, undefined);
 * sourceOf(ref) // "a"
 * ref.path = 'b';
 * sourceOf(ref) // undefined
 * ```
 */
export function sourceOf(ref: UriReference): string | undefined {
  const m = last;
  if (m === undefined || ref !== m.ref) return undefined;
  return (m.plain ? samePlain(ref, m) : sameScanned(ref, m)) ? m.input : undefined;
}

// Two functions with one body, so that each reads the fields through inline
// caches of its own: plain-uri.ts's results have two shapes, which V8 reads
// fast; the scanner's have many, and one cache seeing them all goes
// megamorphic (measured: the reads of one megamorphic cache cost more than
// the serialization they save).
function samePlain(ref: UriReference, m: LastParse): boolean {
  return ref.path === m.path && ref.scheme === m.scheme && ref.host === m.host && ref.query === m.query &&
    ref.userinfo === m.userinfo && ref.port === m.port && ref.fragment === m.fragment;
}
function sameScanned(ref: UriReference, m: LastParse): boolean {
  return ref.path === m.path && ref.scheme === m.scheme && ref.host === m.host && ref.query === m.query &&
    ref.userinfo === m.userinfo && ref.port === m.port && ref.fragment === m.fragment;
}
