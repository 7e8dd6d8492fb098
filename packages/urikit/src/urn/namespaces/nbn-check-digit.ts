/**
 * The check digit of National Bibliography Numbers under the German
 * National Library's (DNB) `urn:nbn:de` namespace, and minting of new names.
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
import { UriError } from '../../errors.js';
import { URN_NAMESPACE_MESSAGES, registerMessages } from '../../messages.js';

// The messages of the URN namespace codes this module throws (messages.ts).
registerMessages(URN_NAMESPACE_MESSAGES);

// DNB "Konversionstabelle für Alphazeichen": each character -> its value.
// Values avoid a zero digit ("Dabei wurde das Auftreten der Null z.B. in 10,
// 20 etc. vermieden"), so the last digit, the divisor, is never 0. Letters
// are listed in capitals; the DNB accepts names in lower case only, so both
// cases take the letter's value. 0 marks a character outside the table.
const VALUE = new Uint8Array(128);
const CONCORDANCE: ReadonlyArray<readonly [string, number]> = [
  ['0', 1], ['1', 2], ['2', 3], ['3', 4], ['4', 5], ['5', 6], ['6', 7], ['7', 8], ['8', 9], ['9', 41],
  ['A', 18], ['B', 14], ['C', 19], ['D', 15], ['E', 16], ['F', 21], ['G', 22], ['H', 23], ['I', 24],
  ['J', 25], ['K', 42], ['L', 26], ['M', 27], ['N', 13], ['O', 28], ['P', 29], ['Q', 31], ['R', 12],
  ['S', 32], ['T', 33], ['U', 11], ['V', 34], ['W', 35], ['X', 36], ['Y', 37], ['Z', 38],
  ['+', 49], [':', 17], ['_', 43], ['-', 39], ['.', 47], ['/', 45],
];
for (const [ch, v] of CONCORDANCE) {
  VALUE[ch.charCodeAt(0)] = v;
  VALUE[ch.toLowerCase().charCodeAt(0)] = v;
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
 */
function firstUnmapped(s: string, start: number): number {
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
 */
function dnbCheckDigit(s: string, start: number): number {
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
 * The DNB check digit of a whole URN written without it
 * (`urn:nbn:de:gbv:089-332175294` -> `5`), or a {@link UriError}
 * `bad-namespace-nss` at the first character the DNB's table has no value
 * for (only `0-9`, letters, `+ : _ - . /` have one).
 *
 * @see http://www.persistent-identifier.de/english/316-check-digit-algorithm.php
 * @example
 * ```ts
 * nbnCheckDigit('urn:nbn:de:gbv:089-332175294'); // "5"
 * nbnCheckDigit('urn:nbn:de:101-202007140');     // "1"
 * nbnCheckDigit('urn:nbn:de:101-a%20b');         // throws UriError bad-namespace-nss at offset 16
 * ```
 */
export function nbnCheckDigit(urnWithoutCheckDigit: string): string {
  const bad = firstUnmapped(urnWithoutCheckDigit, 0);
  if (bad >= 0) throw new UriError('bad-namespace-nss', bad, urnWithoutCheckDigit, 'the DNB check digit table has no value for this character');
  if (urnWithoutCheckDigit.length === 0) throw new UriError('empty', 0, urnWithoutCheckDigit);
  return String(dnbCheckDigit(urnWithoutCheckDigit, 0));
}

/** The check digit covers the whole URN: `urn:nbn:` comes before the NSS. */
const URN_NBN = 'urn:nbn:';

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

/**
 * Why {@link checkNbnCheckDigit} refused an NSS at `index`: the error code
 * and the detail for the message.
 *
 * @example
 * ```ts
 * explainNbnCheckDigit('de:101-2020071409', 16); // { code: 'bad-check-digit', detail: 'the DNB check digit of this name is 1' }
 * ```
 */
export function explainNbnCheckDigit(nss: string, index: number): { code: 'bad-check-digit' | 'bad-namespace-nss'; detail: string } {
  const c = nss.charCodeAt(index);
  if (c >= 128 || VALUE[c] === 0) return { code: 'bad-namespace-nss', detail: 'the DNB check digit table has no value for this character' };
  return { code: 'bad-check-digit', detail: `the DNB check digit of this name is ${dnbCheckDigit(URN_NBN + nss.slice(0, index), 0)}` };
}
