/**
 * The interactive-session schemes `telnet` (RFC 1738 §3.8, RFC 4248),
 * `rlogin` and `tn3270` (1993 draft, "telnetaddress"): a login and a host,
 * nothing after the authority but an optional "/".
 *
 * ```text
 *   telnet://<user>:<password>@<host>:<port>/
 * ```
 */
import { UriError } from '../errors.js';
import { authorityText, joinUserinfo, portNumber, requireHost, splitUserinfo } from './login.js';
import type { SchemeCodec, SchemeRules } from './codec.js';
import { RLOGIN_RULES, TELNET_RULES, TN3270_RULES } from './rules.js';

/**
 * The typed view of a telnet, rlogin or tn3270 URL (RFC 4248 §2).
 *
 * @example
 * ```ts
 * const t: TelnetUrl = { scheme: 'telnet', user: 'guest', host: 'melvyl.ucop.edu' };
 * telnetScheme.build(t) // "telnet://guest@melvyl.ucop.edu/"
 * ```
 */
export interface TelnetUrl {
  scheme: 'telnet' | 'rlogin' | 'tn3270';
  user?: string;
  password?: string;
  host: string;
  port?: number;
}

function sessionCodec(scheme: TelnetUrl['scheme'], rules: SchemeRules): SchemeCodec<TelnetUrl> {
  const codec: SchemeCodec<TelnetUrl> = {
    ...rules,
    validate(ref) {
      requireHost(ref);
      portNumber(ref);
      // RFC 4248 §2: "telnet://" login [ "/" ]; the URL designates only a session.
      if (ref.path !== '' && ref.path !== '/') throw new UriError('bad-scheme-specific-part', 0, ref.path);
      if (ref.query !== undefined) throw new UriError('bad-scheme-specific-part', 0, ref.query);
    },
    parse(ref) {
      codec.validate(ref);
      const out: TelnetUrl = { scheme, host: ref.host!, ...splitUserinfo(ref.userinfo) };
      const port = portNumber(ref);
      if (port !== undefined) out.port = port;
      return out;
    },
    build(f) {
      return `${f.scheme}:${authorityText(joinUserinfo(f.user, f.password), f.host, f.port)}/`;
    },
  };
  return codec;
}

/**
 * The `telnet` codec (RFC 4248): port 23.
 *
 * @see https://www.rfc-editor.org/rfc/rfc4248#section-2
 * @example
 * ```ts
 * telnetScheme.parse(parse('telnet://melvyl.ucop.edu/')) // { scheme: 'telnet', host: 'melvyl.ucop.edu' }
 * ```
 */
export const telnetScheme: SchemeCodec<TelnetUrl> = sessionCodec('telnet', TELNET_RULES);
/**
 * The `rlogin` codec (1993 draft, "telnetaddress"): port 513.
 *
 * @see https://www.rfc-editor.org/rfc/rfc4248#section-2
 * @example
 * ```ts
 * rloginScheme.build({ scheme: 'rlogin', user: 'guest', host: 'h' }) // 'rlogin://guest@h/'
 * ```
 */
export const rloginScheme: SchemeCodec<TelnetUrl> = sessionCodec('rlogin', RLOGIN_RULES);
/**
 * The `tn3270` codec (1993 draft, "telnetaddress"): port 23.
 *
 * @see https://www.rfc-editor.org/rfc/rfc4248#section-2
 * @example
 * ```ts
 * tn3270Scheme.defaultPort // 23
 * ```
 */
export const tn3270Scheme: SchemeCodec<TelnetUrl> = sessionCodec('tn3270', TN3270_RULES);
