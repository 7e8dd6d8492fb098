/**
 * The `http`, `https` (RFC 9110 §4.2), `ws` and `wss` (RFC 6455 §3)
 * schemes; the 1993 draft's `httpaddress` is checked by the url-1993 profile.
 *
 * ```text
 *   http://host:port/path?query#fragment
 * ```
 */
import { UriError } from '../errors.js';
import { authorityText, portNumber, requireHost } from './login.js';
import type { SchemeCodec, SchemeRules } from './codec.js';
import { HTTP_RULES, HTTPS_RULES, WS_RULES, WSS_RULES } from './rules.js';

/**
 * The typed view of an http, https, ws or wss URI (RFC 9110 §4.2, RFC 6455 §3).
 *
 * @example
 * ```ts
 * const u: HttpUrl = { scheme: 'https', host: 'example.com', port: 8443, path: '/a', query: 'b' };
 * httpsScheme.build(u) // "https://example.com:8443/a?b"
 * ```
 */
export interface HttpUrl {
  scheme: 'http' | 'https' | 'ws' | 'wss';
  /** Deprecated by RFC 9110 §4.2.4, kept so that nothing is lost. */
  userinfo?: string;
  host: string;
  /** The port number; `undefined` when absent (the default applies). */
  port?: number;
  /** The path; `""` reads as `/` (RFC 9110 §4.2.3). */
  path: string;
  query?: string;
  fragment?: string;
}

function httpCodec(scheme: HttpUrl['scheme'], rules: SchemeRules): SchemeCodec<HttpUrl> {
  const isWs = scheme === 'ws' || scheme === 'wss';
  const codec: SchemeCodec<HttpUrl> = {
    ...rules,
    validate(ref) {
      // RFC 9110 §4.2.1 / RFC 6455 §3: an authority with a non-empty host is required.
      requireHost(ref);
      portNumber(ref);
      if (isWs && ref.fragment !== undefined) throw new UriError('fragment-not-allowed', 0, scheme);
    },
    parse(ref) {
      codec.validate(ref);
      const out: HttpUrl = { scheme, host: ref.host!, path: ref.path };
      if (ref.userinfo !== undefined) out.userinfo = ref.userinfo;
      const port = portNumber(ref);
      if (port !== undefined) out.port = port;
      if (ref.query !== undefined) out.query = ref.query;
      if (ref.fragment !== undefined) out.fragment = ref.fragment;
      return out;
    },
    build(f) {
      let s = `${f.scheme}:${authorityText(f.userinfo, f.host, f.port)}${f.path}`;
      if (f.query !== undefined) s += `?${f.query}`;
      if (f.fragment !== undefined) s += `#${f.fragment}`;
      return s;
    },
  };
  return codec;
}

/**
 * The `http` codec (RFC 9110 §4.2.1): port 80, host required, empty path is `/`.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-4.2
 * @example
 * ```ts
 * httpScheme.parse(parse('http://example.com:8080/a?b')) // { scheme: 'http', host: 'example.com', port: 8080, path: '/a', query: 'b' }
 * ```
 */
export const httpScheme: SchemeCodec<HttpUrl> = httpCodec('http', HTTP_RULES);
/**
 * The `https` codec (RFC 9110 §4.2.2): port 443.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-4.2
 * @example
 * ```ts
 * httpsScheme.defaultPort // 443
 * ```
 */
export const httpsScheme: SchemeCodec<HttpUrl> = httpCodec('https', HTTPS_RULES);
/**
 * The `ws` codec (RFC 6455 §3): port 80, no fragment.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-4.2
 * @example
 * ```ts
 * wsScheme.build({ scheme: 'ws', host: 'h', path: '/chat' }) // 'ws://h/chat'
 * ```
 */
export const wsScheme: SchemeCodec<HttpUrl> = httpCodec('ws', WS_RULES);
/**
 * The `wss` codec (RFC 6455 §3): port 443, no fragment.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-4.2
 * @example
 * ```ts
 * wssScheme.defaultPort // 443
 * ```
 */
export const wssScheme: SchemeCodec<HttpUrl> = httpCodec('wss', WSS_RULES);
