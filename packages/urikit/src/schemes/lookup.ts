/**
 * The public scheme lookup: the whole codec of a scheme (validate, parse,
 * build and the normalization rules), built-in or registered.
 */
import { genericCodec } from './generic.js';
import { BUILTIN_SCHEMES } from './builtins.js';
import type { SchemeCodec } from './codec.js';
import { experimentalScheme, registeredCodec } from './registry.js';

const builtins = new Map<string, SchemeCodec<any>>();
for (const c of BUILTIN_SCHEMES) builtins.set(c.name, c);
const experimental = new Map<string, SchemeCodec<any>>();
const experimentalCodec = (name: string): SchemeCodec<any> => genericCodec(name, true);

/**
 * The codec of scheme `name` (case-insensitive): one registered with
 * `registerScheme`, else the built-in one, else for an `x-` name a generic
 * codec flagged `experimental` (1993 draft, "Registration of naming
 * schemes"); `undefined` for an unknown scheme.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-6.2.3
 * @example
 * ```ts
 * getScheme('HTTP')?.defaultPort // 80
 * getScheme('ftp')?.parse(parse('ftp://host/a;type=i')) // { host: 'host', directories: [], name: 'a', typecode: 'i' }
 * ```
 */
export function getScheme(name: string): SchemeCodec<unknown> | undefined {
  const key = name.toLowerCase();
  return registeredCodec(key) ?? builtins.get(key) ?? experimentalScheme(key, experimental, experimentalCodec);
}
