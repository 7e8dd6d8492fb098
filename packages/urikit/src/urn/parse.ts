/**
 * The URN scanner: one pass over `charCodeAt` with lookup tables, for the
 * RFC 8141 grammar (default) and the 2012 draft's; the 1995 draft has its
 * own module (yaurn.ts).
 */
import { UriError } from '../errors.js';
import type { UrnProfile } from '../types.js';
import { CLASS, PCHAR, QUERY, isLdh, isPctEncoded } from '../chars.js';
import { directiveError, scanDirectives } from './directives.js';
import { getUrnNamespace } from './namespaces/registry.js';
import type { Urn, UrnParseOptions } from './types.js';
import { parseYaurn } from './yaurn.js';
import { informalNidError } from './lexical.js';
import { URN_MESSAGES, URN_NAMESPACE_MESSAGES, registerMessages } from '../messages.js';

// The messages of the URN and URN namespace codes this module throws (messages.ts).
registerMessages(URN_MESSAGES);
registerMessages(URN_NAMESPACE_MESSAGES);

/**
 * Parses a URN under one generation of the rules (RFC 8141 by default,
 * `urn-2012` for the 2012 draft, `yaurn-1995` for the 1995 draft), keeping
 * every part as written; throws a {@link UriError} with the offset of the
 * first offending character.
 *
 * ```text
 * namestring    = assigned-name [ rq-components ] [ "#" f-component ]   ; RFC 8141 §2
 * assigned-name = "urn" ":" NID ":" NSS
 * ```
 *
 * @see https://www.rfc-editor.org/rfc/rfc8141#section-2
 * @example
 * ```ts
 * parseUrn('urn:example:a123,z456?+cc=1?=lang=en#p');
 * // { profile: 'rfc8141', nid: 'example', nss: 'a123,z456', rComponent: 'cc=1', qComponent: 'lang=en',
 * //   directives: [{ keyword: 'lang', value: 'en', ignored: false }], fComponent: 'p' }
 * ```
 */
export function parseUrn(input: string, opts?: UrnParseOptions): Urn {
  const profile: UrnProfile = opts?.profile ?? 'rfc8141';
  let urn: Urn;
  if (profile === 'rfc8141' || profile === 'urn-2012') urn = scanUrn(input, profile);
  else if (profile === 'yaurn-1995') urn = parseYaurn(input);
  else throw new UriError('unknown-profile', 0, String(profile));
  if (opts?.checkNamespace) checkNamespace(input, urn);
  return urn;
}

/**
 * True if `input` is a URN under the profile (see {@link parseUrn}).
 *
 * @see https://www.rfc-editor.org/rfc/rfc8141#section-2
 * @example
 * ```ts
 * isValidUrn('urn:ex:a?+'); // false (an r-component cannot be empty)
 * isValidUrn('urn:isbn:0-395-36341-1?s=I2L&c=ToC', { profile: 'urn-2012' }); // true
 * isValidUrn(42 as unknown as string); // false (a predicate answers false for a non-string)
 * ```
 */
export function isValidUrn(input: string, opts?: UrnParseOptions): boolean {
  if (typeof input !== 'string') return false;
  try {
    parseUrn(input, opts);
    return true;
  } catch (e) {
    if (e instanceof UriError) return false;
    throw e;
  }
}

/** RFC 8141 §5 / 2012 draft §3: "every legal NSS in the ISBN Namespace must be a valid ISBN". */
function checkNamespace(input: string, urn: Urn): void {
  // the 1995 draft's SchemeIDs are not NIDs: no namespace applies
  if (urn.profile === 'yaurn-1995') return;
  const ns = getUrnNamespace(urn.nid);
  // 2012 draft §2.4: "Absent a registered namespace definition [...] that explicitly specifies
  // its usage, URNs for that particular URN Namespace MUST NOT contain a fragment identifier."
  if (urn.profile === 'urn-2012' && urn.fComponent !== undefined && ns?.allowsFragment !== true) {
    throw new UriError('bad-urn-component', input.length - urn.fComponent.length - 1, input, 'this namespace does not use fragments');
  }
  if (ns?.validateNss === undefined) return;
  const bad = ns.validateNss(urn.nss);
  if (bad < 0) return;
  const why = ns.explainNss?.(urn.nss, bad);
  // the NSS begins after "urn:" NID ":"
  throw new UriError(why?.code ?? 'bad-namespace-nss', 5 + urn.nid.length + bad, input, why?.detail ?? ns.nid);
}

/** The RFC 8141 and 2012-draft scanner. */
function scanUrn(input: string, profile: 'rfc8141' | 'urn-2012'): Urn {
  const len = input.length;
  // RFC 8141 §2: "urn" ":" — the scheme is case-insensitive (RFC 3986 §3.1)
  for (let k = 0; k < 4; k++) {
    const c = k < len ? input.charCodeAt(k) : -1;
    const ok = k === 3 ? c === 0x3a : (c | 0x20) === 'urn'.charCodeAt(k);
    if (!ok) throw new UriError(c === 0 ? 'nul-in-urn' : 'bad-urn', k, input);
  }
  // RFC 8141 §2 / 2012 draft §2.1: NID = (alphanum) 0*30(ldh) (alphanum); ldh = alphanum / "-"
  let i = 4;
  while (i < len && i < 4 + 33 && isLdh(input.charCodeAt(i))) i++;
  if (i - 4 > 32) throw new UriError('bad-nid', 4 + 32, input, 'longer than 32');
  if (i >= len) throw new UriError(i === 4 ? 'bad-nid' : 'bad-urn', i, input, 'no ":" after the NID');
  if (input.charCodeAt(i) !== 0x3a) throw new UriError(input.charCodeAt(i) === 0 ? 'nul-in-urn' : 'bad-nid', i, input);
  if (i - 4 < 2) throw new UriError('bad-nid', i, input, 'shorter than 2');
  if (input.charCodeAt(4) === 0x2d) throw new UriError('bad-nid', 4, input, 'begins with "-"');
  // the ":" is the first character no NID can continue with after a final "-"
  if (input.charCodeAt(i - 1) === 0x2d) throw new UriError('bad-nid', i, input, 'ends with "-"');
  const nid = input.slice(4, i);
  // 2012 draft §2.1 / RFC 8141 §5.1: the NID "urn" is permanently reserved
  if (i === 7 && nid.toLowerCase() === 'urn') throw new UriError('reserved-nid', 4, input);
  // RFC 8141 §5.1, §5.2: "urn-" begins an informal NID only, and then a number follows
  const informal = informalNidError(nid);
  if (informal >= 0) throw new UriError('bad-nid', 4 + informal, input, 'an NID beginning with "urn-" is "urn-" and a number without leading zeros');

  // RFC 8141 §2: NSS = pchar *(pchar / "/");  2012 draft §2.2: NSS = 1*pchar
  const nssStart = ++i;
  const slash = profile === 'rfc8141';
  for (; i < len; i++) {
    const c = input.charCodeAt(i);
    if (c < 128 && (CLASS[c]! & PCHAR) !== 0) continue;
    if (c === 0x25) {
      pct(input, i);
      i += 2;
    } else if (c === 0x2f && slash && i > nssStart) continue;
    else break;
  }
  if (i === nssStart) throw new UriError(i < len && input.charCodeAt(i) === 0 ? 'nul-in-urn' : 'bad-nss', i, input, 'empty');
  const nssEnd = i;
  const urn: Urn = { profile, nid, nss: input.slice(nssStart, i) };
  if (i === len) return urn;

  let c = input.charCodeAt(i);
  if (c === 0x3f /* ? */) {
    if (profile === 'rfc8141') i = rqComponents(input, i, urn);
    else i = query2012(input, i, urn);
    if (i === len) return urn;
    c = input.charCodeAt(i);
  }
  if (c === 0x23 /* # */) {
    // RFC 8141 §2.3.3: f-component = fragment;  2012 draft §2.4: <fragment> per RFC 3986 §3.5
    const fStart = i + 1;
    i = scanQchars(input, fStart, len);
    if (i === len) {
      urn.fComponent = input.slice(fStart);
      return urn;
    }
  }
  throw componentError(input, i, i === nssEnd ? 'bad-nss' : 'bad-urn-component');
}

/**
 * RFC 8141 §2: rq-components = [ "?+" r-component ] [ "?=" q-component ];
 * r-component = q-component = pchar *( pchar / "/" / "?" ); the r-component
 * ends at "?=". A "?" followed by neither "+" nor "=" is an error.
 */
function rqComponents(input: string, i: number, urn: Urn): number {
  const len = input.length;
  let next = input.charCodeAt(i + 1);
  if (next === 0x2b /* + */) {
    const rStart = i + 2;
    i = rStart;
    for (; i < len; i++) {
      const c = input.charCodeAt(i);
      if (c === 0x3f && input.charCodeAt(i + 1) === 0x3d) break; // "?=" ends the r-component
      if (c < 128 && (CLASS[c]! & QUERY) !== 0) {
        if (i === rStart && (CLASS[c]! & PCHAR) === 0) break; // must begin with a pchar, not "/" or "?"
        continue;
      }
      if (c === 0x25) {
        pct(input, i);
        i += 2;
      } else break;
    }
    if (i === rStart) throw componentError(input, i, 'bad-urn-component', 'empty r-component');
    urn.rComponent = input.slice(rStart, i);
    if (i === len || input.charCodeAt(i) !== 0x3f) return i;
    next = input.charCodeAt(i + 1);
  }
  if (next === 0x3d /* = */) {
    const qStart = i + 2;
    const q0 = input.charCodeAt(qStart);
    if (qStart < len && q0 < 128 && (CLASS[q0]! & PCHAR) === 0 && q0 !== 0x25) {
      throw componentError(input, qStart, 'bad-urn-component', 'q-component must begin with a pchar');
    }
    i = scanQchars(input, qStart, len);
    if (i === qStart) throw componentError(input, i, 'bad-urn-component', 'empty q-component');
    urn.qComponent = input.slice(qStart, i);
    // The q-component often carries keyword=value pairs (RFC 8141 §2.3.2, 2012 draft §2.3)
    const d = scanDirectives(input, qStart, i);
    if (typeof d !== 'number') urn.directives = d;
    return i;
  }
  // the character after the "?" is the first that no rq-components can continue with
  throw componentError(input, i + 1, 'bad-urn-component', '"?" must be followed by "+" or "="');
}

/** 2012 draft §2.3: the query of a URN reference must be a urn-query. */
function query2012(input: string, i: number, urn: Urn): number {
  const len = input.length;
  const qStart = i + 1;
  const qEnd = scanQchars(input, qStart, len);
  const d = scanDirectives(input, qStart, qEnd);
  if (typeof d === 'number') throw directiveError(input, d);
  urn.qComponent = input.slice(qStart, qEnd);
  urn.directives = d;
  return qEnd;
}

/** RFC 3986 §3.4/§3.5: *( pchar / "/" / "?" ), checking each pct-encoded triplet. */
function scanQchars(input: string, i: number, len: number): number {
  for (; i < len; i++) {
    const c = input.charCodeAt(i);
    if (c < 128 && (CLASS[c]! & QUERY) !== 0) continue;
    if (c !== 0x25) break;
    pct(input, i);
    i += 2;
  }
  return i;
}

/** RFC 3986 §2.1 pct-encoded = "%" HEXDIG HEXDIG; 2012 draft §2.5.3: never %00. */
function pct(input: string, i: number): void {
  if (!isPctEncoded(input, i)) throw new UriError('bad-percent', i, input);
  if (input.charCodeAt(i + 1) === 0x30 && input.charCodeAt(i + 2) === 0x30) throw new UriError('nul-in-urn', i, input);
}

function componentError(input: string, i: number, code: 'bad-nss' | 'bad-urn-component', detail?: string): UriError {
  // 2012 draft §2.5.3: "The NUL octet [...] MUST NOT be used in URNs"
  if (input.charCodeAt(i) === 0) return new UriError('nul-in-urn', i, input);
  return new UriError(code, i, input, detail);
}
