/**
 * The public `parse`, `tryParse`, `isValid` and `resolve`: the `{ profile }`
 * choice, above the RFC 3986 core (rfc3986-scanner.ts, resolve.ts) and the older
 * profiles built on it (profiles.ts). The default `rfc3986` goes straight
 * to the core.
 */
import { UriError } from './errors.js';
import { isValid3986, componentsOf } from './rfc3986-scanner.js';
import { resolve as resolve3986, type Rfc3986ResolveOptions } from './resolve.js';
import { parseWithProfile, resolveWithProfile } from './profiles.js';
import type { Kind, Profile, UriReference } from './types.js';

/**
 * Options of {@link parse}, {@link tryParse} and {@link isValid}.
 *
 * @example
 * ```ts
 * parse('http://a/b', 'uri', { profile: 'rfc3986' }).path // "/b"
 * ```
 */
export interface ParseOptions {
  /** A generation of the rules other than the default `rfc3986` (DESIGN.md, "Profiles"). */
  profile?: Profile;
}

/**
 * Splits a URI reference into its components exactly as written
 * (RFC 3986 §3 and §4, https://www.rfc-editor.org/rfc/rfc3986#section-3),
 * checking it against `kind` under `opts.profile`; throws a
 * {@link UriError} with the code and offset of the first offending
 * character.
 *
 * @example
 * ```ts
 * parse('foo://user@example.com:8042/over/there?name=ferret#nose') // { scheme: 'foo', userinfo: 'user', host: 'example.com', hostKind: 'reg-name',
 * //   port: '8042', path: '/over/there', query: 'name=ferret', fragment: 'nose' }
 * parse('../a?') // { path: '../a', query: '' }
 * parse('http://[v1.x]/', 'uri', { profile: 'draft-2003' }) // throws UriError bad-host
 * ```
 */
export function parse(input: string, kind: Kind = 'uri-reference', opts?: ParseOptions): UriReference {
  const profile = opts?.profile;
  return profile === undefined || profile === 'rfc3986' ? componentsOf(input, kind) : parseWithProfile(input, kind, profile);
}

/**
 * Like {@link parse}, but returns `undefined` instead of throwing
 * (RFC 3986 §4.1, https://www.rfc-editor.org/rfc/rfc3986#section-4.1).
 *
 * @example
 * ```ts
 * tryParse('http://[::1]:80/')?.hostKind // "ipv6"
 * tryParse('http://a b/') // undefined
 * ```
 */
export function tryParse(input: string, kind: Kind = 'uri-reference', opts?: ParseOptions): UriReference | undefined {
  try {
    return parse(input, kind, opts);
  } catch (e) {
    if (e instanceof UriError) return undefined;
    throw e;
  }
}

/**
 * True if `input` matches the grammar rule `kind` (RFC 3986 Appendix A,
 * https://www.rfc-editor.org/rfc/rfc3986#appendix-A; RFC 3987 §2.2 for IRIs)
 * under `opts.profile`, without building the components.
 *
 * @example
 * ```ts
 * isValid('http://example.com/a b') // false
 * isValid('//example.com/x', 'uri') // false (no scheme)
 * isValid('http://例え.jp/', 'iri') // true
 * isValid('ftp://user:pw@host/p', 'uri', { profile: 'url-1993' }) // true
 * isValid(null as unknown as string) // false (a predicate answers false for a non-string)
 * ```
 */
export function isValid(input: string, kind: Kind = 'uri-reference', opts?: ParseOptions): boolean {
  if (typeof input !== 'string') return false;
  const profile = opts?.profile;
  if (profile === undefined || profile === 'rfc3986') return isValid3986(input, kind);
  try {
    parseWithProfile(input, kind, profile);
    return true;
  } catch (e) {
    if (e instanceof UriError) return false;
    throw e;
  }
}

/**
 * Options of {@link resolve}: RFC 3986 §5.2.2's `strict`, the 2003 draft
 * §5.2 step 7 choice `aboveRoot`, and the generation of the rules.
 *
 * @example
 * ```ts
 * resolve('http://a/b/c/d;p?q', 'http:g', { strict: false, profile: 'rfc3986' }) // "http://a/b/c/g"
 * ```
 */
export interface ResolveOptions extends Rfc3986ResolveOptions {
  /** A generation of the rules other than the default `rfc3986`. */
  profile?: Profile;
}

/**
 * Resolves `ref` against the absolute URI `base` (RFC 3986 §5.2,
 * https://www.rfc-editor.org/rfc/rfc3986#section-5.2; 2003 draft §5.2)
 * under `opts.profile` and returns the target URI. Works on IRIs too. A
 * base without a scheme throws `not-absolute-base`; a base with a fragment
 * is accepted (the fragment never reaches the target).
 *
 * @example
 * ```ts
 * resolve('http://a/b/c/d;p?q', '../g') // "http://a/b/g"
 * resolve('http://a/b/c/d;p?q', 'http:g', { strict: false }) // "http://a/b/c/g"
 * resolve('http://a/b/c/d;p?q', '../../../g', { profile: 'draft-2003' }) // "http://a/../g"
 * resolve('http://a/b/c/d;p?q', '../../../g', { aboveRoot: 'error' }) // throws UriError above-root
 * ```
 */
export function resolve(base: string, ref: string, opts?: ResolveOptions): string {
  const profile = opts?.profile;
  return profile === undefined || profile === 'rfc3986' ? resolve3986(base, ref, opts) : resolveWithProfile(base, ref, profile, opts);
}
