/**
 * Reference resolution (2003 draft §5.2; RFC 3986 §5.2.1–5.2.4, §5.3):
 * a URI reference plus a base URI gives a target URI. One transform
 * (§5.2.2) serves every generation of the rules: what the older drafts do
 * differently is handed to it as {@link ResolutionRules}.
 */
import { UriError } from './errors.js';
import type { AboveRoot, UriReference } from './types.js';
import { componentsOf, offsetsForResolve } from './rfc3986-scanner.js';
import { serialize } from './serialize.js';
import { removeDotSegments } from './remove-dot-segments.js';
import { hasDotSegment } from './relative-path.js';

/**
 * Options of the RFC 3986 {@link resolve} (§5.2.2); the public `resolve`
 * adds `profile`.
 *
 * @example
 * ```ts
 * resolve('http://a/b/c/d;p?q', 'http:g', { strict: false, aboveRoot: 'remove' }) // "http://a/b/c/g"
 * ```
 */
export interface Rfc3986ResolveOptions {
  /**
   * The "strict parser" of RFC 3986 §5.2.2 (default `true`): a reference
   * with the base's scheme keeps it (`http:g` stays `http:g`); when `false`,
   * the scheme is ignored for backward compatibility (`http://a/b/c/g`).
   */
  strict?: boolean;
  /**
   * A `..` above the root (2003 draft §5.2 step 7): removed (`remove`, the
   * default of RFC 3986 §5.2.4), kept (`keep`, the default of the older
   * profiles) or an `above-root` error (`error`).
   */
  aboveRoot?: AboveRoot;
}

/**
 * What a generation of the rules changes in the transform of RFC 3986
 * §5.2.2 (2003 draft §5.2, 1997 draft §5.2, 1993 draft "Partial form").
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-5.2.2
 * @example
 * ```ts
 * const rules: ResolutionRules = { strict: true, dotsInWholePath: true, queryInMerge: false, slashForEmptyBase: 'authority', removeDots: (p) => removeDotSegments(p) };
 * serialize(resolveComponents(parse('http://a/b/c/d;p?q'), parse('../g'), rules)) // "http://a/b/g"
 * ```
 */
export interface ResolutionRules {
  /** RFC 3986 §5.2.2: `false` ignores a reference's scheme that is the base's. */
  readonly strict: boolean;
  /**
   * RFC 3986 §5.2.2 removes the dot segments of a path the reference gives
   * whole (with a scheme, an authority or a leading "/"); the drafts copy it
   * as written (2003 draft Appendix C.2: `/./g` gives `http://a/./g`).
   */
  readonly dotsInWholePath: boolean;
  /**
   * 1997 draft §5.2 step 6c and the 1993 partial form: the query joins the
   * merged path before the dot steps (so `?y` is merged too, and a `..` in
   * the query can remove a segment of the path).
   */
  readonly queryInMerge: boolean;
  /**
   * What an empty base path contributes to a merge: "/" when the base has
   * an authority (RFC 3986 §5.2.3), "/" always (2003 draft §5.2 merge) or
   * nothing (the 1993 draft).
   */
  readonly slashForEmptyBase: 'authority' | 'always' | 'never';
  /** The dot-segment removal of the merged path (and of a whole path, when `dotsInWholePath`). */
  readonly removeDots: (path: string) => string;
}

const removeAboveRoot = (path: string): string => removeDotSegments(path);
const STRICT: ResolutionRules = { strict: true, dotsInWholePath: true, queryInMerge: false, slashForEmptyBase: 'authority', removeDots: removeAboveRoot };
const NOT_STRICT: ResolutionRules = { ...STRICT, strict: false };

/** RFC 3986 §5.2.3 Merge Paths, with the older drafts' choice for an empty base path. */
function merge(base: UriReference, refPath: string, slashForEmptyBase: ResolutionRules['slashForEmptyBase']): string {
  // "If the base URI has a defined authority component and an empty path,
  //  then return a string consisting of "/" concatenated with the reference's path"
  if (base.path === '' && (slashForEmptyBase === 'always' || (slashForEmptyBase === 'authority' && base.host !== undefined))) return '/' + refPath;
  // "otherwise ... the reference's path appended to all but the last segment
  //  of the base URI's path"
  return base.path.slice(0, base.path.lastIndexOf('/') + 1) + refPath;
}

/** Scheme names compare case-insensitively (RFC 3986 §3.1), ASCII only. */
function sameScheme(a: string, b: string): boolean {
  return a === b || (a.length === b.length && a.toLowerCase() === b.toLowerCase());
}

/**
 * The transform of RFC 3986 §5.2.2 on parsed components: `base` must have
 * a scheme; the result has no dot segments in its path except when `ref`
 * is empty (the base path is copied as is) or `rules` keep some.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-5.2.2
 * @example
 * ```ts
 * resolveComponents(parse('http://a/b/c/d;p?q'), parse('g?y'), rfc3986Rules(true, 'remove')).path // "/b/c/g"
 * ```
 */
export function resolveComponents(base: UriReference, ref: UriReference, rules: ResolutionRules): UriReference {
  // RFC 3986 §5.2.2: "A non-strict parser may ignore a scheme in the
  // reference if it is identical to the base URI's scheme."
  let rScheme = ref.scheme;
  if (!rules.strict && rScheme !== undefined && sameScheme(rScheme, base.scheme!)) rScheme = undefined;
  let tScheme: string | undefined;
  let authority: UriReference; // whose userinfo, host and port T takes
  let tPath: string;
  let tQuery: string | undefined;
  if (rScheme !== undefined) {
    tScheme = rScheme;
    authority = ref;
    tPath = rules.dotsInWholePath ? rules.removeDots(ref.path) : ref.path;
    tQuery = ref.query;
  } else {
    if (ref.host !== undefined) {
      authority = ref;
      tPath = rules.dotsInWholePath ? rules.removeDots(ref.path) : ref.path;
      tQuery = ref.query;
    } else {
      if (ref.path === '' && (ref.query === undefined || !rules.queryInMerge)) {
        tPath = base.path;
        tQuery = ref.query !== undefined ? ref.query : base.query;
      } else if (ref.path.charCodeAt(0) === 0x2f) {
        tPath = rules.dotsInWholePath ? rules.removeDots(ref.path) : ref.path;
        tQuery = ref.query;
      } else if (!rules.queryInMerge || ref.query === undefined) {
        tPath = rules.removeDots(merge(base, ref.path, rules.slashForEmptyBase));
        tQuery = ref.query;
      } else {
        // 1997 draft §5.2 6c–6i: the query is merged with the path and is
        // what follows the first "?" once the dot segments are gone.
        const buffer = rules.removeDots(merge(base, ref.path, rules.slashForEmptyBase) + '?' + ref.query);
        const q = buffer.indexOf('?');
        tPath = q < 0 ? buffer : buffer.slice(0, q);
        tQuery = q < 0 ? undefined : buffer.slice(q + 1);
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
 * The rules of RFC 3986 §5.2 with the caller's `strict` and `aboveRoot`
 * choices.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-5.2
 * @example
 * ```ts
 * rfc3986Rules(false, 'remove').strict // false
 * ```
 */
export function rfc3986Rules(strict: boolean, aboveRoot: AboveRoot): ResolutionRules {
  if (aboveRoot === 'remove') return strict ? STRICT : NOT_STRICT;
  return { ...STRICT, strict, removeDots: (path) => removeDotSegments(path, aboveRoot) };
}

// The offsets offsetsForResolve writes: scheme end, host start, path start, path end.
// Module state, reused by every call, so that the fast path allocates no array.
const baseAt = new Int32Array(4);
const refAt = new Int32Array(4);

/**
 * The most common resolutions, without building either reference (RFC
 * 3986 §5.2.2): a reference with an empty path keeps the base up to its
 * path (and up to its query, without a query of its own); a network-path
 * or absolute-path reference (§4.2) without dot segments takes the base's
 * scheme, or its scheme and authority; a relative-path reference against a
 * base whose path is absolute (or empty, with an authority) and has no
 * dot segment is merged (§5.2.3) and its dot segments removed (§5.2.4),
 * which comes down to this: each leading "../" or final ".." takes the
 * last segment off the base's directory, each leading "./" or final "."
 * does nothing, and the rest of the reference follows. The target is that
 * part of the base, then the reference as written. `undefined` for
 * anything else (the full transform decides, and reports errors).
 */
function resolveFast(base: string, ref: string): string | undefined {
  if (!offsetsForResolve(ref, refAt) || refAt[0] >= 0) return undefined; // invalid, or a scheme
  if (!offsetsForResolve(base, baseAt) || baseAt[0] < 0) return undefined;
  const pathStart = baseAt[2]!;
  const pathEnd = baseAt[3]!;
  const end = refAt[3]!;
  const c0 = ref.charCodeAt(0);
  if (refAt[1] >= 0 || c0 === 0x2f) return hasDotSegment(ref, refAt[2]!, end) ? undefined : base.slice(0, refAt[1] >= 0 ? baseAt[0]! + 1 : pathStart) + ref;
  if (end === 0) {
    if (c0 === 0x3f) return base.slice(0, pathEnd) + ref;
    const hash = base.indexOf('#');
    return (hash < 0 ? base : base.slice(0, hash)) + ref;
  }
  // §5.2.3: the base's directory ("/" for an empty path with an authority).
  let dirEnd: number;
  if (pathStart === pathEnd) {
    if (baseAt[1]! < 0) return undefined;
    dirEnd = -1;
  } else {
    if (base.charCodeAt(pathStart) !== 0x2f || hasDotSegment(base, pathStart, pathEnd)) return undefined;
    dirEnd = base.lastIndexOf('/', pathEnd - 1); // the directory is base[pathStart, dirEnd]
  }
  // §5.2.4 rules A and C on the reference's leading "./" and "../", rule D on a final "." or "..".
  let i = 0;
  while (ref.charCodeAt(i) === 0x2e) {
    const n = ref.charCodeAt(i + 1) === 0x2e ? i + 2 : i + 1; // after the dots
    if (n < end && ref.charCodeAt(n) !== 0x2f) break; // a segment that only begins with dots
    if (n - i === 2 && dirEnd > pathStart) dirEnd = base.lastIndexOf('/', dirEnd - 1);
    i = n < end ? n + 1 : n;
  }
  if (hasDotSegment(ref, i, end)) return undefined;
  // A path without an authority must not begin with "//" (§3.3): the full transform writes "/." first.
  if (baseAt[1]! < 0 && dirEnd === pathStart && ref.charCodeAt(i) === 0x2f) return undefined;
  const head = dirEnd < 0 ? base.slice(0, pathStart) + '/' : base.slice(0, dirEnd + 1);
  return head + (i === 0 ? ref : ref.slice(i));
}

/**
 * Resolves `ref` against the absolute URI `base` by the rules of RFC 3986
 * §5.2 (https://www.rfc-editor.org/rfc/rfc3986#section-5.2) and returns
 * the target URI. Works on IRIs too. A base without a scheme throws
 * `not-absolute-base`; a base with a fragment is accepted (the fragment
 * never reaches the target).
 *
 * @example
 * ```ts
 * resolve('http://a/b/c/d;p?q', '../g') // "http://a/b/g"
 * resolve('http://a/b/c/d;p?q', 'http:g') // "http:g"
 * resolve('http://a/b/c/d;p?q', 'http:g', { strict: false }) // "http://a/b/c/g"
 * ```
 */
export function resolve(base: string, ref: string, opts?: Rfc3986ResolveOptions): string {
  if (opts?.aboveRoot === undefined || opts.aboveRoot === 'remove') {
    const target = resolveFast(base, ref);
    if (target !== undefined) return target;
  }
  // Every URI is an IRI (RFC 3987 §2), so one IRI scan serves both.
  const b = componentsOf(base, 'iri-reference');
  if (b.scheme === undefined) throw new UriError('not-absolute-base', 0, base);
  const r = componentsOf(ref, 'iri-reference');
  return serialize(resolveComponents(b, r, rfc3986Rules(opts?.strict ?? true, opts?.aboveRoot ?? 'remove')));
}
