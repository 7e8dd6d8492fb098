/**
 * The common Internet scheme syntax that http, ftp, telnet, gopher, wais
 * and prospero share (1997 draft §3.1 "site", RFC 1738 §3.1):
 *
 * ```text
 *   //<user>:<password>@<host>:<port>/<url-path>
 *     \__________________/ \____/ \__/
 *           userinfo         host  port
 * ```
 *
 * These helpers read the generic components the core parser produced; they
 * never re-scan the whole input.
 */
import { UriError } from '../errors.js';
import { COMPONENT_MESSAGES, registerMessages } from '../messages.js';
import type { UriReference } from '../types.js';

// The messages of the component codes this module throws (messages.ts).
registerMessages(COMPONENT_MESSAGES);

/**
 * A login split at its first ":" (RFC 1738 §3.1); an absent password is
 * `undefined`, an empty one (`foo:@host`) is `""` (1997 draft §3.1).
 *
 * @see https://www.rfc-editor.org/rfc/rfc1738#section-3.1
 * @example
 * ```ts
 * splitUserinfo('foo:') // { user: 'foo', password: '' }
 * ```
 */
export function splitUserinfo(userinfo: string | undefined): { user?: string; password?: string } {
  if (userinfo === undefined) return {};
  const colon = userinfo.indexOf(':');
  if (colon < 0) return { user: userinfo };
  return { user: userinfo.slice(0, colon), password: userinfo.slice(colon + 1) };
}

/**
 * Joins a user and password back into `userinfo` (RFC 1738 §3.1).
 *
 * @see https://www.rfc-editor.org/rfc/rfc1738#section-3.1
 * @example
 * ```ts
 * joinUserinfo('foo', '') // 'foo:'
 * ```
 */
export function joinUserinfo(user: string | undefined, password: string | undefined): string | undefined {
  if (user === undefined && password === undefined) return undefined;
  return password === undefined ? (user ?? '') : `${user ?? ''}:${password}`;
}

/**
 * The port as a number, `undefined` when absent or empty; throws
 * `bad-port` above 65535 (RFC 1738 §3.1, RFC 9110 §4.2.1: a TCP port).
 *
 * @see https://www.rfc-editor.org/rfc/rfc1738#section-3.1
 * @example
 * ```ts
 * portNumber({ path: '', host: 'a', port: '8080' }) // 8080
 * ```
 */
export function portNumber(ref: UriReference): number | undefined {
  const port = ref.port;
  if (port === undefined || port === '') return undefined;
  let n = 0;
  for (let i = 0; i < port.length; i++) {
    const d = port.charCodeAt(i) - 0x30;
    if (d < 0 || d > 9) throw new UriError('bad-port', i, port);
    n = n * 10 + d;
    if (n > 65535) throw new UriError('bad-port', i, port);
  }
  return n;
}

/**
 * Throws `missing-host` unless the reference has a non-empty host
 * (RFC 9110 §4.2.1: "MUST reject it as invalid").
 *
 * @see https://www.rfc-editor.org/rfc/rfc1738#section-3.1
 * @example
 * ```ts
 * requireHost({ scheme: 'http', path: '/' }) // throws UriError('missing-host')
 * ```
 */
export function requireHost(ref: UriReference): string {
  if (ref.host === undefined || ref.host === '') throw new UriError('missing-host', (ref.scheme?.length ?? 0) + 1, ref.scheme);
  return ref.host;
}

/**
 * The `//userinfo@host:port` text of a reference (RFC 3986 §5.3), or `""` when it has no authority.
 *
 * @see https://www.rfc-editor.org/rfc/rfc1738#section-3.1
 * @example
 * ```ts
 * authorityText('u', 'a', '21') // '//u@a:21'
 * authorityText(undefined, undefined, undefined) // ''
 * ```
 */
export function authorityText(userinfo: string | undefined, host: string | undefined, port: string | number | undefined): string {
  if (host === undefined) return '';
  let s = '//';
  if (userinfo !== undefined) s += `${userinfo}@`;
  s += host;
  if (port !== undefined) s += `:${port}`;
  return s;
}
