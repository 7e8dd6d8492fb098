/**
 * The scheme-based normalization rules of the built-in schemes (RFC 3986
 * §6.2.3, 2003 draft §6.2.3): default port, empty path, and each scheme's
 * own small normalization step. Kept apart from the codecs so that
 * `normalize` and `equivalent` carry only these few lines into a browser
 * bundle, not every codec's parser.
 */
import type { UriReference } from '../types.js';
import type { SchemeRules } from './codec.js';

const rules = (name: string, defaultPort: number | undefined, authority: SchemeRules['authority'], extra?: Partial<SchemeRules>): SchemeRules =>
  ({ name, defaultPort, authority, ...extra });

/**
 * True if a `drive-letter = ALPHA ( ":" / "|" )` is at `path[i]`, then "/" or the end (RFC 8089 Appendix E.2).
 *
 * @see https://www.rfc-editor.org/rfc/rfc8089#appendix-E.2
 * @example
 * ```ts
 * driveLetterAt('/c:/x', 1) // true
 * ```
 */
export function driveLetterAt(path: string, i: number): boolean {
  const a = path.charCodeAt(i) | 0x20;
  const c = path.charCodeAt(i + 1);
  const next = path.charCodeAt(i + 2);
  return a >= 0x61 && a <= 0x7a && (c === 0x3a || c === 0x7c) && (next === 0x2f || i + 2 === path.length);
}

/**
 * `text` in lower case except the hex digits of its `%HH` triplets, which
 * the generic step has already put in upper case (RFC 3986 §6.2.2.1): a
 * scheme's case-insensitive parts are lowered without undoing that step.
 */
function lowerKeepingTriplets(text: string): string {
  let out = '';
  let from = 0;
  for (let i = text.indexOf('%'); i >= 0; i = text.indexOf('%', from)) {
    out += text.slice(from, i).toLowerCase() + text.slice(i, i + 3);
    from = i + 3;
  }
  return from === 0 ? text.toLowerCase() : out + text.slice(from).toLowerCase();
}

/**
 * The offset of ";type=X" at the very end of an FTP url-path (RFC 1738 §3.2.2), or -1.
 *
 * @see https://www.rfc-editor.org/rfc/rfc1738#section-3.2.2
 * @example
 * ```ts
 * typecodeAt('/a;type=i') // 2
 * ```
 */
export function typecodeAt(path: string): number {
  const at = path.length - 7;
  if (at < 0 || path.charCodeAt(at) !== 0x3b) return -1;
  return path.slice(at + 1, at + 6).toLowerCase() === 'type=' ? at : -1;
}

/** RFC 9110 §4.2.1 (http, port 80), §4.2.2 (https, 443); RFC 6455 §3 (ws, wss; fragments MUST NOT be used). */
export const HTTP_RULES = rules('http', 80, 'required', { emptyPathIsSlash: true });
/** RFC 9110 §4.2.2. */
export const HTTPS_RULES = rules('https', 443, 'required', { emptyPathIsSlash: true });
/** RFC 6455 §3. */
export const WS_RULES = rules('ws', 80, 'required', { emptyPathIsSlash: true, fragmentSignificant: false });
/** RFC 6455 §3. */
export const WSS_RULES = rules('wss', 443, 'required', { emptyPathIsSlash: true, fragmentSignificant: false });

/** RFC 1738 §3.2: port 21; the typecode letters are case-insensitive (§3.2.2) and written in lower case. */
export const FTP_RULES = rules('ftp', 21, 'required', {
  emptyPathIsSlash: true,
  normalize(ref: UriReference): UriReference {
    const t = ref.query === undefined ? typecodeAt(ref.path) : -1;
    return t < 0 ? ref : { ...ref, path: ref.path.slice(0, t + 6) + ref.path.slice(t + 6).toLowerCase() };
  },
});

/** RFC 4266 §2.1: port 70; an omitted type and selector mean type "1", so `/1` is written `/`. */
export const GOPHER_RULES = rules('gopher', 70, 'required', {
  emptyPathIsSlash: true,
  normalize: (ref: UriReference): UriReference => (ref.path === '/1' && ref.query === undefined ? { ...ref, path: '/' } : ref),
});

/** RFC 5538 §2.1: news, port 119. */
export const NEWS_RULES = rules('news', 119, 'optional');
/** RFC 5538 §2.2: nntp, port 119. */
export const NNTP_RULES = rules('nntp', 119, 'required');
/** RFC 4156 §2: wais, port 210. */
export const WAIS_RULES = rules('wais', 210, 'required');
/** RFC 4157 §2: prospero, port 1525. */
export const PROSPERO_RULES = rules('prospero', 1525, 'required');
/** RFC 4248 §2: telnet, port 23; `telnetURL = "telnet://" login [ "/" ]`, so the "/" is written. */
export const TELNET_RULES = rules('telnet', 23, 'required', { emptyPathIsSlash: true });
/** 1993 draft "Telnet, rlogin, tn3270": rlogin, port 513 (RFC 1282). */
export const RLOGIN_RULES = rules('rlogin', 513, 'required', { emptyPathIsSlash: true });
/** 1993 draft: tn3270, the telnet port 23. */
export const TN3270_RULES = rules('tn3270', 23, 'required', { emptyPathIsSlash: true });

/**
 * RFC 8089 §3: "localhost" and the empty authority both name the local
 * machine; §2: `file:/path` is `file:///path`; Appendix E.2: `file:c:/x`
 * is `file:///c:/x`, and (E.2.2) `c|` is `c:`. The reference it returns
 * is in normal form: the empty authority is given only to a path that
 * begins with "/" (`auth-path = [ file-auth ] path-absolute`, RFC 8089 §2;
 * RFC 3986 §3.3), so `file:foo:`, which is no file URI, stays as it is.
 */
export const FILE_RULES = rules('file', undefined, 'optional', {
  normalize(ref: UriReference): UriReference {
    let path = ref.path;
    const d = path.charCodeAt(0) === 0x2f ? 1 : 0;
    if (driveLetterAt(path, d)) path = `/${path[d]}:${path.slice(d + 2)}`;
    if (ref.host === undefined) {
      // RFC 8089 §2 local-path = path-absolute: only that takes an empty authority.
      if (path.charCodeAt(0) !== 0x2f) return ref;
      // RFC 3986 §3.3: without an authority the generic step wrote a path
      // beginning "//" as "/.//"; with one, the "/." is a dot segment too many.
      if (path.startsWith('/.//')) path = path.slice(2);
      return { ...ref, host: '', hostKind: 'reg-name', path };
    }
    const host = ref.host.toLowerCase() === 'localhost' ? '' : ref.host;
    return { ...ref, host, hostKind: ref.hostKind ?? 'reg-name', path };
  },
});

/** RFC 6068 §6: the domain of each address and the header field names are case-insensitive. */
export const MAILTO_RULES = rules('mailto', undefined, 'forbidden', {
  normalize(ref: UriReference): UriReference {
    const path = ref.path.split(',').map((a) => {
      const at = a.lastIndexOf('@');
      return at < 0 ? a : a.slice(0, at + 1) + lowerKeepingTriplets(a.slice(at + 1));
    }).join(',');
    const out = { ...ref, path };
    if (ref.query !== undefined) {
      out.query = ref.query.split('&').map((h) => {
        const eq = h.indexOf('=');
        return eq < 0 ? h : lowerKeepingTriplets(h.slice(0, eq)) + h.slice(eq);
      }).join('&');
    }
    return out;
  },
});

/** RFC 2397 §3 with RFC 2045 §5.1: type, subtype and parameter names are case-insensitive. */
export const DATA_RULES = rules('data', undefined, 'forbidden', {
  normalize(ref: UriReference): UriReference {
    const comma = ref.path.indexOf(',');
    if (comma < 0) return ref;
    const head = ref.path.slice(0, comma).split(';').map((p, k) => {
      const eq = p.indexOf('=');
      return k === 0 || eq < 0 ? lowerKeepingTriplets(p) : lowerKeepingTriplets(p.slice(0, eq)) + p.slice(eq);
    }).join(';');
    return { ...ref, path: head + ref.path.slice(comma) };
  },
});

/**
 * RFC 8141 §3.1: the NID is case-insensitive (DESIGN.md: "everywhere,
 * including in equivalent at the scheme level"); the core has already put
 * "urn" and the %hh in their cases. Namespace-specific rules are the URN
 * module's (`normalizeUrn`).
 */
export const URN_RULES = rules('urn', undefined, 'forbidden', {
  normalize(ref: UriReference): UriReference {
    const colon = ref.path.indexOf(':');
    return colon < 0 ? ref : { ...ref, path: lowerKeepingTriplets(ref.path.slice(0, colon)) + ref.path.slice(colon) };
  },
});

/** 1993 draft "afsaddress": never specified further, so experimental. */
export const AFS_RULES = rules('afs', undefined, 'required', { experimental: true });

/**
 * @internal The rules of every built-in scheme, in `listSchemes()` order.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-6.2.3
 * @example
 * ```ts
 * BUILTIN_RULES.find((r) => r.name === 'ftp')?.defaultPort // 21
 * ```
 */
export const BUILTIN_RULES: readonly SchemeRules[] = [
  HTTP_RULES, HTTPS_RULES, WS_RULES, WSS_RULES, FTP_RULES, GOPHER_RULES, NEWS_RULES, NNTP_RULES,
  WAIS_RULES, PROSPERO_RULES, TELNET_RULES, RLOGIN_RULES, TN3270_RULES, FILE_RULES, MAILTO_RULES,
  DATA_RULES, URN_RULES, AFS_RULES,
];
