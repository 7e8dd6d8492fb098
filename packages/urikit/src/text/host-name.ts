/**
 * Recognising host names in prose (RFC 1123 §2.1, RFC 1591 §2) for the
 * abbreviated URIs of 2003 draft Appendix F and bare e-mail addresses.
 */
import { isAlpha, isLdh } from '../chars.js';
import { TEXT_CLASS, T_ALNUM } from './delimiters.js';

const DOT = 0x2e, HYPHEN = 0x2d, SLASH = 0x2f, QMARK = 0x3f, HASH = 0x23, COLON = 0x3a;

/**
 * `text[from, to)` is a host name of at least `minLabels` labels ending in a top label of two letters or more (RFC 1123 §2.1).
 *
 * @example
 * ```ts
 * isHostName('see www.w3.org', 8, 14, 2) // true
 * ```
 */
export function isHostName(text: string, from: number, to: number, minLabels: number): boolean {
  let labels = 0, size = 0, letters = true, prev = DOT;
  for (let i = from; i < to; i++) {
    const ch = text.charCodeAt(i);
    if (ch === DOT) {
      if (size === 0 || prev === HYPHEN) return false;
      labels++; size = 0; letters = true; prev = ch;
      continue;
    }
    if (ch === HYPHEN && size === 0) return false;
    if (ch < 128 && !isLdh(ch)) return false;
    if (ch < 128 && !isAlpha(ch)) letters = false;
    size++; prev = ch;
  }
  if (size === 0 || prev === HYPHEN) return false;
  return labels + 1 >= minLabels && letters && size >= 2;
}

// Top labels that mark a bare host name in prose: the original generic TLDs
// (RFC 1591 §2), a few common newer ones, and any two-letter country code.
const COMMON_TOP_LABELS = new Set([
  'com', 'org', 'net', 'edu', 'gov', 'mil', 'int', 'info', 'biz', 'name', 'pro', 'aero', 'coop', 'museum', 'mobi',
  'app', 'dev', 'blog', 'online', 'site', 'tech', 'store', 'xyz',
]);

/**
 * The top label of the host that ends at `end` is a common one (see COMMON_TOP_LABELS).
 *
 * @example
 * ```ts
 * isCommonTopLabel('example.org/x', 11) // true
 * ```
 */
export function isCommonTopLabel(text: string, end: number): boolean {
  const dot = text.lastIndexOf('.', end - 1);
  const top = text.slice(dot + 1, end).toLowerCase();
  return top.length === 2 || COMMON_TOP_LABELS.has(top);
}

/**
 * End of the host of an abbreviated URI that begins at `from`: the first "/", "?", "#" or ":".
 *
 * @example
 * ```ts
 * hostEnd('www.w3.org/A', 0, 12) // 10
 * ```
 */
export function hostEnd(text: string, from: number, to: number): number {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === SLASH || c === QMARK || c === HASH || c === COLON) return i;
  }
  return to;
}

/**
 * The local-part characters accepted in a bare address: letters, digits and
 * `. - _ +` (a conservative subset of RFC 5322 §3.2.3 `dot-atom`, so that
 * quotes and `=` around an address in prose stay outside it).
 *
 * @example
 * ```ts
 * isLocalChar(0x2b) // true ("+")
 * ```
 */
export function isLocalChar(c: number): boolean {
  if (c >= 128) return false;
  if (TEXT_CLASS[c]! & T_ALNUM) return true;
  return c === DOT || c === HYPHEN || c === 0x5f || c === 0x2b;
}
