/**
 * The scheme registry: one small typed codec per scheme (STYLE §10), which
 * scheme-based normalization and comparison consult
 * (2003 draft §6.2.3, RFC 3986 §6.2.3).
 */
import type { UriReference } from '../types.js';

/**
 * What urikit knows of one URI scheme. `T` is the codec's own typed view
 * of a URI of that scheme (an FTP URL's type code, a mailto's addresses...).
 *
 * @example
 * ```ts
 * const acme: SchemeCodec<{ id: string }> = {
 *   name: 'acme', authority: 'forbidden',
 *   validate: (ref) => { if (!/^[0-9]+$/.test(ref.path)) throw new UriError('bad-scheme-specific-part', 0); },
 *   parse: (ref) => ({ id: ref.path }),
 *   build: (f) => `acme:${f.id}`,
 * };
 * registerScheme(acme);
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
   * empty path). Returns a new reference.
   */
  normalize?(ref: UriReference): UriReference;
  /** Scheme-specific equivalence of two already-normalized references, when string equality is not enough. */
  equivalent?(a: UriReference, b: UriReference): boolean;
}

const registry = new Map<string, SchemeCodec<any>>();

/**
 * Registers (or replaces) the codec for `codec.name`; scheme names are case-insensitive.
 *
 * @example
 * ```ts
 * registerScheme(myCodec);
 * normalize('MYSCHEME://Host:99/', { level: 'scheme' });
 * ```
 */
export function registerScheme<T>(codec: SchemeCodec<T>): void {
  registry.set(codec.name.toLowerCase(), codec);
}

/**
 * The codec registered for `name` (case-insensitive), or `undefined`.
 *
 * @example
 * ```ts
 * getScheme('HTTP')?.defaultPort // 80
 * ```
 */
export function getScheme(name: string): SchemeCodec<unknown> | undefined {
  return registry.get(name.toLowerCase());
}

/**
 * The names of every registered scheme, in registration order.
 *
 * @example
 * ```ts
 * listSchemes().includes('ftp') // true
 * ```
 */
export function listSchemes(): string[] {
  return [...registry.keys()];
}
