/**
 * The string-buffer dot-segment removal of the drafts before RFC 3986,
 * done with a segment stack in one pass (the drafts allow this: "some
 * systems may find it more efficient to implement step 6 as a pair of
 * segment stacks being merged", 1997 draft §5.2).
 */
import { UriError } from '../errors.js';
import type { AboveRoot } from '../types.js';

/**
 * Removes "." and "<segment>/.." from `buffer` as the 1997 draft §5.2 steps
 * 6d–6g and the 2003 draft §5.2 merge steps 3–6 describe; ".." segments
 * that climb above the first segment are kept (2003 draft step 7: "retaining
 * these components"), so `/../g` stays `/../g`; step 7 also allows removing
 * them (`aboveRoot` `remove`) or an error (`error`, an `above-root`
 * {@link UriError} at the segment's offset in `buffer`).
 *
 * `trailingSlash` keeps the "/" that ended a removed segment (the 1997 and
 * 2003 drafts: `a/b/..` gives `a/`); the 1993 draft instead removes
 * "/xxx/.." and "/." whole (`a/b/..` gives `a`).
 *
 * @see https://datatracker.ietf.org/doc/html/draft-fielding-url-syntax-05#section-5.2
 * @example
 * ```ts
 * removeDraftDotSegments('/b/c/../../../g', true) // '/../g'
 * removeDraftDotSegments('/b/c/../../../g', true, 'remove') // '/g'
 * ```
 */
export function removeDraftDotSegments(buffer: string, trailingSlash: boolean, aboveRoot: AboveRoot = 'keep'): string {
  if (buffer.indexOf('.') < 0) return buffer;
  const input = buffer.split('/');
  const out: string[] = [];
  const last = input.length - 1;
  let offset = -1; // where input[i] begins in buffer, less one
  for (let i = 0; i <= last; offset += input[i]!.length + 1, i++) {
    const s = input[i]!;
    // 1997 draft §5.2 6d/6e, 2003 draft merge steps 3/4: a complete "." segment goes.
    // 1993 draft, "Partial form": "/." is removed.
    if (s === '.') {
      if (i === last && trailingSlash) out.push('');
      continue;
    }
    // 6f/6g, steps 5/6: "<segment>/../" with <segment> a complete path
    // segment not equal to "..": the empty string before a leading "/" is
    // not a segment, so a ".." above the root stays.
    const top = out.length > 0 ? out[out.length - 1]! : undefined;
    if (s === '..' && top !== undefined && top !== '..' && top !== '') {
      out.pop();
      if (i === last && trailingSlash) out.push('');
      continue;
    }
    // Above the root: nothing before it but the empty string of a leading "/".
    if (s === '..' && aboveRoot !== 'keep' && (top === undefined || (top === '' && out.length === 1))) {
      if (aboveRoot === 'error') throw new UriError('above-root', offset + 1, buffer);
      if (i === last && trailingSlash) out.push('');
      continue;
    }
    out.push(s);
  }
  return out.join('/');
}

