/**
 * The shapes shared by every module: a parsed URI reference and the kinds
 * and profiles a caller can ask for.
 */

/**
 * A URI reference split into its components exactly as written
 * (RFC 3986 §3, 2003 draft §3): percent-encoding is kept, the brackets of
 * an IP literal are kept in `host`, an absent component is `undefined`
 * and an empty one is `""`. `path` is always a string.
 *
 * ```text
 *   foo://user@example.com:8042/over/there?name=ferret#nose
 *   \_/   \__/ \_________/ \__/\_________/ \_________/ \__/
 *    |     |        |       |      |           |        |
 * scheme userinfo  host    port   path       query  fragment
 * ```
 *
 * @example
 * ```ts
 * const ref: UriReference = { scheme: 'http', host: 'a', hostKind: 'reg-name', path: '/b' };
 * serialize(ref) // "http://a/b"
 * parse('http://a/b') // ref
 * ```
 */
export interface UriReference {
  scheme?: string;
  userinfo?: string;
  host?: string;
  hostKind?: HostKind;
  /** The digits as written; `""` for `host:`. */
  port?: string;
  path: string;
  query?: string;
  fragment?: string;
}

/**
 * What kind of host `host` is (RFC 3986 §3.2.2).
 *
 * @example
 * ```ts
 * const k: HostKind | undefined = parse('http://[::1]/').hostKind;
 * k // "ipv6"
 * ```
 */
export type HostKind = 'reg-name' | 'ipv4' | 'ipv6' | 'ipvfuture';

/**
 * Which grammar rule the whole input must match: `uri` (RFC 3986 `URI`),
 * `uri-reference` (`URI-reference`), `absolute-uri` (`absolute-URI`, no
 * fragment), and their RFC 3987 counterparts `iri`, `iri-reference`.
 *
 * @example
 * ```ts
 * const kind: Kind = 'absolute-uri';
 * isValid('http://a/b#f', kind) // false (no fragment in an absolute-URI)
 * isValid('http://a/b#f', 'uri') // true
 * ```
 */
export type Kind = 'uri' | 'uri-reference' | 'absolute-uri' | 'iri' | 'iri-reference';

/**
 * A generation of the URI rules (see DESIGN.md, "Profiles"): the default
 * `rfc3986`, and the drafts of 2003, 1997 and 1993.
 *
 * @example
 * ```ts
 * const p: Profile = 'draft-2003';
 * resolve('http://a/b/c/d;p?q', '../../../g', { profile: p }) // "http://a/../g"
 * resolve('http://a/b/c/d;p?q', '../../../g') // "http://a/g"
 * ```
 */
export type Profile = 'rfc3986' | 'draft-2003' | 'draft-1997' | 'url-1993';

/**
 * What resolution does with a `..` segment that would climb above the root
 * of the path (2003 draft §5.2 step 7: an implementation may keep it, remove
 * it, or report an error): `remove` is RFC 3986 §5.2.4's rule, `keep` is the
 * older drafts' ("retaining these components").
 *
 * @example
 * ```ts
 * const choice: AboveRoot = 'keep';
 * resolve('http://a/b/c/d;p?q', '../../../g', { aboveRoot: choice }) // "http://a/../g"
 * resolve('http://a/b/c/d;p?q', '../../../g', { aboveRoot: 'remove' }) // "http://a/g"
 * resolve('http://a/b/c/d;p?q', '../../../g', { aboveRoot: 'error' }) // throws UriError above-root
 * ```
 */
export type AboveRoot = 'keep' | 'remove' | 'error';

/**
 * A generation of the URN rules: RFC 8141 (default), the 2012 draft, the 1995 draft.
 *
 * @example
 * ```ts
 * const p: UrnProfile = 'yaurn-1995';
 * isValidUrn('urn:dns:library.bigstate.edu:aj17-mcc', { profile: p }) // true
 * ```
 */
export type UrnProfile = 'rfc8141' | 'urn-2012' | 'yaurn-1995';
