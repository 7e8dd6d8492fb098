/**
 * `request.query` of the service's routes. A query with a "=" is an HTML
 * form's (application/x-www-form-urlencoded: the admin API, OAI-PMH, the
 * web page), read as Node's `querystring` reads it. A query without one is
 * not a form: it is the resolution request's URN (RFC 2169 §2
 * `/uri-res/N2L?urn:...`) or flag (`?history`, `?info`), which the
 * resolution route reads from the raw target (target.ts); reading it as a
 * form would only build a one-key object per resolution for nobody.
 */
import { parse } from 'node:querystring';

/**
 * The form fields of `query` (the part after "?"), or none when it holds no "=".
 *
 * @example
 * ```ts
 * parseQuery('prefix=urn%3Anbn%3Ade&limit=10'); // { prefix: 'urn:nbn:de', limit: '10' }
 * parseQuery('a=1&a=2'); // { a: ['1', '2'] }
 * parseQuery('urn:isbn:0451450523'); // {}
 * ```
 */
export function parseQuery(query: string): Record<string, string | string[]> {
  if (!query.includes('=')) return {};
  // A plain object (not querystring's null-prototype one), as the route schemas expect.
  return { ...parse(query) } as Record<string, string | string[]>;
}
