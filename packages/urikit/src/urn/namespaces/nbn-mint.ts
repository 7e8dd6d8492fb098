/**
 * Minting National Bibliography Numbers: a counter or random local part
 * under a prefix, and the check digit where the country's registration
 * defines one (see `dnb-check-digit.ts`).
 */
import { UriError } from '../../errors.js';
import { nbn } from './nbn.js';
import { nbnHasCheckDigit } from './dnb-check-digit.js';
import { nbnCheckDigit } from './nbn-check-digit.js';
import { URN_MESSAGES, URN_NAMESPACE_MESSAGES, registerMessages } from '../../messages.js';

// The messages of the URN and URN namespace codes this module throws (messages.ts).
registerMessages(URN_MESSAGES);
registerMessages(URN_NAMESPACE_MESSAGES);

/**
 * How {@link mintNbn} makes the local part of a new name: from a counter,
 * or at random.
 *
 * @example
 * ```ts
 * const byCounter: NbnMintOptions = { counter: 7, width: 4 };
 * const atRandom: NbnMintOptions = { random: true, length: 10, alphabet: '0123456789bcdfghjkmnpqrstvwxz' };
 * mintNbn('urn:nbn:fi-fe', byCounter) // "urn:nbn:fi-fe0007"
 * mintNbn('urn:nbn:fi-fe', atRandom).length // 23 (the prefix and 10 random characters)
 * ```
 */
export type NbnMintOptions =
  /** A counter, written in decimal, zero-padded to `width` digits. */
  | { counter: number | bigint; width?: number }
  /** `length` random characters of `alphabet` (default: the digits), from `randomBytes` (default: `crypto.getRandomValues`). */
  | { random: true; length?: number; alphabet?: string; randomBytes?: (n: number) => Uint8Array };

const URN_NBN = 'urn:nbn:';
const DIGITS = '0123456789';

/** Unbiased random characters: a byte at or above the largest multiple of the alphabet's size is drawn again. */
function randomLocal(length: number, alphabet: string, randomBytes: (n: number) => Uint8Array): string {
  if (alphabet.length === 0 || alphabet.length > 256) throw new RangeError('the alphabet of mintNbn has 1 to 256 characters');
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length - out.length)) if (b < limit && out.length < length) out += alphabet[b % alphabet.length];
  }
  return out;
}

function cryptoBytes(n: number): Uint8Array {
  return globalThis.crypto.getRandomValues(new Uint8Array(n));
}

/**
 * A new NBN under `prefix` (everything before the local part, e.g.
 * `urn:nbn:de:101-` or `urn:nbn:de:gbv:089-`): a counter or random local
 * part, then the DNB check digit where the country uses one (`de`, `ch`).
 * The name is checked against RFC 8458 §4.2 and the check digit before it
 * is returned: a prefix or alphabet that cannot make a valid name throws
 * {@link UriError} at the offending character.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8458#section-4.2
 * @example
 * ```ts
 * mintNbn('urn:nbn:de:101-', { counter: 202007140 }); // "urn:nbn:de:101-2020071401"
 * mintNbn('urn:nbn:de:gbv:089-', { counter: 332175294 }); // "urn:nbn:de:gbv:089-3321752945"
 * mintNbn('urn:nbn:fi-fe', { counter: 42, width: 8 }); // "urn:nbn:fi-fe00000042"
 * mintNbn('urn:nbn:de:101-', { random: true, length: 6, randomBytes: (n) => new Uint8Array(n).fill(7) }); // "urn:nbn:de:101-7777778"
 * mintNbn('urn:isbn:', { counter: 1 }); // throws UriError bad-nid at offset 4
 * mintNbn('urn:nbn:de:101-x~', { counter: 1 }); // throws UriError bad-namespace-nss at offset 16
 * ```
 */
export function mintNbn(prefix: string, opts: NbnMintOptions): string {
  if (prefix.slice(0, URN_NBN.length).toLowerCase() !== URN_NBN) {
    throw new UriError('bad-nid', 4, prefix, 'a National Bibliography Number begins "urn:nbn:"');
  }
  let local: string;
  if ('counter' in opts) {
    const n = BigInt(opts.counter);
    if (n < 0n) throw new RangeError('the counter of mintNbn must not be negative');
    local = n.toString().padStart(opts.width ?? 0, '0');
  } else {
    local = randomLocal(opts.length ?? 8, opts.alphabet ?? DIGITS, opts.randomBytes ?? cryptoBytes);
  }
  const body = prefix + local;
  const checked = nbnHasCheckDigit(prefix.slice(URN_NBN.length, URN_NBN.length + 2));
  const name = checked ? body + nbnCheckDigit(body) : body;
  const nss = name.slice(URN_NBN.length);
  const bad = nbn.validateNss!(nss);
  if (bad >= 0) {
    const why = nbn.explainNss?.(nss, bad);
    throw new UriError(why?.code ?? 'bad-namespace-nss', URN_NBN.length + bad, name, why?.detail ?? 'nbn');
  }
  return name;
}
