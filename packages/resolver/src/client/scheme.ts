/**
 * The scheme of a URL read leniently, for the client's reading of answers
 * and redirects and for the web page's links.
 */

/**
 * The scheme of `url` in lower case, read up to the first ":" without a
 * regular expression (2003 draft §3.1: `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`).
 *
 * @example
 * ```ts
 * schemeOf('HTTP://a/') // 'http'
 * ```
 */
export function schemeOf(url: string): string | undefined {
  for (let i = 0; i < url.length; i++) {
    const c = url.charCodeAt(i);
    const alpha = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
    if (c === 0x3a) return i > 0 ? url.slice(0, i).toLowerCase() : undefined;
    if (i === 0 ? !alpha : !(alpha || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e)) return undefined;
  }
  return undefined;
}
