/**
 * The codec of a scheme that follows only the generic syntax (RFC 3986 §3):
 * `afs` (1993 draft, "afsaddress", never specified further) and the
 * experimental `x-` schemes (1993 draft, "Registration of naming schemes").
 */
import type { UriReference } from '../types.js';
import { serialize } from '../serialize.js';
import { UriError } from '../errors.js';
import { portNumber, requireHost } from './login.js';
import type { SchemeCodec } from './codec.js';
import { AFS_RULES } from './rules.js';

/**
 * A codec that checks nothing beyond the generic syntax; its typed view is
 * the {@link UriReference} itself.
 *
 * @see https://www.rfc-editor.org/rfc/rfc1738#section-4
 * @example
 * ```ts
 * genericCodec('x-foo', true).experimental // true
 * ```
 */
export function genericCodec(name: string, experimental: boolean, authority: SchemeCodec['authority'] = 'optional'): SchemeCodec<UriReference> {
  const codec: SchemeCodec<UriReference> = {
    name,
    authority,
    experimental,
    validate(ref) {
      // The one rule a generic codec adds: its authority is there, or not, as declared.
      if (authority === 'required') requireHost(ref);
      else if (authority === 'forbidden' && ref.host !== undefined) throw new UriError('bad-scheme-specific-part', name.length + 1, ref.host);
      portNumber(ref);
    },
    parse(ref) {
      codec.validate(ref);
      return { ...ref };
    },
    build: serialize,
  };
  return codec;
}

/**
 * The `afs` codec: `afs://cellname/path` (1993 draft, "afsaddress"),
 * flagged experimental because no later document defines it.
 *
 * @see https://www.rfc-editor.org/rfc/rfc1738#section-4
 * @example
 * ```ts
 * afsScheme.experimental // true
 * ```
 */
export const afsScheme: SchemeCodec<UriReference> = { ...genericCodec('afs', true, 'required'), ...AFS_RULES };
