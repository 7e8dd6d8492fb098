/**
 * The `draft-2003` profile: draft-fielding-uri-rfc2396bis-01 (March 2003),
 * the text that became RFC 3986. Its grammar is RFC 3986's less the
 * IP literals it does not have yet; resolution differs in two places.
 */
import { UriError } from '../errors.js';
import { componentsOf } from '../rfc3986-scanner.js';
import { resolveComponents, type ResolutionRules, type Rfc3986ResolveOptions } from '../resolve.js';
import { serialize } from '../serialize.js';
import type { Kind, UriReference } from '../types.js';
import { removeDraftDotSegments } from './dot-segments.js';

/**
 * Parses `input` under the 2003 draft's grammar: RFC 3986's, except that an
 * IP literal is an IPv6 address only (Appendix A: `IP-literal = "["
 * IPv6address "]"`; IPvFuture and the RFC 6874 zone identifiers came later).
 *
 * @see https://datatracker.ietf.org/doc/html/draft-fielding-uri-rfc2396bis-01#appendix-A
 * @example
 * ```ts
 * parse2003('http://[::1]/', 'uri').hostKind // 'ipv6'
 * parse2003('http://[v1.x]/', 'uri') // throws UriError bad-host
 * parse2003('http://[fe80::1%25eth0]/', 'uri') // throws UriError bad-ipv6
 * ```
 */
export function parse2003(input: string, kind: Kind): UriReference {
  const ref = componentsOf(input, kind);
  if (ref.hostKind === 'ipvfuture' || (ref.hostKind === 'ipv6' && ref.host!.indexOf('%') >= 0)) {
    // The host begins after "scheme:" (when there is one), "//" and "userinfo@".
    const at = (ref.scheme !== undefined ? ref.scheme.length + 1 : 0) + 2 + (ref.userinfo !== undefined ? ref.userinfo.length + 1 : 0);
    if (ref.hostKind === 'ipvfuture') throw new UriError('bad-host', at + 1, input);
    throw new UriError('bad-ipv6', at + ref.host!.indexOf('%'), input);
  }
  return ref;
}

// The 2003 draft §5.2: a path given whole is taken as is ("/./g" gives
// "http://a/./g", Appendix C.2), merge() puts "/" before a reference when
// the base path is empty, and its dot steps keep ".." above the root by
// default (step 7, "retaining").
const rules = (strict: boolean, opts: Rfc3986ResolveOptions | undefined): ResolutionRules => ({
  strict,
  dotsInWholePath: false,
  queryInMerge: false,
  slashForEmptyBase: 'always',
  removeDots: (buffer) => removeDraftDotSegments(buffer, true, opts?.aboveRoot ?? 'keep'),
});

/**
 * Resolves `ref` against `base` with the pseudocode of the 2003 draft §5.2.
 * `strict` is its "validating parser" (default `true`).
 *
 * @see https://datatracker.ietf.org/doc/html/draft-fielding-uri-rfc2396bis-01#section-5.2
 * @example
 * ```ts
 * resolve2003('http://a/b/c/d;p?q', '../../../g') // 'http://a/../g'
 * resolve2003('http://a/b/c/d;p?q', '../../../g', { aboveRoot: 'remove' }) // 'http://a/g'
 * ```
 */
export function resolve2003(base: string, ref: string, opts?: Rfc3986ResolveOptions): string {
  const b = parse2003(base, 'iri-reference');
  if (b.scheme === undefined) throw new UriError('not-absolute-base', 0, base);
  return serialize(resolveComponents(b, parse2003(ref, 'iri-reference'), rules(opts?.strict ?? true, opts)));
}
