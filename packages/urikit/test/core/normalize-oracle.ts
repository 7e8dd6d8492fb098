/**
 * The comparison ladder of RFC 3986 §6.2 transcribed over parsed
 * components, as a test oracle (STYLE §9): parse, the steps of §6.2.2 on
 * each component (case, percent-encoding, dot segments, empty port), the
 * generic part of §6.2.3 (default port, empty path, IPv6 text), the
 * scheme's own step, serialize. This was urikit's implementation before
 * normalize became one pass over the characters (src/normalizing-pass.ts);
 * the tests hold the pass to this oracle's answers. Only for tests.
 */
import { CLASS, UNRESERVED, octetAt } from '../../src/chars.js';
import { UriError } from '../../src/errors.js';
import { componentsOf } from '../../src/rfc3986-scanner.js';
import { serialize } from '../../src/serialize.js';
import { removeDotSegments } from '../../src/remove-dot-segments.js';
import { pctTriplet } from '../../src/triplets.js';
import { parseIPv6Address, formatIPv6 } from '../../src/host/ipv6.js';
import { parseIPv4Address } from '../../src/host/ipv4.js';
import { getSchemeRules, registeredCodec } from '../../src/schemes/registry.js';
import { normalizeRelativePath } from '../../src/relative-path.js';
import { urnLexicalForm } from '../../src/urn/lexical.js';
import type { UriReference } from '../../src/types.js';
import type { CompareLevel, EquivalentOptions, NormalizeLevel, NormalizeOptions } from '../../src/normalize.js';

/**
 * RFC 3986 §6.2.2.1 and §6.2.2.2: `%hh` to `%HH`, and a triplet of an
 * unreserved character decoded; with `lower`, ASCII letters outside the
 * triplets to lower case (for the host). One pass; the text is returned
 * unchanged when nothing applies.
 */
function normalizePercent(s: string, lower: boolean): string {
  let out = '';
  let run = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x25) {
      const octet = octetAt(s, i);
      if (octet < 0) continue; // not reached for parsed input
      let rep: string;
      if (octet < 128 && CLASS[octet]! & UNRESERVED) {
        rep = String.fromCharCode(lower && octet >= 0x41 && octet <= 0x5a ? octet + 32 : octet);
      } else {
        rep = pctTriplet(octet);
        if (rep === s.slice(i, i + 3)) { i += 2; continue; }
      }
      out += s.slice(run, i) + rep;
      i += 2;
      run = i + 1;
    } else if (lower && c >= 0x41 && c <= 0x5a) {
      out += s.slice(run, i) + String.fromCharCode(c + 32);
      run = i + 1;
    }
  }
  return run === 0 ? s : out + s.slice(run);
}

/** A relative path's segment percent-normalized; one made of "." and "%2E" only keeps its triplets ("%2E"). */
function normalizeSegment(segment: string): string {
  const n = normalizePercent(segment, false);
  return (n === '.' || n === '..') && n !== segment ? segment.replaceAll('%2e', '%2E') : n;
}

/** The host, case- and percent-normalized; IPv6 to RFC 5952 §4 text at the scheme level. */
function normalizeHost(ref: UriReference, scheme: boolean): string {
  const host = ref.host!;
  if (ref.hostKind === 'ipv6') {
    // RFC 6874 §2: the "%25" before the ZoneID is a delimiter; the zone keeps its case.
    const pct = host.indexOf('%25');
    const address = pct < 0 ? host.slice(1, -1) : host.slice(1, pct);
    const zone = pct < 0 ? undefined : normalizePercent(host.slice(pct + 3, -1), false);
    if (scheme) return '[' + formatIPv6(parseIPv6Address(address).groups, zone) + ']';
    return '[' + address.toLowerCase() + (zone === undefined ? '' : '%25' + zone) + ']';
  }
  return normalizePercent(host, true);
}

/** Strips leading zeros from a port's digits, keeping at least one. */
function trimPort(port: string): string {
  let i = 0;
  while (i < port.length - 1 && port.charCodeAt(i) === 0x30) i++;
  return i === 0 ? port : port.slice(i);
}

/**
 * The ladder on parsed components: returns a new reference. At the scheme
 * level a codec's own rules follow the generic steps (§6.2.3).
 */
function normalizeReference(ref: UriReference, level: NormalizeLevel): UriReference {
  const out = genericSteps(ref, level);
  const codec = level === 'scheme' && out.scheme !== undefined ? getSchemeRules(out.scheme) : undefined;
  if (codec?.normalize === undefined) return out;
  // §6.2.3: the codec's own rules, on the generic normal form; a codec
  // returns a reference in normal form (the built-in ones: schemes/rules.ts).
  try {
    return codec.normalize(out);
  } catch (e) {
    // A URI that breaks its scheme's own rules keeps its generic normal form.
    if (!(e instanceof UriError)) throw e;
    return out;
  }
}

/** The generic rungs of the ladder: §6.2.2, and at the scheme level the generic part of §6.2.3. */
function genericSteps(ref: UriReference, level: NormalizeLevel): UriReference {
  const scheme = level === 'scheme';
  const out = {} as UriReference;
  // §6.2.2.1: the scheme is case-insensitive; it is never percent-decoded (DESIGN.md rulings).
  if (ref.scheme !== undefined) out.scheme = ref.scheme.toLowerCase();
  const codec = scheme && out.scheme !== undefined ? getSchemeRules(out.scheme) : undefined;
  if (ref.host !== undefined) {
    if (ref.userinfo !== undefined) out.userinfo = normalizePercent(ref.userinfo, false);
    out.host = normalizeHost(ref, scheme);
    // Decoding may turn a reg-name into a dotted quad ("%31.2.3.4"): classify again (§3.2.2).
    out.hostKind = ref.hostKind === 'reg-name' && parseIPv4Address(out.host) !== undefined ? 'ipv4' : ref.hostKind!;
    // §3.2.3: "URI producers and normalizers should omit the port component
    // and its ':' delimiter if port is empty" (no scheme knowledge needed);
    // §6.2.3: the scheme's default port is omitted too.
    let port = ref.port === '' ? undefined : ref.port;
    if (port !== undefined && codec?.defaultPort !== undefined) {
      port = trimPort(port);
      if (port === String(codec.defaultPort)) port = undefined;
    }
    if (port !== undefined) out.port = port;
  }
  // §6.2.2.2, then §6.2.2.3: dot segments are removed from a URI's path and
  // from an absolute path; a relative path keeps those a base could give a
  // meaning to (its leading ".." and the first segment, see relative-path.ts).
  let path: string;
  if (out.scheme !== undefined || out.host !== undefined || ref.path.charCodeAt(0) === 0x2f) {
    // A relative reference (no scheme) keeps a "%2E" segment encoded: it is
    // data in its resolution (§5.2.4), so "/a/%2e%2E/.." is "/a/", not "/".
    const percent = out.scheme === undefined ? ref.path.split('/').map(normalizeSegment).join('/') : normalizePercent(ref.path, false);
    path = removeDotSegments(percent);
    // As in resolve(): a path without authority must not begin with "//" (§3.3).
    if (out.host === undefined && path.charCodeAt(0) === 0x2f && path.charCodeAt(1) === 0x2f) path = '/.' + path;
  } else {
    // In resolution "%2E" is data (§5.2.4; DESIGN.md rulings): the segments a
    // later ".." removes are found before decoding, and a segment that would
    // decode to "." or ".." stays encoded, as it still counts as data there.
    path = normalizeRelativePath(ref.path);
    if (path.indexOf('%') >= 0) path = path.split('/').map(normalizeSegment).join('/');
  }
  // §6.2.3: an empty path with an authority is "/" when the scheme says so.
  if (path === '' && out.host !== undefined && codec?.emptyPathIsSlash === true) path = '/';
  out.path = path;
  if (ref.query !== undefined) out.query = normalizePercent(ref.query, false);
  if (ref.fragment !== undefined) out.fragment = normalizePercent(ref.fragment, false);
  return out;
}

/**
 * The normal form of a parsed reference as a string. At the scheme level
 * a `urn:` that is a URN under RFC 8141 takes the urn scheme's lexical
 * form (RFC 8141 §3.1: percent-encoding is never decoded; the namespace's
 * rules apply), unless a caller registered a codec of its own for `urn`;
 * a `urn:` that is no URN keeps the generic form, read again as a URN if
 * the generic steps made it one (so that the result is a fixed point).
 * `components` false drops a URN's r-, q- and f-components (for equivalence).
 */
function normalForm(ref: UriReference, level: NormalizeLevel, components: boolean): string {
  const urn = level === 'scheme' && isUrnScheme(ref.scheme) && registeredCodec('urn') === undefined;
  if (urn) {
    const lexical = urnLexicalForm(serialize(ref), components);
    if (lexical !== undefined) return lexical;
  }
  const out = serialize(normalizeReference(ref, level));
  if (!urn) return out;
  const again = componentsOf(out, 'iri-reference');
  return urnLexicalForm(serialize(again), components) ?? out;
}

/** True for "urn" in any case (RFC 3986 §3.1: schemes are case-insensitive). */
const isUrnScheme = (scheme: string | undefined): boolean =>
  scheme !== undefined && scheme.length === 3 && scheme.toLowerCase() === 'urn';

/**
 * Normalizes a URI reference (or IRI reference) up the comparison ladder
 * of RFC 3986 §6.2 (https://www.rfc-editor.org/rfc/rfc3986#section-6.2.2).
 * At `syntax` (§6.2.2, no scheme knowledge): scheme and host to lower
 * case, `%hh` to `%HH`, triplets of unreserved characters decoded, dot
 * segments removed (from a relative path only where no base can give them
 * a meaning), an empty port omitted (§3.2.3). At `scheme` (the default,
 * §6.2.3) also: the default port omitted, an empty path with an authority
 * to `/` when the scheme says so, IPv6 hosts to their RFC 5952 text, the
 * scheme codec's own rules, and for a URN the rules of RFC 8141 §3 and of
 * its namespace (percent-encoding is then never decoded). Idempotent;
 * throws a {@link UriError} on invalid input.
 *
 * @example
 * ```ts
 * normalize('HTTP://www.Example.COM:80/a/%7euser/./b/../c') // "http://www.example.com/a/~user/c"
 * normalize('http://[2001:DB8:0:0::1]:80', { level: 'syntax' }) // "http://[2001:db8:0:0::1]:80"
 * normalize('HTTPS://Example.com:', { level: 'syntax' }) // "https://example.com"
 * normalize('mid/content=5/../6') // "mid/6"
 * normalize('URN:ISBN:0-395-36341-1?+r%2f') // "urn:isbn:0395363411?+r%2F"
 * normalize('urn:example:%41', { level: 'syntax' }) // "urn:example:A"
 * ```
 */
export function normalizeOracle(input: string, opts?: NormalizeOptions): string {
  return normalForm(componentsOf(input, 'iri-reference'), opts?.level ?? 'scheme', true);
}

/** The text before the first "#", for simple comparison without the fragment. */
const withoutFragment = (s: string): string => {
  const k = s.indexOf('#');
  return k < 0 ? s : s.slice(0, k);
};

/**
 * True if `a` and `b` identify the same resource at the given rung of the
 * comparison ladder (RFC 3986 §6.2, https://www.rfc-editor.org/rfc/rfc3986#section-6.2):
 * `simple` compares the strings, `syntax` and `scheme` (the default)
 * compare the normal forms of {@link normalize}, and at `scheme` a scheme
 * codec may compare the components itself; two URNs compare by RFC 8141 §3
 * (r-, q- and f-components ignored) and their namespace's rules. Symmetric.
 * Fragments count unless `ignoreFragment` (or the scheme says they are not
 * significant).
 *
 * @example
 * ```ts
 * equivalent('http://example.com', 'HTTP://EXAMPLE.com:80/') // true
 * equivalent('http://a/b#x', 'http://a/b#y', { ignoreFragment: true }) // true
 * equivalent('http://a/%7E', 'http://a/~', { level: 'simple' }) // false
 * equivalent('urn:isbn:0-395-36341-1', 'URN:ISBN:0395363411') // true
 * equivalent('urn:example:a123,z456', 'urn:example:a123,z456?+abc') // true
 * equivalent('urn:example:%41', 'urn:example:A') // false
 * ```
 */
export function equivalentOracle(a: string, b: string, opts?: EquivalentOptions): boolean {
  const level = opts?.level ?? 'scheme';
  const ignoreFragment = opts?.ignoreFragment === true;
  if (level === 'simple') return ignoreFragment ? withoutFragment(a) === withoutFragment(b) : a === b;
  if (level !== 'syntax' && level !== 'scheme') throw new UriError('bad-component', 0, String(level), 'unknown comparison level');
  const ra = componentsOf(a, 'iri-reference');
  const rb = componentsOf(b, 'iri-reference');
  if (level === 'scheme' && isUrnScheme(ra.scheme) && isUrnScheme(rb.scheme) && registeredCodec('urn') === undefined) {
    // RFC 8141 §3.1: URN-equivalence ignores the r-, q- and f-components.
    const ua = normalForm(ra, level, false);
    const ub = normalForm(rb, level, false);
    return ignoreFragment ? withoutFragment(ua) === withoutFragment(ub) : ua === ub;
  }
  const na = normalizeReference(ra, level);
  const nb = normalizeReference(rb, level);
  const codec = level === 'scheme' && na.scheme !== undefined && na.scheme === nb.scheme ? getSchemeRules(na.scheme) : undefined;
  if (ignoreFragment || codec?.fragmentSignificant === false) {
    delete na.fragment;
    delete nb.fragment;
  }
  if (codec?.equivalent !== undefined) {
    try {
      return codec.equivalent(na, nb);
    } catch (e) {
      if (!(e instanceof UriError)) throw e;
    }
  }
  return serialize(na) === serialize(nb);
}
