/**
 * Internationalized Resource Identifiers (RFC 3987,
 * https://www.rfc-editor.org/rfc/rfc3987): mapping an IRI to the URI it
 * stands for (§3.1) and a URI back to the IRI that shows it best (§3.2).
 *
 * The grammar itself (`IRI`, `IRI-reference`, `ucschar`, `iprivate`) is
 * the core scanner's: `parse(text, 'iri')` and `isValid(text, 'iri')`.
 *
 * ```text
 *   IRI                          URI
 *   http://résumé.example/Dürst  http://xn--rsum-bpad.example/D%C3%BCrst
 *          \____________/ \___/         \________________/ \_________/
 *           ireg-name      ipath         IDNA ToASCII       UTF-8, %XX
 * ```
 */
import { UriError } from './errors.js';
import { CLASS, UNRESERVED, isBidiFormat, octetAt } from './chars.js';
import { utf8At, utf8Length, utf8Triplets } from './percent.js';
import { componentsOf } from './rfc3986-scanner.js';
import { serialize } from './serialize.js';
import { domainToASCII, domainToUnicode, type IdnaOptions } from './host/idna.js';
import type { UriReference } from './types.js';
import { scriptsOf, isWholeScriptConfusable } from './security/confusables.js';

/**
 * RFC 3987 §3.1 step 2: every non-ASCII character as the percent-encoded
 * octets of its UTF-8 form; ASCII is copied as is.
 */
function encodeNonAscii(s: string): string {
  let i = 0;
  while (i < s.length && s.charCodeAt(i) < 0x80) i++;
  if (i === s.length) return s;
  let out = s.slice(0, i);
  for (; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) {
      out += s[i];
      continue;
    }
    if (c >= 0xd800 && c < 0xdc00) {
      c = s.codePointAt(i)!;
      if (c > 0xffff) i++;
    }
    // UTF-8 (RFC 3629 §3)
    out += utf8Triplets(c);
  }
  return out;
}

/**
 * Options of {@link iriToUri}.
 *
 * @example
 * ```ts
 * const opts: IriToUriOptions = { host: 'percent-encode' };
 * iriToUri('http://r\u00E9sum\u00E9.example.org/', opts) // "http://r%C3%A9sum%C3%A9.example.org/"
 * ```
 */
export interface IriToUriOptions {
  /**
   * How a non-ASCII `ireg-name` becomes ASCII: `'idna'` (default, RFC 3987
   * §3.1 "for schemes known to use DNS", UTS #46 ToASCII) or
   * `'percent-encode'` (RFC 3987 §3.1 step 2, like every other component).
   */
  host?: 'idna' | 'percent-encode';
  /**
   * UTS #46 flags for `host: 'idna'`; default all off, as a user agent
   * resolving the name does (WHATWG URL "domain to ASCII").
   */
  idna?: IdnaOptions;
}

const LENIENT: IdnaOptions = { checkHyphens: false, useSTD3ASCIIRules: false, verifyDnsLength: false };

/**
 * Maps an IRI reference to a URI reference (RFC 3987 §3.1,
 * https://www.rfc-editor.org/rfc/rfc3987#section-3.1): non-ASCII characters
 * outside the host become percent-encoded UTF-8, a non-ASCII host goes
 * through IDNA. Throws a {@link UriError} if `iri` is not an
 * `IRI-reference` (the parser's code and offset) or its host cannot be
 * converted (`bad-idna`).
 *
 * @example
 * ```ts
 * iriToUri('http://www.example.org/red%09ros\u00E9#red') // "http://www.example.org/red%09ros%C3%A9#red"
 * iriToUri('http://r\u00E9sum\u00E9.example.org/') // "http://xn--rsum-bpad.example.org/"
 * iriToUri('http://r\u00E9sum\u00E9.example.org/', { host: 'percent-encode' }) // "http://r%C3%A9sum%C3%A9.example.org/"
 * iriToUri('/\u{10300}') // "/%F0%90%8C%80"
 * ```
 */
export function iriToUri(iri: string, opts?: IriToUriOptions): string {
  // Fast path: an IRI of ASCII only is already a URI (RFC 3987 §3.1 changes nothing).
  let ascii = true;
  for (let i = 0; i < iri.length; i++) {
    if (iri.charCodeAt(i) >= 0x80) {
      ascii = false;
      break;
    }
  }
  const ref = componentsOf(iri, 'iri-reference');
  if (ascii) return iri;
  const out: UriReference = { path: encodeNonAscii(ref.path) };
  if (ref.scheme !== undefined) out.scheme = ref.scheme;
  if (ref.host !== undefined) {
    if (ref.userinfo !== undefined) out.userinfo = encodeNonAscii(ref.userinfo);
    out.host = convertHost(ref.host, opts);
    if (ref.hostKind !== undefined) out.hostKind = ref.hostKind;
    if (ref.port !== undefined) out.port = ref.port;
  }
  if (ref.query !== undefined) out.query = encodeNonAscii(ref.query);
  if (ref.fragment !== undefined) out.fragment = encodeNonAscii(ref.fragment);
  return serialize(out);
}

/** RFC 3987 §3.1: the ireg-name by IDNA ToASCII, or percent-encoded. */
function convertHost(host: string, opts: IriToUriOptions | undefined): string {
  let ascii = true;
  for (let i = 0; i < host.length && ascii; i++) if (host.charCodeAt(i) >= 0x80) ascii = false;
  if (ascii) return host;
  // A name that mixes percent-encoding with raw characters cannot go through
  // IDNA as written; percent-encoding is always a correct conversion.
  if ((opts?.host ?? 'idna') === 'percent-encode' || host.includes('%')) return encodeNonAscii(host);
  return domainToASCII(host, opts?.idna ?? LENIENT);
}

/** RFC 3987 §2.2 `ucschar` (or `iprivate` where the query allows it), for a code point. */
function isUcschar(cp: number, privateToo: boolean): boolean {
  if (cp < 0xa0) return false;
  if (cp <= 0xd7ff) return true;
  if (cp >= 0xe000 && cp <= 0xf8ff) return privateToo;
  if (cp >= 0xf900 && cp <= 0xfdcf) return true;
  if (cp >= 0xfdf0 && cp <= 0xffef) return true;
  if (cp < 0x10000) return false;
  if ((cp & 0xfffe) === 0xfffe) return false; // the last two code points of every plane
  if (cp < 0xe0000) return true;
  if (cp < 0xe1000) return false;
  if (cp < 0xf0000) return true;
  return privateToo;
}

/**
 * RFC 3987 §3.2 steps 2–4 on one component: decodes percent-encoded
 * unreserved ASCII and percent-encoded UTF-8 that is a `ucschar` (or
 * `iprivate` in the query), but not reserved or unsafe ASCII, not invalid
 * UTF-8, and not the bidi formatting characters of §4.1.
 */
function decodeSafe(s: string, privateToo: boolean): string {
  const first = s.indexOf('%');
  if (first < 0) return s;
  let out = s.slice(0, first);
  let i = first;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (c !== 0x25) {
      out += s[i++];
      continue;
    }
    const b = octetAt(s, i);
    if (b < 0x80) {
      // ASCII: only unreserved characters are decoded (§3.2 step 2).
      out += b >= 0 && CLASS[b]! & UNRESERVED ? String.fromCharCode(b) : s.slice(i, i + 3);
      i += 3;
      continue;
    }
    // A well-formed UTF-8 sequence (RFC 3629 §4: no overlong forms, no
    // surrogates, nothing above U+10FFFF), or -1.
    const cp = utf8At(s, i);
    if (cp >= 0 && isUcschar(cp, privateToo) && !isBidiFormat(cp)) {
      out += String.fromCodePoint(cp);
      i += 3 * utf8Length(cp);
    } else {
      // Left percent-encoded (§3.2 step 3 and 4); its octets are re-examined one by one.
      out += s.slice(i, i + 3);
      i += 3;
    }
  }
  return out;
}

/**
 * Options of {@link uriToIri}.
 *
 * @example
 * ```ts
 * const opts: UriToIriOptions = { idna: false };
 * uriToIri('http://xn--bcher-kva.example/D%C3%BCrst', opts) // "http://xn--bcher-kva.example/Dürst"
 * uriToIri('http://xn--bcher-kva.example/D%C3%BCrst') // "http://bücher.example/Dürst"
 * ```
 */
export interface UriToIriOptions {
  /**
   * Whether `xn--` labels of the host are shown in Unicode (RFC 3987 §3.2:
   * "MAY"); default true. A label that is not valid IDNA stays as written,
   * and so does a homograph (RFC 3987 §8, UTS #39: Latin mixed with
   * Cyrillic or Greek, or Cyrillic or Greek letters that all look Latin).
   */
  idna?: boolean;
}

/**
 * Converts a URI reference to the IRI reference that shows it best
 * (RFC 3987 §3.2, https://www.rfc-editor.org/rfc/rfc3987#section-3.2):
 * percent-encoded UTF-8 becomes characters, except reserved or unsafe
 * ASCII, invalid UTF-8, characters outside `ucschar`/`iprivate` and
 * bidi formatting characters (§4.1); `xn--` host labels are decoded.
 * Throws a {@link UriError} if `uri` is not a `URI-reference`.
 *
 * @example
 * ```ts
 * uriToIri('http://www.example.org/D%C3%BCrst') // "http://www.example.org/Dürst"
 * uriToIri('http://www.example.org/D%FCrst') // "http://www.example.org/D%FCrst" (not UTF-8)
 * uriToIri('http://xn--99zt52a.example.org/%e2%80%ae') // "http://納豆.example.org/%e2%80%ae" (RLO stays encoded)
 * uriToIri('/a%2Fb%20c') // "/a%2Fb%20c" (reserved and unsafe ASCII stay encoded)
 * ```
 */
export function uriToIri(uri: string, opts?: UriToIriOptions): string {
  const ref = componentsOf(uri, 'uri-reference');
  const out: UriReference = { path: decodeSafe(ref.path, false) };
  if (ref.scheme !== undefined) out.scheme = ref.scheme;
  if (ref.host !== undefined) {
    if (ref.userinfo !== undefined) out.userinfo = decodeSafe(ref.userinfo, false);
    out.host = ref.hostKind === 'reg-name' || ref.hostKind === undefined ? showHost(ref.host, opts) : ref.host;
    if (ref.hostKind !== undefined) out.hostKind = ref.hostKind;
    if (ref.port !== undefined) out.port = ref.port;
  }
  if (ref.query !== undefined) out.query = decodeSafe(ref.query, true);
  if (ref.fragment !== undefined) out.fragment = decodeSafe(ref.fragment, false);
  return serialize(out);
}

/** The reg-name with safe percent-encodings decoded and, if asked, its A-labels as U-labels. */
function showHost(host: string, opts: UriToIriOptions | undefined): string {
  const decoded = decodeSafe(host, false);
  if (opts?.idna === false || !/(^|\.)xn--/i.test(decoded)) return decoded;
  const labels = decoded.split('.');
  for (let k = 0; k < labels.length; k++) {
    const label = labels[k]!;
    if (label.length < 5 || label.slice(0, 4).toLowerCase() !== 'xn--') continue;
    try {
      const u = domainToUnicode(label, LENIENT);
      // Never show a bidi formatting character or anything the IRI grammar refuses;
      // RFC 3987 §8: keep the A-label of a homograph (UTS #39 mixed Latin with
      // Cyrillic or Greek, or a whole-script confusable), as browsers do.
      const unsafe = [...u].some((ch) => isBidiFormat(ch.codePointAt(0)!) || (ch.codePointAt(0)! >= 0x80 && !isUcschar(ch.codePointAt(0)!, false)));
      const s = scriptsOf(u);
      if (!unsafe && !(s.latin && (s.cyrillic || s.greek)) && !isWholeScriptConfusable(u)) labels[k] = u;
    } catch (e) {
      if (!(e instanceof UriError)) throw e;
    }
  }
  return labels.join('.');
}
