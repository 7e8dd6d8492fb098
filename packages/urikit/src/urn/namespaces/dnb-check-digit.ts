/**
 * The check digit of National Bibliography Numbers under the German
 * National Library's (DNB) `urn:nbn:de` namespace: the table, the
 * computation and the check of an NSS that validation uses (the answers
 * that name an error code are in nbn-check-digit.ts).
 *
 * Source: DNB, "Beschreibung des Algorithmus zur Berechnung der
 * URN-Prüfziffer" / "Description of algorithm for calculation of URN check
 * digit" (persistent-identifier.de, "316-check-digit-algorithm"). The check
 * digit is one decimal digit placed directly after the last character of
 * the whole string `urn:nbn:de:<snid>-<niss>`, and it is computed over that
 * whole string, "urn:nbn:" included.
 *
 * The Swiss National Library's `urn:nbn:ch` names also end in a check digit
 * ("Identifikationsnummer und Prüfziffer nach dem Bindestrich", Swiss NL,
 * "FAQ zur URN", whose example `urn:nbn:ch:bel-9596` checks under this
 * algorithm); their names are resolved by the DNB's service. The other NBN
 * registrations (RFC 8458 §4.2 leaves the NBN string to each national
 * library) define no check digit that could be confirmed, so they have none
 * here.
 */

// DNB "Konversionstabelle für Alphazeichen": each character -> its value.
// Values avoid a zero digit ("Dabei wurde das Auftreten der Null z.B. in 10,
// 20 etc. vermieden"), so the last digit, the divisor, is never 0. Letters
// are listed in capitals; the DNB accepts names in lower case only, so both
// cases take the letter's value. 0 marks a character outside the table.
// Written as the characters in table order and their values as one
// string of decimal pairs ("0" is 01, "9" is 41, "A" is 18 ...).
const VALUE = new Uint8Array(128);
const CONCORDANCE_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ+:_-./';
const CONCORDANCE_VALUES = '010203040506070809411814191516212223242542262713282931123233113435363738491743394745';
for (let k = 0; k < CONCORDANCE_CHARS.length; k++) {
  const v = +CONCORDANCE_VALUES.slice(2 * k, 2 * k + 2);
  VALUE[CONCORDANCE_CHARS.charCodeAt(k)] = v;
  VALUE[CONCORDANCE_CHARS.toLowerCase().charCodeAt(k)] = v;
}

/** The ISO 3166 country codes whose NBNs end in the DNB check digit (see the module comment). */
const CHECKED_COUNTRIES = new Set(['de', 'ch']);

/**
 * True if names under this NBN country code end in the DNB check digit:
 * `de` (DNB) and `ch` (Swiss National Library).
 *
 * @example
 * ```ts
 * nbnHasCheckDigit('DE'); // true
 * nbnHasCheckDigit('fi'); // false
 * ```
 */
export function nbnHasCheckDigit(country: string): boolean {
  return CHECKED_COUNTRIES.has(country.toLowerCase());
}

/**
 * The index in `s` of the first character outside the DNB concordance
 * table, or -1 (from `start`).
 *
 * @example
 * ```ts
 * firstUnmapped('urn:nbn:de:101-a%20b', 0) // 16
 * firstUnmapped('urn:nbn:de:101-ab', 0) // -1
 * ```
 */
export function firstUnmapped(s: string, start: number): number {
  for (let i = start; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 128 || VALUE[c] === 0) return i;
  }
  return -1;
}

/**
 * DNB URN-Prüfziffer, "Mathematischer Algorithmus": the characters become
 * a sequence of digits by the table; each digit is multiplied by its
 * position (1, 2, ...), the products summed, the sum divided by the last
 * digit of the sequence, and the last digit of the integer part of the
 * quotient is the check digit. `s[start..]` must be in the table.
 *
 * @see http://www.persistent-identifier.de/english/316-check-digit-algorithm.php
 * @example
 * ```ts
 * dnbCheckDigit('urn:nbn:de:gbv:089-332175294', 0) // 5
 * ```
 */
export function dnbCheckDigit(s: string, start: number): number {
  let pos = 0;
  let sum = 0;
  let last = 1;
  for (let i = start; i < s.length; i++) {
    const v = VALUE[s.charCodeAt(i)]!;
    if (v >= 10) sum += ++pos * Math.floor(v / 10);
    last = v % 10;
    sum += ++pos * last;
  }
  return Math.floor(sum / last) % 10;
}


/**
 * The check digit covers the whole URN: `urn:nbn:` comes before the NSS.
 *
 * @example
 * ```ts
 * dnbCheckDigit(URN_NBN + 'de:101-202007140', 0) // 1
 * ```
 */
export const URN_NBN = 'urn:nbn:';

/**
 * Checks the check digit of an NBN NSS under a checked country (`de:...`,
 * `ch:...`, already valid under RFC 8458 §4.2): -1, or the index in `nss`
 * of the first character outside the table, or of the check digit (the
 * last character) when it does not match.
 *
 * @example
 * ```ts
 * checkNbnCheckDigit('de:101-2020071401'); // -1
 * checkNbnCheckDigit('de:101-2020071409'); // 16
 * ```
 */
export function checkNbnCheckDigit(nss: string): number {
  const bad = firstUnmapped(nss, 0);
  if (bad >= 0) return bad;
  const last = nss.length - 1;
  const expected = dnbCheckDigit(URN_NBN + nss.slice(0, last), 0);
  return nss.charCodeAt(last) - 0x30 === expected ? -1 : last;
}
