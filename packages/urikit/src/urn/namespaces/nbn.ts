/**
 * The `nbn` namespace (RFC 8458, which replaces RFC 3188): National
 * Bibliography Numbers, each under the prefix of the country (ISO 3166)
 * whose national library assigns it.
 */
import { CLASS, PCHAR, isAlphanum } from '../../chars.js';
import type { UrnLexicalRules, UrnNamespace } from '../types.js';
import { checkNbnCheckDigit, nbnHasCheckDigit } from './dnb-check-digit.js';
import { explainNbnCheckDigit } from './nbn-check-digit.js';

// ISO 3166-1 alpha-2 country codes (the prefixes of RFC 8458 §4.2), written
// by first letter: "ad ae af" is "adef", each letter after the first one
// a second letter.
const COUNTRIES = new Set(
  ('adefgilmoqrstuwxz babdefghijlmnoqrstvwyz cacdfghiklmnoruvwxyz dejkmoz eceghrst fijkmor ' +
    'gabdefghilmnpqrstuwy hkmnrtu idelmnoqrst jemop keghimnprwyz labcikrstuvy ' +
    'macdefghklmnopqrstuvwxyz nacefgilopruz om paefghklmnrstwy qa reosuw sabcdeghijklmnorstvxyz ' +
    'tcdfghjklmnortvwz uagmsyz vaceginu wfs yet zamw')
    .split(' ')
    .flatMap((group) => [...group.slice(1)].map((second) => group[0] + second)),
);

// The first letters of the codes, for the first offending character of an unknown code
const FIRST_LETTERS = new Set([...COUNTRIES].map((cc) => cc[0]));

/**
 * The length of the prefix `cc *( ":" sub-namespace )` before the "-" that
 * begins the NBN string (RFC 8458 §4.2; e.g. `fi-fe19981001`,
 * `de:bvb:19-146642`), or a negative number -(index + 1) of the first
 * offending character.
 */
function prefixEnd(nss: string): number {
  const c0 = nss.charAt(0).toLowerCase();
  if (!FIRST_LETTERS.has(c0)) return -1;
  if (nss.length < 2) return -(nss.length + 1); // the end, where the second letter was needed
  if (!COUNTRIES.has(c0 + nss.charAt(1).toLowerCase())) return -2;
  let i = 2;
  for (;;) {
    const c = nss.charCodeAt(i);
    if (c === 0x2d) return i;
    if (c !== 0x3a) return -(i + 1);
    const start = ++i;
    while (i < nss.length && isAlphanum(nss.charCodeAt(i))) i++;
    if (i === start) return -(i + 1);
  }
}

/** RFC 8458 §4.2: NSS = prefix "-" NBN string, the NBN string non-empty and made of URN characters. */
function validateNbnSyntax(nss: string): number {
  const end = prefixEnd(nss);
  if (end < 0) return -end - 1;
  if (end + 1 >= nss.length) return nss.length;
  for (let i = end + 1; i < nss.length; i++) {
    const c = nss.charCodeAt(i);
    if (c === 0x25) i += 2; // pct-encoded, already checked by the generic syntax
    else if (!(c < 128 && (CLASS[c]! & PCHAR) !== 0)) return i;
  }
  return -1;
}

/** The syntax, then the check digit where the country's registration defines one (`de`, `ch`: see dnb-check-digit.ts). */
function validateNbn(nss: string): number {
  const bad = validateNbnSyntax(nss);
  return bad >= 0 || !nbnHasCheckDigit(nss.slice(0, 2)) ? bad : checkNbnCheckDigit(nss);
}

/** A problem found by the check digit's rules is reported as such; one of RFC 8458's syntax is the generic "fails the namespace's rules". */
function explainNbn(nss: string, index: number): ReturnType<typeof explainNbnCheckDigit> | undefined {
  return validateNbnSyntax(nss) < 0 && nbnHasCheckDigit(nss.slice(0, 2)) ? explainNbnCheckDigit(nss, index) : undefined;
}

// Only the country code is folded: the sub-namespace codes and the NBN string are
// assigned by each national library, and no case rule for them could be confirmed
// in RFC 8458, so folding them could merge names the library keeps apart (a false
// positive, which RFC 8141 §3.1 forbids a namespace rule to create).
const normalizeNbn = (nss: string): string => nss.slice(0, 2).toLowerCase() + nss.slice(2);

/**
 * The lexical rules of `urn:nbn:` that normalization uses: the syntax and
 * check digit, and the country code in lower case.
 *
 * @example
 * ```ts
 * nbnLexical.normalizeNss('DE:bvb:19-146642') // "de:bvb:19-146642"
 * ```
 */
export const nbnLexical: UrnLexicalRules = { nid: 'nbn', validateNss: validateNbn, normalizeNss: normalizeNbn };

/**
 * RFC 8458 (replacing RFC 3188) `urn:nbn:` — an ISO 3166 country code,
 * optional sub-namespaces, "-" and the NBN string; the country code is
 * case-insensitive (ISO 3166-1 codes name the same country in either case).
 * Names under `de` and `ch` end in the DNB check digit.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8458#section-4.2
 * @example
 * ```ts
 * nbn.normalizeNss?.('DE:bvb:19-146642'); // "de:bvb:19-146642"
 * nbn.validateNss?.('de:101-2020071409'); // 16 (the check digit should be 1)
 * ```
 */
export const nbn: UrnNamespace = {
  nid: 'nbn',
  reference: 'RFC 8458 (RFC 3188)',
  validateNss: validateNbn,
  explainNss: explainNbn,
  normalizeNss: normalizeNbn,
};
