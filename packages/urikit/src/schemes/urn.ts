/**
 * The `urn` scheme (RFC 8141 §2): this codec hands the work to the URN
 * module (../urn/), which knows all three generations of the URN rules.
 */
import { serialize } from '../serialize.js';
import type { UrnProfile } from '../types.js';
import type { Urn } from '../urn/types.js';
import { parseUrn } from '../urn/parse.js';
import { urnEquivalent } from '../urn/equivalence.js';
import type { SchemeCodec } from './codec.js';
import { URN_RULES } from './rules.js';

/**
 * A `urn` codec that reads URNs under one generation of the URN rules:
 * `rfc8141` (the registry's), `urn-2012` (query directives after "?") or
 * `yaurn-1995` (`urn:<SchemeID>:<AuthorityID>:<ElementID>`).
 *
 * @see https://www.rfc-editor.org/rfc/rfc8141#section-2
 * @example
 * ```ts
 * urnCodec('urn-2012').parse(parse('urn:isbn:0-395-36341-1?s=I2U')).qComponent // 's=I2U'
 * urnCodec('yaurn-1995').parse(parse('urn:dns:urn.flixco.com:urn+m')).reservedRequest // 'm'
 * ```
 */
export function urnCodec(profile: UrnProfile): SchemeCodec<Urn> {
  const opts = { profile };
  const codec: SchemeCodec<Urn> = {
    ...URN_RULES,
    validate(ref) {
      parseUrn(serialize(ref), opts);
    },
    parse(ref) {
      return parseUrn(serialize(ref), opts);
    },
    build(f) {
      if (f.profile === 'yaurn-1995' && f.schemeId !== undefined) return `urn:${f.schemeId}:${f.authorityId ?? ''}:${f.elementId ?? ''}`;
      let s = `urn:${f.nid}:${f.nss}`;
      if (f.profile === 'urn-2012') {
        // 2012 draft §2.3, §2.4: "?" query, "#" fragment
        if (f.qComponent !== undefined) s += `?${f.qComponent}`;
      } else {
        if (f.rComponent !== undefined) s += `?+${f.rComponent}`;
        if (f.qComponent !== undefined) s += `?=${f.qComponent}`;
      }
      if (f.fComponent !== undefined) s += `#${f.fComponent}`;
      return s;
    },
    // RFC 8141 §3: lexical equivalence, with the namespaces' own rules; the
    // f-component (a fragment) does not take part.
    equivalent(a, b) {
      return urnEquivalent(serialize({ ...a, fragment: undefined }), serialize({ ...b, fragment: undefined }), opts);
    },
  };
  return codec;
}

/**
 * The `urn` codec of the registry (RFC 8141): parsing and equivalence are
 * those of `parseUrn` and `urnEquivalent`.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8141#section-2
 * @example
 * ```ts
 * urnScheme.parse(parse('urn:example:a123,z456')) // { profile: 'rfc8141', nid: 'example', nss: 'a123,z456' }
 * ```
 */
export const urnScheme: SchemeCodec<Urn> = urnCodec('rfc8141');
