/**
 * The libraries the comparison runs, each behind the same small set of
 * operations (`Lib`), so a case is written once and run against all of
 * them. Every operation calls the library's own public API; where a
 * library has no such operation the field is absent and the case shows
 * "—" (no such feature).
 *
 * Peers: fast-uri and uri-js (RFC 3986 parsers with scheme handlers),
 * whatwg-url (the reference implementation of the WHATWG URL Standard),
 * Node's built-in `URL` (the same standard, in V8's host), and URI.js
 * (`urijs`, the long-standing browser URL toolkit).
 */
import { createRequire } from 'node:module';
import * as urikit from 'urikit';

const require = createRequire(import.meta.url);
const fastUri = require('fast-uri') as typeof import('fast-uri');
const uriJs = require('uri-js') as typeof import('uri-js');
const whatwg = require('whatwg-url') as typeof import('whatwg-url');
const URIjs = require('urijs') as typeof import('urijs');

/** Generic components in RFC 3986 §3 terms: undefined = absent, "" = empty. */
export interface Components {
  scheme?: string | undefined;
  userinfo?: string | undefined;
  host?: string | undefined;
  port?: string | undefined;
  path: string;
  query?: string | undefined;
  fragment?: string | undefined;
}

/** The operations a case may ask of a library. Each throws on failure. */
export interface Lib {
  /** Column name in the tables. */
  name: string;
  /** npm package whose version is reported (undefined: the runtime). */
  pkg?: string;
  /** The generic components of a URI or relative reference. */
  components?(s: string): Components;
  /** parse then serialize again (RFC 3986 §5.3 recomposition). */
  roundTrip?(s: string): string;
  /** "valid", "invalid", or "invalid@<offset>" when the library reports where. */
  validate?(s: string): string;
  /** The offset of the first error the library reports (throws if it reports none). */
  errorOffset?(s: string): number;
  /** RFC 3986 §5.2 resolution of `ref` against `base`. */
  resolve?(base: string, ref: string): string;
  /** RFC 3986 §5.2.2 resolution by a non-strict parser (a scheme equal to the base's is ignored). */
  resolveNonStrict?(base: string, ref: string): string;
  /** The library's normalization (RFC 3986 §6.2.2 / §6.2.3 when it follows the RFC). */
  normalize?(s: string): string;
  /** The library's equality of two identifiers. */
  equal?(a: string, b: string): boolean;
  /** RFC 3987 §3.1: IRI -> URI. */
  iriToUri?(s: string): string;
  /** RFC 3987 §3.2: URI -> IRI. */
  uriToIri?(s: string): string;
}

/** Throws the library's own error message when it reports one in a result field. */
function check<T extends { error?: string | undefined }>(r: T): T {
  if (r.error !== undefined) throw new Error(r.error);
  return r;
}

function fromFastUri(r: import('fast-uri').URIComponent): Components {
  return {
    scheme: r.scheme, userinfo: r.userinfo, host: r.host,
    port: r.port === undefined || r.port === null ? undefined : String(r.port),
    path: r.path ?? '', query: r.query, fragment: r.fragment,
  };
}

function fromUriJs(r: import('uri-js').URIComponents): Components {
  return {
    scheme: r.scheme, userinfo: r.userinfo, host: r.host,
    port: r.port === undefined ? undefined : String(r.port),
    path: r.path ?? '', query: r.query, fragment: r.fragment,
  };
}

const urikitLib: Lib = {
  name: 'urikit',
  pkg: 'urikit',
  components(s) {
    const r = urikit.parse(s);
    return { scheme: r.scheme, userinfo: r.userinfo, host: r.host, port: r.port, path: r.path, query: r.query, fragment: r.fragment };
  },
  roundTrip: (s) => urikit.serialize(urikit.parse(s)),
  validate(s) {
    try { urikit.parse(s); return 'valid'; } catch (e) {
      if (urikit.isUriError(e)) return `invalid@${e.offset}`;
      throw e;
    }
  },
  errorOffset(s) {
    try { urikit.parse(s); } catch (e) { if (urikit.isUriError(e)) return e.offset; throw e; }
    throw new Error('accepted');
  },
  resolve: (b, r) => urikit.resolve(b, r),
  resolveNonStrict: (b, r) => urikit.resolve(b, r, { strict: false }),
  normalize: (s) => urikit.normalize(s, { level: 'scheme' }),
  equal: (a, b) => urikit.equivalent(a, b, { level: 'scheme' }),
  iriToUri: (s) => urikit.iriToUri(s),
  uriToIri: (s) => urikit.uriToIri(s),
};

const fastUriLib: Lib = {
  name: 'fast-uri',
  pkg: 'fast-uri',
  components: (s) => fromFastUri(check(fastUri.parse(s))),
  roundTrip: (s) => fastUri.serialize(check(fastUri.parse(s))),
  validate: (s) => (fastUri.parse(s).error === undefined ? 'valid' : 'invalid'),
  resolve: (b, r) => fastUri.resolve(b, r),
  resolveNonStrict: (b, r) => fastUri.resolve(b, r, { tolerant: true }),
  normalize: (s) => fastUri.normalize(s),
  equal: (a, b) => fastUri.equal(a, b),
  iriToUri: (s) => fastUri.serialize(check(fastUri.parse(s))),
};

const uriJsLib: Lib = {
  name: 'uri-js',
  pkg: 'uri-js',
  components: (s) => fromUriJs(check(uriJs.parse(s))),
  roundTrip: (s) => uriJs.serialize(check(uriJs.parse(s))),
  validate: (s) => (uriJs.parse(s).error === undefined ? 'valid' : 'invalid'),
  resolve: (b, r) => uriJs.resolve(b, r),
  resolveNonStrict: (b, r) => uriJs.resolve(b, r, { tolerant: true }),
  normalize: (s) => uriJs.normalize(s),
  equal: (a, b) => uriJs.equal(a, b),
  iriToUri: (s) => uriJs.serialize(check(uriJs.parse(s))),
  uriToIri: (s) => uriJs.serialize(check(uriJs.parse(s)), { iri: true }),
};

/** The URL record of the WHATWG URL Standard §4.1, or a throw on failure. */
function record(s: string): import('whatwg-url').URLRecord {
  const r = whatwg.parseURL(s);
  if (r === null) throw new Error('failure (WHATWG basic URL parser)');
  return r;
}

const whatwgLib: Lib = {
  name: 'whatwg-url',
  pkg: 'whatwg-url',
  // The URL record keeps null (absent) apart from "" (empty) for query and fragment.
  components(s) {
    const r = record(s);
    const userinfo = r.username === '' && r.password === '' ? undefined : r.password === '' ? r.username : `${r.username}:${r.password}`;
    return {
      scheme: r.scheme, userinfo,
      host: r.host === null ? undefined : whatwg.serializeHost(r.host),
      port: r.port === null ? undefined : String(r.port),
      path: whatwg.serializePath(r), query: r.query ?? undefined, fragment: r.fragment ?? undefined,
    };
  },
  roundTrip: (s) => whatwg.serializeURL(record(s)),
  validate: (s) => (whatwg.parseURL(s) === null ? 'invalid' : 'valid'),
  resolve: (b, r) => new whatwg.URL(r, b).href,
  // The URL Standard has one mode; for special schemes it is the non-strict one.
  resolveNonStrict: (b, r) => new whatwg.URL(r, b).href,
  normalize: (s) => new whatwg.URL(s).href,
  equal: (a, b) => new whatwg.URL(a).href === new whatwg.URL(b).href,
  iriToUri: (s) => new whatwg.URL(s).href,
};

/** Whether `href` has a "?" (or "#") delimiter: the URL class shows "" for both absent and empty. */
function delimited(href: string, c: '?' | '#'): boolean {
  const hash = href.indexOf('#');
  return c === '#' ? hash >= 0 : href.slice(0, hash < 0 ? href.length : hash).includes('?');
}

const nodeUrlLib: Lib = {
  name: 'Node URL',
  components(s) {
    const u = new URL(s);
    const userinfo = u.username === '' && u.password === '' ? undefined : u.password === '' ? u.username : `${u.username}:${u.password}`;
    const hasAuthority = u.href.startsWith(`${u.protocol}//`);
    return {
      scheme: u.protocol.slice(0, -1), userinfo,
      host: hasAuthority ? u.hostname : undefined,
      port: u.port === '' ? undefined : u.port,
      path: u.pathname,
      query: delimited(u.href, '?') ? u.search.slice(1) : undefined,
      fragment: delimited(u.href, '#') ? u.hash.slice(1) : undefined,
    };
  },
  roundTrip: (s) => new URL(s).href,
  validate: (s) => (URL.canParse(s) ? 'valid' : 'invalid'),
  resolve: (b, r) => new URL(r, b).href,
  resolveNonStrict: (b, r) => new URL(r, b).href,
  normalize: (s) => new URL(s).href,
  equal: (a, b) => new URL(a).href === new URL(b).href,
  iriToUri: (s) => new URL(s).href,
};

const uriJsToolkitLib: Lib = {
  name: 'URI.js',
  pkg: 'urijs',
  // URI.js models an absent component as "" (its getters never return undefined).
  components(s) {
    const u = URIjs(s);
    const opt = (v: string): string | undefined => (v === '' ? undefined : v);
    return {
      scheme: opt(u.protocol()), userinfo: opt(u.userinfo()), host: opt(u.hostname()),
      port: opt(u.port()), path: u.path(), query: opt(u.query()), fragment: opt(u.fragment()),
    };
  },
  roundTrip: (s) => URIjs(s).href(),
  validate(s) {
    try { URIjs(s); return 'valid'; } catch { return 'invalid'; }
  },
  resolve: (b, r) => URIjs(r).absoluteTo(b).href(),
  resolveNonStrict: (b, r) => URIjs(r).absoluteTo(b).href(),
  normalize: (s) => URIjs(s).normalize().href(),
  equal: (a, b) => URIjs(a).equals(b),
  iriToUri: (s) => URIjs(s).normalize().href(),
  uriToIri: (s) => URIjs(s).readable(),
};

/** urikit first, then the peers, in table order. */
export const LIBS: readonly Lib[] = [urikitLib, fastUriLib, uriJsLib, whatwgLib, nodeUrlLib, uriJsToolkitLib];

/** The version of each column: the npm package's, or Node's for the built-in `URL`. */
export function versionOf(lib: Lib): string {
  if (lib.pkg === undefined) return `Node.js ${process.version}`;
  const pkg = require(`${lib.pkg}/package.json`) as { version: string };
  return `${lib.pkg}@${pkg.version}`;
}

export { urikit, fastUri, uriJs, whatwg, URIjs };
