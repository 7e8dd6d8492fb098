/**
 * The shapes of the URN module: a parsed URN, a query directive, the
 * options of the entry points and the namespace plug-in interface.
 */
import type { UriErrorCode } from '../errors.js';
import type { UrnProfile } from '../types.js';

/**
 * One `keywd "=" value` directive of a URN query (2012 draft §2.3).
 * `ignored` is true when a registered keyword appears more than once: §2.3
 * says a resolver MUST then ignore every directive using that keyword.
 *
 * @example
 * ```ts
 * const d: UrnDirective = { keyword: 's', value: 'I2L', ignored: false };
 * parseUrn('urn:foo:a?s=I2L', { profile: 'urn-2012' }).directives?.[0] // matches d
 * ```
 */
export interface UrnDirective {
  keyword: string;
  value: string;
  ignored: boolean;
}

/**
 * A URN split into its parts exactly as written (percent-encoding kept,
 * case kept); an absent part is `undefined`.
 *
 * ```text
 *   rfc8141:   urn:example:a123,z456?+cc=1?=s=I2L#frag
 *                  \_____/ \_______/  \__/  \___/ \__/
 *                    nid      nss      r     q     f
 *   urn-2012:  urn:isbn:0-395-36341-1?s=I2L&c=ToC#p1
 *                  \__/ \___________/ \_________/ \/
 *                  nid       nss       qComponent  fComponent (directives from q)
 *   yaurn-1995: urn:dns:library.bigstate.edu:aj17-mcc
 *                   \_/ \__________________/ \______/
 *                schemeId    authorityId     elementId   (nid = schemeId, nss = authorityId ":" elementId)
 * ```
 *
 * @example
 * ```ts
 * const u: Urn = { profile: 'rfc8141', nid: 'example', nss: 'a123' };
 * parseUrn('urn:example:a123') // matches u
 * ```
 */
export interface Urn {
  /** The rules this URN was read under. */
  profile: UrnProfile;
  /** Namespace Identifier as written (RFC 8141 §2.1); the SchemeID under `yaurn-1995`. */
  nid: string;
  /** Namespace Specific String as written (RFC 8141 §2.2). */
  nss: string;
  /** RFC 8141 §2.3.1 r-component (after `?+`), `rfc8141` only. */
  rComponent?: string;
  /** RFC 8141 §2.3.2 q-component (after `?=`); under `urn-2012` the whole query (2012 draft §2.3). */
  qComponent?: string;
  /** RFC 8141 §2.3.3 f-component / 2012 draft §2.4 fragment (after `#`). */
  fComponent?: string;
  /** The directives of the query (2012 draft §2.3); under `rfc8141` only when the q-component has that shape. */
  directives?: UrnDirective[];
  /** 1995 draft §2.1 SchemeID, as written. */
  schemeId?: string;
  /** 1995 draft §2.2 AuthorityID, as written (white space removed). */
  authorityId?: string;
  /** 1995 draft §2.3 ElementID, as written (white space removed). */
  elementId?: string;
  /** 1995 draft §2.1: a SchemeID beginning with "x-" is experimental. */
  experimental?: boolean;
  /** 1995 draft §3.5: the reserved request an ElementID `urn+m`, `urn+a`, `urn+c` or `urn+p` names. */
  reservedRequest?: 'm' | 'a' | 'c' | 'p';
}

/**
 * Options of {@link parseUrn} and {@link isValidUrn}.
 *
 * @example
 * ```ts
 * const opts: UrnParseOptions = { checkNamespace: true };
 * isValidUrn('urn:isbn:0395363412') // true
 * isValidUrn('urn:isbn:0395363412', opts) // false (the check digit)
 * ```
 */
export interface UrnParseOptions {
  /** Which generation of the URN rules; default `rfc8141`. */
  profile?: UrnProfile;
  /**
   * Also check the NSS against its registered namespace's own rules (default
   * false); under `urn-2012` also refuse a fragment unless the namespace
   * allows one (2012 draft §2.4).
   */
  checkNamespace?: boolean;
}

/**
 * What lexical equivalence is for (2012 draft §5 step 5a vs 5b).
 *
 * @example
 * ```ts
 * const purpose: UrnEquivalencePurpose = 'cache';
 * urnEquivalent('urn:foo:a?x=y', 'urn:foo:a', { profile: 'urn-2012', purpose }) // false
 * urnEquivalent('urn:foo:a?x=y', 'urn:foo:a', { profile: 'urn-2012' }) // true
 * ```
 */
export type UrnEquivalencePurpose = 'name' | 'cache';

/**
 * Options of {@link normalizeUrn} and {@link urnEquivalent}.
 *
 * @example
 * ```ts
 * const opts: UrnEquivalenceOptions = { namespaces: false };
 * urnEquivalent('urn:isbn:0-395-36341-1', 'urn:isbn:0395363411') // true (in the isbn namespace hyphens do not count)
 * urnEquivalent('urn:isbn:0-395-36341-1', 'urn:isbn:0395363411', opts) // false
 * ```
 */
export interface UrnEquivalenceOptions {
  /** `name` (default): the query is removed (step 5a); `cache`: directives are reordered (step 5b). */
  purpose?: UrnEquivalencePurpose;
  /** Which generation of the URN rules; default `rfc8141`. */
  profile?: UrnProfile;
  /** Apply the namespaces' extra lexical equivalences (default true). */
  namespaces?: boolean;
}

/**
 * A URN namespace plug-in (RFC 8141 §5, 2012 draft §3, §5): NSS
 * validation, extra lexical equivalences and a presentation form.
 *
 * @example
 * ```ts
 * const ns: UrnNamespace = { nid: 'shortid', reference: 'RFC 0000', validateNss: (nss) => nss.length > 3 ? 3 : -1 };
 * registerUrnNamespace(ns);
 * isValidUrn('urn:shortid:abc', { checkNamespace: true }) // true
 * isValidUrn('urn:shortid:abcd', { checkNamespace: true }) // false (validateNss gives the offset of the error)
 * ```
 */
export interface UrnNamespace {
  /** The NID, lower-case. */
  nid: string;
  /** The document that registers the namespace. */
  reference: string;
  /**
   * Checks an NSS (as written, already valid under the generic syntax):
   * returns -1 if valid, else the index in `nss` of the first problem.
   */
  validateNss?(nss: string): number;
  /**
   * Why `validateNss` refused `nss` at `index`, when the namespace has a
   * more precise code than `bad-namespace-nss` (a check digit) or a detail
   * for the message.
   */
  explainNss?(nss: string, index: number): { code: UriErrorCode; detail: string } | undefined;
  /**
   * The namespace's extra lexical equivalences (2012 draft §5): maps an NSS
   * that is valid for the namespace and already generically normalized
   * (`%hh` upper-cased) to its canonical form. It may only merge, never split
   * (it is applied after the generic steps, so it only removes false negatives).
   */
  normalizeNss?(nss: string): string;
  /** A human presentation of a valid NSS (2012 draft §4). */
  displayNss?(nss: string): string;
  /** 2012 draft §2.4: the namespace registration specifies the use of <fragment> (default false). */
  allowsFragment?: boolean;
}

/**
 * What URN normalization needs of a built-in namespace (RFC 8141 §3.1 and
 * the namespace's own lexical equivalence): its NID, its check and its
 * normal form. Each built-in namespace exports these apart from its
 * {@link UrnNamespace}, so that `normalize` holds no more of it.
 *
 * @example
 * ```ts
 * const rules: UrnLexicalRules = { nid: 'upper', validateNss: () => -1, normalizeNss: (nss) => nss.toUpperCase() };
 * rules.normalizeNss('ab') // "AB"
 * ```
 */
export type UrnLexicalRules = Required<Pick<UrnNamespace, 'nid' | 'validateNss' | 'normalizeNss'>>;
