/**
 * The 1995 draft (draft-ietf-uri-yaurn-00) profile `yaurn-1995`:
 * `urn:<SchemeID>:<AuthorityID>:<ElementID>`, white space insignificant,
 * freestanding URNs in `<` `>`, the reserved `urn+` ElementIDs.
 */
import { UriError } from '../errors.js';
import { CLASS, SCHEME, isPctEncoded } from '../chars.js';
import { ALPHANUM, AUTHORITY_1995, CLASS_1995, ELEMENT_1995 } from './chars.js';
import type { Urn } from './types.js';
import { URN_MESSAGES, registerMessages } from '../messages.js';

// The messages of the URN codes this module throws (messages.ts).
registerMessages(URN_MESSAGES);

/** 1995 draft §2: "White space (the characters Space, Tab, CR, and LF) is allowed but is not significant". */
function isWhite(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
}

/** 1995 draft §3.5: the reserved requests and their letters. */
const RESERVED_REQUESTS = new Set(['m', 'a', 'c', 'p']);

/**
 * @internal Parses under the 1995 draft's rules (called by `parseUrn` with
 * `profile: 'yaurn-1995'`). Offsets in errors point into `input`.
 */
export function parseYaurn(input: string): Urn {
  const len = input.length;
  let start = 0;
  let end = len;
  // 1995 draft §2: "Freestanding URNs that include any white space must be enclosed in "<" and ">""
  const bracketed = len > 0 && input.charCodeAt(0) === 0x3c;
  if (bracketed) {
    if (input.charCodeAt(len - 1) !== 0x3e || len < 2) throw new UriError('bad-urn', len, input, 'no closing ">"');
    start = 1;
    end = len - 1;
  }
  let map: number[] | undefined;
  let text = '';
  for (let i = start; i < end; i++) {
    const c = input.charCodeAt(i);
    if (isWhite(c)) {
      if (!bracketed) throw new UriError('unbracketed-whitespace', i, input);
      if (map === undefined) {
        map = [];
        for (let k = start; k < i; k++) map.push(k);
        text = input.slice(start, i);
      }
    } else if (map !== undefined) {
      map.push(i);
      text += input[i];
    }
  }
  if (map === undefined) text = start === 0 && end === len ? input : input.slice(start, end);
  else map.push(end);
  const at = (k: number): number => (map === undefined ? start + k : map[k]!);
  const fail = (code: 'bad-urn' | 'bad-nid' | 'bad-nss' | 'reserved-nid' | 'reserved-element-id' | 'bad-percent' | 'nul-in-urn', k: number, detail?: string): never => {
    if (code !== 'bad-percent' && text.charCodeAt(k) === 0) code = 'nul-in-urn';
    throw new UriError(code, at(k), input, detail);
  };

  const n = text.length;
  // 1995 draft §2: the text string "urn" — "The first and SchemeID fields are case insensitive"
  for (let k = 0; k < 4; k++) {
    const c = k < n ? text.charCodeAt(k) : -1;
    if (k === 3 ? c !== 0x3a : (c | 0x20) !== 'urn'.charCodeAt(k)) fail('bad-urn', k);
  }
  // 1995 draft §2.1 SchemeID, spelled like an RFC 1738 scheme:
  // scheme = 1*[ lowalpha | digit | "+" | "-" | "." ] (case-insensitive): the core's `scheme`
  // continuation characters, RFC 3986 §3.1
  let i = 4;
  while (i < n && isIn(text.charCodeAt(i), CLASS, SCHEME)) i++;
  if (i === 4) fail('bad-nid', i, 'empty SchemeID');
  if (i === n) fail('bad-urn', i, 'no ":" after the SchemeID');
  if (text.charCodeAt(i) !== 0x3a) fail('bad-nid', i);
  const schemeId = text.slice(4, i);
  const scheme = schemeId.toLowerCase();
  if (scheme === 'urn') fail('reserved-nid', 4);

  // 1995 draft §2.2 AuthorityID
  const aStart = ++i;
  i = scanField(text, i, AUTHORITY_1995, fail);
  if (i === aStart) fail('bad-nss', i, 'empty AuthorityID');
  if (i === n) fail('bad-urn', i, 'no ":" after the AuthorityID');
  if (text.charCodeAt(i) !== 0x3a) fail('bad-nss', i);
  const authorityId = text.slice(aStart, i);
  // 1995 draft §2.2.1: within "dns" the AuthorityID is a fully-qualified domain name
  if (scheme === 'dns') {
    const bad = checkFqdn(authorityId);
    if (bad >= 0) fail('bad-nss', aStart + bad, 'the AuthorityID of "dns" must be a fully-qualified domain name');
  }

  // 1995 draft §2.3 ElementID: "#" and "?" are reserved for future use
  const eStart = ++i;
  i = scanField(text, i, ELEMENT_1995, fail);
  if (i < n) {
    const c = text.charCodeAt(i);
    fail(c === 0x23 || c === 0x3f ? 'reserved-element-id' : 'bad-nss', i);
  }
  if (i === eStart) fail('bad-nss', i, 'empty ElementID');
  const elementId = text.slice(eStart);
  const urn: Urn = { profile: 'yaurn-1995', nid: schemeId, nss: `${authorityId}:${elementId}`, schemeId, authorityId, elementId };
  // 1995 draft §2.1: 'SchemeID names starting with the characters "x-" are reserved for experimental purposes'
  if (scheme.startsWith('x-')) urn.experimental = true;
  // 1995 draft §2.3, §3.5: 'Elements that begin with exactly "urn+" are reserved for special resolution'
  if (elementId.startsWith('urn+')) {
    const req = elementId.slice(4);
    if (!RESERVED_REQUESTS.has(req)) fail('reserved-element-id', eStart);
    urn.reservedRequest = req as 'm' | 'a' | 'c' | 'p';
  }
  return urn;
}

/** Scans URL characters of one field (RFC 1738 §2.2 escapes checked; %00 refused). */
function scanField(text: string, i: number, bit: number, fail: (code: 'bad-percent' | 'nul-in-urn', k: number) => never): number {
  const n = text.length;
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    if (isIn(c, CLASS_1995, bit)) continue;
    if (c !== 0x25) break;
    if (!isPctEncoded(text, i)) fail('bad-percent', i);
    if (text.charCodeAt(i + 1) === 0x30 && text.charCodeAt(i + 2) === 0x30) fail('nul-in-urn', i);
    i += 2;
  }
  return i;
}

/** True if the code unit is ASCII and has one of the bits of `mask` in `table`. */
function isIn(c: number, table: Uint8Array | Uint16Array, mask: number): boolean {
  return c < 128 && (table[c]! & mask) !== 0;
}

/**
 * RFC 952 / RFC 1123 §2.1 host name, fully qualified (at least two labels):
 * label = let-dig [ *( let-dig-hyp ) let-dig ], at most 63 characters; at most
 * 255 in all. Returns -1 or the index of the first problem.
 *
 * @see https://www.rfc-editor.org/rfc/rfc1123#section-2.1
 * @example
 * ```ts
 * checkFqdn('library.bigstate.edu'); // -1
 * checkFqdn('localhost');            // 9 (not fully qualified)
 * ```
 */
export function checkFqdn(name: string): number {
  let labels = 0;
  let start = 0;
  for (let i = 0; i <= name.length; i++) {
    if (i === 255 && name.length > 255) return 255; // the first character beyond 255
    if (i - start === 63 && i < name.length && name.charCodeAt(i) !== 0x2e) return i; // the 64th of a label
    const c = i < name.length ? name.charCodeAt(i) : 0x2e;
    if (c === 0x2e) {
      if (i === start) return i; // empty label
      // a label cannot end with "-": the "." (or the end) after it is the first offending character
      if (name.charCodeAt(i - 1) === 0x2d) return i;
      labels++;
      start = i + 1;
    } else if (isIn(c, CLASS, ALPHANUM)) continue;
    else if (c === 0x2d && i > start) continue;
    else return i;
  }
  // fully qualified: at least two labels; the end is where another one was needed
  return labels >= 2 ? -1 : name.length;
}
