/**
 * The `ietf` namespace (RFC 2648; the `params` sub-namespace of RFC 3553):
 * the RFC series, Internet-Drafts, meeting minutes and registered protocol
 * parameters.
 */
import { CLASS, PCHAR } from '../../chars.js';
import { ALPHANUM } from '../chars.js';
import type { UrnLexicalRules, UrnNamespace } from '../types.js';

// RFC 2648 §2 "Declaration of structure":
//   NSS       = rfc-nss / fyi-nss / std-nss / bcp-nss / draft-nss / mtg-nss / other-nss
//   rfc-nss   = "rfc:" 1*DIGIT        fyi-nss = "fyi:" 1*DIGIT
//   std-nss   = "std:" 1*DIGIT        bcp-nss = "bcp:" 1*DIGIT
//   draft-nss = "id:" string          mtg-nss = "mtg:" string
//   other-nss = string  ; beginning with a prefix other than one of those above for future expansion
//   string    = 1*(DIGIT / ALPHA / "-")
const NUMBERED = new Set(['rfc', 'fyi', 'std', 'bcp']);
const NAMED = new Set(['id', 'mtg']);

/** RFC 2648 §2: string = 1*(DIGIT / ALPHA / "-"); returns the end of it. */
function scanString(nss: string, i: number): number {
  while (i < nss.length) {
    const c = nss.charCodeAt(i);
    if ((c < 128 && (CLASS[c]! & ALPHANUM) !== 0) || c === 0x2d) i++;
    else break;
  }
  return i;
}

/** -1 if `end` is the end of `nss` and the run from `start` is not empty, else the first offending index. */
function whole(nss: string, start: number, end: number): number {
  return end === start ? start : end === nss.length ? -1 : end;
}

/**
 * RFC 2648 §2 "Declaration of structure", with the `params` prefix of
 * RFC 3553 §3; returns -1 or the index of the first offending character.
 */
function validateIetf(nss: string): number {
  // the series prefix is a string; a ":" ends it (RFC 2648 §2)
  const end = scanString(nss, 0);
  if (end === nss.length) return whole(nss, 0, end); // other-nss = string
  if (nss.charCodeAt(end) !== 0x3a || end === 0) return end;
  // RFC 5234 §2.3: ABNF quoted strings ("rfc:") are case-insensitive
  const series = nss.slice(0, end).toLowerCase();
  const start = end + 1;
  if (NUMBERED.has(series)) {
    let i = start;
    while (i < nss.length && nss.charCodeAt(i) >= 0x30 && nss.charCodeAt(i) <= 0x39) i++;
    return whole(nss, start, i);
  }
  if (NAMED.has(series)) return whole(nss, start, scanString(nss, start));
  if (series === 'params') return validateParams(nss, start);
  // other-nss = string: an unknown series cannot contain ":", so the ":" is the offending character
  return end;
}

/**
 * RFC 3553 §3 "Declaration of structure": "The namespace is primarily
 * opaque. [...] The colon character (":") is used to denote a very limited
 * concept of hierarchy. If a colon is present then the items on both sides
 * of it are valid names" (`params:dns:rr-type-codes`, `params:dns:rr-type-codes:soa`):
 * one or more non-empty names of NSS characters, separated by ":".
 */
function validateParams(nss: string, i: number): number {
  let nameStart = i;
  for (; i < nss.length; i++) {
    const c = nss.charCodeAt(i);
    if (c === 0x3a) {
      if (i === nameStart) return i; // an empty name
      nameStart = i + 1;
    } else if (c === 0x25) i += 2; // pct-encoded, already checked by the generic syntax
    else if (!(c < 128 && (CLASS[c]! & PCHAR) !== 0)) return i;
  }
  return i === nameStart ? i : -1;
}

function normalizeIetf(nss: string): string {
  const colon = nss.indexOf(':');
  const series = colon < 0 ? '' : nss.slice(0, colon).toLowerCase();
  if (series === 'params') {
    // RFC 3553 §4: each params registration fills in its own template, and they say
    // "No special considerations; the rules for lexical equivalence specified in RFC 8141
    // apply" (e.g. urn:ietf:params:whip): only the "params" prefix is folded
    return series + nss.slice(colon);
  }
  // RFC 2648 §2 "Rules for Lexical Equivalence": the rfc/fyi/std/bcp/id/mtg names are
  // case-insensitive (the prefixes are ABNF literals, RFC 5234 §2.3; the numbers are digits)
  return nss.toLowerCase();
}

/**
 * The lexical rules of `urn:ietf:` that normalization uses: RFC 2648 names
 * in lower case, only the prefix of RFC 3553 `params` names.
 *
 * @example
 * ```ts
 * ietfLexical.normalizeNss('RFC:2648') // "rfc:2648"
 * ```
 */
export const ietfLexical: UrnLexicalRules = { nid: 'ietf', validateNss: validateIetf, normalizeNss: normalizeIetf };

/**
 * RFC 2648 `urn:ietf:` — rfc, bcp, std, fyi (numbers), id, mtg (names), other
 * series, and the RFC 3553 `params` sub-namespace.
 *
 * @see https://www.rfc-editor.org/rfc/rfc2648#section-2
 * @example
 * ```ts
 * ietf.normalizeNss?.('RFC:2648'); // "rfc:2648"
 * ietf.normalizeNss?.('PARAMS:xml:ns:XMPP-bind'); // "params:xml:ns:XMPP-bind"
 * ```
 */
export const ietf: UrnNamespace = {
  nid: 'ietf',
  reference: 'RFC 2648, RFC 3553',
  validateNss: validateIetf,
  normalizeNss: normalizeIetf,
};
