/**
 * The risks of the 2003 draft §7 (RFC 3986 §7) as findings on one URI:
 * a list that a caller shows, filters or turns into a refusal. Lint never
 * throws on a URI the parser accepts.
 *
 * ```text
 *   http://www.example.com&story=breaking_news@10.0.0.1:25/%0D%0AQUIT
 *          \_________________________________/ \______/ \/ \_______/
 *            userinfo that looks like a host    IP host  |   encoded CR LF (§7.2)
 *            (§7.5 semantic attack)            (§7.5)    port below 1024 (§7.2)
 * ```
 */
import { UriError } from '../errors.js';
import { componentsOf } from '../rfc3986-scanner.js';
import type { UriReference } from '../types.js';
import { getSchemeRules } from '../schemes/registry.js';
import { interpretLegacyIPv4 } from '../host/legacy-ipv4.js';
import { inspectHost } from '../host/classify.js';
import { formatIPv4, parseIPv4Address } from '../host/ipv4.js';
import { domainToUnicode } from '../host/idna.js';
import { isBidiFormat, octetAt } from '../chars.js';
import { utf8At, utf8Length } from '../percent.js';
import { scriptsOf, isWholeScriptConfusable } from './confusables.js';
import { encodedUnreservedInUrn } from '../urn/lexical.js';
import { isSpecialScheme, parserDifferentials, type ParserDifferential } from './differential.js';
import type { HostInfo } from '../host/classify.js';

/**
 * How loud a finding is.
 *
 * @example
 * ```ts
 * const s: LintSeverity = LINT_RULES['userinfo'][0];
 * s // "info"
 * ```
 */
export type LintSeverity = 'info' | 'warning' | 'error';

/**
 * Every finding {@link lint} can report, with its severity and its message
 * (one table, STYLE §6), after the 2003 draft §7 (https://www.rfc-editor.org/rfc/rfc3986#section-7).
 *
 * @example
 * ```ts
 * LINT_RULES['password'][0] // "error"
 * ```
 */
export const LINT_RULES = {
  // 2003 draft §3.2.2, §7.5: userinfo is rarely used and comes before the host.
  'userinfo': ['info', 'the URI has userinfo before its host'],
  // §7.4 Sensitive Information
  'password': ['error', 'the userinfo carries a password ("user:password"), sent in clear text'],
  // §7.5 Semantic Attacks
  'deceptive-userinfo': ['error', 'the userinfo looks like a host name or URL; the real host comes after "@"'],
  // §7.3 Rare IP Address Formats
  'rare-ip-format': ['error', 'the host is an IPv4 address in a rare format that inet_aton or a browser reads differently from its text'],
  // §7.2 Malicious Construction: a port other than the scheme's default
  'non-default-port': ['info', 'the port is not the default port of the scheme'],
  'privileged-port': ['warning', 'the port is not the scheme\'s default and is in the reserved range below 1024'],
  'port-out-of-range': ['error', 'the port is not a TCP/UDP port number (0–65535)'],
  // §7.2: escaped delimiters such as CR and LF for line-based protocols
  'encoded-control': ['error', 'a percent-encoded control character (CR, LF, NUL...) could inject a command when decoded'],
  // RFC 3987 §4.1: bidi formatting characters reorder what a person reads (§7.5)
  'bidi-control': ['warning', 'a bidirectional formatting character (raw or percent-encoded) can make the URI display in a misleading order'],
  // UTS #39 (homographs in internationalized names, §7.5)
  'mixed-script': ['warning', 'a host label mixes Latin letters with Cyrillic or Greek letters'],
  'confusable-label': ['warning', 'a host label is written in Cyrillic or Greek letters that look like Latin ones'],
  // §7.5: an address hides who is behind it
  'ip-host': ['info', 'the host is an IP address where a name is expected'],
  // §7.3: what a request would reach (SSRF)
  'internal-host': ['warning', 'the host names an internal, loopback or otherwise non-public address'],
  // §7.5 and the WHATWG URL Standard: two parsers, two destinations
  'parser-differential': ['warning', 'an RFC 3986 parser and a WHATWG URL parser (browsers, fetch, Node) read this URI differently'],
  // 2012 draft §2.5.2: in a URN, "a character MUST NOT be percent-encoded if [it] is not a reserved character"
  'urn-encoded-unreserved': ['warning', 'a URN percent-encodes an unreserved character, which it must write as it is'],
} as const satisfies Record<string, readonly [LintSeverity, string]>;

/**
 * The code of a lint finding (a key of {@link LINT_RULES}), or of the {@link UriError} when the input does not parse.
 *
 * @example
 * ```ts
 * const codes: LintCode[] = lint('http://user:secret@example.com/').map((f) => f.code);
 * codes // ["userinfo", "password"]
 * ```
 */
export type LintCode = keyof typeof LINT_RULES | UriError['code'];

/**
 * One finding: what, how loud, and where (`start`/`end` are UTF-16 offsets into the input).
 *
 * @example
 * ```ts
 * const [f]: LintFinding[] = lint('http://user:secret@example.com/');
 * f // matches { code: 'userinfo', severity: 'info', start: 7, end: 18 }
 * ```
 */
export interface LintFinding {
  code: LintCode;
  severity: LintSeverity;
  message: string;
  start: number;
  end: number;
}

/** Where each component of a parsed reference lies in its input. */
interface Spans {
  userinfo: number;
  host: number;
  port: number;
  path: number;
  query: number;
  fragment: number;
}

function spansOf(ref: UriReference): Spans {
  let at = ref.scheme !== undefined ? ref.scheme.length + 1 : 0;
  const s: Spans = { userinfo: -1, host: -1, port: -1, path: 0, query: -1, fragment: -1 };
  if (ref.host !== undefined) {
    at += 2;
    if (ref.userinfo !== undefined) {
      s.userinfo = at;
      at += ref.userinfo.length + 1;
    }
    s.host = at;
    at += ref.host.length;
    if (ref.port !== undefined) {
      s.port = at + 1;
      at += ref.port.length + 1;
    }
  }
  s.path = at;
  at += ref.path.length;
  if (ref.query !== undefined) {
    s.query = at + 1;
    at += ref.query.length + 1;
  }
  if (ref.fragment !== undefined) s.fragment = at + 1;
  return s;
}

const finding = (code: keyof typeof LINT_RULES, start: number, end: number, detail?: string): LintFinding => {
  const [severity, message] = LINT_RULES[code];
  return { code, severity, message: detail ? `${message} (${detail})` : message, start, end };
};

/** Percent-decodes ASCII only (other octets stay encoded): enough to read a host name hidden in userinfo. */
function decodeAscii(s: string): string {
  if (!s.includes('%')) return s;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const octet = octetAt(s, i);
    if (octet >= 0 && octet < 0x80) {
      out += String.fromCharCode(octet);
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

// Top-level domains common enough that "<label>.<tld>" in userinfo reads as a host name.
const COMMON_TLDS = new Set(['com', 'net', 'org', 'edu', 'gov', 'mil', 'int', 'info', 'biz', 'io', 'co', 'app', 'dev', 'me']);

/**
 * 2003 draft §7.5: does this userinfo read like a trusted host or a URL?
 * A "//", an IPv4 address, a name beginning with "www.", or a dotted name
 * ending in a common top-level domain (or in a two-letter country code
 * with three labels or more).
 */
function looksLikeHost(userinfo: string): string | undefined {
  const text = decodeAscii(userinfo);
  if (text.includes('//')) return 'it contains "//"';
  // Every maximal run of letters, digits, "-" and "." is a candidate name.
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const ch = i < text.length ? text.charCodeAt(i) : -1;
    const lc = ch | 0x20;
    const ldh = ch >= 0 && ((lc >= 0x61 && lc <= 0x7a) || (ch >= 0x30 && ch <= 0x39) || ch === 0x2d || ch === 0x2e);
    if (ldh) {
      if (start < 0) start = i;
      continue;
    }
    if (start >= 0) {
      let from = start;
      let to = i;
      while (from < to && text.charCodeAt(from) === 0x2e) from++;
      while (to > from && text.charCodeAt(to - 1) === 0x2e) to--;
      const run = text.slice(from, to).toLowerCase();
      start = -1;
      const labels = run.split('.');
      if (labels.length < 2 || labels.some((l) => l === '')) continue;
      if (parseIPv4Address(run) !== undefined) return `"${run}" is an IPv4 address`;
      const tld = labels[labels.length - 1]!;
      if (labels[0] === 'www') return `"${run}" reads as a host name`;
      if (COMMON_TLDS.has(tld)) return `"${run}" reads as a host name`;
      if (tld.length === 2 && /^[a-z]{2}$/.test(tld) && labels.length >= 3) return `"${run}" reads as a host name`;
    }
  }
  return undefined;
}

/** §7.2: every percent-encoded C0 control or DEL in `text`, which starts at `offset` in the input. */
function encodedControls(text: string, offset: number, out: LintFinding[]): void {
  for (let i = text.indexOf('%'); i >= 0 && i + 2 < text.length; i = text.indexOf('%', i + 1)) {
    const v = octetAt(text, i);
    if (v < 0) continue;
    if (v < 0x20 || v === 0x7f) {
      const name = v === 0x0d ? 'CR' : v === 0x0a ? 'LF' : v === 0 ? 'NUL' : v === 0x7f ? 'DEL' : `U+00${v.toString(16).toUpperCase().padStart(2, '0')}`;
      out.push(finding('encoded-control', offset + i, offset + i + 3, name));
    }
  }
}

/**
 * RFC 3987 §4.1: LRM, RLM, LRE, RLE, PDF, LRO, RLO and the isolates LRI,
 * RLI, FSI, PDI, raw (in an IRI) or as percent-encoded UTF-8
 * (`%E2%80%8E`, `%E2%80%AE`, `%E2%81%A6`...), anywhere in `text`.
 */
function bidiControls(text: string, out: LintFinding[]): void {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isBidiFormat(c)) {
      out.push(finding('bidi-control', i, i + 1, `U+${c.toString(16).toUpperCase().padStart(4, '0')}`));
    } else if (c === 0x25) {
      // Percent-encoded UTF-8 (RFC 3629 §4): 3 octets (E2 80..81 xx), or 2 for U+061C (D8 9C).
      const cp = utf8At(text, i);
      if (isBidiFormat(cp)) {
        const n = 3 * utf8Length(cp);
        out.push(finding('bidi-control', i, i + n, `U+${cp.toString(16).toUpperCase().padStart(4, '0')}, encoded`));
        i += n - 1;
      }
    }
  }
}

/** The labels of a reg-name in Unicode (A-labels decoded where valid), with their offsets. */
function unicodeLabels(host: string, offset: number): Array<{ label: string; start: number; end: number }> {
  const labels: Array<{ label: string; start: number; end: number }> = [];
  let start = 0;
  for (let i = 0; i <= host.length; i++) {
    if (i < host.length && host.charCodeAt(i) !== 0x2e) continue;
    let label = host.slice(start, i);
    if (label.length > 4 && label.slice(0, 4).toLowerCase() === 'xn--') {
      try {
        label = domainToUnicode(label, { checkHyphens: false, useSTD3ASCIIRules: false, verifyDnsLength: false });
      } catch (e) {
        if (!(e instanceof UriError)) throw e;
      }
    } else if (label.includes('%')) {
      try {
        label = decodeURIComponent(label);
      } catch {
        // Not UTF-8: left as written.
      }
    }
    labels.push({ label, start: offset + start, end: offset + i });
    start = i + 1;
  }
  return labels;
}

/**
 * What {@link lint} checks beyond its default rules.
 *
 * @example
 * ```ts
 * const opts: LintOptions = { differential: true };
 * lint('http://0x7f.1/', opts).map((f) => f.code) // ["rare-ip-format", "internal-host", "parser-differential"]
 * ```
 */
export interface LintOptions {
  /**
   * Also compare urikit's RFC 3986 reading with the platform's WHATWG
   * `URL` reading on scheme, host, port and path, and report each
   * difference as `parser-differential` (see {@link parserDifferentials}),
   * also for an input that RFC 3986 refuses and a browser reads.
   */
  differential?: boolean;
}

/**
 * Checks a URI (or IRI) reference against the security considerations of
 * the 2003 draft §7 (RFC 3986 §7, https://www.rfc-editor.org/rfc/rfc3986#section-7)
 * and returns every finding, in input order within each rule: userinfo,
 * passwords (§7.4), deceptive userinfo (§7.5), rare IP formats (§7.3),
 * unusual ports and encoded control characters (§7.2), bidi formatting
 * characters (RFC 3987 §4.1), mixed-script and confusable labels
 * (UTS #39), IP and internal hosts. The host is also read as a browser
 * would (the platform's `URL`): `http:127.0.0.1/` has no host for RFC 3986
 * and the loopback host for `fetch`, so it is an `internal-host`. With
 * `{ differential: true }`, every difference between the two readings is a
 * `parser-differential` finding. Never throws on a string: an input that
 * does not parse gives one finding with the {@link UriError}'s code and
 * offset (and, with `differential`, what a browser reads instead).
 *
 * @example
 * ```ts
 * lint('http://www.example.com&story=breaking_news@10.0.0.1/top_story.htm').map((f) => f.code)
 * // ["userinfo", "deceptive-userinfo", "ip-host", "internal-host"]
 * lint('https://example.com/') // []
 * lint('http://a b/') // matches [{ code: "invalid-char", severity: "error", start: 8, end: 9 }]
 * lint('http:/127.0.0.1/').map((f) => f.message) // ["the host names an internal, loopback or otherwise non-public address (loopback: 127.0.0.1, the host a WHATWG URL parser reads)"]
 * lint('http://a.example\\@b.example/', { differential: true }).map((f) => f.code) // ["invalid-char", "parser-differential"]
 * ```
 */
export function lint(uri: string, opts?: LintOptions): LintFinding[] {
  let ref: UriReference;
  try {
    ref = componentsOf(uri, 'iri-reference');
  } catch (e) {
    if (!(e instanceof UriError)) throw e;
    const start = Math.max(0, Math.min(e.offset, uri.length));
    const out: LintFinding[] = [{ code: e.code, severity: 'error', message: e.message, start, end: Math.min(start + 1, uri.length) }];
    if (opts?.differential) for (const d of parserDifferentials(uri)) out.push(differentialFinding(d));
    return out;
  }
  const out: LintFinding[] = [];
  const at = spansOf(ref);
  if (ref.userinfo !== undefined) {
    const u = ref.userinfo;
    out.push(finding('userinfo', at.userinfo, at.userinfo + u.length));
    const colon = u.indexOf(':');
    if (colon >= 0 && colon < u.length - 1) out.push(finding('password', at.userinfo + colon + 1, at.userinfo + u.length));
    const why = looksLikeHost(u);
    if (why !== undefined) out.push(finding('deceptive-userinfo', at.userinfo, at.userinfo + u.length, `${why}; the host is "${ref.host}"`));
  }
  // The WHATWG reading: always when asked; otherwise only where a browser
  // can reach a host that RFC 3986 does not see (a special scheme of the
  // network, not file:, with no or an empty authority: http:127.0.0.1/).
  // Every other host a browser reads from a URI RFC 3986 accepts,
  // classifyHost reads the same way.
  const special = ref.scheme !== undefined && isSpecialScheme(ref.scheme) && ref.scheme.toLowerCase() !== 'file';
  const differentials = opts?.differential || (special && (ref.host === undefined || ref.host === '')) ? parserDifferentials(uri) : [];
  if (ref.host !== undefined && ref.host !== '') lintHost(ref, at, out);
  // The host a browser or fetch() reaches where it is not the RFC 3986 host.
  const whatwgHost = differentials.find((d) => d.kind === 'host');
  if (whatwgHost?.whatwg !== undefined && whatwgHost.whatwgClass !== undefined && isInternal(whatwgHost.whatwgClass, true) && !out.some((f) => f.code === 'internal-host')) {
    out.push(finding('internal-host', whatwgHost.start, whatwgHost.end, `${whatwgHost.whatwgClass}: ${whatwgHost.whatwg}, the host a WHATWG URL parser reads`));
  }
  if (ref.port !== undefined && ref.port !== '') lintPort(ref, at.port, out);
  if (ref.userinfo !== undefined) encodedControls(ref.userinfo, at.userinfo, out);
  if (ref.host !== undefined) encodedControls(ref.host, at.host, out);
  encodedControls(ref.path, at.path, out);
  if (ref.query !== undefined) encodedControls(ref.query, at.query, out);
  if (ref.fragment !== undefined) encodedControls(ref.fragment, at.fragment, out);
  bidiControls(uri, out);
  if (ref.host === undefined && ref.scheme?.toLowerCase() === 'urn') for (const i of encodedUnreservedInUrn(uri)) out.push(finding('urn-encoded-unreserved', i, i + 3));
  if (opts?.differential) for (const d of differentials) out.push(differentialFinding(d));
  return out;
}

/** A `parser-differential` finding: which component, and each reading of it. */
function differentialFinding(d: ParserDifferential): LintFinding {
  const show = (v: string | undefined, cls: string | undefined): string => (v === undefined ? 'none' : `"${v}"${cls !== undefined ? ` (${cls})` : ''}`);
  const detail =
    d.kind === 'validity'
      ? d.whatwg !== undefined
        ? `RFC 3986 refuses it, a WHATWG URL parser reads ${show(d.whatwg, d.whatwgClass)}`
        : 'RFC 3986 accepts it, a WHATWG URL parser refuses it'
      : `${d.kind}: ${show(d.rfc3986, d.rfc3986Class)} for RFC 3986, ${show(d.whatwg, d.whatwgClass)} for a WHATWG URL parser`;
  return finding('parser-differential', d.start, d.end, detail);
}

/**
 * 2003 draft §7.3: a class a request should not reach. Any special-purpose
 * address; of the names, only those that are internal by definition
 * (localhost, *.local, *.internal, home.arpa).
 */
function isInternal(cls: HostInfo['class'], address: boolean): boolean {
  if (address) return cls !== 'public' && cls !== 'name';
  return cls === 'loopback' || cls === 'link-local' || cls === 'private';
}

function lintHost(ref: UriReference, at: Spans, out: LintFinding[]): void {
  const host = ref.host!;
  const span = [at.host, at.host + host.length] as const;
  if (ref.hostKind === 'reg-name') {
    const name = decodeAscii(host).toLowerCase();
    const bare = name.endsWith('.') ? name.slice(0, -1) : name;
    // §7.3: what inet_aton or a browser (the URL Standard, where "0x" is 0) reads.
    const v = parseIPv4Address(bare) ?? interpretLegacyIPv4(bare, { reader: 'url' });
    if (v !== undefined) out.push(finding('rare-ip-format', span[0], span[1], `"${host}" is ${formatIPv4(v)}`));
    for (const { label, start, end } of unicodeLabels(host, at.host)) {
      const s = scriptsOf(label);
      if (s.latin && (s.cyrillic || s.greek)) out.push(finding('mixed-script', start, end, `"${label}"`));
      else if (isWholeScriptConfusable(label)) out.push(finding('confusable-label', start, end, `"${label}"`));
    }
  } else if (ref.hostKind === 'ipv4' || ref.hostKind === 'ipv6') {
    out.push(finding('ip-host', span[0], span[1]));
  }
  try {
    const info = inspectHost(host);
    const address = info.legacyIPv4 !== undefined || ref.hostKind === 'ipv4' || ref.hostKind === 'ipv6';
    if (isInternal(info.class, address)) out.push(finding('internal-host', span[0], span[1], info.class));
  } catch (e) {
    if (!(e instanceof UriError)) throw e;
  }
}

function lintPort(ref: UriReference, start: number, out: LintFinding[]): void {
  const digits = ref.port!;
  const end = start + digits.length;
  // port = *DIGIT (no range in the generic syntax; DESIGN.md rulings): check it here.
  let port = 0;
  for (let i = 0; i < digits.length && port <= 65535; i++) port = port * 10 + (digits.charCodeAt(i) - 0x30);
  if (port > 65535) {
    out.push(finding('port-out-of-range', start, end));
    return;
  }
  const defaultPort = ref.scheme !== undefined ? getSchemeRules(ref.scheme)?.defaultPort : undefined;
  if (port === defaultPort) return;
  const detail = defaultPort !== undefined ? `${port}, the default is ${defaultPort}` : `${port}, no default port is known for this scheme`;
  out.push(finding(port < 1024 ? 'privileged-port' : 'non-default-port', start, end, detail));
}
