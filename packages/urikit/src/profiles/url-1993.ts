/**
 * The `url-1993` profile: Berners-Lee, "Uniform Resource Locators", IETF
 * draft, 1993. Its own one-pass scanner (the 1993 character set is not
 * RFC 3986's: `"` is allowed, `=` and `~` are not), the per-scheme BNF
 * ("BNF syntax": httpaddress, fileaddress (ftp), newsaddress, waisaddress,
 * prosperoaddress, telnetaddress, gopheraddress, afsaddress) and the
 * rules of the partial form.
 */
import { UriError, type UriErrorCode } from '../errors.js';
import { isAlpha } from '../chars.js';
import { resolveComponents, type Rfc3986ResolveOptions } from '../resolve.js';
import { serialize } from '../serialize.js';
import type { Kind, UriReference } from '../types.js';
import { removeDraftDotSegments } from './dot-segments.js';

// xalpha = alpha | digit | safe | extra | escape            ("BNF syntax")
// safe   = $ | - | _ | @ | . | &
// extra  = ! | * | " | ' | ( | ) | : | ; | , | space
// xpalpha = xalpha | +
// RULING("Full form" prose vs the "extra" rule): the prose says "spaces are
// not legal characters" in a URL, so "space" is left out of `extra`.
// Written as a RegExp character class (\w is alpha, digit and "_").
const XALPHA = '\\w$\\-@.&!*"\'():;,';
// *xalpha (with `more` characters), each escape = % hex hex, from the start of a string.
const run = (more: string): RegExp => new RegExp(`(?:[${XALPHA}${more}]|%[\\dA-Fa-f]{2})*`, 'y');
const XALPHAS = run('');
const XPALPHAS = run('+');
// path = void | xpalphas [ / path ]
const PATH_CHARS = run('+/');
// gtype = xalpha: one character (or the "%" of an escape)
const GTYPE = new RegExp(`[${XALPHA}%]`);

/** Checks that `s[from, to)` is all of `chars` (a run above); returns the bad offset or -1. */
function scanChars(s: string, from: number, to: number, chars: RegExp): number {
  const part = s.slice(from, to);
  chars.lastIndex = 0;
  chars.test(part);
  return chars.lastIndex < part.length ? from + chars.lastIndex : -1;
}

const fail = (input: string, at: number, code: UriErrorCode = 'bad-scheme-specific-part'): never => {
  throw new UriError(code, at, input);
};

/** hostport = host [ : port ]; host = hostname | hostnumber; hostname = ialpha [ . hostname ]. */
function checkHostport(input: string, ref: UriReference, at: number, portAllowed: boolean): void {
  const host = ref.host!;
  if (host === '') fail(input, at, 'bad-host');
  if (/^[\d.]+$/.test(host)) {
    // hostnumber = digits . digits . digits . digits
    if (!/^\d+\.\d+\.\d+\.\d+$/.test(host)) fail(input, at, 'bad-host');
    ref.hostKind = 'ipv4';
  } else {
    // ialpha = alpha [ xalphas ]: a letter first; ":" and "@" are taken by port and user.
    if (!isAlpha(host.charCodeAt(0))) fail(input, at, 'bad-host');
    const bad = scanChars(host, 0, host.length, XALPHAS);
    if (bad >= 0) fail(input, at + bad, 'bad-host');
  }
  if (ref.port !== undefined) {
    // port = digits
    if (!portAllowed || ref.port === '') fail(input, at + host.length, 'bad-port');
    const bad = ref.port.search(/\D/);
    if (bad >= 0) fail(input, at + host.length + 1 + bad, 'bad-port');
  }
}

/**
 * Splits and checks `input` under the 1993 draft: the full form
 * `scheme : path [ ? search ]` (with the `//hostport` of the Internet
 * protocols), the partial form (`kind` 'uri-reference'), `# fragmentid`,
 * and the BNF of each scheme the draft defines.
 *
 * @see https://www.rfc-editor.org/rfc/rfc1738 (the published successor of the 1993 draft)
 * @example
 * ```ts
 * parse1993('wais://quake.think.com/wais-discussion-archives?lynch', 'uri').query // 'lynch'
 * ```
 */
export function parse1993(input: string, kind: Kind): UriReference {
  // The 1993 draft knows no IRIs (RFC 3987 came in 2005).
  if (kind !== 'uri' && kind !== 'uri-reference' && kind !== 'absolute-uri') fail(input, 0, 'unknown-kind');
  const len = input.length;
  // fragmentaddress = url [ # fragmentid ]; fragmentid = xalphas
  let end = input.indexOf('#');
  const ref: UriReference = { path: '' };
  if (end >= 0) {
    if (kind === 'absolute-uri') throw new UriError('fragment-not-allowed', end, input);
    const bad = scanChars(input, end + 1, len, XALPHAS);
    if (bad >= 0) fail(input, bad, 'invalid-char');
    ref.fragment = input.slice(end + 1);
  } else end = len;
  // "A partial form can be distinguished from a full form in that a full
  // form must have a colon and that colon must occur before any slash characters."
  let i = 0;
  const colon = input.indexOf(':');
  const slash = input.indexOf('/');
  const question = input.indexOf('?');
  if (colon >= 0 && colon < end && (slash < 0 || colon < slash) && (question < 0 || colon < question)) {
    // scheme = ialpha
    if (!isAlpha(input.charCodeAt(0))) fail(input, 0, 'bad-scheme');
    const bad = scanChars(input, 0, colon, XALPHAS);
    if (bad >= 0) fail(input, bad, 'bad-scheme');
    ref.scheme = input.slice(0, colon);
    i = colon + 1;
  } else if (kind !== 'uri-reference') {
    throw new UriError('missing-scheme', 0, input);
  }
  // search = xalphas [ + search ]
  let pathEnd = end;
  if (question >= 0 && question < end) {
    pathEnd = question;
    const bad = scanChars(input, question + 1, end, XPALPHAS);
    if (bad >= 0) fail(input, bad, 'invalid-char');
    ref.query = input.slice(question + 1, end);
  }
  // The Internet protocol parts: "//" then up to the following "/".
  if (input.charCodeAt(i) === 0x2f && input.charCodeAt(i + 1) === 0x2f) {
    let a = i + 2;
    let authEnd = input.indexOf('/', a);
    if (authEnd < 0 || authEnd > pathEnd) authEnd = pathEnd;
    const at = input.lastIndexOf('@', authEnd - 1);
    if (at >= a) {
      // user = xalphas, "followed by a commercial at sign"
      const bad = scanChars(input, a, at, XALPHAS);
      if (bad >= 0 || at === a) fail(input, bad >= 0 ? bad : a, 'invalid-char');
      ref.userinfo = input.slice(a, at);
      a = at + 1;
    }
    const portColon = input.indexOf(':', a);
    if (portColon >= 0 && portColon < authEnd) {
      ref.host = input.slice(a, portColon);
      ref.port = input.slice(portColon + 1, authEnd);
    } else ref.host = input.slice(a, authEnd);
    ref.hostKind = 'reg-name';
    i = authEnd;
  }
  // path = void | xpalphas [ / path ]
  const bad = scanChars(input, i, pathEnd, PATH_CHARS);
  if (bad >= 0) fail(input, bad, 'invalid-char');
  ref.path = input.slice(i, pathEnd);
  if (ref.host !== undefined) checkHostport(input, ref, input.indexOf(ref.host, ref.scheme ? ref.scheme.length : 0), true);
  if (ref.scheme !== undefined) checkScheme1993(input, ref);
  return ref;
}

/**
 * The per-scheme BNF of the 1993 draft ("BNF syntax"). A user (and a
 * password after ":") is allowed wherever there is a host: the BNF prints
 * none, but "Internet protocol parts" admits "an optional user name [...]
 * followed by a commercial at sign" with "a password after the user name,
 * delimited by a colon", and the FTP section "the inclusion of a user name
 * and even a password".
 */
function checkScheme1993(input: string, ref: UriReference): void {
  const scheme = ref.scheme!.toLowerCase();
  const path = ref.path;
  const at = input.length - (ref.fragment !== undefined ? ref.fragment.length + 1 : 0) - (ref.query !== undefined ? ref.query.length + 1 : 0) - path.length;
  const needHost = (): void => {
    if (ref.host === undefined) fail(input, scheme.length + 1);
  };
  const noSearch = (): void => {
    if (ref.query !== undefined) fail(input, at + path.length);
  };
  switch (scheme) {
    case 'http':
      // httpaddress = h t t p : / / hostport [ / path ] [ ? search ]
      needHost();
      if (path !== '' && path.charCodeAt(0) !== 0x2f) fail(input, at);
      return;
    case 'ftp':
      // fileaddress = f t p : / / host / path
      needHost(); noSearch();
      if (ref.port !== undefined) fail(input, at - ref.port.length - 1, 'bad-port');
      if (path.charCodeAt(0) !== 0x2f) fail(input, at);
      return;
    case 'afs':
      // afsaddress = a f s : / / cellname / path; cellname = hostname
      needHost(); noSearch();
      if (ref.port !== undefined || ref.hostKind === 'ipv4') fail(input, scheme.length + 3, 'bad-host');
      if (path.charCodeAt(0) !== 0x2f) fail(input, at);
      return;
    case 'news': {
      // newsaddress = n e w s : groupart; groupart = * | group | article
      if (ref.host !== undefined) fail(input, scheme.length + 1);
      noSearch();
      if (path === '*') return;
      const sign = path.indexOf('@');
      if (sign >= 0) {
        // article = xalphas @ host
        if (sign === 0 || path.indexOf('/') >= 0) fail(input, at);
        checkHostport(input, { path: '', host: path.slice(sign + 1) }, at + sign + 1, false);
        return;
      }
      // group = ialpha [ . group ]
      if (!isAlpha(path.charCodeAt(0)) || path.indexOf('/') >= 0 || path.indexOf('+') >= 0) fail(input, at);
      return;
    }
    case 'wais': {
      // waisindex = w a i s : / / hostport / database [ ? search ]
      // waisdoc   = w a i s : / / hostport / database / wtype / digits / path
      needHost();
      const seg = path.split('/');
      if (seg[0] !== '' || seg.length < 2 || seg[1] === '' || path.indexOf('+') >= 0 && seg.length === 2) fail(input, at);
      if (seg.length === 2) return;
      noSearch();
      if (seg.length < 5 || seg[2] === '' || !/^[0-9]+$/.test(seg[3]!)) fail(input, at);
      return;
    }
    case 'prospero': {
      // prosperolink = p r o s p e r o : / / hostport / hsoname [ %00 version [ attributes ] ]
      needHost(); noSearch();
      if (path.charCodeAt(0) !== 0x2f) fail(input, at);
      const parts = path.split('%00');
      // version = digits, which may be empty when attributes follow ("Prospero")
      if (parts.length > 1 && !/^[0-9]*$/.test(parts[1]!)) fail(input, at);
      if (parts.length === 2 && parts[1] === '') fail(input, at);
      // attribute = alphanums
      for (let k = 2; k < parts.length; k++) if (!/^[A-Za-z0-9]+$/.test(parts[k]!)) fail(input, at);
      return;
    }
    case 'telnet':
    case 'rlogin':
    case 'tn3270':
      // telnetaddress = t e l n e t : / / [ user @ ] hostport
      needHost(); noSearch();
      if (path !== '') fail(input, at);
      return;
    case 'gopher':
      // gopheraddress = g o p h e r : / / hostport [ / gtype [ selector ] ] [ ? search ]
      needHost();
      if (path !== '' && path.charCodeAt(0) !== 0x2f) fail(input, at);
      // gtype = xalpha: one character (or one escape)
      if (path.length > 1 && !GTYPE.test(path[1]!)) fail(input, at + 1);
      return;
    default:
      // generic = scheme : path [ ? search ]
      return;
  }
}

/**
 * Resolves a partial form against its context URL by the rules of the
 * 1993 draft ("Partial form"): "If the scheme parts are different, the
 * whole absolute locator must be given"; "If the host and/or port parts are
 * different, the host, port name and all the rest of the locator must be
 * given"; "If a leading slash is present, the path is absolute."
 *
 * @see https://www.rfc-editor.org/rfc/rfc1738 (the published successor of the 1993 draft)
 * @example
 * ```ts
 * resolve1993('http://a/b/c/d', '../g') // 'http://a/b/g'
 * ```
 */
export function resolve1993(base: string, ref: string, opts?: Rfc3986ResolveOptions): string {
  const b = parse1993(base, 'uri');
  const r = parse1993(ref, 'uri-reference');
  return serialize(resolveComponents(b, r, {
    strict: true,
    dotsInWholePath: false,
    queryInMerge: true,
    // "The last part of the path of the context locator (anything following
    // the rightmost slash) is removed, and the given partial URL appended in
    // its place."
    slashForEmptyBase: 'never',
    // "Within the result, all occurrences of "/xxx/.." or "/." are
    // recursively removed, where xxx, ".." and "." are complete path elements."
    removeDots: (buffer) => removeDraftDotSegments(buffer, false, opts?.aboveRoot ?? 'keep'),
  }));
}
