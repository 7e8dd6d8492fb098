/**
 * The URLs of a `srcset` attribute (HTML Living Standard, "parse a srcset
 * attribute"): image candidate strings separated by commas, each a URL
 * followed by optional descriptors. One forward scan.
 */

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;

/**
 * The URLs of the image candidates of a `srcset` value, with their offsets
 * in the value (https://html.spec.whatwg.org/multipage/images.html#parse-a-srcset-attribute).
 *
 * @example
 * ```ts
 * srcsetUrls('a.png 1x, b,c.png 2x').map((u) => u.url) // ["a.png", "b,c.png"]
 * ```
 */
export function srcsetUrls(value: string): { url: string; start: number }[] {
  const out: { url: string; start: number }[] = [];
  const n = value.length;
  let i = 0;
  while (i < n) {
    // "Collect a sequence of code points that are ASCII whitespace or U+002C COMMA"
    while (i < n && (isSpace(value.charCodeAt(i)) || value.charCodeAt(i) === 0x2c)) i++;
    if (i >= n) break;
    const start = i;
    while (i < n && !isSpace(value.charCodeAt(i))) i++;
    let end = i;
    // "If url ends with U+002C (,), remove all trailing commas" — and then no descriptors.
    let trailingComma = false;
    while (end > start && value.charCodeAt(end - 1) === 0x2c) { end--; trailingComma = true; }
    if (end > start) out.push({ url: value.slice(start, end), start });
    if (trailingComma) continue;
    // Descriptors run to the next comma outside parentheses.
    let depth = 0;
    while (i < n) {
      const c = value.charCodeAt(i);
      if (c === 0x28) depth++;
      else if (c === 0x29 && depth > 0) depth--;
      else if (c === 0x2c && depth === 0) { i++; break; }
      i++;
    }
  }
  return out;
}
