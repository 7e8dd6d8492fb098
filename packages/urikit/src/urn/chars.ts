/**
 * The character classes the URN grammars add to the core's (../chars.ts).
 *
 * RFC 8141 and the 2012 draft build on RFC 3986, so their classes are the
 * core's bits, tested as `CLASS[c] & PCHAR`: `pchar` (the NSS), `query`
 * (the r-, q- and f-components, RFC 8141 §2; the 2012 draft's `v-pchar` is
 * `query` without "&", §2.3), `ALPHA`, `DIGIT`, `HEXDIG`. Only the 1995
 * draft's fields, made of RFC 1738 URL characters, need tables of their own.
 * A code unit >= 128 is never in any class: URNs are ASCII (2012 draft
 * §2.5.3, RFC 8141 §2: non-ASCII must be percent-encoded).
 */
import { ALPHA, DIGIT } from '../chars.js';

/**
 * Mask over the core `CLASS` table: RFC 8141 §2 `alphanum = ALPHA / DIGIT`
 * (the NID is `(alphanum) 0*30(ldh) (alphanum)`, `ldh = alphanum / "-"`).
 *
 * @see https://www.rfc-editor.org/rfc/rfc8141#section-2
 * @example
 * ```ts
 * import { CLASS } from '../chars.js';
 * (CLASS[0x61]! & ALPHANUM) !== 0; // true ("a")
 * ```
 */
export const ALPHANUM = ALPHA | DIGIT;

// RFC 1738 §5 (the 1995 draft's [URL]):
//   safe = "$" | "-" | "_" | "." | "+";  extra = "!" | "*" | "'" | "(" | ")" | ","
//   unreserved = alpha | digit | safe | extra    (escape = "%" hex hex is scanned apart)
const UNRESERVED_1738 = "$-_.+!*'(),";
// RFC 1738 §5: reserved = ";" | "/" | "?" | ":" | "@" | "=" | "&"
const RESERVED_1738 = ';/?:@=&';

/** Bit: 1995 draft §2.3 ElementID characters: RFC 1738 `unreserved | reserved`, except "?" (reserved for future use). */
export const ELEMENT_1995 = 1 << 0;
/** Bit: 1995 draft §2.2 AuthorityID characters: the ElementID characters except ":", which ends the field. */
export const AUTHORITY_1995 = 1 << 1;

/**
 * The 1995 draft's class bits of every ASCII code unit.
 *
 * @see https://datatracker.ietf.org/doc/html/draft-ietf-uri-yaurn-00#section-2
 * @example
 * ```ts
 * (CLASS_1995[0x2b]! & ELEMENT_1995) !== 0; // true ("+")
 * (CLASS_1995[0x3a]! & AUTHORITY_1995) !== 0; // false (":" ends the authority)
 * ```
 */
export const CLASS_1995: Uint8Array = /* @__PURE__ */ (() => {
  const t = new Uint8Array(128);
  const set = (chars: string, bit: number): void => {
    for (let i = 0; i < chars.length; i++) t[chars.charCodeAt(i)]! |= bit;
  };
  for (let c = 0x30; c <= 0x39; c++) t[c] = ELEMENT_1995 | AUTHORITY_1995;
  for (let c = 0x41; c <= 0x5a; c++) t[c] = t[c + 0x20] = ELEMENT_1995 | AUTHORITY_1995;
  // ElementID = unreserved | reserved, without "?"
  set(UNRESERVED_1738 + RESERVED_1738.replace('?', ''), ELEMENT_1995);
  // AuthorityID = the same without ":"
  set(UNRESERVED_1738 + RESERVED_1738.replace('?', '').replace(':', ''), AUTHORITY_1995);
  return t;
})();
