/**
 * The `urn` scheme (RFC 8141 §2): this codec hands the work to the URN
 * module (../urn/), which knows all three generations of the URN rules.
 */
import { serialize } from '../serialize.js';
import type { Urn } from '../urn/types.js';
import { parseUrn } from '../urn/parse.js';
import { urnEquivalent } from '../urn/equivalence.js';
import type { SchemeCodec } from './registry.js';
import { URN_RULES } from './rules.js';

/**
 * The `urn` codec (RFC 8141): no authority; parsing, normalization and
 * equivalence are those of `parseUrn`, `normalizeUrn` and `urnEquivalent`.
 *
 * @example
 * ```ts
 * urnScheme.parse(parse('urn:example:a123,z456')) // { profile: 'rfc8141', nid: 'example', nss: 'a123,z456' }
 * ```
 */
export const urnScheme: SchemeCodec<Urn> = {
  ...URN_RULES,
  validate(ref) {
    parseUrn(serialize(ref));
  },
  parse(ref) {
    return parseUrn(serialize(ref));
  },
  build(f) {
    let s = `urn:${f.nid}:${f.nss}`;
    if (f.rComponent !== undefined) s += `?+${f.rComponent}`;
    if (f.qComponent !== undefined) s += `?=${f.qComponent}`;
    if (f.fComponent !== undefined) s += `#${f.fComponent}`;
    return s;
  },
  equivalent(a, b) {
    return urnEquivalent(serialize({ ...a, fragment: undefined }), serialize({ ...b, fragment: undefined }));
  },
};
