/**
 * Parser differentials: where an RFC 3986 reading of a URI and a WHATWG
 * URL Standard reading of it (the platform's `URL` class, as in every
 * browser, `fetch` and Node) disagree on what the URI points to. A filter
 * that checks one reading and a client that fetches the other is the root
 * of a family of SSRF and filter-bypass attacks (2003 draft §7.5 semantic
 * attacks; Orange Tsai, "A New Era of SSRF", Black Hat USA 2017).
 *
 * ```text
 *   http://evil.example\@good.example/      RFC 3986: refused ("\" is not allowed)
 *                                            WHATWG:   host evil.example, path /@good.example/
 *   http:127.0.0.1/                          RFC 3986: no host, path "127.0.0.1/"
 *                                            WHATWG:   host 127.0.0.1 (loopback)
 * ```
 */
import { UriError } from '../errors.js';
import { componentsOf } from '../rfc3986-scanner.js';
import type { UriReference } from '../types.js';
import { removeDotSegments } from '../remove-dot-segments.js';
import { parseIPv4Address } from '../host/ipv4.js';
import { inspectHost, type HostClass } from '../host/classify.js';

/**
 * What part of the URI the two readings disagree on: the `scheme`, the
 * `host` (compared as the address or name a client connects to), the
 * `port` (as a number, a scheme's default counting as none), the `path`
 * (after the literal dot segments are removed, as resolution does), or
 * `validity` (one parser refuses what the other reads).
 *
 * @example
 * ```ts
 * const k: DifferentialKind = parserDifferentials('http:127.0.0.1/')[0]!.kind;
 * k // "host"
 * ```
 */
export type DifferentialKind = 'scheme' | 'host' | 'port' | 'path' | 'validity';

/**
 * One disagreement between urikit's RFC 3986 reading (`rfc3986`) and the
 * platform's WHATWG `URL` reading (`whatwg`) of a URI; `undefined` where a
 * reading has no such component, or refuses the input (`validity`). For a
 * host, `rfc3986Class` and `whatwgClass` are {@link classifyHost} on each
 * reading. `start`/`end` are UTF-16 offsets of the component in the input
 * (the whole input where it has no such component).
 *
 * @example
 * ```ts
 * const d: ParserDifferential = parserDifferentials('http://0x7f.0x.1/')[0]!;
 * d // matches { kind: 'host', rfc3986: '0x7f.0x.1', whatwg: '127.0.0.1', rfc3986Class: 'loopback', whatwgClass: 'loopback' }
 * ```
 */
export interface ParserDifferential {
  kind: DifferentialKind;
  rfc3986: string | undefined;
  whatwg: string | undefined;
  rfc3986Class?: HostClass;
  whatwgClass?: HostClass;
  start: number;
  end: number;
}

interface UrlRecord {
  href: string;
  protocol: string;
  hostname: string;
  port: string;
  pathname: string;
}
type UrlConstructor = new (input: string) => UrlRecord;

/** The WHATWG "special schemes" and their default ports (URL Standard §4.1). */
const SPECIAL_PORTS: Record<string, number | undefined> = { http: 80, https: 443, ws: 80, wss: 443, ftp: 21, file: undefined };

/**
 * True for a WHATWG URL Standard "special scheme" (§4.1: ftp, file, http,
 * https, ws, wss), whose authority a browser reads even without "//".
 *
 * @example
 * ```ts
 * isSpecialScheme('HTTP') // true
 * isSpecialScheme('urn') // false
 * ```
 */
export function isSpecialScheme(scheme: string): boolean {
  return Object.hasOwn(SPECIAL_PORTS, scheme.toLowerCase());
}

/** The platform's reading, `null` when it refuses the input, `undefined` when there is no `URL` class. */
function whatwgRead(uri: string): UrlRecord | null | undefined {
  const URLCtor = (globalThis as { URL?: UrlConstructor }).URL;
  if (URLCtor === undefined) return undefined;
  try {
    return new URLCtor(uri);
  } catch {
    return null;
  }
}

/** {@link classifyHost} on a host, undefined where urikit cannot read it as a host. */
function classOf(host: string): HostClass | undefined {
  try {
    return inspectHost(host).class;
  } catch (e) {
    if (!(e instanceof UriError)) throw e;
    return undefined;
  }
}

/**
 * Do the two readings name the same host? The platform's host parser reads
 * urikit's host text alone: the same result means the difference is only
 * one of spelling (case, percent-encoding, IDNA, a rare IPv4 format, the
 * IPv6 text form), and the host a client connects to is the same.
 */
function sameHost(scheme: string, rfc3986: string | undefined, whatwg: string | undefined): boolean {
  if (rfc3986 === undefined || whatwg === undefined) return rfc3986 === whatwg;
  const alone = whatwgRead(`${scheme}://${rfc3986}/`);
  return alone !== null && alone !== undefined && alone.hostname === whatwg;
}

/** Upper-case hexadecimal in percent-encodings and non-ASCII as percent-encoded UTF-8 (RFC 3987 §3.1), to compare paths. */
function comparablePath(path: string): string {
  let out = '';
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i);
    if (c === 0x25 && i + 2 < path.length) {
      out += path.slice(i, i + 3).toUpperCase();
      i += 2;
    } else if (c >= 0x80) {
      const cp = path.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      out += cp >= 0xd800 && cp <= 0xdfff ? ch : encodeURIComponent(ch);
      i += ch.length - 1;
    } else {
      out += path[i];
    }
  }
  return out;
}

/** Where each component lies in the input, for the finding's span. */
function spanOf(uri: string, ref: UriReference, kind: DifferentialKind): [number, number] {
  const schemeEnd = ref.scheme !== undefined ? ref.scheme.length + 1 : 0;
  if (kind === 'scheme' && ref.scheme !== undefined) return [0, ref.scheme.length];
  if (ref.host !== undefined) {
    const hostStart = schemeEnd + 2 + (ref.userinfo !== undefined ? ref.userinfo.length + 1 : 0);
    const hostEnd = hostStart + ref.host.length;
    if (kind === 'host') return ref.host === '' ? [schemeEnd, hostEnd + ref.path.length] : [hostStart, hostEnd];
    const portEnd = ref.port !== undefined ? hostEnd + 1 + ref.port.length : hostEnd;
    if (kind === 'port') return ref.port !== undefined ? [hostEnd + 1, portEnd] : [hostStart, hostEnd];
    return [portEnd, portEnd + ref.path.length];
  }
  if (kind === 'path' || kind === 'host') return [schemeEnd, schemeEnd + ref.path.length];
  return [0, uri.length];
}

/**
 * Compares urikit's RFC 3986 reading of `uri` with the platform's WHATWG
 * `URL` reading of it on scheme, host (the address or name a client
 * reaches, with {@link classifyHost} on both), port and path, and returns
 * every difference (https://url.spec.whatwg.org/,
 * https://www.rfc-editor.org/rfc/rfc3986). Where one parser refuses the
 * input and the other reads it, the one difference is `validity`. Empty
 * for a relative reference (`URL` needs a base), when both agree, and
 * where the platform has no `URL` class. Never throws on a string.
 *
 * @example
 * ```ts
 * parserDifferentials('https://example.com/a') // []
 * parserDifferentials('http:/127.0.0.1/').map((d) => [d.kind, d.whatwg, d.whatwgClass]) // [["host", "127.0.0.1", "loopback"], ["path", "/", undefined]]
 * parserDifferentials('http://evil.example\\@good.example/')[0] // matches { kind: 'validity', rfc3986: undefined, whatwg: 'http://evil.example/@good.example/', whatwgClass: 'documentation' }
 * parserDifferentials('http://a/%2e%2e/admin')[0] // matches { kind: 'path', rfc3986: '/%2E%2E/admin', whatwg: '/admin' }
 * ```
 */
export function parserDifferentials(uri: string): ParserDifferential[] {
  const url = whatwgRead(uri);
  if (url === undefined) return [];
  let ref: UriReference;
  try {
    ref = componentsOf(uri, 'iri-reference');
  } catch (e) {
    if (!(e instanceof UriError)) throw e;
    if (url === null) return [];
    const d: ParserDifferential = { kind: 'validity', rfc3986: undefined, whatwg: url.href, start: 0, end: uri.length };
    const cls = url.hostname === '' ? undefined : classOf(url.hostname);
    if (cls !== undefined) d.whatwgClass = cls;
    return [d];
  }
  if (ref.scheme === undefined) return [];
  if (url === null) return [{ kind: 'validity', rfc3986: uri, whatwg: undefined, start: 0, end: uri.length }];
  const out: ParserDifferential[] = [];
  const scheme = ref.scheme.toLowerCase();
  const whatwgScheme = url.protocol.slice(0, -1);
  const push = (kind: DifferentialKind, rfc3986: string | undefined, whatwg: string | undefined, extra?: Partial<ParserDifferential>): void => {
    const [start, end] = spanOf(uri, ref, kind);
    out.push({ kind, rfc3986, whatwg, ...extra, start, end });
  };
  if (scheme !== whatwgScheme) push('scheme', scheme, whatwgScheme);
  const special = isSpecialScheme(whatwgScheme);
  const rfcHost = ref.host === '' ? undefined : ref.host;
  const whatwgHost = url.hostname === '' ? undefined : url.hostname;
  // RFC 3986 §3.2.2: a host that is not a dotted quad is a reg-name, which
  // a WHATWG parser may read as an address ("0x7f.1"): a differential even
  // where both name the same machine, since a filter on names misses it.
  const whatwgAddress = whatwgHost !== undefined && (whatwgHost.charCodeAt(0) === 0x5b || parseIPv4Address(whatwgHost) !== undefined);
  const rfcAddress = ref.hostKind === 'ipv4' || ref.hostKind === 'ipv6';
  if (!sameHost(scheme, rfcHost, whatwgHost) || (special && whatwgAddress !== rfcAddress)) {
    const extra: Partial<ParserDifferential> = {};
    const a = rfcHost === undefined ? undefined : classOf(rfcHost);
    const b = whatwgHost === undefined ? undefined : classOf(whatwgHost);
    if (a !== undefined) extra.rfc3986Class = a;
    if (b !== undefined) extra.whatwgClass = b;
    push('host', rfcHost, whatwgHost, extra);
  }
  // Port: as a number, the special scheme's default counting as none (URL Standard §4.4 port state).
  const rfcPort = ref.port === undefined || ref.port === '' ? undefined : Number(ref.port);
  const defaultPort = special ? SPECIAL_PORTS[whatwgScheme] : undefined;
  const rfcEffective = rfcPort === defaultPort ? undefined : rfcPort;
  const whatwgPort = url.port === '' ? undefined : Number(url.port);
  if (rfcEffective !== whatwgPort) push('port', ref.port, url.port === '' ? undefined : url.port);
  // Path: literal dot segments removed from a path that begins with "/"
  // (RFC 3986 §5.2.4, what resolution gives; a rootless path is opaque to
  // WHATWG); an empty path of a special scheme is "/" (RFC 3986 §6.2.3).
  let rfcPath = comparablePath(ref.path.charCodeAt(0) === 0x2f ? removeDotSegments(ref.path) : ref.path);
  if (special && rfcPath === '') rfcPath = '/';
  if (rfcPath !== comparablePath(url.pathname)) push('path', rfcPath, url.pathname);
  return out;
}
