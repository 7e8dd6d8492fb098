/**
 * The target of a resolution under an older profile, recombined (1997 draft
 * §5.2 step 7, 2003 draft §5.2).
 */
import type { UriReference } from '../types.js';

/**
 * A target reference of one fixed shape (scheme from `base`, authority from
 * `site`), so that the resolvers of every profile build the same kind of
 * object (1997 draft §5.2 step 7, 2003 draft §5.2 "recombine").
 *
 * @see https://datatracker.ietf.org/doc/html/draft-fielding-uri-rfc2396bis-01#section-5.2
 * @example
 * ```ts
 * serialize(target({ scheme: 'http', host: 'a', path: '/' }, { host: 'g', path: '' }, '/x', undefined, 's')) // "http://g/x#s"
 * ```
 */
export function target(base: UriReference, site: UriReference, path: string, query: string | undefined, fragment: string | undefined): UriReference {
  return {
    scheme: base.scheme,
    userinfo: site.host !== undefined ? site.userinfo : undefined,
    host: site.host,
    hostKind: site.host !== undefined ? site.hostKind ?? 'reg-name' : undefined,
    port: site.host !== undefined ? site.port : undefined,
    path,
    query,
    fragment,
  };
}
