/**
 * Component recomposition (2003 draft §5.2 "recombine", RFC 3986 §5.3).
 */
import type { UriReference } from './types.js';
import { lastRef, sourceOf } from './last-parse.js';

/**
 * Joins components back into a URI reference string (RFC 3986 §5.3,
 * https://www.rfc-editor.org/rfc/rfc3986#section-5.3): `scheme ":"`,
 * `"//" authority`, path, `"?" query`, `"#" fragment`, each delimiter
 * written only when its component is defined. `parse(serialize(x))`
 * equals `x` for every `x` that `parse` returned.
 *
 * @example
 * ```ts
 * serialize({ scheme: 'http', host: 'a', path: '/b', query: '' }) // "http://a/b?"
 * serialize({ path: 'g', fragment: 's' }) // "g#s"
 * ```
 */
export function serialize(ref: UriReference): string {
  // The result of the last parse, unchanged, joins back to its input (last-parse.ts).
  if (ref === lastRef) {
    const source = sourceOf(ref);
    if (source !== undefined) return source;
  }
  let out = '';
  if (ref.scheme !== undefined) out += ref.scheme + ':';
  // RFC 3986 §5.3: authority = [ userinfo "@" ] host [ ":" port ] (§3.2)
  if (ref.host !== undefined) {
    out += '//';
    if (ref.userinfo !== undefined) out += ref.userinfo + '@';
    out += ref.host;
    if (ref.port !== undefined) out += ':' + ref.port;
  }
  out += ref.path;
  if (ref.query !== undefined) out += '?' + ref.query;
  if (ref.fragment !== undefined) out += '#' + ref.fragment;
  return out;
}
