/**
 * Lexical equivalence of URNs (2012 draft §5, RFC 8141 §3) and the
 * canonical string used for keys and storage.
 */
import { getUrnNamespace } from './namespaces/registry.js';
import { parseUrn } from './parse.js';
import type { Urn, UrnDirective, UrnEquivalenceOptions } from './types.js';
import { upperPct } from './lexical.js';

export { upperPct };

/**
 * The canonical form of a URN for keys and storage: `urn:`, the NID in lower
 * case, the NSS with `%hh` in upper case (percent-encoding is never removed),
 * the namespace's extra equivalences applied; r-, q- and f-components dropped
 * (RFC 8141 §3.1; 2012 draft §5 steps 1–4 and 5a). With `purpose: 'cache'`
 * the query is kept with its directives reordered by keyword (2012 draft §5
 * step 5b; under `rfc8141` the r- and q-components are kept likewise).
 *
 * @see https://www.rfc-editor.org/rfc/rfc8141#section-3.1
 * @example
 * ```ts
 * normalizeUrn('URN:FOO:a123%2c456#xyz'); // "urn:foo:a123%2C456"
 * normalizeUrn('urn:foo:a?c=ToC&s=I2L', { profile: 'urn-2012', purpose: 'cache' }); // "urn:foo:a?c=ToC&s=I2L"
 * ```
 */
export function normalizeUrn(input: string | Urn, opts?: UrnEquivalenceOptions): string {
  const urn = typeof input === 'string' ? parseUrn(input, opts?.profile ? { profile: opts.profile } : undefined) : input;
  return canonicalUrn(urn, opts?.purpose === 'cache', opts?.namespaces !== false);
}

/**
 * True if two URNs are lexically equivalent (2012 draft §5; RFC 8141 §3 under
 * the default profile): their canonical forms ({@link normalizeUrn}) are
 * equal. Throws a {@link UriError} if either is not a URN under the profile.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8141#section-3
 * @example
 * ```ts
 * urnEquivalent('URN:foo:a123,456', 'urn:FOO:a123,456'); // true
 * urnEquivalent('urn:foo:a123,456?x=y', 'urn:foo:a123,456', { profile: 'urn-2012', purpose: 'cache' }); // false
 * ```
 */
export function urnEquivalent(a: string | Urn, b: string | Urn, opts?: UrnEquivalenceOptions): boolean {
  return normalizeUrn(a, opts) === normalizeUrn(b, opts);
}

function canonicalUrn(urn: Urn, cache: boolean, namespaces: boolean): string {
  if (urn.profile === 'yaurn-1995' && urn.schemeId !== undefined && urn.authorityId !== undefined && urn.elementId !== undefined) {
    // 1995 draft §2: "The first and SchemeID fields are case insensitive"; §2.2.1: within
    // "dns" the case of the AuthorityID is not significant. ElementIDs keep their case (§2.3.1).
    const scheme = urn.schemeId.toLowerCase();
    const authority = scheme === 'dns' ? urn.authorityId.toLowerCase() : upperPct(urn.authorityId);
    return `urn:${scheme}:${authority}:${upperPct(urn.elementId)}`;
  }
  // 2012 draft §5 steps 1-3 / RFC 8141 §3.1 items 1-3: "urn" and the NID to lower case,
  // the hexadecimal digits of every pct-encoded triplet to upper case, nothing decoded
  const nid = urn.nid.toLowerCase();
  let nss = upperPct(urn.nss);
  if (namespaces) {
    // 2012 draft §5 / RFC 8141 §3.1 (last paragraph): a namespace's additional rules "MUST
    // always have the effect of eliminating some of the false negatives"; applied after the
    // generic steps, and only to an NSS the namespace accepts
    const ns = getUrnNamespace(nid);
    if (ns?.normalizeNss !== undefined && (ns.validateNss === undefined || ns.validateNss(nss) < 0)) {
      nss = ns.normalizeNss(nss);
    }
  }
  let out = `urn:${nid}:${nss}`;
  // 2012 draft §5 step 4: the fragment is always removed; step 5a removes the query too.
  // RFC 8141 §3.1: r-, q- and f-components "MUST be ignored" for URN-equivalence
  if (!cache) return out;
  // 2012 draft §5 step 5b (caching): the directives reordered into a preferred order (here: by
  // keyword; "the 'preferred order' in step 5b is an implementation choice")
  if (urn.profile === 'urn-2012') {
    if (urn.qComponent !== undefined) out += `?${urn.directives ? reorder(urn.directives) : upperPct(urn.qComponent)}`;
    return out;
  }
  if (urn.rComponent !== undefined) out += `?+${upperPct(urn.rComponent)}`;
  if (urn.qComponent !== undefined) out += `?=${urn.directives ? reorder(urn.directives) : upperPct(urn.qComponent)}`;
  return out;
}

/** 2012 draft §5 step 5b: a stable sort by keyword (directives with the same keyword keep their order). */
function reorder(directives: readonly UrnDirective[]): string {
  const sorted = directives.map((d, i) => ({ d, i }));
  sorted.sort((x, y) => (x.d.keyword < y.d.keyword ? -1 : x.d.keyword > y.d.keyword ? 1 : x.i - y.i));
  return sorted.map(({ d }) => `${d.keyword}=${upperPct(d.value)}`).join('&');
}
