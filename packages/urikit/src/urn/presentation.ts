/**
 * URN presentation and transport (2012 draft §2.2, §4): the canonical NSS
 * of any identifier, and the human form of a URN.
 */
import { UriError } from '../errors.js';
import { percentEncode, utf8At, utf8Length } from '../percent.js';
import type { UrnProfile } from '../types.js';
import { getUrnNamespace } from './namespaces/registry.js';
import { parseUrn } from './parse.js';
import type { Urn } from './types.js';
import { URN_MESSAGES, registerMessages } from '../messages.js';

// The messages of the URN codes this module throws (messages.ts).
registerMessages(URN_MESSAGES);

/**
 * Turns an identifier of any naming system into a canonical NSS (2012 draft
 * §2.2): every character outside `pchar` (including "%", "/", "?", "#") is
 * encoded as UTF-8 octets, each written "%" HEXDIG HEXDIG (upper case);
 * characters of the repertoire are never encoded (§2.5.2). NUL is refused
 * (§2.5.3), as are lone surrogates and the empty string.
 *
 * @see https://datatracker.ietf.org/doc/html/draft-ietf-urnbis-rfc2141bis-urn-03#section-2.2
 * @example
 * ```ts
 * identifierToNss('ISO/IEC 10179:1996'); // "ISO%2FIEC%2010179:1996"
 * identifierToNss('Ölfeld #3');          // "%C3%96lfeld%20%233"
 * ```
 */
export function identifierToNss(text: string): string {
  if (text === '') throw new UriError('bad-nss', 0, text, 'empty');
  // §2.5.3: NUL is never part of a URN. What comes before the first NUL is encoded
  // first, so that an earlier lone surrogate is the error reported (the first offending character).
  const nul = text.indexOf('\0');
  if (nul >= 0) {
    percentEncode(text.slice(0, nul), 'path-segment');
    throw new UriError('nul-in-urn', nul, text);
  }
  // §2.2: every character outside pchar as its UTF-8 octets, "%" HEXDIG HEXDIG each (the
  // core's encoder for a path segment, whose literal characters are exactly pchar,
  // RFC 3986 §3.3); a lone surrogate has no UTF-8 form and throws invalid-char
  return percentEncode(text, 'path-segment');
}

/**
 * Characters never shown decoded: C1 controls, invisible and format
 * characters (which would let two different URNs look alike), white space.
 */
function unsafeToShow(cp: number): boolean {
  return (
    cp < 0xa1 || cp === 0xad || (cp >= 0x2000 && cp <= 0x200f) || (cp >= 0x2028 && cp <= 0x202f) ||
    (cp >= 0x205f && cp <= 0x206f) || cp === 0x3000 || cp === 0xfeff || (cp >= 0xfff0 && cp <= 0xffff) ||
    (cp & 0xfffe) === 0xfffe || (cp >= 0xfdd0 && cp <= 0xfdef)
  );
}

/**
 * The character that the UTF-8 sequence of pct-encoded triplets at `nss[i]`
 * spells, with the length of the sequence, or undefined if the octets are
 * not one well-formed non-ASCII UTF-8 sequence (RFC 3629 §4: no overlong
 * forms, no surrogates, nothing above U+10FFFF; the core's `utf8At`).
 */
function characterAt(nss: string, i: number): [string, number] | undefined {
  const cp = utf8At(nss, i);
  return cp < 0x80 ? undefined : [String.fromCodePoint(cp), 3 * utf8Length(cp)];
}

/**
 * The generic presentation of an NSS (2012 draft §4): percent-encoded UTF-8
 * sequences of visible non-ASCII characters are shown as those characters;
 * every encoded ASCII octet stays encoded, since without the namespace's
 * knowledge the decoded form "might introduce ambiguity" (§4, Note).
 */
function displayGeneric(nss: string): string {
  let out = '';
  let run = 0; // start of the part not yet copied
  for (let i = nss.indexOf('%'); i >= 0; i = nss.indexOf('%', i)) {
    const seq = characterAt(nss, i);
    if (seq !== undefined && !unsafeToShow(seq[0].codePointAt(0)!)) {
      out += nss.slice(run, i) + seq[0];
      i += seq[1];
      run = i;
    } else i += 3; // this triplet stays encoded
  }
  return run === 0 ? nss : out + nss.slice(run);
}

/**
 * The human form of a URN (2012 draft §4, Appendix A): the complete URN with
 * its "urn:" prefix, the NSS shown the way its namespace says (e.g. the
 * public identifier of `urn:publicid:`) or, for other namespaces, with only
 * visible non-ASCII characters decoded; r-, q- and f-components as written.
 *
 * @see https://datatracker.ietf.org/doc/html/draft-ietf-urnbis-rfc2141bis-urn-03#section-4
 * @example
 * ```ts
 * displayUrn('urn:example:%C3%96lfeld%2C3'); // "urn:example:Ölfeld%2C3"
 * ```
 */
export function displayUrn(urn: string | Urn, opts?: { profile?: UrnProfile }): string {
  const u = typeof urn === 'string' ? parseUrn(urn, opts?.profile ? { profile: opts.profile } : undefined) : urn;
  if (u.profile === 'yaurn-1995' && u.schemeId !== undefined && u.authorityId !== undefined && u.elementId !== undefined) {
    return `urn:${u.schemeId}:${u.authorityId}:${displayGeneric(u.elementId)}`;
  }
  const ns = getUrnNamespace(u.nid);
  let nss: string;
  if (ns?.displayNss !== undefined && (ns.validateNss === undefined || ns.validateNss(u.nss) < 0)) nss = ns.displayNss(u.nss);
  else nss = displayGeneric(u.nss);
  let out = `urn:${u.nid}:${nss}`;
  if (u.profile === 'urn-2012') {
    if (u.qComponent !== undefined) out += `?${u.qComponent}`;
  } else {
    if (u.rComponent !== undefined) out += `?+${u.rComponent}`;
    if (u.qComponent !== undefined) out += `?=${u.qComponent}`;
  }
  if (u.fComponent !== undefined) out += `#${u.fComponent}`;
  return out;
}
