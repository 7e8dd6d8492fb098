/**
 * Percent-encoded triplets (RFC 3986 §2.1): writing one, and the §6.2.2
 * normalization of those of a component. Apart from the encoders and
 * decoders of percent.ts, which a bundle of parse, resolve and normalize
 * does not hold.
 */
import { CLASS, UNRESERVED, octetAt } from './chars.js';

const HEX = '0123456789ABCDEF';
/**
 * One octet as `%HH` with upper-case hex digits (RFC 3986 §2.1: producers should use upper case).
 *
 * @example
 * ```ts
 * pctTriplet(0x2f) // "%2F"
 * ```
 */
export const pctTriplet = (octet: number): string => '%' + HEX[octet >> 4]! + HEX[octet & 15]!;

/**
 * RFC 3986 §6.2.2.1 and §6.2.2.2 on one component: `%hh` to `%HH`, and a
 * triplet of an unreserved character decoded; with `lower` (for the host,
 * §6.2.2.1), ASCII letters outside the triplets to lower case too. One
 * pass; the text itself is returned when nothing applies. Expects the
 * triplets of a parsed component (a stray "%" is kept).
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-6.2.2.2
 * @example
 * ```ts
 * normalizeTriplets('a%7eb%2f', false) // "a~b%2F"
 * normalizeTriplets('WWW.%41.com', true) // "www.a.com"
 * ```
 */
export function normalizeTriplets(s: string, lower: boolean): string {
  let out = '';
  let run = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x25) {
      const octet = octetAt(s, i);
      if (octet < 0) continue;
      let rep: string;
      if (octet < 128 && CLASS[octet]! & UNRESERVED) {
        rep = String.fromCharCode(lower && octet >= 0x41 && octet <= 0x5a ? octet + 32 : octet);
      } else {
        rep = pctTriplet(octet);
        if (s.charCodeAt(i + 1) === rep.charCodeAt(1) && s.charCodeAt(i + 2) === rep.charCodeAt(2)) { i += 2; continue; }
      }
      out += s.slice(run, i) + rep;
      i += 2;
      run = i + 1;
    } else if (lower && c >= 0x41 && c <= 0x5a) {
      out += s.slice(run, i) + String.fromCharCode(c + 32);
      run = i + 1;
    }
  }
  return run === 0 ? s : out + s.slice(run);
}
