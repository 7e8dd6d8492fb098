/**
 * The components the last parse of a plain URL (plain-uri.ts) returned and
 * the string they were sliced from, so that `serialize` of that result,
 * unchanged, returns the string instead of joining the components again.
 * The components are slices of the input with their delimiters left out,
 * and RFC 3986 §5.3 puts back exactly those delimiters, so joining them
 * gives the input (the round trip of serialize.ts). Module state, as the
 * scanner's: one entry.
 */
import type { UriReference } from './types.js';

/** The last plain parse: its result `ref`, its `input`, and the components as they were when `ref` was returned. */
interface LastParse {
  readonly ref: UriReference;
  readonly input: string;
  readonly scheme: string;
  readonly host: string;
  readonly path: string;
  readonly query: string | undefined;
}

// A new object per parse rather than one object's fields written again:
// storing young strings into an old object costs a write barrier each
// (measured on the web corpus: parse 1.2x slower with nine such stores).
let last: LastParse | undefined;

/**
 * @internal The last plain parse's result, for serialize's first test: a
 * comparison in serialize itself, so that a result that is not it costs
 * serialize no call (measured: with sourceOf called on every result,
 * serialize of the corpus sample's results ran 1.2x slower in the core
 * suite).
 *
 * @example
 * ```ts
 * const ref = { scheme: 'x', host: 'h', path: '/a' };
 * recordParse('x://h/a', ref, 'x', 'h', '/a', undefined);
 * lastRef === ref // true
 * ```
 */
export let lastRef: UriReference | undefined;

/**
 * @internal Notes that `ref`, with these components and no userinfo, port
 * or fragment, was parsed from `input`.
 *
 * @example
 * ```ts
 * const ref = { scheme: 'x', host: 'h', path: '/a' };
 * recordParse('x://h/a', ref, 'x', 'h', '/a', undefined);
 * sourceOf(ref) // "x://h/a"
 * ```
 */
export function recordParse(input: string, ref: UriReference, scheme: string, host: string, path: string, query: string | undefined): void {
  last = { ref, input, scheme, host, path, query };
  lastRef = ref;
}

/**
 * @internal The string `ref` was parsed from, when `ref` is the last plain
 * parse's result and its components are still those it was returned with
 * (RFC 3986 §5.3: their serialization is that string); else `undefined`.
 * A caller may have changed `ref` since it was returned. The fields are
 * read here, where the inline caches see the two shapes of plain-uri.ts's
 * results only and stay fast (measured: serialize reading all results'
 * shapes went megamorphic and cost more than joining the components).
 *
 * @example
 * ```ts
 * const ref = { scheme: 'x', host: 'h', path: '/a' };
 * recordParse('x://h/a', ref, 'x', 'h', '/a', undefined);
 * sourceOf(ref) // "x://h/a"
 * ref.path = '/b';
 * sourceOf(ref) // undefined
 * ```
 */
export function sourceOf(ref: UriReference): string | undefined {
  const m = last;
  return m !== undefined && ref === m.ref && ref.path === m.path && ref.host === m.host && ref.scheme === m.scheme && ref.query === m.query &&
    ref.userinfo === undefined && ref.port === undefined && ref.fragment === undefined ? m.input : undefined;
}
