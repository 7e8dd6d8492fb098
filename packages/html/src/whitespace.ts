/**
 * HTML's "ASCII whitespace" (HTML Living Standard, Infra): TAB, LF, FF,
 * CR and SPACE, and nothing else (no NBSP, no Unicode spaces); what the
 * URL parser strips; Infra's ASCII lowercase.
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

/**
 * What the URL parser reads of a string (URL Standard, basic URL parser
 * steps 1–3): leading and trailing C0 controls and spaces stripped, every
 * ASCII tab and newline (U+0009, U+000A, U+000D) removed.
 *
 * @example
 * ```ts
 * urlParserInput(' http://a/\tb\n/c\u0001') // "http://a/b/c"
 * urlParserInput('\u00a0/x') // "\u00a0/x"
 * ```
 */
export function urlParserInput(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && s.charCodeAt(a) <= 0x20) a++;
  while (b > a && s.charCodeAt(b - 1) <= 0x20) b--;
  return s.slice(a, b).replace(/[\t\n\r]/g, '');
}

/**
 * Infra "ASCII lowercase": A–Z to a–z, nothing else (String#toLowerCase
 * would map non-ASCII letters too, and U+212A KELVIN SIGN to "k").
 *
 * @example
 * ```ts
 * asciiLowercase('Content-TYPE') // "content-type"
 * asciiLowercase('\u212A') // "\u212A"
 * ```
 */
export function asciiLowercase(s: string): string {
  return s.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) | 0x20));
}
