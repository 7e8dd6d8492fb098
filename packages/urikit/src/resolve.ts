/**
 * Reference resolution (2003 draft §5.2; RFC 3986 §5.2.1–5.2.4, §5.3):
 * a URI reference plus a base URI gives a target URI.
 */
import { UriError } from './errors.js';
import type { Profile, UriReference } from './types.js';
import { parse } from './parse.js';
import { serialize } from './serialize.js';
import { removeDotSegments } from './remove-dot-segments.js';
import { resolveWithProfile } from './profiles.js';

/**
 * Options of {@link resolve} (RFC 3986 §5.2.2).
 *
 * @example
 * ```ts
 * resolve('http://a/b/c/d;p?q', 'http:g', { strict: false, profile: 'rfc3986' }) // "http://a/b/c/g"
 * ```
 */
export interface ResolveOptions {
  /**
   * The "strict parser" of RFC 3986 §5.2.2 (default `true`): a reference
   * with the base's scheme keeps it (`http:g` stays `http:g`); when `false`,
   * the scheme is ignored for backward compatibility (`http://a/b/c/g`).
   */
  strict?: boolean;
  /** A generation of the rules other than the default `rfc3986`. */
  profile?: Profile;
}

/** RFC 3986 §5.2.3 Merge Paths. */
function merge(base: UriReference, refPath: string): string {
  // "If the base URI has a defined authority component and an empty path,
  //  then return a string consisting of "/" concatenated with the reference's path"
  if (base.host !== undefined && base.path === '') return '/' + refPath;
  // "otherwise ... the reference's path appended to all but the last segment
  //  of the base URI's path"
  return base.path.slice(0, base.path.lastIndexOf('/') + 1) + refPath;
}

/** Scheme names compare case-insensitively (RFC 3986 §3.1), ASCII only. */
function sameScheme(a: string, b: string): boolean {
  return a === b || (a.length === b.length && a.toLowerCase() === b.toLowerCase());
}

/**
 * @internal The transform of RFC 3986 §5.2.2 on parsed components: `base`
 * must have a scheme; the result has no dot segments in its path except
 * when `ref` is empty (the base path is copied as is).
 */
export function resolveComponents(base: UriReference, ref: UriReference, strict: boolean): UriReference {
  // RFC 3986 §5.2.2: "A non-strict parser may ignore a scheme in the
  // reference if it is identical to the base URI's scheme."
  let rScheme = ref.scheme;
  if (!strict && rScheme !== undefined && sameScheme(rScheme, base.scheme!)) rScheme = undefined;
  let tScheme: string | undefined;
  let authority: UriReference; // whose userinfo, host and port T takes
  let tPath: string;
  let tQuery: string | undefined;
  if (rScheme !== undefined) {
    tScheme = rScheme;
    authority = ref;
    tPath = removeDotSegments(ref.path);
    tQuery = ref.query;
  } else {
    if (ref.host !== undefined) {
      authority = ref;
      tPath = removeDotSegments(ref.path);
      tQuery = ref.query;
    } else {
      if (ref.path === '') {
        tPath = base.path;
        tQuery = ref.query !== undefined ? ref.query : base.query;
      } else {
        if (ref.path.charCodeAt(0) === 0x2f) tPath = removeDotSegments(ref.path);
        else tPath = removeDotSegments(merge(base, ref.path));
        tQuery = ref.query;
      }
      authority = base;
    }
    tScheme = base.scheme;
  }
  // DEVIATION(RFC 3986 §5.2.4 is silent): a path without an authority that
  // begins with "//" would be read back as an authority, so "/." is put in
  // front, which §3.3 allows and which resolves to the same path.
  if (authority.host === undefined && tPath.charCodeAt(0) === 0x2f && tPath.charCodeAt(1) === 0x2f) tPath = '/.' + tPath;
  const t = {} as UriReference;
  t.scheme = tScheme;
  if (authority.host !== undefined) {
    if (authority.userinfo !== undefined) t.userinfo = authority.userinfo;
    t.host = authority.host;
    if (authority.hostKind !== undefined) t.hostKind = authority.hostKind;
    if (authority.port !== undefined) t.port = authority.port;
  }
  t.path = tPath;
  if (tQuery !== undefined) t.query = tQuery;
  if (ref.fragment !== undefined) t.fragment = ref.fragment;
  return t;
}

/**
 * Resolves `ref` against the absolute URI `base` (RFC 3986 §5.2,
 * https://www.rfc-editor.org/rfc/rfc3986#section-5.2; 2003 draft §5.2) and
 * returns the target URI. Works on IRIs too. A base without a scheme
 * throws `not-absolute-base`; a base with a fragment is accepted (the
 * fragment never reaches the target).
 *
 * @example
 * ```ts
 * resolve('http://a/b/c/d;p?q', '../g') // "http://a/b/g"
 * resolve('http://a/b/c/d;p?q', 'http:g') // "http:g"
 * resolve('http://a/b/c/d;p?q', 'http:g', { strict: false }) // "http://a/b/c/g"
 * ```
 */
export function resolve(base: string, ref: string, opts?: ResolveOptions): string {
  const strict = opts?.strict ?? true;
  if (opts?.profile !== undefined && opts.profile !== 'rfc3986') return resolveWithProfile(base, ref, opts.profile, strict);
  // Every URI is an IRI (RFC 3987 §2), so one IRI scan serves both.
  const b = parse(base, 'iri-reference');
  if (b.scheme === undefined) throw new UriError('not-absolute-base', 0, base);
  const r = parse(ref, 'iri-reference');
  return serialize(resolveComponents(b, r, strict));
}
