/**
 * Abbreviated URIs (2003 draft Appendix F): references "consisting of only
 * the authority and path portions of the identified resource, such as
 * www.w3.org/Addressing/ or simply the DNS hostname on its own", completed
 * by documented heuristics.
 */
import { isValid3986 } from '../rfc3986-scanner.js';
import { schemeOf } from '../scheme-of.js';
import { TEXT_CLASS, T_SPACE, PROSE_SCHEMES } from './delimiters.js';

/**
 * Options of {@link expandAbbreviated}.
 *
 * @example
 * ```ts
 * const opts: AbbreviatedOptions = { mailto: true, defaultScheme: 'https' };
 * expandAbbreviated('example.com/x', opts) // "https://example.com/x"
 * expandAbbreviated('roy@example.com', opts) // "mailto:roy@example.com"
 * ```
 */
export interface AbbreviatedOptions {
  /** Read `user@host` as `mailto:user@host` (default `false`). */
  mailto?: boolean;
  /** The scheme given to a bare host name that begins with neither `www.` nor `ftp.` (default `'http'`). */
  defaultScheme?: string;
}

/**
 * Completes an abbreviated URI typed or printed where no base URI exists
 * (2003 draft Appendix F, https://datatracker.ietf.org/doc/html/draft-fielding-uri-rfc2396bis-01#appendix-F).
 * First the delimiters and embedded white space are stripped as Appendix E
 * recommends for user-typed URIs (`<...>`, `"..."`, `URL:`); then, in order:
 *
 * 1. a known scheme, or any scheme followed by `//`, is already a URI: kept;
 * 2. a host beginning with `www.` gets `http://` ("most hostnames beginning
 *    with www are likely to have a URI prefix of http://");
 * 3. a host beginning with `ftp.` gets `ftp://`;
 * 4. `user@host` (no `/`, `?` or `#`) gets `mailto:`, only with `mailto: true`;
 * 5. any other host name of two labels or more with a top label of letters,
 *    `localhost`, a dotted IPv4 address or an `[IPv6]` literal, optionally
 *    with `:port` and a path, gets `defaultScheme://`.
 *
 * Returns `undefined` when none applies. Since "an abbreviated URI has the
 * same syntax as a relative URI path", never call this where a relative
 * reference is expected (an `href`, a `Location` with a base): there,
 * `www.w3.org/x` is a relative path and must be resolved, not expanded.
 *
 * @example
 * ```ts
 * expandAbbreviated('www.w3.org/Addressing/') // "http://www.w3.org/Addressing/"
 * expandAbbreviated('ftp.example.org/pub') // "ftp://ftp.example.org/pub"
 * expandAbbreviated('example.com') // "http://example.com"
 * expandAbbreviated('roy@example.com', { mailto: true }) // "mailto:roy@example.com"
 * expandAbbreviated('a sentence') // undefined
 * ```
 */
export function expandAbbreviated(text: string, opts?: AbbreviatedOptions): string | undefined {
  const t = stripDelimiters(text);
  if (t === '') return undefined;
  const scheme = schemeOf(t);
  if (scheme !== undefined) {
    const known = PROSE_SCHEMES.has(scheme) || t.startsWith('//', scheme.length + 1);
    if (known) return isValid3986(t, 'iri') ? t : undefined;
  }
  let hostEnd = t.length;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c === 0x2f || c === 0x3f || c === 0x23) { hostEnd = i; break; }
  }
  const authority = t.slice(0, hostEnd);
  const at = authority.lastIndexOf('@');
  if (at >= 0) {
    if (!opts?.mailto || hostEnd !== t.length || at === 0) return undefined;
    const out = 'mailto:' + t;
    return isHost(authority.slice(at + 1)) && isValid3986(out, 'iri') ? out : undefined;
  }
  const host = hostOf(authority);
  if (host === undefined || !isHost(host)) return undefined;
  const lower = host.toLowerCase();
  const prefix = lower.startsWith('www.') ? 'http' : lower.startsWith('ftp.') ? 'ftp' : (opts?.defaultScheme ?? 'http');
  const out = prefix + '://' + t;
  return isValid3986(out, 'iri') ? out : undefined;
}

/** Appendix E: "strip both delimiters and embedded whitespace". */
function stripDelimiters(text: string): string {
  let t = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!(c < 128 && TEXT_CLASS[c]! & T_SPACE)) t += text[i];
  }
  for (;;) {
    const first = t.charCodeAt(0), last = t.charCodeAt(t.length - 1);
    if (t.length >= 2 && ((first === 0x3c && last === 0x3e) || (first === 0x22 && last === 0x22))) t = t.slice(1, -1);
    else if (t.length > 4 && t.slice(0, 4).toLowerCase() === 'url:') t = t.slice(4);
    else return t;
  }
}

/** The host of `host [":" port]`, or undefined if the port is not digits. */
function hostOf(authority: string): string | undefined {
  if (authority.startsWith('[')) {
    const close = authority.indexOf(']');
    if (close < 0) return undefined;
    const rest = authority.slice(close + 1);
    return rest === '' || (rest[0] === ':' && allDigits(rest.slice(1))) ? authority.slice(0, close + 1) : undefined;
  }
  const colon = authority.indexOf(':');
  if (colon < 0) return authority;
  return allDigits(authority.slice(colon + 1)) ? authority.slice(0, colon) : undefined;
}

/** A host name of two labels or more ending in letters, `localhost`, a dotted quad or an IP literal. */
function isHost(host: string): boolean {
  if (host.startsWith('[')) return isValid3986('//' + host, 'uri-reference');
  if (host.toLowerCase() === 'localhost') return true;
  const labels = host.split('.');
  if (labels.length === 4 && labels.every((l) => l.length >= 1 && l.length <= 3 && allDigits(l) && Number(l) <= 255)) return true;
  if (labels.length < 2) return false;
  for (const l of labels) {
    if (l === '' || l.startsWith('-') || l.endsWith('-')) return false;
    for (let i = 0; i < l.length; i++) {
      const c = l.charCodeAt(i);
      const ok = c >= 128 || (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a) || c === 0x2d;
      if (!ok) return false;
    }
  }
  const top = labels[labels.length - 1]!;
  for (let i = 0; i < top.length; i++) {
    const c = top.charCodeAt(i);
    if (c < 128 && !((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a)) return false;
  }
  return top.length >= 2;
}

/** True if every character of `s` is a DIGIT (RFC 3986 §3.2.3 `port = *DIGIT`). */
function allDigits(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}
