/**
 * The `ietf` namespace (RFC 2648; `params` added by RFC 3553): the RFC
 * series, Internet-Drafts and meeting minutes.
 */
import { ALPHANUM } from '../chars.js';
import type { UrnNamespace } from '../types.js';

/** RFC 2648 §2: "rfc:", "fyi:", "std:", "bcp:" 1*DIGIT; "id:", "mtg:" string. */
const NUMBERED = new Set(['rfc', 'fyi', 'std', 'bcp']);
const NAMED = new Set(['id', 'mtg']);

/** RFC 2648 §2: string = 1*(DIGIT / ALPHA / "-"); returns the end of it. */
function scanString(nss: string, i: number): number {
  while (i < nss.length) {
    const c = nss.charCodeAt(i);
    if ((c < 128 && ALPHANUM[c] === 1) || c === 0x2d) i++;
    else break;
  }
  return i;
}

/**
 * RFC 2648 §2 "Declaration of structure":
 * NSS = rfc-nss / fyi-nss / std-nss / bcp-nss / draft-nss / mtg-nss / other-nss;
 * RFC 3553 §3: "params:" <class> ":" <class-specific string>.
 */
function validateIetf(nss: string): number {
  const colon = nss.indexOf(':');
  if (colon <= 0) return colon < 0 ? nss.length : 0;
  const series = nss.slice(0, colon).toLowerCase();
  const start = colon + 1;
  if (NUMBERED.has(series)) {
    let i = start;
    while (i < nss.length && nss.charCodeAt(i) >= 0x30 && nss.charCodeAt(i) <= 0x39) i++;
    return i === start ? start : i === nss.length ? -1 : i;
  }
  if (NAMED.has(series)) {
    const end = scanString(nss, start);
    return end === start ? start : end === nss.length ? -1 : end;
  }
  if (series === 'params') {
    // RFC 3553 §3: a registered class, then ":" and the class-specific string (any NSS characters)
    const end = scanString(nss, start);
    if (end === start) return start;
    return end < nss.length - 1 && nss.charCodeAt(end) === 0x3a ? -1 : end;
  }
  return 0; // other-nss is reserved for future series (RFC 2648 §2)
}

/**
 * RFC 2648 `urn:ietf:` — rfc, bcp, std, fyi (numbers), id, mtg (names) and
 * RFC 3553 params; lexically case-insensitive (RFC 2648 §2 "Rules for
 * Lexical Equivalence").
 *
 * @see https://www.rfc-editor.org/rfc/rfc2648
 * @example
 * ```ts
 * ietf.normalizeNss?.('RFC:2648'); // "rfc:2648"
 * ```
 */
export const ietf: UrnNamespace = {
  nid: 'ietf',
  reference: 'RFC 2648, RFC 3553',
  validateNss: validateIetf,
  normalizeNss: (nss) => {
    // the series, numbers and names are case-insensitive; a params class-specific
    // string belongs to its registry and keeps its case
    if (nss.slice(0, 7).toLowerCase() === 'params:') {
      const second = nss.indexOf(':', 7);
      return nss.slice(0, second).toLowerCase() + nss.slice(second);
    }
    return nss.toLowerCase();
  },
};
