/**
 * Syntax-based normalization (RFC 3986 §6.2.2, and the generic part of
 * §6.2.3) in one pass: the scanner of rfc3986-scanner.ts, run by `normalize`, calls
 * these edits as it meets each component, and they write the normal form
 * as it goes. Most URIs in real data are already normal: then nothing is
 * written and the input itself is the answer, with no allocation. Where a
 * component must change, the unchanged runs are copied once.
 *
 * What a scheme does beyond the generic steps (its `normalize` step, a
 * URN's RFC 8141 §3 form) is left to normalize.ts: the pass only says, in
 * {@link lastPass}, whether that step has anything to do.
 */
import { CLASS, UNRESERVED, hexValue } from './chars.js';
import { normalizeTriplets, pctTriplet } from './triplets.js';
import { formatIPv6, readIPv6address } from './host/ipv6.js';
import { removeDotSegments } from './remove-dot-segments.js';
import { hasDotSegment, normalizeRelativePath } from './relative-path.js';
import { schemeRulesAt } from './schemes/registry.js';
import { FILE_RULES, URN_RULES } from './schemes/rules.js';
import type { SchemeRules } from './schemes/codec.js';

/**
 * @internal What is left to do after a pass, at the scheme level
 * (RFC 3986 §6.2.3, normalize.ts): nothing (`'none'`), the scheme's own
 * `normalize` step on the components (`'codec'`), or the URN form of
 * RFC 8141 §3 (`'urn'`).
 *
 * @example
 * ```ts
 * beginEdits(true);
 * editScheme('URN:ex:a', 3, true);
 * const step: SchemeStep = lastPass.step;
 * step // "urn"
 * ```
 */
export type SchemeStep = 'none' | 'codec' | 'urn';

// The state of one pass. Module state, not an object per call, so that the
// common case (nothing to edit) allocates nothing; a pass is synchronous
// and calls no user code, so two passes never interleave. One constant
// object: V8 reads its fields faster than module-level `let` bindings.
const pass = {
  out: '', // the normal form of input[0, from)
  from: 0,
  edited: false,
  schemeLevel: false,
  schemeEnd: -1,
  rules: undefined as SchemeRules | undefined, // the scheme's rules, at the scheme level
  step: 'none' as SchemeStep,
  dots: false, // the path has a "%2E", which may make a dot segment (§6.2.2.3)
  // The output as it was where the path began: a path with dot segments is
  // written again whole, from its text (RFC 3986 §5.2.4 works on the whole path).
  pathOut: '',
  pathFrom: 0,
  pathEdited: false,
  // Comparing (compareEdits): `compare` checks each edit against `target`,
  // of which [0, tpos) matched the output so far while `same`, instead of
  // writing it. A function that compareEdits sets, so that a bundle
  // without `equivalent` leaves the comparison out.
  compare: undefined as ((input: string, at: number, resume: number, text?: string) => void) | undefined,
  target: '',
  tpos: 0,
  same: true,
  pathTpos: 0,
  pathSame: true,
};
/**
 * @internal What the last pass found, read by normalize.ts (fields, not
 * calls, so that reading them enters no module): `step`, what is left to do
 * (see {@link SchemeStep}); `schemeEnd`, where the input's scheme ends (the
 * index of its ":", the same in the normal form, whose scheme only changes
 * case), or -1; `rules`, at the scheme level the scheme's rules (RFC 3986
 * §6.2.3), or undefined.
 *
 * @example
 * ```ts
 * beginEdits(true);
 * editScheme('HTTP://a/', 4, true);
 * lastPass.step // "none"
 * lastPass.schemeEnd // 4
 * lastPass.rules?.defaultPort // 80
 * ```
 */
export const lastPass: { readonly step: SchemeStep; readonly schemeEnd: number; readonly rules: SchemeRules | undefined } = pass;
const groups: number[] = [];

/**
 * Replaces input[at, resume) by `text` in the output, or without `text`
 * by its lower case (ASCII: §6.2.2.1); edits come in input order.
 */
function edit(input: string, at: number, text: string | undefined, resume: number): void {
  if (pass.compare !== undefined) pass.compare(input, at, resume, text);
  else pass.out += input.slice(pass.from, at) + (text ?? input.slice(at, resume).toLowerCase());
  pass.from = resume;
  pass.edited = true;
}

/**
 * The edit of a comparing pass: the unchanged run input[from, at) and then
 * `text` (or input[at, resume) in lower case, checked code unit by code
 * unit so that nothing is sliced or lowered) must be what the target
 * holds there.
 */
function compareEdit(input: string, at: number, resume: number, text?: string): void {
  if (!pass.same) return;
  const t = pass.target;
  const n = at - pass.from;
  if (text !== undefined) {
    pass.same = (n === 0 || t.startsWith(input.slice(pass.from, at), pass.tpos)) && t.startsWith(text, pass.tpos + n);
    pass.tpos += n + text.length;
    return;
  }
  let p = pass.tpos;
  let same = true;
  for (let k = pass.from; same && k < resume; k++) {
    const c = input.charCodeAt(k);
    same = t.charCodeAt(p++) === (k >= at && c <= 0x5a && c >= 0x41 ? c + 32 : c);
  }
  pass.same = same;
  pass.tpos = p;
}

/**
 * @internal Starts a pass: at the syntax level (RFC 3986 §6.2.2), or at the
 * scheme level when `scheme` (§6.2.3).
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-6.2
 * @example
 * ```ts
 * beginEdits(true);
 * endEdits('http://a/') // "http://a/"
 * ```
 */
export function beginEdits(scheme: boolean): void {
  pass.out = '';
  pass.from = 0;
  pass.edited = false;
  pass.compare = undefined;
  pass.schemeLevel = scheme;
  pass.schemeEnd = -1;
  pass.rules = undefined;
  pass.step = 'none';
}

/**
 * @internal Turns the pass just begun into a comparison: the edits are
 * checked against `target` as they come instead of being written, so that
 * `equivalent` builds no second normal form (RFC 3986 §6.2.1: the normal
 * forms are compared as strings); {@link endCompare} ends it.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-6.2.1
 * @example
 * ```ts
 * beginEdits(false);
 * compareEdits('http://a/');
 * editScheme('HTTP://a/', 4, true);
 * endCompare('HTTP://a/') // true
 * ```
 */
export function compareEdits(target: string): void {
  pass.compare = compareEdit;
  pass.target = target;
  pass.tpos = 0;
  pass.same = true;
}

/**
 * @internal Ends a pass begun with {@link compareEdits}: true if the
 * normal form of `input` is the target.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-6.2.1
 * @example
 * ```ts
 * beginEdits(false);
 * compareEdits('x:a');
 * endCompare('x:a') // true
 * ```
 */
export function endCompare(input: string): boolean {
  const t = pass.target;
  const rest = input.length - pass.from;
  const same = pass.same && t.length - pass.tpos === rest && (pass.from === 0 ? t === input : t.slice(pass.tpos) === input.slice(pass.from));
  pass.compare = undefined;
  pass.target = '';
  return same;
}

/**
 * @internal Ends a pass over `input`: its normal form, `input` itself when
 * nothing changed.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-6.2
 * @example
 * ```ts
 * beginEdits(false);
 * endEdits('x:') // "x:"
 * ```
 */
export function endEdits(input: string): string {
  const result = pass.edited ? pass.out + input.slice(pass.from) : input;
  pass.out = pass.pathOut = '';
  return result;
}

/**
 * @internal The scheme `input[0, end)`: to lower case (§6.2.2.1); at the
 * scheme level its rules are looked up (a default port, an empty path
 * that is "/"), and {@link lastPass}'s step set when the scheme has a step of
 * its own: a URN (RFC 8141 §3, DESIGN.md rulings) or a `normalize` step
 * (`file`'s only where it may change something, see {@link editHost}).
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-6.2.2.1
 * @example
 * ```ts
 * beginEdits(true);
 * editScheme('HTTP:x', 4, true);
 * endEdits('HTTP:x') // "http:x"
 * ```
 */
export function editScheme(input: string, end: number, upper: boolean): void {
  if (upper) edit(input, 0, undefined, end);
  pass.schemeEnd = end;
  if (!pass.schemeLevel) return;
  pass.rules = schemeRulesAt(input, end);
  pass.step = pass.rules === URN_RULES ? 'urn' : pass.rules?.normalize !== undefined && pass.rules !== FILE_RULES ? 'codec' : 'none';
}

/**
 * @internal The triplet at `i` (known to be well formed) in normal form
 * (§6.2.2.1–2): `%hh` to `%HH`, an unreserved octet decoded; a decoded "."
 * in a path may make a dot segment (§6.2.2.3), which `dot` notes.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-6.2.2.2
 * @example
 * ```ts
 * beginEdits(false);
 * editTriplet('a%7e', 1, false);
 * endEdits('a%7e') // "a~"
 * ```
 */
export function editTriplet(input: string, i: number, dot: boolean): void {
  const octet = (hexValue(input.charCodeAt(i + 1)) << 4) | hexValue(input.charCodeAt(i + 2));
  if (octet < 128 && CLASS[octet]! & UNRESERVED) {
    if (dot && octet === 0x2e) pass.dots = true;
    edit(input, i, String.fromCharCode(octet), i + 3);
  } else if (input.charCodeAt(i + 1) > 0x46 || input.charCodeAt(i + 2) > 0x46) {
    // a lower-case hex digit (a-f sort above "F")
    edit(input, i, pctTriplet(octet), i + 3);
  }
}

/**
 * @internal The userinfo `input[start, end)` in normal form (§6.2.2.2:
 * its triplets; it is case-sensitive); sliced only when it holds a "%".
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-6.2.2.2
 * @example
 * ```ts
 * beginEdits(false);
 * editUserinfo('//%7e@h', 2, 5);
 * endEdits('//%7e@h') // "//~@h"
 * ```
 */
export function editUserinfo(input: string, start: number, end: number): void {
  const pct = input.indexOf('%', start);
  if (pct < 0 || pct >= end) return;
  const text = input.slice(start, end);
  const normal = normalizeTriplets(text, false);
  if (normal !== text) edit(input, start, normal, end);
}

/**
 * @internal The reg-name `input[start, end)` in normal form (§6.2.2.1–2:
 * lower case, triplets), sliced only when it holds an upper-case letter
 * or a triplet (`cased`, looked for when not given); `plain`: it holds no
 * triplet and no non-ASCII character. A `file` host that is "localhost"
 * leaves `file`'s own step to do (RFC 8089 §2).
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-6.2.2.1
 * @example
 * ```ts
 * beginEdits(false);
 * editHost('//A%7e', 2, 6);
 * endEdits('//A%7e') // "//a~"
 * ```
 */
export function editHost(input: string, start: number, end: number, cased?: boolean, plain?: boolean): void {
  if (cased === undefined) {
    cased = false;
    for (let k = start; k < end; k++) {
      const c = input.charCodeAt(k);
      if (c === 0x25 || (c >= 0x41 && c <= 0x5a)) cased = true;
    }
  }
  // Without triplets or non-ASCII letters (which keep their case here), only
  // case changes (`plain`, looked for when not given).
  if (cased && plain === undefined) {
    plain = true;
    for (let k = start; k < end && plain; k++) {
      const c = input.charCodeAt(k);
      plain = c !== 0x25 && c < 0x80;
    }
  }
  if (!cased || plain) {
    if (pass.rules === FILE_RULES && end - start === 9 && (cased ? input.slice(start, end).toLowerCase() === 'localhost' : input.startsWith('localhost', start))) pass.step = 'codec';
    if (cased) edit(input, start, undefined, end);
    return;
  }
  const text = input.slice(start, end);
  const normal = normalizeTriplets(text, true);
  if (pass.rules === FILE_RULES && normal === 'localhost') pass.step = 'codec';
  if (normal !== text) edit(input, start, normal, end);
}

/**
 * @internal The IP literal `input[start, end)` in normal form: IPv6 in
 * lower case (§6.2.2.1), at the scheme level in its RFC 5952 §4 text; the
 * "%25" before a zone ID is a delimiter and the zone keeps its case
 * (RFC 6874 §2); IPvFuture in lower case.
 *
 * @see https://www.rfc-editor.org/rfc/rfc5952#section-4
 * @example
 * ```ts
 * beginEdits(true);
 * editIPLiteral('//[::0:1]', 2, 9, true);
 * endEdits('//[::0:1]') // "//[::1]"
 * ```
 */
export function editIPLiteral(input: string, start: number, end: number, ipv6: boolean): void {
  const host = input.slice(start, end);
  let normal: string;
  if (ipv6) {
    const pct = host.indexOf('%25');
    const end = pct < 0 ? host.length - 1 : pct;
    const zone = pct < 0 ? undefined : normalizeTriplets(host.slice(pct + 3, -1), false);
    if (pass.schemeLevel) {
      // the scan has read the address: its groups again, for RFC 5952 text
      readIPv6address(host, 1, end, groups);
      normal = '[' + formatIPv6(groups, zone) + ']';
    } else {
      normal = '[' + host.slice(1, end).toLowerCase() + (zone === undefined ? '' : '%25' + zone) + ']';
    }
  } else {
    normal = normalizeTriplets(host, true);
  }
  if (normal !== host) edit(input, start, normal, end);
}

/**
 * @internal The port `input[colon + 1, end)` (digits): dropped with its ":"
 * when empty (§3.2.3); at the scheme level, dropped when it is the
 * scheme's default, else written without leading zeros (§6.2.3).
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-6.2.3
 * @example
 * ```ts
 * beginEdits(true);
 * editScheme('http://a:080/', 4, false);
 * editPort('http://a:080/', 8, 12);
 * endEdits('http://a:080/') // "http://a/"
 * ```
 */
export function editPort(input: string, colon: number, end: number): void {
  const defaultPort = pass.rules?.defaultPort;
  if (end === colon + 1) {
    edit(input, colon, '', end);
    return;
  }
  if (defaultPort === undefined) return;
  let k = colon + 1;
  while (k < end - 1 && input.charCodeAt(k) === 0x30) k++;
  let value = 0;
  if (end - k <= 5) for (let m = k; m < end; m++) value = value * 10 + input.charCodeAt(m) - 0x30;
  if (end - k <= 5 && value === defaultPort) edit(input, colon, '', end);
  else if (k > colon + 1) edit(input, colon + 1, '', k);
}

/**
 * @internal Where the path begins: the output is noted, so that a path
 * with dot segments can be written again whole.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-5.2.4
 * @example
 * ```ts
 * beginEdits(false);
 * beginPath();
 * endEdits('a') // "a"
 * ```
 */
export function beginPath(): void {
  pass.pathOut = pass.out;
  pass.pathFrom = pass.from;
  pass.pathEdited = pass.edited;
  pass.pathTpos = pass.tpos;
  pass.pathSame = pass.same;
  pass.dots = false;
}

/**
 * @internal The path `input[start, end)` once scanned. One with dot
 * segments is written again: its triplets normalized and then
 * remove_dot_segments (§6.2.2.3, §5.2.4); a relative path keeps what a
 * base could give a meaning to (relative-path.ts, DESIGN.md rulings), and
 * a segment that would decode to "." or ".." stays encoded there and in
 * any other relative reference (`schemeless`), as "%2E" is data in
 * resolution. Without an authority the path must not
 * begin with "//" (§3.3): "/." is put first. Then (§6.2.3) an empty path
 * with an authority is "/" where the scheme says so; a `file` URI without
 * an authority leaves `file`'s own step to do (RFC 8089 §2).
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-6.2.2.3
 * @example
 * ```ts
 * beginEdits(true);
 * editScheme('http://a', 4, false);
 * beginPath();
 * editPath('http://a', 8, 8, true, false);
 * endEdits('http://a') // "http://a/"
 * ```
 */
export function editPath(input: string, start: number, end: number, authority: boolean, relative: boolean, schemeless = false): void {
  let path: string | undefined;
  if (pass.dots || hasDotSegment(input, start, end)) {
    pass.out = pass.pathOut;
    pass.from = pass.pathFrom;
    pass.edited = pass.pathEdited;
    pass.tpos = pass.pathTpos;
    pass.same = pass.pathSame;
    const text = input.slice(start, end);
    if (relative) {
      path = normalizeRelativePath(text);
      if (path.indexOf('%') >= 0) path = path.split('/').map(normalizeSegment).join('/');
    } else {
      // A relative reference's "%2E" stays data, as in its resolution (§5.2.4):
      // "/a/%2e%2E/.." resolves to "/a/", so it must not become "/".
      const encodedDot = schemeless && (text.indexOf('%2e') >= 0 || text.indexOf('%2E') >= 0);
      path = removeDotSegments(encodedDot ? text.split('/').map(normalizeSegment).join('/') : normalizeTriplets(text, false));
      if (!authority && path.charCodeAt(0) === 0x2f && path.charCodeAt(1) === 0x2f) path = '/.' + path;
    }
  }
  if (!authority) {
    if (pass.rules === FILE_RULES) pass.step = 'codec';
  } else if ((path === undefined ? start === end : path === '') && pass.rules?.emptyPathIsSlash === true) {
    path = '/';
  }
  if (path !== undefined) edit(input, start, path, end);
}

/** A relative path's segment with its triplets normalized; one made of "." and "%2E" only keeps its triplets ("%2E"). */
function normalizeSegment(segment: string): string {
  const n = normalizeTriplets(segment, false);
  return (n === '.' || n === '..') && n !== segment ? segment.replaceAll('%2e', '%2E') : n;
}
