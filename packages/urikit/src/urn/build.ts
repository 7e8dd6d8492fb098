/**
 * Serializing a URN from its parts (the inverse of `parseUrn`), checked:
 * what is built must read back as the same parts.
 */
import { UriError } from '../errors.js';
import type { UrnProfile } from '../types.js';
import { parseUrn } from './parse.js';
import type { Urn, UrnDirective } from './types.js';
import { URN_MESSAGES, registerMessages } from '../messages.js';

// The messages of the URN codes this module throws (messages.ts).
registerMessages(URN_MESSAGES);

/**
 * The parts {@link buildUrn} needs: a {@link Urn} whose `profile` may be left out.
 *
 * @example
 * ```ts
 * const parts: UrnParts = { nid: 'example', nss: 'a123', qComponent: 'lang=en' };
 * buildUrn(parts) // "urn:example:a123?=lang=en"
 * ```
 */
export type UrnParts = Omit<Urn, 'profile' | 'directives'> & {
  profile?: UrnProfile;
  directives?: ReadonlyArray<Pick<UrnDirective, 'keyword' | 'value'>>;
};

/**
 * Writes a URN from its parts: `urn:` NID `:` NSS, then `?+` r-component,
 * `?=` q-component (RFC 8141 §2) or `?` query (2012 draft §2.3, built from
 * `directives` when `qComponent` is absent), then `#` f-component; under
 * `yaurn-1995`, `urn:` SchemeID `:` AuthorityID `:` ElementID. Throws a
 * {@link UriError} if a part cannot stand where it is put.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8141#section-2
 * @example
 * ```ts
 * buildUrn({ nid: 'example', nss: 'a123', rComponent: 'x', fComponent: 'p' }); // "urn:example:a123?+x#p"
 * buildUrn({ profile: 'urn-2012', nid: 'isbn', nss: '0-395-36341-1', directives: [{ keyword: 's', value: 'I2L' }] });
 * // "urn:isbn:0-395-36341-1?s=I2L"
 * ```
 */
export function buildUrn(urn: UrnParts): string {
  const profile: UrnProfile = urn.profile ?? 'rfc8141';
  let out: string;
  if (profile === 'yaurn-1995') {
    const schemeId = urn.schemeId ?? urn.nid;
    let authorityId = urn.authorityId;
    let elementId = urn.elementId;
    if (authorityId === undefined || elementId === undefined) {
      const colon = urn.nss.indexOf(':');
      authorityId ??= colon < 0 ? urn.nss : urn.nss.slice(0, colon);
      elementId ??= colon < 0 ? '' : urn.nss.slice(colon + 1);
    }
    out = `urn:${schemeId}:${authorityId}:${elementId}`;
    check(out, parseUrn(out, { profile }), { schemeId, authorityId, elementId });
    return out;
  }
  out = `urn:${urn.nid}:${urn.nss}`;
  const query = urn.qComponent ?? (urn.directives ? urn.directives.map((d) => `${d.keyword}=${d.value}`).join('&') : undefined);
  if (profile === 'rfc8141') {
    if (urn.rComponent !== undefined) out += `?+${urn.rComponent}`;
    if (query !== undefined) out += `?=${query}`;
  } else if (urn.rComponent !== undefined) {
    // the 2012 draft has no r-component
    throw new UriError('bad-urn-component', out.length, out, 'no r-component under urn-2012');
  } else if (query !== undefined) out += `?${query}`;
  if (urn.fComponent !== undefined) out += `#${urn.fComponent}`;
  check(out, parseUrn(out, { profile }), { nid: urn.nid, nss: urn.nss, rComponent: urn.rComponent, qComponent: query, fComponent: urn.fComponent });
  return out;
}

/** The built string must read back as the parts it was built from (e.g. an NSS holding "?" does not). */
function check(out: string, parsed: Urn, parts: Partial<Record<keyof Urn, string | undefined>>): void {
  for (const [k, v] of Object.entries(parts)) {
    if (v !== parsed[k as keyof Urn]) {
      const at = v === undefined ? 0 : out.indexOf(v);
      throw new UriError(k === 'nid' || k === 'schemeId' ? 'bad-nid' : k === 'nss' ? 'bad-nss' : 'bad-urn-component', at < 0 ? 0 : at, out, `${k} does not survive`);
    }
  }
}
