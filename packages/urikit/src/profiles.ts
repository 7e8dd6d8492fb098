/**
 * The older generations of the URI rules as named profiles (DESIGN.md,
 * "Profiles"): `draft-2003` (the text that became RFC 3986), `draft-1997`
 * (the text that became RFC 2396) and `url-1993` (the first URL draft).
 * The core's `parse`, `isValid` and `resolve` call these two entry points
 * for any profile other than the default `rfc3986`.
 */
import { UriError } from './errors.js';
import { parse } from './parse.js';
import { resolve } from './resolve.js';
import type { Kind, Profile, UriReference } from './types.js';
import { resolve2003 } from './profiles/draft-2003.js';
import { parse1997, resolve1997 } from './profiles/draft-1997.js';
import { parse1993, resolve1993 } from './profiles/url-1993.js';

/**
 * Every profile name, newest first; `Profile` (types.ts) is the type of one.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-5.2
 * @example
 * ```ts
 * PROFILES.includes('draft-1997') // true
 * ```
 */
export const PROFILES: readonly Profile[] = ['rfc3986', 'draft-2003', 'draft-1997', 'url-1993'];

/**
 * @internal `resolve(base, ref, { profile, strict })` for a profile other
 * than `rfc3986`. `strict` is the 2003 draft's "validating parser"; the
 * 1997 and 1993 drafts have no such switch (a scheme always makes a
 * reference absolute).
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-5.2
 * @example
 * ```ts
 * resolveWithProfile('http://a/b/c/d;p?q', '?y', 'draft-1997', true) // 'http://a/b/c/?y'
 * ```
 */
export function resolveWithProfile(base: string, ref: string, profile: Profile, strict: boolean): string {
  switch (profile) {
    case 'rfc3986': return resolve(base, ref, { strict });
    case 'draft-2003': return resolve2003(base, ref, strict);
    case 'draft-1997': return resolve1997(base, ref);
    case 'url-1993': return resolve1993(base, ref);
    default: throw new UriError('unknown-profile', 0, String(profile));
  }
}

/**
 * @internal `parse(input, kind, { profile })` for a profile other than
 * `rfc3986`.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-5.2
 * @example
 * ```ts
 * parseWithProfile('news:comp.infosystems.www', 'uri', 'url-1993').path // 'comp.infosystems.www'
 * ```
 */
export function parseWithProfile(input: string, kind: Kind, profile: Profile): UriReference {
  switch (profile) {
    // The 2003 draft's collected ABNF (Appendix A) is RFC 3986's for every example it prints.
    case 'rfc3986':
    case 'draft-2003': return parse(input, kind);
    case 'draft-1997': return parse1997(input, kind);
    case 'url-1993': return parse1993(input, kind);
    default: throw new UriError('unknown-profile', 0, String(profile));
  }
}
