/**
 * The scheme registry (lean half): one small typed codec per scheme (STYLE §10), which
 * scheme-based normalization and comparison consult
 * (2003 draft §6.2.3, RFC 3986 §6.2.3).
 */
import type { UriReference } from '../types.js';
import { BUILTIN_RULES } from './rules.js';

/**
 * What urikit knows of one URI scheme. `T` is the codec's own typed view
 * of a URI of that scheme (an FTP URL's type code, a mailto's addresses...).
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-6.2.3
 * @example
 * ```ts
 * const acme: SchemeCodec<{ id: string }> = {
 *   name: 'acme', authority: 'forbidden',
 *   validate: (ref) => { if (!/^[0-9]+$/.test(ref.path)) throw new UriError('bad-scheme-specific-part', 0); },
 *   parse: (ref) => ({ id: ref.path }),
 *   build: (f) => `acme:${f.id}`,
 * };
 * registerScheme(acme);
 * getScheme('ACME')?.parse(parse('acme:42')) // { id: '42' }
 * getScheme('acme')?.validate(parse('acme:x')) // throws bad-scheme-specific-part
 * ```
 */
export interface SchemeCodec<T = unknown> {
  /** The scheme name in lower case. */
  readonly name: string;
  /** The default port (RFC 3986 §6.2.3: a port equal to it is removed when normalizing). */
  readonly defaultPort?: number;
  /** Whether URIs of this scheme have an authority (`//host`). */
  readonly authority: 'required' | 'optional' | 'forbidden';
  /** RFC 3986 §6.2.3: an empty path with an authority normalizes to "/" (http, https, ws, wss, ftp...). */
  readonly emptyPathIsSlash?: boolean;
  /** True for schemes the specs mark experimental (`x-` names, `afs` in the 1993 draft). */
  readonly experimental?: boolean;
  /** Whether fragments are meaningful for equivalence (default true). */
  readonly fragmentSignificant?: boolean;
  /** Throws a {@link UriError} when the generic components break this scheme's rules. */
  validate(ref: UriReference): void;
  /** The codec's typed view; throws a {@link UriError} on invalid input. */
  parse(ref: UriReference): T;
  /** Builds the URI string back from the typed view. */
  build(fields: T): string;
  /**
   * Scheme-based normalization beyond the generic steps (which the core
   * already applied: case, percent-encoding, dot segments, default port,
   * empty path). Returns a new reference, itself in normal form: the core
   * does not run the generic steps again after it.
   */
  normalize?(ref: UriReference): UriReference;
  /** Scheme-specific equivalence of two already-normalized references, when string equality is not enough. */
  equivalent?(a: UriReference, b: UriReference): boolean;
}

// Pre-populated with the codecs urikit ships (no side-effect imports: the
// package is `sideEffects: false`); `registerScheme` adds or replaces.
/**
 * The part of a {@link SchemeCodec} that scheme-based normalization and
 * comparison read (RFC 3986 §6.2.3): the built-in schemes carry only this
 * much into `normalize` and `equivalent`, so a browser bundle of
 * parse+resolve+normalize stays small.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-6.2.3
 * @example
 * ```ts
 * const rules: SchemeRules = { name: 'acme', authority: 'required', defaultPort: 4000 };
 * getSchemeRules('https') // matches { name: 'https', authority: 'required', defaultPort: 443 }
 * ```
 */
export type SchemeRules = Pick<SchemeCodec, 'name' | 'defaultPort' | 'authority' | 'emptyPathIsSlash' | 'experimental' | 'fragmentSignificant' | 'normalize' | 'equivalent'>;

// Codecs registered by `registerScheme`; they win over the built-in ones.
const registered = new Map<string, SchemeCodec<any>>();
const builtinRules = new Map<string, SchemeRules>();
for (const r of BUILTIN_RULES) builtinRules.set(r.name, r);
const experimentalRules = new Map<string, SchemeRules>();

/**
 * Registers (or replaces) the codec for `codec.name`; scheme names are
 * case-insensitive. A registered codec is used by `normalize` and
 * `equivalent` at the `scheme` level and returned by `getScheme`.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-6.2.3
 * @example
 * ```ts
 * registerScheme({
 *   name: 'myscheme', defaultPort: 99, authority: 'required', emptyPathIsSlash: true,
 *   validate: () => {}, parse: (ref) => ref, build: (ref) => serialize(ref),
 * });
 * normalize('MYSCHEME://Host:99', { level: 'scheme' }) // "myscheme://host/"
 * ```
 */
export function registerScheme<T>(codec: SchemeCodec<T>): void {
  registered.set(codec.name.toLowerCase(), codec);
}

/** @internal The codec `registerScheme` registered for a lower-case name. */
export function registeredCodec(key: string): SchemeCodec<any> | undefined {
  return registered.get(key);
}

/**
 * The normalization rules of scheme `name` (case-insensitive): a
 * registered codec, else the built-in rules, else, for an `x-` name, the
 * generic rules flagged `experimental` (1993 draft, "Registration of
 * naming schemes"); `undefined` for an unknown scheme. This is the lookup
 * `normalize` and `equivalent` use; the public `getScheme` returns the
 * whole codec.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-6.2.3
 * @example
 * ```ts
 * getSchemeRules('HTTP')?.defaultPort // 80
 * ```
 */
export function getSchemeRules(name: string): SchemeRules | undefined {
  const key = name.toLowerCase();
  const found = registered.get(key) ?? builtinRules.get(key);
  if (found !== undefined || key.length < 3 || !key.startsWith('x-')) return found;
  let rules = experimentalRules.get(key);
  if (rules === undefined) experimentalRules.set(key, (rules = { name: key, authority: 'optional', experimental: true }));
  return rules;
}

/**
 * The names of every registered scheme: the built-in ones in their order,
 * then those added by `registerScheme`.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-6.2.3
 * @example
 * ```ts
 * listSchemes().includes('ftp') // true
 * ```
 */
export function listSchemes(): string[] {
  const names = [...builtinRules.keys()];
  for (const k of registered.keys()) if (!builtinRules.has(k)) names.push(k);
  return names;
}
