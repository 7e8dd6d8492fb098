/**
 * The one-pass scanner of URI references: string -> components
 * (2003 draft §3, §4 and Appendix A; RFC 3986 §3, §4.1–4.3, Appendix A;
 * RFC 3987 §2.2 for the IRI kinds; RFC 6874 for zone identifiers).
 *
 * ```text
 *   foo://user@example.com:8042/over/there?name=ferret#nose
 *   \_/   \__/ \_________/ \__/\_________/ \_________/ \__/
 *    |     |        |       |      |           |        |
 * scheme userinfo  host    port   path       query  fragment
 * ```
 *
 * The scanner walks `charCodeAt` once, checks every character against the
 * lookup tables of chars.ts, records where each component begins and ends
 * in {@link scanState}, and throws a {@link UriError} at the first
 * offending character. Only {@link componentsOf} slices the component
 * strings. The public `parse` (entry.ts) calls it under the default profile.
 */
import { UriError, type UriErrorCode } from './errors.js';
import type { HostKind, Kind, UriReference } from './types.js';
import { ALPHA, CLASS, HEXDIG, LOWER_REG_NAME, PATH, QUERY, REG_NAME, SCHEME, SEGMENT_NC, runSkipper, ucscharLength } from './chars.js';
import { beginPath, editHost, editIPLiteral, editPath, editPort, editScheme, editTriplet, editUserinfo } from './normalizing-pass.js';
import { PLAIN_NORMAL, PLAIN_URI, isKind, plainComponents, plainNormalPass } from './plain-uri.js';
import { readIPv6address, readZoneID } from './host/ipv6.js';
import { readIPvFuture } from './host/ipvfuture.js';
import { isIPv4Address } from './host/ipv4.js';

/**
 * @internal The scan's state, all in one place: where the last scan found
 * each component (-1 when absent), the error it stopped at, and what the
 * last run of authority characters saw besides its end. Module state, not
 * an object per call, so that a scan allocates nothing; a scan is
 * synchronous and calls no user code, so two never interleave. One
 * constant object: V8 reads its fields faster than module-level `let`
 * bindings.
 *
 * @example
 * ```ts
 * offsetsForResolve('http://a/b?q', new Int32Array(4));
 * scanState.queryStart // 11
 * ```
 */
export const scanState = {
  schemeEnd: -1, // index of the ":" after the scheme
  userinfoStart: -1,
  userinfoEnd: -1,
  hostStart: -1, // -1: no authority
  hostEnd: -1,
  hostKind: 'reg-name' as HostKind,
  portStart: -1,
  portEnd: -1,
  pathStart: 0,
  pathEnd: 0,
  queryStart: -1,
  queryEnd: -1,
  fragmentStart: -1,
  // The first offending character (see fail).
  failCode: 'invalid-char' as UriErrorCode,
  failOffset: 0,
  // What the last authorityRun saw besides its end: the first ":" (-1 if
  // none), whether an upper-case letter or a triplet, and whether neither a
  // triplet nor a non-ASCII character (for normalize's pass).
  runColon: -1,
  runCased: false,
  runPlain: true,
};

// The run skippers of the classes the scanner reads runs of (chars.ts,
// runSkipper): each skips the plain characters up to the next one that
// needs a decision.
const SKIP_SEGMENT_NC = runSkipper(SEGMENT_NC);
const SKIP_PATH = runSkipper(PATH);
const SKIP_QUERY = runSkipper(QUERY);
const SKIP_REG_NAME = runSkipper(REG_NAME);
const SKIP_LOWER_REG_NAME = runSkipper(LOWER_REG_NAME);

const COLON = 0x3a;
const SLASH = 0x2f;
const QUESTION = 0x3f;
const HASH = 0x23;
const PERCENT = 0x25;
const AT = 0x40;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;

// The scanner reports an error by recording it and throwing this one
// object (no Error is built, no stack captured: isValid stays cheap on
// invalid input); parse turns it into a UriError.
const FAILURE: object = {};
function fail(code: UriErrorCode, offset: number): object {
  scanState.failCode = code;
  scanState.failOffset = offset;
  return FAILURE;
}

/** The end of `text[i]`'s `pct-encoded` triplet (RFC 3986 §2.1), or a `bad-percent` error at `i`. */
function pctEncoded(input: string, i: number): number {
  // The table, not a call: the scan stays in this module (chars.ts's hexValue reads the same set).
  const a = input.charCodeAt(i + 1);
  const b = input.charCodeAt(i + 2);
  if (!(a < 128 && CLASS[a]! & HEXDIG) || !(b < 128 && CLASS[b]! & HEXDIG)) throw fail('bad-percent', i);
  return i + 3;
}

/** An RFC 3987 `ucschar` (or `iprivate` when `privateToo`) at `i`, or an `invalid-char` error. */
function ucschar(input: string, i: number, iri: boolean, privateToo: boolean): number {
  const n = iri ? ucscharLength(input, i, privateToo) : 0;
  if (n === 0) throw fail('invalid-char', i);
  return i + n;
}

/** True when `c` ends the authority: "/" "?" "#" or the end of input (RFC 3986 §3.2). */
const endsAuthority = (c: number): boolean => c === SLASH || c === QUESTION || c === HASH || c === -1; // -1: end of input

/**
 * Scans `input` as `kind` and records the component offsets; throws a
 * {@link UriError} at the first offending character. With `normal`, the
 * scan is normalize's single pass and calls the edits of normalizing-pass.ts
 * on each component. `plain`: try the shortcut of plain-uri.ts first (the
 * caller has not). RFC 3986 §4.1: URI-reference = URI / relative-ref.
 */
function scan(input: string, kind: Kind, normal: boolean, plain: boolean): void {
  const iri = kind === 'iri' || kind === 'iri-reference';
  const needScheme = kind === 'uri' || kind === 'absolute-uri' || kind === 'iri';
  if (!iri && !needScheme && kind !== 'uri-reference') throw new UriError('unknown-kind', 0, String(kind));
  const len = input.length;
  const table = CLASS; // a local alias keeps the hot loops free of module-context loads
  const st = scanState;
  st.schemeEnd = st.userinfoStart = st.userinfoEnd = st.hostStart = st.hostEnd = st.portStart = st.portEnd = st.queryStart = st.queryEnd = st.fragmentStart = -1;
  scanState.hostKind = 'reg-name';
  // Only where the caller has not tried it. Not in normalize's pass: with it
  // there, equivalent (whose second pass compares as it goes) ran 1.1-1.4x
  // slower, measured in separate processes.
  if (plain && PLAIN_NORMAL.test(input)) {
    return plainScan(input);
  }
  let i = 0;
  // Code units are read only below `len`, so every one is a small integer
  // (never NaN), which keeps the loops on V8's fast integer path.

  // RFC 3986 §3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ), then ":".
  const c0 = at(input, 0, len);
  if (c0 >= 0 && c0 < 128 && table[c0]! & ALPHA) {
    let upper = false;
    let j = 0;
    for (; j < len; j++) {
      const c = input.charCodeAt(j);
      if (!(c < 128 && table[c]! & SCHEME)) break;
      if (c <= 0x5a && c >= 0x41) upper = true;
    }
    if (at(input, j, len) === COLON) {
      scanState.schemeEnd = j;
      i = j + 1;
      if (normal) editScheme(input, j, upper);
    }
  }
  if (scanState.schemeEnd < 0 && needScheme) missingScheme(input);

  // RFC 3986 §3.2: "//" authority, ended by "/", "?", "#" or the end.
  if (at(input, i, len) === SLASH && at(input, i + 1, len) === SLASH) {
    i = scanAuthority(input, i + 2, iri, normal);
  }

  // RFC 3986 §3.3 path; §4.2: in a relative-ref without authority, the first
  // segment must not contain ":" (path-noscheme: segment-nz-nc).
  scanState.pathStart = i;
  if (normal) beginPath();
  const relative = scanState.schemeEnd < 0 && scanState.hostStart < 0 && at(input, i, len) !== SLASH;
  if (scanState.schemeEnd < 0 && scanState.hostStart < 0) {
    // SEGMENT_NC holds ".": a dot segment here is the first segment.
    i = scanRun(input, i, SKIP_SEGMENT_NC, iri, false, normal, true);
    if (at(input, i, len) === COLON) throw fail('colon-in-first-segment', i);
  }
  // Path, query and fragment one by one: in normalize's pass each has its
  // own edits (RFC 3986 §6.2.2.3 dot segments in the path only).
  i = scanRun(input, i, SKIP_PATH, iri, false, normal, true);
  scanState.pathEnd = i;
  if (normal) editPath(input, scanState.pathStart, i, scanState.hostStart >= 0, relative, scanState.schemeEnd < 0);
  let c = at(input, i, len);

  // RFC 3986 §3.4: query = *( pchar / "/" / "?" ); RFC 3987: iquery adds iprivate.
  if (c === QUESTION) {
    scanState.queryStart = i + 1;
    i = scanRun(input, i + 1, SKIP_QUERY, iri, true, normal);
    scanState.queryEnd = i;
    c = at(input, i, len);
  }

  // RFC 3986 §3.5: fragment = *( pchar / "/" / "?" ); absolute-URI has none (§4.3).
  if (c === HASH) {
    if (kind === 'absolute-uri') throw fail('fragment-not-allowed', i);
    scanState.fragmentStart = i + 1;
    i = scanRun(input, i + 1, SKIP_QUERY, iri, false, normal);
  }
  if (i < len) throw fail('invalid-char', i);
}

/**
 * The scan of a string that {@link PLAIN_NORMAL} matches, once the scan
 * has reset the offsets: one RegExp call and two searches instead of the
 * scan's steps, each of which has a fixed cost that outweighs reading a
 * short URL (measured: parse 1.15-1.2x faster on the web and node_files
 * corpora). A function apart from the scan, so that V8 inlines the scan's
 * own calls as before.
 */
function plainScan(input: string): void {
  scanState.schemeEnd = input.indexOf(':');
  scanState.hostStart = scanState.schemeEnd + 3;
  scanState.hostEnd = scanState.pathStart = input.indexOf('/', scanState.hostStart);
  scanState.pathEnd = input.indexOf('?', scanState.pathStart);
  if (scanState.pathEnd < 0) scanState.pathEnd = input.length;
  else {
    scanState.queryStart = scanState.pathEnd + 1;
    scanState.queryEnd = input.length;
  }
  classifyRegName(input);
}

/**
 * The end of the run of `cls` characters, `pct-encoded` triplets (RFC 3986
 * §2.1) and, in an IRI, `ucschar` (and `iprivate` when `privateToo`,
 * RFC 3987 §2.2) that begins at `i`: every component is one such run. In
 * normalize's pass (`normal`) each triplet is brought to normal form as it
 * is met (in a path, `dots`: a "%2E" may make a dot segment; editPath
 * finds the literal ones).
 */
function scanRun(input: string, i: number, skip: RegExp, iri: boolean, privateToo: boolean, normal = false, dots = false): number {
  const len = input.length;
  for (;;) {
    skip.lastIndex = i;
    skip.test(input);
    i = skip.lastIndex;
    if (i >= len) return len;
    const c = input.charCodeAt(i);
    if (c === PERCENT) {
      i = pctEncoded(input, i);
      if (normal) editTriplet(input, i - 3, dots);
    } else if (c < 128) {
      return i;
    } else {
      i = ucschar(input, i, iri, privateToo);
    }
  }
}

/** The code unit at `i`, or -1 at or past the end (never NaN). */
function at(input: string, i: number, len: number): number {
  return i < len ? input.charCodeAt(i) : -1;
}

/** The error for an input that must have a scheme and has none (RFC 3986 §3.1). */
function missingScheme(input: string): never {
  if (input.length === 0) throw fail('empty', 0);
  // A ":" before any "/", "?" or "#" means a scheme was meant but is malformed.
  for (let j = 0; j < input.length; j++) {
    const c = input.charCodeAt(j);
    if (c === SLASH || c === QUESTION || c === HASH) break;
    if (c === COLON) {
      if (j === 0) throw fail('bad-scheme', 0);
      let k = 0;
      if (CLASS[input.charCodeAt(0)]! & ALPHA) while (k < j && (CLASS[input.charCodeAt(k)]! & SCHEME) !== 0) k++;
      throw fail('bad-scheme', k);
    }
  }
  throw fail('missing-scheme', 0);
}


/**
 * The end of the run of userinfo characters (RFC 3986 §3.2.1: unreserved,
 * sub-delims, ":", triplets; in an IRI also ucschar) from `i`, noting the
 * first ":" and any upper-case letter or triplet. reg-name and port
 * characters are userinfo characters, so one run reads "host:port" too.
 */
function authorityRun(input: string, i: number, iri: boolean): number {
  const len = input.length;
  scanState.runColon = -1;
  scanState.runCased = false;
  scanState.runPlain = true;
  // An empty authority ("file:///") needs no run.
  if (endsAuthority(at(input, i, len))) return i;
  let skip = SKIP_LOWER_REG_NAME;
  for (;;) {
    skip.lastIndex = i;
    skip.test(input);
    i = skip.lastIndex;
    if (i >= len) return len;
    const c = input.charCodeAt(i);
    if (c === COLON) {
      if (scanState.runColon < 0) scanState.runColon = i;
      i++;
    } else if (c <= 0x5a && c >= 0x41) {
      // Once a letter is upper case, skip them all: the edit reads the host again.
      scanState.runCased = true;
      skip = SKIP_REG_NAME;
      i++;
    } else if (c === PERCENT) {
      i = pctEncoded(input, i);
      scanState.runCased = true;
      scanState.runPlain = false;
    } else if (c < 128) {
      return i;
    } else {
      i = ucschar(input, i, iri, false);
      scanState.runPlain = false;
    }
  }
}

/**
 * RFC 3986 §3.2: authority = [ userinfo "@" ] host [ ":" port ]. The first
 * run reads userinfo characters; without an "@" the same run was the host
 * and port (reg-name and port characters are userinfo characters), so
 * the authority is read once. Returns where the authority ends.
 */
function scanAuthority(input: string, start: number, iri: boolean, normal: boolean): number {
  const len = input.length;
  const j = authorityRun(input, start, iri);
  const c = at(input, j, len);
  if (c === AT) {
    // RFC 3986 §3.2.1 userinfo "@"
    scanState.userinfoStart = start;
    scanState.userinfoEnd = j;
    if (normal && scanState.runCased) editUserinfo(input, start, j);
    return scanHost(input, j + 1, iri, normal);
  }
  if (c === LBRACKET && j === start) return scanHost(input, j, iri, normal);
  if (!endsAuthority(c)) throw fail('invalid-char', j);
  scanState.hostStart = start;
  scanState.hostEnd = scanState.runColon < 0 ? j : scanState.runColon;
  if (normal) editHost(input, start, scanState.hostEnd, scanState.runCased, scanState.runPlain);
  if (scanState.runColon >= 0) scanPort(input, scanState.runColon + 1, normal);
  classifyRegName(input);
  return j;
}

/** RFC 3986 §3.2.2: host = IP-literal / IPv4address / reg-name, then [ ":" port ]. */
function scanHost(input: string, start: number, iri: boolean, normal: boolean): number {
  const len = input.length;
  scanState.hostStart = start;
  let j: number;
  let c = at(input, start, len);
  if (c === LBRACKET) {
    j = scanIPLiteral(input, start);
    c = at(input, j, len);
    if (normal) editIPLiteral(input, start, j, scanState.hostKind === 'ipv6');
  } else {
    j = scanRun(input, start, SKIP_REG_NAME, iri, false);
    c = at(input, j, len);
    scanState.hostEnd = j;
    classifyRegName(input);
    if (normal) editHost(input, start, j);
  }
  if (c === COLON) return scanPort(input, j + 1, normal);
  if (!endsAuthority(c)) throw fail('invalid-char', j);
  return j;
}

/** A reg-name that is a strict dotted-decimal address is `ipv4` (RFC 3986 §3.2.2, first-match-wins). */
function classifyRegName(input: string): void {
  scanState.hostKind = isIPv4Address(input, scanState.hostStart, scanState.hostEnd) ? 'ipv4' : 'reg-name';
}

/** RFC 3986 §3.2.3: port = *DIGIT, ended by the end of the authority. */
function scanPort(input: string, start: number, normal: boolean): number {
  const len = input.length;
  let j = start;
  while (j < len) {
    const c = input.charCodeAt(j);
    if (c < 0x30 || c > 0x39) break;
    j++;
  }
  if (!endsAuthority(at(input, j, len))) throw fail('bad-port', j);
  scanState.portStart = start;
  scanState.portEnd = j;
  if (normal) editPort(input, start - 1, j);
  return j;
}

/**
 * RFC 3986 §3.2.2: IP-literal = "[" ( IPv6address / IPvFuture ) "]";
 * RFC 6874 §2: IP-literal = "[" ( IPv6address / IPv6addrz / IPvFuture ) "]".
 * Returns the index after "]".
 */
function scanIPLiteral(input: string, start: number): number {
  const len = input.length;
  let close = start + 1;
  let zone = -1; // the first "%", where an RFC 6874 zone begins
  for (;; close++) {
    const c = at(input, close, len);
    if (c === RBRACKET) break;
    if (c === PERCENT && zone < 0) zone = close;
    if (endsAuthority(c)) throw fail('unclosed-ip-literal', start);
  }
  const first = at(input, start + 1, len);
  if (first === 0x76 || first === 0x56) {
    readIPvFuture(input, start + 1, close);
    scanState.hostKind = 'ipvfuture';
  } else {
    readIPv6address(input, start + 1, zone < 0 ? close : zone, undefined, input);
    if (zone >= 0) {
      // RFC 6874 §2: IPv6addrz = IPv6address "%25" ZoneID
      if (input.charCodeAt(zone + 1) !== 0x32 || input.charCodeAt(zone + 2) !== 0x35) throw fail('bad-zone-id', zone);
      readZoneID(input, zone + 3, close, input);
    }
    scanState.hostKind = 'ipv6';
  }
  scanState.hostEnd = close + 1;
  return close + 1;
}

/** Builds the result object from the offsets of the last scan. */
function components(input: string): UriReference {
  const ref = {} as UriReference;
  if (scanState.schemeEnd >= 0) ref.scheme = input.slice(0, scanState.schemeEnd);
  if (scanState.hostStart >= 0) {
    if (scanState.userinfoStart >= 0) ref.userinfo = input.slice(scanState.userinfoStart, scanState.userinfoEnd);
    ref.host = input.slice(scanState.hostStart, scanState.hostEnd);
    ref.hostKind = scanState.hostKind;
    if (scanState.portStart >= 0) ref.port = input.slice(scanState.portStart, scanState.portEnd);
  }
  ref.path = input.slice(scanState.pathStart, scanState.pathEnd);
  if (scanState.queryStart >= 0) ref.query = input.slice(scanState.queryStart, scanState.queryEnd);
  if (scanState.fragmentStart >= 0) ref.fragment = input.slice(scanState.fragmentStart);
  return ref;
}

/**
 * Splits a URI reference into its components exactly as written
 * (RFC 3986 §3 and §4, https://www.rfc-editor.org/rfc/rfc3986#section-3),
 * checking it against `kind`; throws a {@link UriError} with the code and
 * offset of the first offending character.
 *
 * @example
 * ```ts
 * componentsOf('foo://user@example.com:8042/over/there?name=ferret#nose') // { scheme: 'foo', userinfo: 'user', host: 'example.com', hostKind: 'reg-name',
 * //   port: '8042', path: '/over/there', query: 'name=ferret', fragment: 'nose' }
 * componentsOf('../a?') // { path: '../a', query: '' }
 * ```
 */
export function componentsOf(input: string, kind: Kind = 'uri-reference'): UriReference {
  const plain = plainComponents(input, kind);
  if (plain !== undefined) return plain;
  try {
    scan(input, kind, false, false);
  } catch (e) {
    throw e === FAILURE ? new UriError(scanState.failCode, scanState.failOffset, input) : e;
  }
  return components(input);
}

/**
 * True if `input` matches the grammar rule `kind` (RFC 3986 Appendix A,
 * https://www.rfc-editor.org/rfc/rfc3986#appendix-A; RFC 3987 §2.2 for IRIs),
 * without building the components.
 *
 * @example
 * ```ts
 * isValid3986('http://example.com/a b') // false
 * isValid3986('//example.com/x', 'uri') // false (no scheme)
 * isValid3986('http://例え.jp/', 'iri') // true
 * ```
 */
export function isValid3986(input: string, kind: Kind = 'uri-reference'): boolean {
  // One RegExp call instead of the scan's steps, each of which has a fixed
  // cost that outweighs reading the characters of a short URL (measured:
  // isValid 1.4-1.7x faster on the web and node_files corpora, 1.2x on isaacs).
  if (PLAIN_URI.test(input) && isKind(kind)) return true;
  try {
    // PLAIN_URI admits every string PLAIN_NORMAL does: the scan's shortcut would fail.
    scan(input, kind, false, false);
  } catch (e) {
    if (e === FAILURE || e instanceof UriError) return false;
    throw e;
  }
  return true;
}

/**
 * @internal Scans `input` as an IRI reference (RFC 3987 §2.2, which admits
 * every URI reference) without building its components, and writes into
 * `into` where the scheme ends (the ":", or -1), the host begins (-1: no
 * authority), and the path begins and ends. False when it is invalid.
 * For `resolve`'s fast path, which slices only what the target needs.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-3
 * @example
 * ```ts
 * const at = new Int32Array(4);
 * offsetsForResolve('http://a/b/c?q', at) // true
 * Array.from(at) // [4, 7, 8, 12]
 * ```
 */
export function offsetsForResolve(input: string, into: Int32Array): boolean {
  try {
    scan(input, 'iri-reference', false, true);
  } catch (e) {
    if (e === FAILURE || e instanceof UriError) return false;
    throw e;
  }
  into[0] = scanState.schemeEnd;
  into[1] = scanState.hostStart;
  into[2] = scanState.pathStart;
  into[3] = scanState.pathEnd;
  return true;
}

/**
 * @internal Runs normalize's single pass over `input` as an IRI reference
 * (RFC 3987 §2.2, which admits every URI reference): the scan of
 * {@link componentsOf}, calling the edits of normalizing-pass.ts (begun and ended by
 * the caller); throws the {@link UriError} that `parse` throws.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-6.2.2
 * @example
 * ```ts
 * import { beginEdits, endEdits } from './normalizing-pass.js';
 * beginEdits(true);
 * normalizingScan('HTTP://A/');
 * endEdits('HTTP://A/') // "http://a/"
 * ```
 */
export function normalizingScan(input: string, plain?: boolean): void {
  // `plain`: plain-uri.ts's plainNormalForm found it plain (only normalize
  // asks: in equivalent, whose second pass compares as it goes, the test
  // made the whole 1.1-1.4x slower, separate processes).
  if (plain) return plainNormalPass(input);
  try {
    scan(input, 'iri-reference', true, false);
  } catch (e) {
    throw e === FAILURE ? new UriError(scanState.failCode, scanState.failOffset, input) : e;
  }
}

