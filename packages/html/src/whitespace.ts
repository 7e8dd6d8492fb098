/**
 * HTML's "ASCII whitespace" (HTML Living Standard, Infra): TAB, LF, FF,
 * CR and SPACE, and nothing else (no NBSP, no Unicode spaces).
 */

/**
 * True for an ASCII whitespace code unit (Infra: U+0009, U+000A, U+000C, U+000D, U+0020).
 *
 * @example
 * ```ts
 * isAsciiWhitespace(0x0c) // true
 * isAsciiWhitespace(0xa0) // false (NO-BREAK SPACE)
 * ```
 */
export function isAsciiWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
}

/**
 * Infra "strip leading and trailing ASCII whitespace": a leading NBSP stays.
 *
 * @example
 * ```ts
 * stripAsciiWhitespace('\n  ../x \t') // "../x"
 * stripAsciiWhitespace('\u00a0/x') // "\u00a0/x"
 * ```
 */
export function stripAsciiWhitespace(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && isAsciiWhitespace(s.charCodeAt(a))) a++;
  while (b > a && isAsciiWhitespace(s.charCodeAt(b - 1))) b--;
  return s.slice(a, b);
}
