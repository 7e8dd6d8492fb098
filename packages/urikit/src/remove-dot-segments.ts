/**
 * remove_dot_segments (2003 draft §5.2, RFC 3986 §5.2.4): interprets and
 * removes the special "." and ".." complete path segments.
 */
import { UriError } from './errors.js';
import type { AboveRoot } from './types.js';

/**
 * Removes the dot segments of `path` as RFC 3986 §5.2.4 specifies
 * (https://www.rfc-editor.org/rfc/rfc3986#section-5.2.4): only literal
 * `.` and `..` segments count (`%2E` is data). A `..` above the root is
 * dropped (`aboveRoot` `remove`, the RFC's rule), kept (`keep`, 2003 draft
 * §5.2 step 7) or refused with an `above-root` {@link UriError} whose
 * offset is in `path` (`error`). Linear time: each step consumes input and
 * appends or trims the output buffer by one segment.
 *
 * @example
 * ```ts
 * removeDotSegments('/a/b/c/./../../g') // "/a/g"
 * removeDotSegments('mid/content=5/../6') // "mid/6"
 * removeDotSegments('/a/../../g', 'keep') // "/../g"
 * removeDotSegments('/a/../../g', 'error') // throws UriError above-root
 * ```
 */
export function removeDotSegments(path: string, aboveRoot: AboveRoot = 'remove'): string {
  if (path.indexOf('.') < 0) return path; // no dot segment can exist
  const n = path.length;
  let output = '';
  let kept = 0; // output.slice(0, kept) is the ".." segments kept above the root
  let i = 0; // the input buffer is path.slice(i)
  while (i < n) {
    const c0 = path.charCodeAt(i);
    const c1 = path.charCodeAt(i + 1);
    const c2 = path.charCodeAt(i + 2);
    if (c0 === 0x2e) {
      // A. a prefix of "../" or "./" is removed
      if (c1 === 0x2f) { i += 2; continue; }
      if (c1 === 0x2e && (c2 === 0x2f || i + 2 === n)) {
        // D. the input buffer is only ".." (or A with "../"): only a
        //    relative path begins so, and its ".." climbs above the root.
        if (aboveRoot !== 'remove') {
          if (aboveRoot === 'error') throw new UriError('above-root', i, path);
          output += output === '' ? '..' : '/..';
          kept = output.length;
          i += 2; // the "/" that follows begins the next segment
          continue;
        }
        i += 3;
        continue;
      }
      // D. the input buffer is only "."
      if (i + 1 === n) break;
    } else if (c0 === 0x2f && c1 === 0x2e) {
      // B. a prefix of "/./" or "/." (a complete segment) is replaced by "/"
      if (c2 === 0x2f) { i += 2; continue; }
      if (i + 2 === n) { output += '/'; break; }
      // C. a prefix of "/../" or "/.." (complete) is replaced by "/" and the
      //    last segment of the output, with its preceding "/", is removed
      if (c2 === 0x2e && (i + 3 === n || path.charCodeAt(i + 3) === 0x2f)) {
        if (output.length > kept) {
          const cut = output.lastIndexOf('/');
          output = cut < kept ? output.slice(0, kept) : output.slice(0, cut);
        } else if (aboveRoot !== 'remove') {
          // DEVIATION(RFC 3986 §5.2.4), chosen by the caller: 2003 draft §5.2
          // step 7 lets an implementation keep or refuse a ".." above the root.
          if (aboveRoot === 'error') throw new UriError('above-root', i + 1, path);
          output += output === '' && path.charCodeAt(0) !== 0x2f ? '..' : '/..';
          kept = output.length;
        }
        if (i + 3 === n) { output += '/'; break; }
        i += 3;
        continue;
      }
    }
    // E. the first path segment, with its initial "/" if any, moves to the output
    let j = path.indexOf('/', c0 === 0x2f ? i + 1 : i);
    if (j < 0) j = n;
    output += path.slice(i, j);
    i = j;
  }
  return output;
}
