/**
 * The older generations of the URI rules as named profiles (DESIGN.md,
 * "Profiles"): `draft-2003` (the text that became RFC 3986), `draft-1997`
 * (the text that became RFC 2396) and `url-1993` (the first URL draft).
 * Each is built on the RFC 3986 core (rfc3986-scanner.ts, resolve.ts), which knows
 * none of them; the public `parse`, `isValid` and `resolve` (entry.ts)
 * choose among them.
 */
import { UriError } from './errors.js';
import { componentsOf } from './rfc3986-scanner.js';
import { resolve, type Rfc3986ResolveOptions } from './resolve.js';
import type { Kind, Profile, UriReference } from './types.js';
import { parse2003, resolve2003 } from './profiles/draft-2003.js';
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
 * @internal `resolve(base, ref, { profile, strict, aboveRoot })` under
 * `profile`. `strict` is the 2003 draft's "validating parser"; the 1997
 * and 1993 drafts have no such switch (a scheme always makes a reference
 * absolute).
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-5.2
 * @example
 * ```ts
 * resolveWithProfile('http://a/b/c/d;p?q', '?y', 'draft-1997') // 'http://a/b/c/?y'
 * ```
 */
export function resolveWithProfile(base: string, ref: string, profile: Profile, opts?: Rfc3986ResolveOptions): string {
  switch (profile) {
    case 'rfc3986': return resolve(base, ref, opts);
    case 'draft-2003': return resolve2003(base, ref, opts);
    case 'draft-1997': return resolve1997(base, ref, opts);
    case 'url-1993': return resolve1993(base, ref, opts);
    default: throw new UriError('unknown-profile', 0, String(profile));
  }
}

/**
 * @internal `parse(input, kind, { profile })` under `profile`.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-5.2
 * @example
 * ```ts
 * parseWithProfile('news:comp.infosystems.www', 'uri', 'url-1993').path // 'comp.infosystems.www'
 * ```
 */
export function parseWithProfile(input: string, kind: Kind, profile: Profile): UriReference {
  switch (profile) {
    case 'rfc3986': return componentsOf(input, kind);
    case 'draft-2003': return parse2003(input, kind);
    case 'draft-1997': return parse1997(input, kind);
    case 'url-1993': return parse1993(input, kind);
    default: throw new UriError('unknown-profile', 0, String(profile));
  }
}
