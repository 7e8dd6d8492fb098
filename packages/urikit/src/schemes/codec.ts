/**
 * The shape of a scheme codec (STYLE §10) and the part of it that
 * scheme-based normalization reads (2003 draft §6.2.3, RFC 3986 §6.2.3).
 * Types only: the registry, the built-in rules and every codec share them.
 */
import type { UriReference } from '../types.js';

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
