/**
 * The DNB check digit (see dnb-check-digit.ts for the algorithm and its
 * source) where it answers with an error code: computing the digit of a
 * whole URN for a caller, and explaining why a name was refused. Apart
 * from the check that validation uses, so that a bundle which only
 * validates and normalizes NBNs holds no error messages of its own.
 */
import { UriError } from '../../errors.js';
import { URN_NAMESPACE_MESSAGES, registerMessages } from '../../messages.js';
import { URN_NBN, dnbCheckDigit, firstUnmapped } from './dnb-check-digit.js';

// The messages of the URN namespace codes this module throws (messages.ts).
registerMessages(URN_NAMESPACE_MESSAGES);

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

/**
 * Why `checkNbnCheckDigit` (dnb-check-digit.ts) refused an NSS at `index`: the error code
 * and the detail for the message.
 *
 * @example
 * ```ts
 * explainNbnCheckDigit('de:101-2020071409', 16); // { code: 'bad-check-digit', detail: 'the DNB check digit of this name is 1' }
 * ```
 */
export function explainNbnCheckDigit(nss: string, index: number): { code: 'bad-check-digit' | 'bad-namespace-nss'; detail: string } {
  if (firstUnmapped(nss.charAt(index), 0) === 0) return { code: 'bad-namespace-nss', detail: 'the DNB check digit table has no value for this character' };
  return { code: 'bad-check-digit', detail: `the DNB check digit of this name is ${dnbCheckDigit(URN_NBN + nss.slice(0, index), 0)}` };
}
