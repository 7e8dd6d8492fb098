/**
 * remove_dot_segments (2003 draft §5.2, RFC 3986 §5.2.4): interprets and
 * removes the special "." and ".." complete path segments.
 */

/**
 * Removes the dot segments of `path` as RFC 3986 §5.2.4 specifies
 * (https://www.rfc-editor.org/rfc/rfc3986#section-5.2.4): only literal
 * `.` and `..` segments count (`%2E` is data); a `..` above the root is
 * dropped. Linear time: each step consumes input and appends or trims
 * the output buffer by one segment.
 *
 * @example
 * ```ts
 * removeDotSegments('/a/b/c/./../../g') // "/a/g"
 * removeDotSegments('mid/content=5/../6') // "mid/6"
 * ```
 */
export function removeDotSegments(path: string): string {
  if (path.indexOf('.') < 0) return path; // no dot segment can exist
  const n = path.length;
  let output = '';
  let i = 0; // the input buffer is path.slice(i)
  while (i < n) {
    const c0 = path.charCodeAt(i);
    const c1 = path.charCodeAt(i + 1);
    const c2 = path.charCodeAt(i + 2);
    if (c0 === 0x2e) {
      // A. a prefix of "../" or "./" is removed
      if (c1 === 0x2f) { i += 2; continue; }
      if (c1 === 0x2e && c2 === 0x2f) { i += 3; continue; }
      // D. the input buffer is only "." or ".."
      if (i + 1 === n || (c1 === 0x2e && i + 2 === n)) break;
    } else if (c0 === 0x2f && c1 === 0x2e) {
      // B. a prefix of "/./" or "/." (a complete segment) is replaced by "/"
      if (c2 === 0x2f) { i += 2; continue; }
      if (i + 2 === n) { output += '/'; break; }
      // C. a prefix of "/../" or "/.." (complete) is replaced by "/" and the
      //    last segment of the output, with its preceding "/", is removed
      if (c2 === 0x2e && (i + 3 === n || path.charCodeAt(i + 3) === 0x2f)) {
        const cut = output.lastIndexOf('/');
        output = cut < 0 ? '' : output.slice(0, cut);
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
