/**
 * Dot segments in a relative-path reference (RFC 3986 §4.2, §5.2.4, §6.2.2.3):
 * which of them normalization may remove without knowing the base.
 */

/**
 * Removes the dot segments of a relative-path reference's path that no
 * base can give a meaning to. Resolution (RFC 3986 §5.2.3, §5.2.4) runs
 * remove_dot_segments over the base's directory followed by this path; read
 * as steps on a stack of segments, a segment followed by `..` cancels out
 * and `.` does nothing, whatever the base. So:
 *
 * - `.` segments go; a segment and the `..` after it go (`mid/content=5/../6`
 *   is `mid/6`); a path ending in a removed segment keeps its final `/`.
 * - Leading `..` segments stay: they climb out of the base's directory.
 * - The first segment that is not `..` stays with the `..` that removes it:
 *   against a base with no authority and an empty path (`foo:`), §5.2.3
 *   gives the path itself, and remove_dot_segments turns `a/../b` into
 *   `/b` (an absolute path) where `b` stays `b`.
 * - The result never begins with a segment holding ":" (it would read as a
 *   scheme, §4.2) or with "/" (an empty first segment): "./" is put first.
 *   A path whose segments all went is "./", never "" (which is the base).
 *
 * Returns `path` itself when it holds no dot segment.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-5.2.4
 * @example
 * ```ts
 * normalizeRelativePath('mid/content=5/../6') // "mid/6"
 * normalizeRelativePath('./foo/bar') // "foo/bar"
 * normalizeRelativePath('../a/./b/..') // "../a/"
 * normalizeRelativePath('a/../../b') // "a/../../b"
 * normalizeRelativePath('./a:b/.') // "./a:b/"
 * ```
 */
export function normalizeRelativePath(path: string): string {
  if (!hasDotSegment(path, 0, path.length)) return path;
  const segments = path.split('/');
  const out: string[] = [];
  // out[floor..] are segments a later ".." may cancel; below floor: the
  // leading "..", the first segment and any ".." kept after it.
  let floor = 0;
  let first = true; // the first segment that is not ".." is still to come
  let trailing = false;
  for (let k = 0; k < segments.length; k++) {
    const seg = segments[k]!;
    trailing = false;
    if (seg === '.') {
      trailing = true;
    } else if (seg === '..') {
      if (out.length > floor) {
        out.pop();
        trailing = true;
      } else {
        out.push(seg);
        floor = out.length;
      }
    } else {
      out.push(seg);
      if (first) {
        first = false;
        floor = out.length;
      }
    }
  }
  if (out.length === 0) return './';
  let result = out.join('/');
  if (trailing) result += '/';
  const head = out[0]!;
  if (head !== '..' && (head === '' || head.includes(':'))) result = './' + result;
  return result;
}

/**
 * True if a segment of `text[start, end)` (a path, or the start of one) is
 * "." or ".." (RFC 3986 §3.3, §5.2.4).
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-5.2.4
 * @example
 * ```ts
 * hasDotSegment('/a/../b', 0, 7) // true
 * hasDotSegment('/a/..b/c', 0, 8) // false
 * ```
 */
export function hasDotSegment(text: string, start: number, end: number): boolean {
  for (let i = text.indexOf('.', start); i >= 0 && i < end; i = text.indexOf('.', i + 1)) {
    if (i > start && text.charCodeAt(i - 1) !== 0x2f) continue;
    let j = i + 1;
    if (j < end && text.charCodeAt(j) === 0x2e) j++;
    if (j === end || text.charCodeAt(j) === 0x2f) return true;
  }
  return false;
}
