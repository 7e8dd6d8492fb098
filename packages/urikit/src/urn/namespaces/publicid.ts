/**
 * The `publicid` namespace (RFC 3151): SGML/XML public identifiers
 * transcribed into URNs, both ways.
 */
import { UriError } from '../../errors.js';
import type { UrnNamespace } from '../types.js';
import { URN_MESSAGES, URN_NAMESPACE_MESSAGES, registerMessages } from '../../messages.js';

// The messages of the URN and URN namespace codes this module throws (messages.ts).
registerMessages(URN_MESSAGES);
registerMessages(URN_NAMESPACE_MESSAGES);

// XML 1.0 §2.3 [13]: PubidChar ::= #x20 | #xD | #xA | [a-zA-Z0-9] | [-'()+,./:=?;!*#@$_%]
const PUBID = new Uint8Array(128);
for (const ch of " \r\n-'()+,./:=?;!*#@$_%") PUBID[ch.charCodeAt(0)] = 1;
for (let c = 0x30; c <= 0x39; c++) PUBID[c] = 1;
for (let c = 0x41; c <= 0x5a; c++) PUBID[c] = PUBID[c + 0x20] = 1;

// RFC 3151 §1: the characters that are percent-encoded, and their escapes
const ESCAPES: Record<string, string> = { '+': '%2B', ':': '%3A', '/': '%2F', ';': '%3B', "'": '%27', '?': '%3F', '#': '%23', '%': '%25' };
const UNESCAPES: Record<string, string> = Object.fromEntries(Object.entries(ESCAPES).map(([k, v]) => [v, k]));

/**
 * Transcribes an SGML/XML public identifier into the NSS of a
 * `urn:publicid:` URN (RFC 3151 §1): white space normalized, then "//" ->
 * ":", "::" -> ";", space -> "+", and "+ : / ; ' ? # %" percent-encoded.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3151#section-1
 * @example
 * ```ts
 * publicIdToNss('ISO/IEC 10179:1996//DTD DSSSL Architecture//EN');
 * // "ISO%2FIEC+10179%3A1996:DTD+DSSSL+Architecture:EN"
 * ```
 */
export function publicIdToNss(publicId: string): string {
  // One pass. RFC 3151 §1.1: only PubidChars (XML 1.0 §2.3 [13]), and "all strings of
  // whitespace" changed to a single space, "removing all leading and trailing whitespace".
  // That normalization keeps every other character next to the same neighbours, so the
  // "//" and "::" pairs can be found in the input itself.
  let out = '';
  let run = -1; // start of the pending run of characters that stand for themselves
  let space = false; // a space is due before the next character
  for (let i = 0; i < publicId.length; i++) {
    const c = publicId.charCodeAt(i);
    if (c >= 128 || PUBID[c] !== 1) throw new UriError(c === 0 ? 'nul-in-urn' : 'invalid-char', i, publicId, 'not a PubidChar');
    if (c === 0x20 || c === 0x0d || c === 0x0a) {
      if (run >= 0) out += publicId.slice(run, i);
      run = -1;
      space = out !== '';
      continue;
    }
    if (space) out += '+'; // the one space of a run of white space
    space = false;
    const next = publicId.charCodeAt(i + 1);
    const pair = (c === 0x2f || c === 0x3a) && next === c; // "//" -> ":", "::" -> ";"
    const rep = pair ? (c === 0x2f ? ':' : ';') : ESCAPES[publicId[i]!];
    if (rep === undefined) {
      if (run < 0) run = i;
      continue;
    }
    if (run >= 0) out += publicId.slice(run, i);
    run = -1;
    out += rep;
    if (pair) i++;
  }
  if (run >= 0) out += publicId.slice(run);
  if (out === '') throw new UriError('bad-nss', 0, publicId, 'empty public identifier');
  return out;
}

/**
 * The public identifier a `urn:publicid:` NSS stands for (RFC 3151 §1,
 * the transcription reversed); throws a {@link UriError} if no public
 * identifier transcribes to it.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3151#section-1
 * @example
 * ```ts
 * nssToPublicId('ISO%2FIEC+10179%3A1996:DTD+DSSSL+Architecture:EN');
 * // "ISO/IEC 10179:1996//DTD DSSSL Architecture//EN"
 * ```
 */
export function nssToPublicId(nss: string): string {
  const bad = validatePublicId(nss);
  if (bad >= 0) throw new UriError('bad-namespace-nss', bad, nss, 'publicid');
  return decode(nss);
}

/** RFC 3151 §1 reversed, on an NSS that {@link validatePublicId} accepts. */
function decode(nss: string): string {
  let out = '';
  let run = 0; // start of the pending run of characters that stand for themselves
  for (let i = 0; i < nss.length; i++) {
    const ch = nss[i]!;
    const rep = ch === '%' ? UNESCAPES[nss.slice(i, i + 3).toUpperCase()] : ch === '+' ? ' ' : ch === ':' ? '//' : ch === ';' ? '::' : undefined;
    if (rep === undefined) continue;
    out += nss.slice(run, i) + rep;
    if (ch === '%') i += 2;
    run = i + 1;
  }
  return run === 0 ? nss : out + nss.slice(run);
}

/**
 * RFC 3151 §1: only what the transcription can produce, in one pass. The
 * NSS must be a fixed point of decoding then transcribing again, which fails
 * exactly where a token spells a character that the transcription would have
 * paired with the next one: "%2F" before ":" or "%2F" ("///" transcribes as
 * ":%2F"), "%3A" before ";" or "%3A" (":::" as ";%3A"); and where a "+" (a
 * space) could not survive white-space normalization: first, last or doubled.
 * Returns -1 or the index of the first offending character.
 */
function validatePublicId(nss: string): number {
  if (nss.length === 0) return 0;
  let afterSlash = false; // the previous token was "%2F" ("/")
  let afterColon = false; // the previous token was "%3A" (":")
  for (let i = 0; i < nss.length; i++) {
    const c = nss.charCodeAt(i);
    if (c === 0x25) {
      const esc = nss.slice(i, i + 3).toUpperCase();
      if (UNESCAPES[esc] === undefined) return i; // only the eight escapes of the transcription
      if ((esc === '%2F' && afterSlash) || (esc === '%3A' && afterColon)) return i;
      afterSlash = esc === '%2F';
      afterColon = esc === '%3A';
      i += 2;
      continue;
    }
    if (c === 0x3a /* ":" is "//" */ ? afterSlash : c === 0x3b /* ";" is "::" */ ? afterColon : false) return i;
    afterSlash = afterColon = false;
    if (c === 0x3a || c === 0x3b) continue;
    if (c === 0x2b) {
      // "+" is one space: never first, last or doubled (the second "+" offends; a last one needs more after it)
      if (i === 0) return 0;
      if (i === nss.length - 1) return nss.length;
      if (nss.charCodeAt(i + 1) === 0x2b) return i + 1;
      continue;
    }
    // any other PubidChar stands for itself, except white space and the escaped ones
    if (c >= 128 || PUBID[c] !== 1 || ESCAPES[nss[i]!] !== undefined || c === 0x20 || c === 0x0d || c === 0x0a) return i;
  }
  return -1;
}

/**
 * RFC 3151 `urn:publicid:` — validation, and the public identifier as its
 * presentation form.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3151
 * @example
 * ```ts
 * publicid.displayNss?.('-:OASIS:DTD+DocBook+XML+V4.1.2:EN'); // "-//OASIS//DTD DocBook XML V4.1.2//EN"
 * ```
 */
export const publicid: UrnNamespace = {
  nid: 'publicid',
  reference: 'RFC 3151',
  validateNss: validatePublicId,
  displayNss: nssToPublicId,
};
