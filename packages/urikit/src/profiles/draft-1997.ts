/**
 * The `draft-1997` profile: draft-fielding-url-syntax-05 (May 1997), the
 * text that became RFC 2396. Parsing splits with the regular expression of
 * its Appendix B (the same split as RFC 3986's) and then checks what the
 * 1997 grammar does not share with RFC 3986; resolution follows §5.2.
 */
import { isAlpha } from '../chars.js';
import { UriError } from '../errors.js';
import { componentsOf } from '../rfc3986-scanner.js';
import { resolveComponents, type Rfc3986ResolveOptions } from '../resolve.js';
import { serialize } from '../serialize.js';
import type { Kind, UriReference } from '../types.js';
import { removeDraftDotSegments } from './dot-segments.js';

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

/**
 * 1997 draft §3.1 / Appendix A: `hostname = *( domainlabel "." ) toplabel`,
 * `toplabel = alpha | alpha *( alphanum | "-" ) alphanum`, labels that
 * neither begin nor end with "-"; or `hostnumber = 1*digit "." 1*digit "." 1*digit "." 1*digit`.
 * The empty host is allowed (`site = [ ... hostport ]`, `file:///`).
 * Returns the offset of the first bad character, or -1.
 *
 * @see https://datatracker.ietf.org/doc/html/draft-fielding-url-syntax-05#section-3.1
 * @example
 * ```ts
 * check1997Host('www.ics.uci.edu') // -1
 * check1997Host('a.1b') // 2 (a toplabel begins with a letter)
 * ```
 */
export function check1997Host(host: string): number {
  if (host === '') return -1;
  let dots = 0;
  let allDigits = true;
  let labelStart = 0;
  for (let i = 0; i <= host.length; i++) {
    const c = host.charCodeAt(i);
    if (i === host.length || c === 0x2e) {
      // A label must be non-empty and must not end with "-"; a trailing "." is allowed (absolute FQDN).
      if (i === labelStart) { if (i === host.length && i > 0) break; return i; }
      if (host.charCodeAt(i - 1) === 0x2d) return i - 1;
      if (i < host.length) dots++;
      labelStart = i + 1;
      continue;
    }
    if (isDigit(c)) continue;
    allDigits = false;
    if (isAlpha(c)) continue;
    if (c === 0x2d && i > labelStart) continue;
    return i;
  }
  if (allDigits) return dots === 3 ? -1 : 0;
  // toplabel begins with alpha
  const trimmed = host.charCodeAt(host.length - 1) === 0x2e ? host.slice(0, -1) : host;
  const top = trimmed.lastIndexOf('.') + 1;
  return isAlpha(trimmed.charCodeAt(top)) ? -1 : top;
}

/**
 * Parses `input` under the 1997 draft's grammar (Appendix A).
 *
 * @see https://datatracker.ietf.org/doc/html/draft-fielding-url-syntax-05#section-5.2
 * @example
 * ```ts
 * parse1997('http://a/b/c/d;p?q', 'uri').host // 'a'
 * ```
 */
export function parse1997(input: string, kind: Kind): UriReference {
  // The 1997 draft knows no IRIs (RFC 3987 came in 2005).
  if (kind !== 'uri' && kind !== 'uri-reference' && kind !== 'absolute-uri') throw new UriError('unknown-kind', 0, String(kind));
  // 1997 draft §2: the characters are reserved | unreserved | escaped (and "#"); "[" and "]" are not among them.
  for (let i = 0; i < input.length; i++) {
    const c = input.charCodeAt(i);
    if (c === 0x5b || c === 0x5d) throw new UriError('invalid-char', i, input);
  }
  // DEVIATION(RFC 3986 §3.1): scheme = 1*( alpha | digit | "+" | "-" | "." )
  // may begin with a digit; the core's split is used with a letter in front.
  let shift = 0;
  const c0 = input.charCodeAt(0);
  if (!isAlpha(c0) && !Number.isNaN(c0)) {
    let i = 0;
    for (let c = input.charCodeAt(i); isAlpha(c) || isDigit(c) || c === 0x2b || c === 0x2d || c === 0x2e; c = input.charCodeAt(++i));
    if (i > 0 && input.charCodeAt(i) === 0x3a) shift = 1;
  }
  let ref: UriReference;
  try {
    ref = componentsOf(shift ? `a${input}` : input, kind);
  } catch (e) {
    if (e instanceof UriError && shift) throw new UriError(e.code, Math.max(0, e.offset - 1), input);
    throw e;
  }
  if (shift) ref.scheme = ref.scheme!.slice(1);
  if (ref.host !== undefined) {
    const bad = check1997Host(ref.host);
    if (bad >= 0) throw new UriError('bad-host', input.indexOf(ref.host) + bad, input);
  }
  return ref;
}

/**
 * Resolves `ref` against `base` by the steps of the 1997 draft §5.2: a
 * scheme always makes a reference absolute (step 3; the draft has no
 * "validating parser" switch, so `strict` is ignored), a path given whole
 * is taken as is (steps 4, 5), the query joins the merged path before the
 * dot steps (6c) and ".." above the root is kept by default.
 *
 * @see https://datatracker.ietf.org/doc/html/draft-fielding-url-syntax-05#section-5.2
 * @example
 * ```ts
 * resolve1997('http://a/b/c/d;p?q', '?y') // 'http://a/b/c/?y'
 * resolve1997('http://a/b/c/d;p?q', 'g?y/../x') // 'http://a/b/c/x'
 * ```
 */
export function resolve1997(base: string, ref: string, opts?: Rfc3986ResolveOptions): string {
  const b = parse1997(base, 'uri-reference');
  if (b.scheme === undefined) throw new UriError('not-absolute-base', 0, base);
  // 1) parse the reference into its four components and fragment
  const r = parse1997(ref, 'uri-reference');
  return serialize(resolveComponents(b, r, {
    strict: true,
    dotsInWholePath: false,
    queryInMerge: true,
    // DEVIATION(1997 draft §5.2 step 6a): with a site and an empty base
    // path, "/" is copied, as the 2003 draft §5.2 merge does; the 1997
    // text would join the host and the path ("http://ag").
    slashForEmptyBase: 'authority',
    // 6d–6g
    removeDots: (buffer) => removeDraftDotSegments(buffer, true, opts?.aboveRoot ?? 'keep'),
  }));
}
