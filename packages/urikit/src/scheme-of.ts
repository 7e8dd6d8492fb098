/**
 * The scheme of a URI reference read on its own (RFC 3986 §3.1), for code
 * that needs to know "is this a `urn:`?" or "which scheme is this link?"
 * without parsing the rest of the reference.
 */
import { ALPHA, CLASS, SCHEME } from './chars.js';

/**
 * The scheme of `input` in lower case if `input` begins with `scheme ":"`,
 * else `undefined` (RFC 3986 §3.1: `scheme = ALPHA *( ALPHA / DIGIT / "+" /
 * "-" / "." )`; schemes are case-insensitive and lower case is their
 * canonical form). Only the scheme is read, up to the first character that
 * cannot be in one, so the time is the scheme's length and the rest of the
 * input is not checked: `schemeOf(s) === 'urn'` says what `s` claims to
 * be, `isValid` whether it is.
 *
 * @example
 * ```ts
 * schemeOf('HTTP://example.com/') // 'http'
 * schemeOf('urn:ISBN:0451450523') // 'urn'
 * schemeOf('z39.50s://x') // 'z39.50s'
 * schemeOf('http://a b/') // 'http' (the rest is not checked)
 * schemeOf('//example.com/a:b') // undefined (a network-path reference)
 * schemeOf('1a:b') // undefined (a scheme begins with a letter)
 * schemeOf('ht%74p:x') // undefined (a scheme is never percent-encoded)
 * schemeOf('mailto') // undefined (no ":")
 * ```
 */
export function schemeOf(input: string): string | undefined {
  const len = input.length;
  if (len === 0) return undefined;
  const c0 = input.charCodeAt(0);
  if (!(c0 < 128 && CLASS[c0]! & ALPHA)) return undefined;
  for (let i = 1; i < len; i++) {
    const c = input.charCodeAt(i);
    if (c === 0x3a) return input.slice(0, i).toLowerCase();
    if (!(c < 128 && CLASS[c]! & SCHEME)) return undefined;
  }
  return undefined;
}
