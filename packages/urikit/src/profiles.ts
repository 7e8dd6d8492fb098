/**
 * The older generations of the URI rules as named profiles (issue 4).
 * Until that issue lands, only the default `rfc3986` exists.
 */
import { UriError } from './errors.js';
import type { Profile } from './types.js';

/** @internal Resolution under a non-default profile; replaced by issue 4. */
export function resolveWithProfile(_base: string, _ref: string, profile: Profile, _strict: boolean): string {
  throw new UriError('unknown-profile', 0, profile);
}
