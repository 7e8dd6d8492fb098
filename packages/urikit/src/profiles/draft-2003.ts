/**
 * The `draft-2003` profile: draft-fielding-uri-rfc2396bis-01 (March 2003),
 * the text that became RFC 3986. Its grammar is RFC 3986's for every example
 * it prints, so parsing is the core's; resolution differs in two places.
 */
import { UriError } from '../errors.js';
import { parse } from '../parse.js';
import { serialize } from '../serialize.js';
import { removeDraftDotSegments } from './dot-segments.js';
import { target } from './target.js';

/**
 * 2003 draft §5.2 merge(): all but the last segment of `base.path` (or "/"
 * when it is empty) plus the reference's path, then the merge steps 3–6.
 */
function merge2003(basePath: string, refPath: string): string {
  const buffer = basePath === '' ? `/${refPath}` : basePath.slice(0, basePath.lastIndexOf('/') + 1) + refPath;
  return removeDraftDotSegments(buffer, true);
}

/**
 * Resolves `ref` against `base` with the pseudocode of the 2003 draft §5.2.
 *
 * @see https://datatracker.ietf.org/doc/html/draft-fielding-uri-rfc2396bis-01#section-5.2
 * @example
 * ```ts
 * resolve2003('http://a/b/c/d;p?q', '../../../g', true) // 'http://a/../g'
 * ```
 */
export function resolve2003(base: string, ref: string, strict: boolean): string {
  const b = parse(base, 'iri-reference');
  if (b.scheme === undefined) throw new UriError('not-absolute-base', 0, base);
  const r = parse(ref, 'iri-reference');
  let rScheme = r.scheme;
  // "if ((not validating) and (R.scheme == Base.scheme)) then undefine(R.scheme)"
  if (!strict && rScheme !== undefined && rScheme.toLowerCase() === b.scheme.toLowerCase()) rScheme = undefined;
  if (rScheme !== undefined) {
    // DEVIATION(RFC 3986 §5.2.2): the 2003 draft copies R.path without remove_dot_segments.
    return serialize({ ...r, scheme: rScheme });
  }
  if (r.host !== undefined) return serialize(target(b, r, r.path, r.query, r.fragment));
  if (r.path === '') {
    // "An empty reference refers to the current document": the base without its fragment.
    return serialize(target(b, b, b.path, r.query !== undefined ? r.query : b.query, r.fragment));
  }
  // DEVIATION(RFC 3986 §5.2.2): an absolute-path reference is taken as is
  // ("/./g" gives "http://a/./g", 2003 draft Appendix C.2), and merge keeps
  // ".." above the root (step 7, "retaining").
  const tPath = r.path.charCodeAt(0) === 0x2f ? r.path : merge2003(b.path, r.path);
  return serialize(target(b, b, tPath, r.query, r.fragment));
}

