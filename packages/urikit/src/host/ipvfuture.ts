/**
 * IPvFuture (RFC 3986 §3.2.2): the IP literal kept for address formats
 * after IPv6, with its version number in hexadecimal.
 *
 * ```text
 * IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
 * ```
 */
import { UriError } from '../errors.js';
import { CLASS, HEXDIG, IPVFUTURE } from '../chars.js';

/**
 * Checks that `text[start, end)` is an `IPvFuture` whose "v" (or "V") is at
 * `start`, and returns the offset of its "."; throws `bad-ipvfuture` at the
 * first offending character (RFC 3986 §3.2.2).
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-3.2.2
 * @example
 * ```ts
 * readIPvFuture('[v7.x:y]', 1, 7) // 3
 * readIPvFuture('[v7.]', 1, 4) // throws UriError bad-ipvfuture
 * ```
 */
export function readIPvFuture(text: string, start: number, end: number): number {
  let i = start + 1;
  while (i < end && CLASS[text.charCodeAt(i)]! & HEXDIG) i++;
  if (i === start + 1 || i >= end || text.charCodeAt(i) !== 0x2e) throw new UriError('bad-ipvfuture', i, text);
  const dot = i++;
  if (i === end) throw new UriError('bad-ipvfuture', i, text);
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (!(c < 128 && CLASS[c]! & IPVFUTURE)) throw new UriError('bad-ipvfuture', i, text);
  }
  return dot;
}
