/**
 * The URL of a declarative refresh (`<meta http-equiv="refresh">`, the
 * `Refresh` header): HTML Living Standard, "shared declarative refresh
 * steps" (https://html.spec.whatwg.org/multipage/document-lifecycle.html#shared-declarative-refresh-steps).
 * One forward scan over the value; nothing is searched for.
 */
import { isAsciiWhitespace } from './whitespace.js';

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

/**
 * The URL string of a refresh value, as the HTML Standard's shared
 * declarative refresh steps read it, or undefined when the value is no
 * refresh (steps 6.1, 10.1) or names no URL (the document refreshes
 * itself: step 9's urlRecord, the document's URL). The time, a
 * `;` or `,` or white space, then the URL, with or without `url=` in front
 * (`url` only right there: in `0; https://a/url=x` the URL is the whole
 * rest), in quotes or not; a closing quote ends it. Leading and trailing
 * white space and controls are for the URL parser to strip.
 *
 * @example
 * ```ts
 * refreshUrl('5; url=/next') // "/next"
 * refreshUrl('0; /plain.html') // "/plain.html"
 * refreshUrl('0; https://example.com/url=foo') // "https://example.com/url=foo"
 * refreshUrl("3,URL = 'a b.html' tail") // "a b.html"
 * refreshUrl('1.5 urlx') // "urlx"
 * refreshUrl('5') // undefined (a refresh of the document itself)
 * refreshUrl('soon; url=/x') // undefined (no time: no refresh)
 * ```
 */
export function refreshUrl(input: string): string | undefined {
  const r = refreshTarget(input);
  return r === RELOAD ? undefined : r;
}

/** A refresh that names no URL: the document reloads itself (step 9: urlRecord is the document's URL, and step 11 has no URL to parse). */
export const RELOAD: unique symbol = Symbol('reload');

/**
 * The shared declarative refresh steps on `input`: the URL string,
 * {@link RELOAD} for a refresh of the document itself, or undefined for
 * no refresh (steps 6.1, 10.1). A document runs only its first refresh
 * (step 1, "will declaratively refresh").
 *
 * @example
 * ```ts
 * refreshTarget('5; url=/next') // "/next"
 * refreshTarget('5') === RELOAD // true
 * refreshTarget('later') // undefined
 * ```
 */
export function refreshTarget(input: string): string | typeof RELOAD | undefined {
  const n = input.length;
  let p = 0;
  const skipWhitespace = (): void => {
    while (p < n && isAsciiWhitespace(input.charCodeAt(p))) p++;
  };
  const at = (c: number): boolean => p < n && input.charCodeAt(p) === c;
  // Steps 3–8: the time (digits, or a "." where it has none), then any further digits and dots.
  skipWhitespace();
  const timeStart = p;
  while (p < n && isDigit(input.charCodeAt(p))) p++;
  if (p === timeStart && !at(0x2e)) return undefined;
  while (p < n && (isDigit(input.charCodeAt(p)) || input.charCodeAt(p) === 0x2e)) p++;
  // Step 10: the separator, white space around an optional ";" or ",".
  if (p < n) {
    const c = input.charCodeAt(p);
    if (c !== 0x3b && c !== 0x2c && !isAsciiWhitespace(c)) return undefined;
    skipWhitespace();
    if (at(0x3b) || at(0x2c)) p++;
    skipWhitespace();
  }
  // Step 11: the URL (none: the document's own URL).
  if (p >= n) return RELOAD;
  const rest = input.slice(p);
  // Steps 11.2–11.7: "url", white space, "=", white space; short of the "=", the URL is the whole rest.
  const lower = (i: number): number => input.charCodeAt(i) | 0x20;
  if (lower(p) === 0x75) {
    p++;
    if (p >= n || lower(p) !== 0x72) return rest;
    p++;
    if (p >= n || lower(p) !== 0x6c) return rest;
    p++;
    skipWhitespace();
    if (!at(0x3d)) return rest;
    p++;
    skipWhitespace();
  }
  // Steps 11.8–11.10 ("skip quotes"): an opening quote, and the same quote ends the URL.
  const quote = p < n ? input[p] : undefined;
  if (quote === '"' || quote === "'") {
    const end = input.indexOf(quote, p + 1);
    return input.slice(p + 1, end < 0 ? n : end);
  }
  return input.slice(p);
}
