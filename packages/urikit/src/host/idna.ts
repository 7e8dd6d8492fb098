/**
 * IDNA: Unicode domain names to and from their ASCII (`xn--`) form, by
 * UTS #46 Nontransitional Processing (https://www.unicode.org/reports/tr46/).
 *
 * The mapping table of UTS #46 §5 (case folding, NFC, width forms,
 * disallowed code points, CheckBidi, CheckJoiners) is the platform's own:
 * the host parser of the global `URL` (WHATWG URL "domain to ASCII", which
 * is UTS #46 nontransitional), so the core keeps zero run-time
 * dependencies and no Unicode tables. What UTS #46 §4 asks beyond the
 * mapping is checked here: the Punycode of `xn--` labels (RFC 3492, our
 * own decoder), CheckHyphens, UseSTD3ASCIIRules and VerifyDnsLength.
 */
import { UriError } from '../errors.js';
import { CLASS, ALPHA, DIGIT } from '../chars.js';
import { punycodeDecode, punycodeEncode } from './punycode.js';
import { MAX_HOSTNAME_LENGTH, MAX_LABEL_LENGTH } from './regname.js';

/** The UTS #46 §4 flags (Transitional_Processing is always false). */
export interface IdnaOptions {
  /** UTS #46 CheckHyphens: no "-" first, last, or third-and-fourth in a label. Default true. */
  checkHyphens?: boolean;
  /** UTS #46 UseSTD3ASCIIRules: ASCII only as letters, digits and "-" (RFC 1123 LDH). Default true. */
  useSTD3ASCIIRules?: boolean;
  /** UTS #46 VerifyDnsLength: labels of 1–63 and a name of at most 253 characters. Default true. */
  verifyDnsLength?: boolean;
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

/** True if `text[start, end)` is all ASCII. */
function isAsciiRange(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (text.charCodeAt(i) >= 0x80) return false;
  return true;
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
  for (let k = 0; k < count; k++) {
    const label = labels[k]!;
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
    // An A-label the mapping made from a U-label of the input is valid by
    // construction; one written in the input must be checked (UTS #46 §4 step 4.1).
    const fromUnicode = labels.length === starts.length && !isAsciiRange(domain, starts[k]!, k + 1 < starts.length ? starts[k + 1]! - 1 : domain.length);
    const unicode = !label.startsWith('xn--') ? label : fromUnicode ? punycodeDecode(label.slice(4), at(k) + 4, domain) : decodeALabel(label, domain, at(k));
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
  return mapped;
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
