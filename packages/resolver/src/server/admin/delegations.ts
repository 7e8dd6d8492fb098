/**
 * The `resolvers` of a naming authority in `PUT /admin/authorities`: which
 * of its children and parents another resolver holds, and where (1995
 * draft §3.5.3: urn+c "to make complete traversals of the web of URN
 * resolvers"; §3.5.4 urn+p).
 */
import { authorityPrefix } from '../../store/keys.js';
import { InputError } from '../../store/validate.js';

/**
 * The schemes a resolver's base URL may have.
 *
 * @example
 * ```ts
 * RESOLVER_SCHEMES.has('https'); // true
 * ```
 */
export const RESOLVER_SCHEMES: ReadonlySet<string> = new Set(['http', 'https']);

/**
 * Reads `resolvers`: each key a child or parent of the authority
 * (`related`, canonical), made canonical; each value checked by `url`
 * (the admin API's URI check, with {@link RESOLVER_SCHEMES}). Throws
 * InputError (400) for anything else.
 *
 * @example
 * ```ts
 * const url = (v: unknown) => String(v);
 * delegations({ 'URN:EXAMPLE:a:b': 'https://b.example' }, ['urn:example:a:b'], url); // { 'urn:example:a:b': 'https://b.example' }
 * delegations({ 'urn:example:z': 'https://z.example' }, ['urn:example:a:b'], url); // throws InputError
 * ```
 */
export function delegations(v: unknown, related: readonly string[], url: (value: unknown, field: string) => string): Record<string, string> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new InputError('"resolvers" must be an object: authority name to resolver URL');
  const out: Record<string, string> = {};
  for (const [k, value] of Object.entries(v as Record<string, unknown>)) {
    const name = authorityPrefix(k);
    if (!related.includes(name)) throw new InputError(`"resolvers": "${k.slice(0, 64)}" is neither a child nor a parent of this authority`);
    out[name] = url(value, `resolvers.${name}`);
  }
  return out;
}
