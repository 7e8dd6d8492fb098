/**
 * The request line and `Host` of every request, read once before it is
 * routed (fastify's `rewriteUrl`), after node's parser and the front
 * (front.ts) have read the bytes:
 *
 * - absolute-form (RFC 9112 §3.2.2, which a server must accept) becomes
 *   the origin-form every route reads, and its authority stands for
 *   `Host`; an authority this server does not answer for is a
 *   misdirected request (421, RFC 9110 §7.4, §15.5.20), on every route;
 * - more than one `Host` (RFC 9112 §3.2), asterisk-form with a method
 *   other than OPTIONS (§3.2.4), and a request line without a version
 *   that is not the first line of a connection (only a GET on a
 *   connection's first line is the 1995 draft's Simple-Request, §3.3:
 *   simple.ts) are refused with 400 and the connection closed.
 *
 * A refused request is answered by the pipeline's first hook
 * ({@link refusalOf}), before any route, rate limit or body.
 */
import type { IncomingMessage } from 'node:http';
import { isSimpleRequest } from './simple.js';

/**
 * Why a request is answered before any route: status, title and the
 * problem's `code` and `detail` (RFC 9457).
 *
 * @example
 * ```ts
 * const r: Refusal = { status: 400, title: 'Bad Request', code: 'duplicate-host', detail: 'two Host fields (RFC 9112 §3.2)', close: true };
 * r.close; // true (the connection ends after the answer)
 * ```
 */
export interface Refusal {
  status: 400 | 421;
  title: string;
  code: string;
  detail: string;
  /** The connection ends after the answer (what follows on it cannot be trusted to be a request). */
  close: boolean;
}

const refusals = new WeakMap<IncomingMessage, Refusal>();

/**
 * The refusal {@link readRequestForm} recorded for a request, if any.
 *
 * @example
 * ```ts
 * import http from 'node:http';
 * import net from 'node:net';
 * refusalOf(new http.IncomingMessage(new net.Socket())); // undefined
 * ```
 */
export function refusalOf(req: IncomingMessage): Refusal | undefined {
  return refusals.get(req);
}

/**
 * An absolute-form request target taken apart (RFC 9112 §3.2.2): its
 * scheme (lower case), authority as sent, host (lower case, without
 * port, brackets or a final dot) and origin-form (path and query, "/"
 * when the path is empty: RFC 9112 §3.2.1); undefined when `target` is
 * not `scheme://…`.
 *
 * @example
 * ```ts
 * splitAbsoluteForm('http://127.0.0.1:4500/urn:ietf:rfc:2141');
 * // { scheme: 'http', authority: '127.0.0.1:4500', host: '127.0.0.1', userinfo: false, originForm: '/urn:ietf:rfc:2141' }
 * splitAbsoluteForm('HTTP://[::1]:4500?urn:x:y')?.originForm; // '/?urn:x:y'
 * splitAbsoluteForm('HTTP://[::1]:4500?urn:x:y')?.host; // '::1'
 * splitAbsoluteForm('/uri-res/N2L?urn:ietf:rfc:2141'); // undefined
 * ```
 */
export function splitAbsoluteForm(target: string): { scheme: string; authority: string; host: string; userinfo: boolean; originForm: string } | undefined {
  // RFC 3986 §3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
  const colon = target.indexOf('://');
  if (colon <= 0 || !/^[A-Za-z][A-Za-z0-9+.-]*$/.test(target.slice(0, colon))) return undefined;
  const start = colon + 3;
  let end = start;
  while (end < target.length) {
    const c = target.charCodeAt(end);
    if (c === 0x2f || c === 0x3f || c === 0x23) break;
    end++;
  }
  const authority = target.slice(start, end);
  const at = authority.lastIndexOf('@');
  const hostPort = authority.slice(at + 1);
  // RFC 3986 §3.2.2: an IP-literal in brackets, else up to the port's ":".
  const close = hostPort.startsWith('[') ? hostPort.indexOf(']') : -1;
  const portColon = hostPort.indexOf(':', close < 0 ? 0 : close);
  let host = (portColon < 0 ? hostPort : hostPort.slice(0, portColon)).toLowerCase();
  if (close > 0) host = host.slice(1, close);
  if (host.endsWith('.')) host = host.slice(0, -1);
  const rest = target.slice(end);
  return { scheme: target.slice(0, colon).toLowerCase(), authority, host, userinfo: at >= 0, originForm: rest.startsWith('/') ? rest : `/${rest}` };
}

/** The hosts this server answers for: true when `host` (lower case) is one, on a connection to `localAddress`. */
export type AnswersFor = (host: string, localAddress: string | undefined) => boolean;

/**
 * The hosts a server answers for: the host of its own URL and public
 * URL, the local address of the connection (whatever address of the
 * machine a client reached), `localhost` on a loopback connection, and
 * every host `held` says is one (the `urn:dns:` authorities it answers
 * for: 1995 draft §2.2.1).
 *
 * @example
 * ```ts
 * const hosts = new ServedHosts((h) => h === 'urn.flixco.com');
 * hosts.add('https://urn.example.org');
 * hosts.answersFor('urn.example.org', '10.0.0.5'); // true
 * hosts.answersFor('urn.flixco.com', '10.0.0.5'); // true
 * hosts.answersFor('10.0.0.5', '::ffff:10.0.0.5'); // true
 * hosts.answersFor('localhost', '127.0.0.1'); // true
 * hosts.answersFor('evil.example', '127.0.0.1'); // false
 * ```
 */
export class ServedHosts {
  readonly #names = new Set<string>();

  constructor(readonly held: (host: string) => boolean = () => false) {}

  /** Adds the host of `url` (this server's URL, or the public URL clients know it by). */
  add(url: string): void {
    const h = splitAbsoluteForm(url)?.host;
    if (h !== undefined && h !== '') this.#names.add(h);
  }

  readonly answersFor: AnswersFor = (host, localAddress) => {
    if (this.#names.has(host) || this.held(host)) return true;
    if (localAddress === undefined) return false;
    const local = localAddress.startsWith('::ffff:') ? localAddress.slice(7) : localAddress;
    if (host === local) return true;
    return host === 'localhost' && (local === '::1' || local.startsWith('127.'));
  };
}

/** Records `refusal` for `req` and gives the path it is routed by (the refusal is answered before any route). */
function refuse(req: IncomingMessage, refusal: Omit<Refusal, 'title'>): string {
  refusals.set(req, { ...refusal, title: refusal.status === 421 ? 'Misdirected Request' : 'Bad Request' });
  return '/';
}

/**
 * For fastify's `rewriteUrl`: the origin-form a request is routed by,
 * its `Host` replaced by the authority of an absolute-form target (RFC
 * 9112 §3.2.2: the origin server "MUST ignore the received Host header
 * field"); a request refused (see the module) is recorded for
 * {@link refusalOf}.
 *
 * @example
 * ```ts
 * import http from 'node:http';
 * import net from 'node:net';
 * const req = new http.IncomingMessage(new net.Socket());
 * Object.assign(req, { method: 'GET', url: 'http://evil.example/admin/names', httpVersionMajor: 1, rawHeaders: ['Host', 'evil.example'], headers: { host: 'evil.example' } });
 * readRequestForm(req, () => false); // '/'
 * refusalOf(req)?.status; // 421
 * ```
 */
export function readRequestForm(req: IncomingMessage, answersFor: AnswersFor): string {
  const url = req.url ?? '/';
  const raw = req.rawHeaders;
  let hosts = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    // The spellings clients send first, without making a lower-case copy.
    if (name.length === 4 && (name === 'Host' || name === 'host' || name.toLowerCase() === 'host')) hosts++;
  }
  if (hosts > 1) return refuse(req, { status: 400, code: 'duplicate-host', detail: `${hosts} Host fields: a request has one (RFC 9112 §3.2)`, close: true });
  // llhttp reads a request line without a version as HTTP/0.9 and goes on to read headers: the front
  // turned a connection's first GET of that form into its Simple-Request already (simple.ts).
  if (req.httpVersionMajor === 0 && !isSimpleRequest(req.socket)) {
    return refuse(req, { status: 400, code: 'version-less-request', detail: 'a request line without an HTTP version is a Simple-Request: a GET, on the first line of a connection (1995 draft §3.3, RFC 1945 §4.1)', close: true });
  }
  if (url.charCodeAt(0) === 0x2f) return url;
  if (url === '*') {
    return req.method === 'OPTIONS' ? url : refuse(req, { status: 400, code: 'bad-target', detail: `the asterisk-form is for OPTIONS only, not ${req.method ?? ''} (RFC 9112 §3.2.4)`, close: true });
  }
  const target = splitAbsoluteForm(url);
  // RFC 9110 §4.2.1: an http URI with an empty host is invalid; §4.2.4: userinfo in one is an error.
  if (target === undefined || target.host === '' || target.userinfo) {
    return refuse(req, { status: 400, code: 'bad-target', detail: 'the request target is neither origin-form ("/…") nor an absolute http(s) URI with a host and no userinfo (RFC 9112 §3.2)', close: true });
  }
  req.headers.host = target.authority;
  if ((target.scheme !== 'http' && target.scheme !== 'https') || !answersFor(target.host, req.socket.localAddress)) {
    return refuse(req, { status: 421, code: 'misdirected-request', detail: `this server does not answer for ${target.scheme}://${target.authority.slice(0, 200)} (RFC 9110 §7.4)`, close: false });
  }
  return target.originForm;
}
