/**
 * IDNA: Unicode domain names to and from their ASCII (`xn--`) form, by
 * UTS #46 Nontransitional Processing (https://www.unicode.org/reports/tr46/).
 *
 * The mapping table of UTS #46 §5 (case folding, NFC, width forms,
 * disallowed code points) and most of CheckBidi and CheckJoiners are the
 * platform's own: the host parser of the global `URL` (WHATWG URL "domain
 * to ASCII", which is UTS #46 nontransitional), so the core keeps zero
 * run-time dependencies and no Unicode tables. What UTS #46 §4 asks beyond
 * that is checked here: the Punycode of `xn--` labels (RFC 3492, our own
 * decoder), CheckHyphens, UseSTD3ASCIIRules, VerifyDnsLength, and the
 * parts of CheckBidi (RFC 5893 §2) and CheckJoiners (every joiner, not
 * only the first) that Node 20's parser leaves out.
 */
import { UriError } from '../errors.js';
import { CLASS, ALPHA, DIGIT } from '../chars.js';
import { punycodeDecode, punycodeEncode } from './punycode.js';
import { MAX_HOSTNAME_LENGTH, MAX_LABEL_LENGTH } from './regname.js';

/**
 * The UTS #46 §4 flags (Transitional_Processing is always false).
 *
 * @example
 * ```ts
 * const opts: IdnaOptions = { useSTD3ASCIIRules: false };
 * domainToASCII('a_b.example', opts) // "a_b.example"
 * domainToASCII('a_b.example') // throws bad-idna
 * ```
 */
export interface IdnaOptions {
  /** UTS #46 CheckHyphens: no "-" first, last, or third-and-fourth in a label. Default true. */
  checkHyphens?: boolean;
  /** UTS #46 UseSTD3ASCIIRules: ASCII only as letters, digits and "-" (RFC 1123 LDH). Default true. */
  useSTD3ASCIIRules?: boolean;
  /** UTS #46 VerifyDnsLength: labels of 1–63 and a name of at most 253 characters. Default true. */
  verifyDnsLength?: boolean;
  /**
   * UTS #46 CheckBidi: the RFC 5893 §2 rules in a domain name with
   * right-to-left labels. Default true. (False turns off urikit's checks;
   * the platform's mapping may still apply its own share of the rules.)
   */
  checkBidi?: boolean;
  /**
   * UTS #46 CheckJoiners: ZWJ and ZWNJ only where RFC 5892 Appendix A.1–A.2
   * allow them. Default true. (As for checkBidi, the platform's share stays.)
   */
  checkJoiners?: boolean;
}

/*
 * WHATWG URL §3.1 "forbidden domain code point": C0 controls, space, "#",
 * "%", "/", ":", "<", ">", "?", "@", "[", "\", "]", "^", "|", DEL. The
 * platform's URL parser gives them other meanings (a "%" is decoded), so
 * they are refused before it sees the name. With UseSTD3ASCIIRules the
 * ASCII allowed is LDH and ".", per RFC 1123 §2.1 and UTS #46 §4.1.
 */
const LDH_OR_DOT = 1;
const NOT_FORBIDDEN = 2;
const ASCII_CLASS: Uint8Array = (() => {
  const t = new Uint8Array(128);
  for (let c = 0x21; c < 0x7f; c++) if (!'#%/:<>?@[\\]^|'.includes(String.fromCharCode(c))) t[c] = NOT_FORBIDDEN;
  for (let c = 0; c < 128; c++) if ((CLASS[c]! & (ALPHA | DIGIT)) !== 0 || c === 0x2d || c === 0x2e) t[c]! |= LDH_OR_DOT;
  return t;
})();

/** UTS #46 §4 step 3: the label separators U+002E, U+FF0E, U+3002, U+FF61. */
const isDot = (c: number): boolean => c === 0x2e || c === 0x3002 || c === 0xff0e || c === 0xff61;

type UrlConstructor = new (input: string) => { hostname: string };

/** Maps a domain containing non-ASCII with the platform's UTS #46 (via `URL`); undefined if the platform refuses it. */
function platformMap(domain: string): string | undefined {
  const URLCtor = (globalThis as { URL?: UrlConstructor }).URL;
  if (URLCtor === undefined) throw new UriError('bad-idna', 0, domain, 'this platform has no URL class for the UTS #46 mapping');
  try {
    // The ".a" label keeps a numeric-looking name from being read as an
    // IPv4 address by the WHATWG host parser ("ends in a number").
    const hostname = new URLCtor(`http://${domain}.a/`).hostname;
    return hostname.endsWith('.a') ? hostname.slice(0, -2) : undefined;
  } catch {
    return undefined;
  }
}

/** Offset in `domain` of the first label the platform refuses on its own (0 if only the whole name fails). */
function locateFailure(domain: string): number {
  let start = 0;
  for (let i = 0; i <= domain.length; i++) {
    if (i === domain.length || isDot(domain.charCodeAt(i))) {
      const label = domain.slice(start, i);
      if (/[^\x00-\x7f]/.test(label) && platformMap(label) === undefined) return start;
      start = i + 1;
    }
  }
  return 0;
}

/** The start offsets of the labels of `domain` (split at any UTS #46 separator). */
function labelStarts(domain: string): number[] {
  const starts = [0];
  for (let i = 0; i < domain.length; i++) if (isDot(domain.charCodeAt(i))) starts.push(i + 1);
  return starts;
}

/**
 * Converts a domain name to its ASCII form by UTS #46 §4.2 ToASCII,
 * nontransitional (https://www.unicode.org/reports/tr46/#ToASCII); throws a
 * {@link UriError} `bad-idna` at the offending label. Options are the
 * UTS #46 flags, all on by default (pass them off for WHATWG URL behaviour).
 *
 * @example
 * ```ts
 * domainToASCII('Bücher.example') // "xn--bcher-kva.example"
 * domainToASCII('faß.de') // "xn--fa-hia.de" (nontransitional: ß is kept)
 * domainToASCII('ＥＸＡＭＰＬＥ。com') // "example.com"
 * domainToASCII('xn--a.com') // throws UriError('bad-idna')
 * ```
 */
export function domainToASCII(domain: string, opts?: IdnaOptions): string {
  const checkHyphens = opts?.checkHyphens ?? true;
  const std3 = opts?.useSTD3ASCIIRules ?? true;
  const verifyDnsLength = opts?.verifyDnsLength ?? true;
  const checkBidi = opts?.checkBidi ?? true;
  const checkJoiners = opts?.checkJoiners ?? true;
  // UTS #46 §4 step 1 (mapping) for ASCII is lower-casing; refuse what the
  // mapping disallows (STD3) or what a URL host cannot carry.
  let ascii = true;
  for (let i = 0; i < domain.length; i++) {
    const c = domain.charCodeAt(i);
    if (c >= 0x80) {
      ascii = false;
      if (c >= 0xd800 && c <= 0xdfff) {
        const d = c < 0xdc00 ? domain.charCodeAt(i + 1) : 0;
        if (!(d >= 0xdc00 && d <= 0xdfff)) throw new UriError('bad-idna', i, domain, 'a lone surrogate');
        i++;
      }
      continue;
    }
    if ((ASCII_CLASS[c]! & (std3 ? LDH_OR_DOT : NOT_FORBIDDEN)) === 0) {
      throw new UriError('bad-idna', i, domain, std3 ? 'only letters, digits, "-" and "." (UseSTD3ASCIIRules)' : 'a character no host may contain');
    }
  }
  let mapped: string;
  if (ascii) {
    mapped = domain.toLowerCase();
  } else {
    const m = platformMap(domain);
    if (m === undefined) throw new UriError('bad-idna', locateFailure(domain), domain, 'disallowed by the UTS #46 mapping or its Bidi and joiner rules');
    mapped = m;
  }
  const starts = labelStarts(domain);
  const labels = mapped.split('.');
  // Offsets point at the input label when the mapping kept the label count.
  const at = (k: number): number => (labels.length === starts.length ? starts[k]! : 0);
  // The trailing empty label of "example.com." stands for the root.
  const count = labels.length > 1 && labels[labels.length - 1] === '' ? labels.length - 1 : labels.length;
  if (verifyDnsLength) {
    const length = count < labels.length ? mapped.length - 1 : mapped.length;
    if (length === 0) throw new UriError('bad-idna', 0, domain, 'an empty domain name (VerifyDnsLength)');
    if (length > MAX_HOSTNAME_LENGTH) throw new UriError('bad-idna', 0, domain, 'longer than 253 characters (VerifyDnsLength)');
  }
  const unicodeLabels: string[] = [];
  for (let k = 0; k < count; k++) {
    const label = labels[k]!;
    unicodeLabels.push(label);
    if (label.length === 0) {
      if (verifyDnsLength) throw new UriError('bad-idna', at(k), domain, 'an empty label (VerifyDnsLength)');
      continue;
    }
    if (verifyDnsLength && label.length > MAX_LABEL_LENGTH) throw new UriError('bad-idna', at(k), domain, 'a label longer than 63 characters (VerifyDnsLength)');
    if (std3) {
      for (let i = 0; i < label.length; i++) {
        if ((ASCII_CLASS[label.charCodeAt(i)]! & LDH_OR_DOT) === 0) throw new UriError('bad-idna', at(k), domain, 'mapped to a character outside LDH (UseSTD3ASCIIRules)');
      }
    }
    // Every A-label is checked (UTS #46 §4 step 4.1), also one the mapping
    // produced: "ｘｎ－－ｘ－" maps to the ASCII label "xn--x-", not to Punycode.
    const unicode = label.startsWith('xn--') ? decodeALabel(label, domain, at(k)) : label;
    unicodeLabels[k] = unicode;
    if (checkHyphens) {
      // UTS #46 §4.1 Validity Criteria 2 and 3 (CheckHyphens).
      if (unicode.charCodeAt(2) === 0x2d && unicode.charCodeAt(3) === 0x2d) {
        throw new UriError('bad-idna', at(k), domain, '"-" in both the third and fourth positions (CheckHyphens)');
      }
      if (unicode.charCodeAt(0) === 0x2d || unicode.charCodeAt(unicode.length - 1) === 0x2d) {
        throw new UriError('bad-idna', at(k), domain, 'a label that begins or ends with "-" (CheckHyphens)');
      }
    }
  }
  if (checkJoiners) {
    for (let k = 0; k < unicodeLabels.length; k++) {
      if (!joinersValid(unicodeLabels[k]!)) throw new UriError('bad-idna', at(k), domain, 'a ZWJ or ZWNJ out of its context (CheckJoiners, RFC 5892 Appendix A.1–A.2)');
    }
  }
  if (checkBidi) {
    const bad = findBidiError(unicodeLabels);
    if (bad >= 0) throw new UriError('bad-idna', at(bad), domain, 'breaks the Bidi rule of RFC 5893 §2 (CheckBidi)');
  }
  return mapped;
}

/*
 * RFC 5892 Appendix A.1–A.2 (CONTEXTJ). The platform's mapping checks the
 * context of a joiner, but Node 20's (ada 2.9) only of the first one in a
 * label. The context of a joiner never reaches past another joiner (ZWNJ
 * is Joining_Type U, ZWJ is C, neither is T), so each joiner is checked by
 * the platform with the text between its neighbouring joiners.
 */
function joinersValid(label: string): boolean {
  const at: number[] = [];
  for (let i = 0; i < label.length; i++) {
    const c = label.charCodeAt(i);
    if (c === 0x200c || c === 0x200d) at.push(i);
  }
  if (at.length < 2) return true; // the platform checked it with the whole label
  for (let j = 0; j < at.length; j++) {
    const from = j === 0 ? 0 : at[j - 1]! + 1;
    const to = j + 1 < at.length ? at[j + 1]! : label.length;
    if (platformMap(label.slice(from, to)) === undefined) return false;
  }
  return true;
}

/*
 * RFC 5893 §2 (CheckBidi). The platform's mapping checks some of it, but
 * Node 20's (ada 2.9) misses rule 1 (a label begins with L, R or AL),
 * rules 5–6 (a left-to-right label in a Bidi domain name has no R, AL or
 * AN and ends with L or EN) and some of rule 3, so all six rules are
 * checked here too. JavaScript has no Bidi_Class property,
 * so the classes are read from General_Category and Script, which is
 * exact for the characters IDNA allows in these positions:
 *   R, AL  the other characters of the right-to-left scripts (letters, punctuation such as U+05F3 GERESH)
 *   AN     U+0600–0605, U+0660–0669, U+066B–066C, U+06DD, U+0890–0891, U+08E2, U+10D30–10D39, U+10E60–10E7E
 *   EN     "0"–"9", U+06F0–06F9 (what IDNA mapping leaves of the European digits)
 *   NSM    non-spacing and enclosing marks (Mn, Me)
 *   ES, CS, ET, ON, BN  punctuation, symbols, separators, format characters
 *   L      everything else (letters, spacing marks, other digits)
 */
const enum Bidi { L, RTL, AN, EN, NSM, Neutral }
let rtlScript: RegExp | undefined;
let neutral: RegExp | undefined;
const NSM_RE = /[\p{Mn}\p{Me}]/u;

function bidiClass(ch: string): Bidi {
  const c = ch.codePointAt(0)!;
  if (c < 0x80) {
    if (c >= 0x30 && c <= 0x39) return Bidi.EN;
    const l = c | 0x20;
    return l >= 0x61 && l <= 0x7a ? Bidi.L : Bidi.Neutral;
  }
  if (c >= 0x6f0 && c <= 0x6f9) return Bidi.EN;
  if ((c >= 0x600 && c <= 0x605) || (c >= 0x660 && c <= 0x669) || c === 0x66b || c === 0x66c || c === 0x6dd || c === 0x890 || c === 0x891 || c === 0x8e2 || (c >= 0x10d30 && c <= 0x10d39) || (c >= 0x10e60 && c <= 0x10e7e)) return Bidi.AN;
  if (NSM_RE.test(ch)) return Bidi.NSM;
  rtlScript ??= new RegExp(`[${RTL_SCRIPTS.map((sc) => `\\p{sc=${sc}}`).join('')}]`, 'u');
  // U+0640 ARABIC TATWEEL is AL though its Script is Common.
  if (c === 0x640 || rtlScript.test(ch)) return Bidi.RTL;
  neutral ??= /[\p{P}\p{S}\p{Z}\p{Cf}\p{Cc}]/u;
  return neutral.test(ch) ? Bidi.Neutral : Bidi.L;
}
// Right-to-left scripts (Unicode ≤ 9, so every engine with property escapes knows the names).
const RTL_SCRIPTS = [
  'Hebrew', 'Arabic', 'Syriac', 'Thaana', 'Nko', 'Samaritan', 'Mandaic', 'Adlam', 'Mende_Kikakui', 'Kharoshthi',
  'Imperial_Aramaic', 'Phoenician', 'Old_South_Arabian', 'Avestan', 'Nabataean', 'Palmyrene', 'Manichaean',
  'Old_Hungarian', 'Old_Turkic',
];

/** Index of the first label that breaks a rule of RFC 5893 §2 in a Bidi domain name, or -1. */
function findBidiError(labels: string[]): number {
  // RFC 5893 §1.4: a Bidi domain name has a label with an R, AL or AN character.
  let bidiDomain = false;
  for (const label of labels) {
    if (label.length === 0 || /^[\x00-\x7f]*$/.test(label)) continue;
    for (const ch of label) {
      const b = bidiClass(ch);
      if (b === Bidi.RTL || b === Bidi.AN) {
        bidiDomain = true;
        break;
      }
    }
    if (bidiDomain) break;
  }
  if (!bidiDomain) return -1;
  for (let k = 0; k < labels.length; k++) {
    const chars = [...labels[k]!];
    if (chars.length === 0) continue;
    const first = bidiClass(chars[0]!);
    // Rule 1: the first character is L, R or AL.
    if (first !== Bidi.L && first !== Bidi.RTL) return k;
    let last: Bidi = first;
    if (first === Bidi.RTL) {
      // Rule 2: an RTL label has no L; rule 4: not both EN and AN.
      let en = false;
      let an = false;
      for (const ch of chars) {
        const b = bidiClass(ch);
        if (b === Bidi.L) return k;
        if (b === Bidi.EN) en = true;
        if (b === Bidi.AN) an = true;
        if (b !== Bidi.NSM) last = b;
      }
      if (en && an) return k;
      // Rule 3: it ends with R, AL, EN or AN, then any number of NSM.
      if (last === Bidi.Neutral) return k;
      continue;
    }
    // Rule 5: an LTR label has only L, EN, ES, CS, ET, ON, BN and NSM.
    for (const ch of chars) {
      const b = bidiClass(ch);
      if (b === Bidi.RTL || b === Bidi.AN) return k;
      if (b !== Bidi.NSM) last = b;
    }
    // Rule 6: it ends with L or EN, then any number of NSM.
    if (last !== Bidi.L && last !== Bidi.EN) return k;
  }
  return -1;
}

/**
 * UTS #46 §4 step 4.1: a label beginning with "xn--" must decode by
 * Punycode to a non-empty, non-ASCII label that is valid, i.e. that the
 * mapping leaves unchanged and that encodes back to the same label.
 */
function decodeALabel(label: string, domain: string, offset: number): string {
  const unicode = punycodeDecode(label.slice(4), offset + 4, domain);
  if (!/[^\x00-\x7f]/.test(unicode)) throw new UriError('bad-idna', offset, domain, 'an xn-- label that decodes to ASCII only');
  // Validity Criteria 1 and 4–7 (NFC, valid code points, Bidi, joiners) through the mapping.
  if (platformMap(unicode) !== label || `xn--${punycodeEncode(unicode)}` !== label) {
    throw new UriError('bad-idna', offset, domain, 'an xn-- label whose Unicode form is not valid (UTS #46 §4.1)');
  }
  return unicode;
}

/**
 * Converts a domain name to its Unicode form by UTS #46 §4.3 ToUnicode
 * (https://www.unicode.org/reports/tr46/#ToUnicode): the name is mapped
 * and checked as by {@link domainToASCII} (same options), then each
 * `xn--` label is decoded; throws a {@link UriError} `bad-idna`.
 *
 * @example
 * ```ts
 * domainToUnicode('xn--bcher-kva.example') // "bücher.example"
 * domainToUnicode('EXAMPLE.com') // "example.com"
 * domainToUnicode('xn--X') // throws UriError('bad-idna')
 * ```
 */
export function domainToUnicode(domain: string, opts?: IdnaOptions): string {
  const ascii = domainToASCII(domain, opts);
  if (!ascii.includes('xn--')) return ascii;
  const labels = ascii.split('.');
  for (let k = 0; k < labels.length; k++) {
    if (labels[k]!.startsWith('xn--')) labels[k] = punycodeDecode(labels[k]!.slice(4));
  }
  return labels.join('.');
}
