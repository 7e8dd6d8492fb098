/**
 * The codec of a scheme that follows only the generic syntax (RFC 3986 §3):
 * `afs` (1993 draft, "afsaddress", never specified further) and the
 * experimental `x-` schemes (1993 draft, "Registration of naming schemes").
 */
import type { UriReference } from '../types.js';
import { serialize } from '../serialize.js';
import { portNumber } from './login.js';
import type { SchemeCodec } from './registry.js';
import { AFS_RULES } from './rules.js';

/**
 * A codec that checks nothing beyond the generic syntax; its typed view is
 * the {@link UriReference} itself.
 *
 * @example
 * ```ts
 * genericCodec('x-foo', true).experimental // true
 * ```
 */
export function genericCodec(name: string, experimental: boolean, authority: SchemeCodec['authority'] = 'optional'): SchemeCodec<UriReference> {
  return {
    name,
    authority,
    experimental,
    validate(ref) {
      portNumber(ref);
    },
    parse(ref) {
      portNumber(ref);
      return { ...ref };
    },
    build: serialize,
  };
}

/**
 * The `afs` codec: `afs://cellname/path` (1993 draft, "afsaddress"),
 * flagged experimental because no later document defines it.
 *
 * @example
 * ```ts
 * afsScheme.experimental // true
 * ```
 */
export const afsScheme: SchemeCodec<UriReference> = { ...genericCodec('afs', true, 'required'), ...AFS_RULES };
