/**
 * The older generations of the URI rules as named profiles (issue 4).
 * Until that issue lands, only the default `rfc3986` exists and these two
 * entry points refuse every other profile.
 */
import { UriError } from './errors.js';
import type { Kind, Profile, UriReference } from './types.js';

/** @internal `resolve` under a profile other than `rfc3986`; replaced by issue 4. */
export function resolveWithProfile(_base: string, _ref: string, profile: Profile, _strict: boolean): string {
  throw new UriError('unknown-profile', 0, profile);
}

/** @internal `parse` under a profile other than `rfc3986`; replaced by issue 4. */
export function parseWithProfile(_input: string, _kind: Kind, profile: Profile): UriReference {
  throw new UriError('unknown-profile', 0, profile);
}
