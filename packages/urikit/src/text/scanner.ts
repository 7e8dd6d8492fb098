/**
 * The one forward scan behind {@link extractUris} and
 * {@link extractUrisFromStream} (2003 draft Appendix E, "Recommendations
 * for Delimiting URI in Context"; 1997 draft Appendix E).
 *
 * Candidates are triggered by ":" (a scheme before it), and on request by
 * "." (`www.`/`ftp.`, 2003 draft App. F) and "@" (e-mail addresses); the
 * trigger characters are found with `indexOf`, each look-back is bounded
 * (`LOOKBACK`), and after a match the search resumes at its end, so the
 * whole scan is linear in the length of the text. No regular expression
 * touches the input.
 *
 * The scanner also works on a window of a stream: when `final` is false
 * and a decision needs a character past the end of `text`, it stops with
 * `pending` set and `pos` at the trigger, to be run again with more text.
 */
import { isValid3986 } from '../rfc3986-scanner.js';
import { isValidUrn } from '../urn/parse.js';
import { hexValue, isAlpha, isPctEncoded, ucscharLength } from '../chars.js';
import {
  TEXT_CLASS, T_URIC, T_SPACE, T_TRAILING, T_SYMMETRIC, T_SCHEME, T_ALNUM,
  isTextDelimiter, PROSE_SCHEMES, MAX_SCHEME, MAX_GAP, MAX_QUOTE_LINE,
} from './delimiters.js';
import type { ExtractOptions, UriMatch } from './match.js';

const COLON = 0x3a, DOT = 0x2e, AT = 0x40, SLASH = 0x2f, LT = 0x3c, GT = 0x3e, HYPHEN = 0x2d;
const QMARK = 0x3f, HASH = 0x23, LPAREN = 0x28, RPAREN = 0x29, LBRACKET = 0x5b, RBRACKET = 0x5d, DQUOTE = 0x22;

import { REJECT, MATCH, PENDING } from './outcome.js';
import type { Body, Outcome } from './outcome.js';
import { atDot, atAt } from './shorthand.js';

const cls = (c: number): number => (c < 128 ? TEXT_CLASS[c]! : 0);

/**
 * @internal The resumable scanner; see the module comment (2003 draft App. E).
 *
 * @example
 * ```ts
 * const s = new UriScanner();
 * s.text = 'see http://a/';
 * const out: UriMatch[] = [];
 * s.run(out);
 * out[0].uri // "http://a/"
 * ```
 */
export class UriScanner {
  text = '';
  final = true;
  /** No look-back reaches before this index (the end of the previous match). */
  floor = 0;
  /** The next index from which trigger characters are searched. */
  pos = 0;
  /** True when the last {@link run} stopped for lack of text. */
  pending = false;

  private readonly schemes: ReadonlySet<string> | undefined;
  private readonly anyScheme: boolean;
  private readonly abbreviated: boolean;
  private readonly emails: boolean;
  /** @internal */
  readonly iri: boolean;
  private readonly urn2012: boolean;
  /** @internal */
  resume = 0;
  /** Index of the `<` found by {@link openerBefore}. */
  private openAt = -1;
  /** The line of the current `<...>` is quoted mail, so `> ` after a line break inside it is quoting. */
  private quoted = false;
  /** @internal */
  readonly body: Body = { end: 0, resume: 0, built: '', segStart: 0, hyphens: undefined };

  constructor(opts?: ExtractOptions) {
    const s = opts?.schemes;
    this.anyScheme = s === 'any';
    this.schemes = s === undefined || s === 'any' ? undefined : new Set(s.map((x) => x.toLowerCase()));
    this.abbreviated = opts?.abbreviated ?? false;
    this.emails = opts?.emails ?? false;
    this.iri = opts?.iri ?? true;
    this.urn2012 = opts?.urnProfile === 'urn-2012';
  }

  /** Scans `text` from `pos`, appending matches to `out` (offsets relative to `text`). */
  run(out: UriMatch[]): void {
    const text = this.text;
    const len = text.length;
    this.pending = false;
    let nColon = -1, nDot = -1, nAt = -1;
    for (;;) {
      const pos = this.pos;
      if (nColon < pos) nColon = indexOrLen(text, ':', pos);
      if (this.abbreviated && nDot < pos) nDot = indexOrLen(text, '.', pos);
      if (this.emails && nAt < pos) nAt = indexOrLen(text, '@', pos);
      let t = nColon;
      if (this.abbreviated && nDot < t) t = nDot;
      if (this.emails && nAt < t) t = nAt;
      if (t >= len) { this.pos = len; return; }
      const c = text.charCodeAt(t);
      const r = c === COLON ? this.atColon(t, out) : c === DOT ? atDot(this, t, out) : atAt(this, t, out);
      if (r === PENDING) { this.pos = t; this.pending = true; return; }
      if (r === MATCH) this.floor = this.pos = this.resume;
      else this.pos = Math.max(t + 1, this.resume);
    }
  }

  /** A ":" — is there a scheme before it? (RFC 3986 §3.1; bounded look-back.) */
  private atColon(t: number, out: UriMatch[]): Outcome {
    const text = this.text;
    this.resume = 0;
    const lo = Math.max(this.floor, t - MAX_SCHEME - 1);
    let s = t;
    while (s > lo && cls(text.charCodeAt(s - 1)) & T_SCHEME) s--;
    if (s === lo && s > this.floor && cls(text.charCodeAt(s - 1)) & T_SCHEME) return REJECT; // longer than any scheme
    // scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ): leading non-letters are text.
    while (s < t && !isAlpha(text.charCodeAt(s))) s++;
    if (s === t) return REJECT;
    // The "URL:" prefix, "with or without a trailing space" (2003 draft App. E).
    if (t - s === 3 && (text.charCodeAt(s) | 0x20) === 0x75 && (text.charCodeAt(s + 1) | 0x20) === 0x72 && (text.charCodeAt(s + 2) | 0x20) === 0x6c) {
      let j = t + 1;
      while (j < this.text.length && j - t <= MAX_GAP && cls(text.charCodeAt(j)) & T_SPACE) j++;
      let k = j;
      while (k < this.text.length && k - j <= MAX_SCHEME && cls(text.charCodeAt(k)) & T_SCHEME) k++;
      if (k >= this.text.length && !this.final) return PENDING;
      if (k > j && isAlpha(text.charCodeAt(j)) && text.charCodeAt(k) === COLON) {
        const r = this.candidate(j, k, s, true, out);
        if (r !== REJECT) return r;
      }
      return REJECT;
    }
    return this.candidate(s, t, s, false, out);
  }

  /** The URI whose scheme is `text[s, c)`; `p` is where a wrapper would end (before `URL:`). */
  private candidate(s: number, c: number, p: number, urlPrefix: boolean, out: UriMatch[]): Outcome {
    const text = this.text, len = text.length;
    if (c + 2 >= len && !this.final) return PENDING;
    const hasAuthority = text.charCodeAt(c + 1) === SLASH && text.charCodeAt(c + 2) === SLASH;
    const scheme = text.slice(s, c).toLowerCase();
    if (!this.accepts(scheme, hasAuthority)) return REJECT;
    // How a URN's NSS ends: 1 = RFC 8141, 2 = the 2012 draft; 0 = not a URN.
    const urn = scheme === 'urn' ? (this.urn2012 ? 2 : 1) : 0;
    const iri = this.iri && !urn; // 2012 URN draft §2.5.3: %x80-FF are excluded
    const first = hasAuthority ? c + 3 : c + 1;
    const open = this.openerBefore(p);
    if (open === LT) {
      // <...>: white space inside is ignored (2003 draft App. E; 1995 draft §2 for <urn:...>).
      this.quoted = this.quotedLine(this.openAt);
      const r = this.scanBody(s, first, hasAuthority, true, urn, iri);
      if (r === PENDING) return PENDING;
      if (r === MATCH && this.emit(s, c, hasAuthority, 'angle', urlPrefix, undefined, out)) return MATCH;
    }
    const r = this.scanBody(s, first, hasAuthority, false, urn, iri);
    if (r === PENDING) return PENDING;
    this.trim(c + 1, open);
    const wrapped = open === DQUOTE ? 'quotes' : open === LPAREN ? 'parens' : open === LBRACKET ? 'brackets' : undefined;
    if (this.emit(s, c, hasAuthority, wrapped, urlPrefix, undefined, out)) return MATCH;
    this.resume = this.body.resume; // linear time: never rescan a rejected run
    return REJECT;
  }

  private accepts(scheme: string, hasAuthority: boolean): boolean {
    if (this.schemes !== undefined) return this.schemes.has(scheme);
    return this.anyScheme || hasAuthority || PROSE_SCHEMES.has(scheme) || scheme.startsWith('x-');
  }

  /** The character that opens a wrapper before index `p`: `<` may be followed by white space. */
  /** @internal */
  openerBefore(p: number): number {
    const text = this.text;
    if (p <= this.floor) return -1;
    const o = text.charCodeAt(p - 1);
    if (o === LT) this.openAt = p - 1;
    if (!(cls(o) & T_SPACE)) return o;
    const lo = Math.max(this.floor, p - 1 - MAX_GAP);
    let q = p - 1;
    while (q > lo && cls(text.charCodeAt(q - 1)) & T_SPACE) q--;
    if (q > this.floor && text.charCodeAt(q - 1) === LT) {
      this.openAt = q - 1;
      return LT;
    }
    return -1;
  }

  /** Is the line holding `text[at]` quoted mail: does it begin with `>` (after spaces)? */
  private quotedLine(at: number): boolean {
    const text = this.text;
    const lo = Math.max(this.floor, at - MAX_QUOTE_LINE);
    let l = at;
    while (l > lo && text.charCodeAt(l - 1) !== 0x0a && text.charCodeAt(l - 1) !== 0x0d) l--;
    if (l > 0 && l === lo && text.charCodeAt(l - 1) !== 0x0a && text.charCodeAt(l - 1) !== 0x0d) return false;
    while (l < at && text.charCodeAt(l) === 0x20) l++;
    return text.charCodeAt(l) === GT;
  }

  /**
   * Scans the URI characters from `i` (the URI begins at `s`) into
   * `this.body`; `angle` reads up to a closing `>` ignoring white space and
   * returns REJECT if there is none.
   */
  /** @internal */
  scanBody(s: number, i: number, inAuthority: boolean, angle: boolean, urn: number, iri: boolean): Outcome {
    const text = this.text, len = text.length, final = this.final;
    const b = this.body;
    b.built = '';
    b.segStart = s;
    b.hyphens = undefined;
    let depth = 0, end = i, ipLiteral = false, inNss = urn !== 0;
    for (;;) {
      if (i >= len) {
        if (!final) return PENDING;
        if (angle) return REJECT;
        break;
      }
      const ch = text.charCodeAt(i);
      if (ch < 128) {
        const k = TEXT_CLASS[ch]!;
        if (k & T_URIC) {
          if (ch === LBRACKET) {
            // "[" and "]" only delimit an IP literal in the host (RFC 3986 §3.2.2).
            const before = text.charCodeAt(i - 1);
            if (!inAuthority || ipLiteral || (before !== SLASH && before !== AT)) break;
            ipLiteral = true;
          } else if (ch === RBRACKET) {
            if (!ipLiteral) break;
            ipLiteral = false;
          } else if (inAuthority && (ch === SLASH || ch === QMARK || ch === HASH)) {
            inAuthority = false;
          } else if (!angle && ch === LPAREN) {
            depth++;
          } else if (!angle && ch === RPAREN) {
            if (depth === 0) break; // an unbalanced ")" encloses rather than belongs
            depth--;
          }
          if (urn === 1 && ch === QMARK) {
            // RFC 8141 §2: "?" begins an r-component ("?+") or q-component ("?=");
            // otherwise it is excluded (2012 draft §2.5.3) and ends the NSS.
            if (i + 1 >= len && !final) return PENDING;
            const n = text.charCodeAt(i + 1);
            if (n !== 0x2b && n !== 0x3d) break;
          } else if (urn === 2 && inNss) {
            // 2012 draft §2.5.3: "/" is excluded from the NSS; "?" (its query
            // directives, §2.3) and "#" (§2.4) end the NSS and go on.
            if (ch === SLASH) break;
            if (ch === QMARK || ch === HASH) inNss = false;
          }
          end = ++i;
          continue;
        }
        if (ch === 0x25) {
          if (i + 2 >= len && !final) return PENDING;
          if (isPctEncoded(text, i)) {
            end = i += 3;
            continue;
          }
          // 2003 draft App. E: inside <...> the white space that breaks a long
          // URI is ignored, also inside an escape ("%2" at the end of a line,
          // "0" on the next: the 1993 draft's own gopher reference).
          if (!angle) break;
          const r = this.brokenEscape(i);
          if (r === PENDING) return PENDING;
          if (r === REJECT) break;
          end = i = b.resume;
          continue;
        }
        if (k & T_SPACE) {
          // White space: ignored inside <...>; after a hyphen at a line break the
          // URI may go on (2003 draft App. E: "ignore all unescaped whitespace
          // around the line break ... the hyphen may or may not actually be part").
          let j = i, eols = 0;
          while (j < len && cls(text.charCodeAt(j)) & T_SPACE) {
            const w = text.charCodeAt(j);
            if (w === 0x0a || (w === 0x0d && text.charCodeAt(j + 1) !== 0x0a)) eols++;
            j++;
          }
          if (angle && eols > 0 && this.quoted && text.charCodeAt(j) === GT) {
            j = this.afterQuoteMarkers(j);
            if (j < 0) return PENDING;
          }
          if (j >= len && !final) return PENDING;
          const hyphenBreak = eols > 0 && text.charCodeAt(i - 1) === HYPHEN;
          if (!angle) {
            if (!hyphenBreak || eols !== 1 || j >= len) break;
            const r = this.continues(j);
            if (r === PENDING) return PENDING;
            if (r === REJECT) break;
          }
          b.built += text.slice(b.segStart, i);
          if (hyphenBreak) (b.hyphens ??= []).push(b.built.length - 1);
          b.segStart = i = j;
          continue;
        }
        if (angle && ch === GT) {
          b.end = end;
          b.resume = i + 1;
          return MATCH;
        }
        break;
      }
      if (!iri) break;
      if (ch >= 0xd800 && ch <= 0xdbff && i + 1 >= len && !final) return PENDING;
      const n = ucscharLength(text, i, false);
      if (n === 0 || isTextDelimiter(ch)) break;
      end = i += n;
    }
    if (angle) return REJECT;
    b.end = end;
    b.resume = end;
    return MATCH;
  }

  /**
   * Inside `<...>`: the escape at `i` ("%" HEXDIG HEXDIG, RFC 3986 §2.1)
   * with white space between its characters, which is ignored (2003 draft
   * App. E). On MATCH the escape is in `body.built`, `body.segStart` and
   * `body.resume` are just after it.
   */
  private brokenEscape(i: number): Outcome {
    const text = this.text, len = text.length, b = this.body;
    let built = b.built + text.slice(b.segStart, i + 1);
    let j = i + 1;
    for (let digit = 0; digit < 2; digit++) {
      const from = j;
      let eols = 0;
      while (j < len && j - from <= MAX_GAP && cls(text.charCodeAt(j)) & T_SPACE) {
        const w = text.charCodeAt(j++);
        if (w === 0x0a || (w === 0x0d && text.charCodeAt(j) !== 0x0a)) eols++;
      }
      if (eols > 0 && this.quoted && text.charCodeAt(j) === GT) {
        j = this.afterQuoteMarkers(j);
        if (j < 0) return PENDING;
      }
      if (j >= len) return this.final ? REJECT : PENDING;
      if (hexValue(text.charCodeAt(j)) < 0) return REJECT;
      built += text[j];
      j++;
    }
    b.built = built;
    b.segStart = b.resume = j;
    return MATCH;
  }

  /**
   * Quoted mail, inside `<...>` after a line break: the "> " that begins the
   * next line (at `j`) is quoting, not the closing bracket. The index after
   * the quote markers, `j` where they are not followed by the URI's next
   * character, -1 when the text ends before that is known.
   */
  private afterQuoteMarkers(j: number): number {
    const text = this.text, len = text.length;
    let q = j;
    while (q < len && (text.charCodeAt(q) === GT || text.charCodeAt(q) === 0x20)) q++;
    if (q >= len && !this.final) return -1;
    return q > j && text.charCodeAt(q - 1) === 0x20 && q < len && !(cls(text.charCodeAt(q)) & T_SPACE) ? q : j;
  }

  /** Does the next line (from `j`) continue a URI broken after a hyphen? Not if it begins another URI. */
  private continues(j: number): Outcome {
    const text = this.text, len = text.length;
    const c = text.charCodeAt(j);
    if (!(cls(c) & T_ALNUM) && c !== SLASH && c !== 0x25 && !(c >= 128 && this.iri && !isTextDelimiter(c))) return REJECT;
    let k = j;
    while (k < len && k - j <= MAX_SCHEME && cls(text.charCodeAt(k)) & T_SCHEME) k++;
    if (k >= len && !this.final) return PENDING;
    return text.charCodeAt(k) === COLON ? REJECT : MATCH;
  }

  /** Leaves out trailing sentence punctuation and a closing wrapper repeated after the URI. */
  /** @internal */
  trim(min: number, open: number): void {
    const text = this.text, b = this.body;
    // GNU and TeX quote with a grave accent and close with an apostrophe
    // (`http://a/b' in a copyright file): the apostrophe is the wrapper's.
    const symmetric = open === 0x60 ? 0x27 : open >= 0 && cls(open) & T_SYMMETRIC ? open : -1;
    let e = b.end;
    const floor = Math.max(min, b.segStart);
    while (e > floor) {
      const ch = text.charCodeAt(e - 1);
      if (cls(ch) & T_TRAILING || ch === symmetric) e--;
      else break;
    }
    b.end = e;
    b.resume = e;
  }

  /** Builds and checks the match in `this.body`; false if it is not a URI after all. */
  /** @internal */
  emit(s: number, c: number, hasAuthority: boolean, wrapped: UriMatch['wrapped'], urlPrefix: boolean, prefix: string | undefined, out: UriMatch[]): boolean {
    const text = this.text, b = this.body;
    if (b.end <= c + 1 || (hasAuthority && b.end <= c + 3 && b.segStart === s)) return false;
    const uri = (prefix ?? '') + b.built + text.slice(b.segStart, b.end);
    if (!isValid3986(uri, this.iri ? 'iri' : 'uri')) return false;
    // A "urn:" that is no URN ("the URN:ISBN of a book") is prose, not a URI
    // (RFC 8141 §2, or the 2012 draft's grammar when asked).
    if (c - s === 3 && uri.slice(0, 4).toLowerCase() === 'urn:' && !isValidUrn(uri, { profile: this.urn2012 ? 'urn-2012' : 'rfc8141' })) return false;
    const m: UriMatch = { uri, start: s, end: b.end };
    if (wrapped !== undefined) m.wrapped = wrapped;
    if (urlPrefix) m.urlPrefix = true;
    if (prefix !== undefined) m.abbreviated = true;
    if (b.hyphens !== undefined) {
      m.ambiguous = true;
      // The reading without the hyphens at line breaks, in one pass.
      const shift = prefix?.length ?? 0;
      let alt = '', from = 0;
      for (const h of b.hyphens) {
        alt += uri.slice(from, h + shift);
        from = h + shift + 1;
      }
      m.alternatives = [alt + uri.slice(from)];
    }
    out.push(m);
    this.resume = b.resume;
    return true;
  }

  /** True if a URI may begin right after `c` (white space, a wrapper, or a non-URI character). */
  /** @internal */
  boundaryBefore(c: number): boolean {
    if (c >= 128) return isTextDelimiter(c);
    const k = TEXT_CLASS[c]!;
    return !(k & T_URIC) || (k & T_SYMMETRIC) !== 0 || c === LPAREN || c === LBRACKET;
  }

}

function indexOrLen(text: string, ch: string, from: number): number {
  const i = text.indexOf(ch, from);
  return i < 0 ? text.length : i;
}
