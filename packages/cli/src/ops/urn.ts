/**
 * The URN operations: parse, validate, normalize, display and equivalent
 * (RFC 8141, the 2012 draft, the 1995 draft).
 */
import { displayUrn, normalizeUrn, parseUrn, urnEquivalent, type UrnProfile } from 'urikit';
import { describe, invalid, plain, type Op, type OpOptions } from './outcome.js';

function urnOpt(o: OpOptions): { profile?: UrnProfile } {
  return o.urnProfile ? { profile: o.urnProfile } : {};
}

/**
 * `urn parse`: NID, NSS and the components of RFC 8141 §2 (or the older profiles).
 *
 * @example
 * ```ts
 * urnParseOp('urn:example:a?+r', {}).record // matches { valid: true, urn: { nid: 'example', nss: 'a', rComponent: 'r' } }
 * ```
 */
export const urnParseOp: Op = (input, o) => {
  try {
    const urn = parseUrn(input, urnOpt(o));
    return { ok: true, text: describe(urn, '\t'), record: { valid: true, urn: plain(urn) } };
  } catch (e) {
    return invalid(e);
  }
};

/**
 * An operation that maps a URN to one text: `text` in text mode and, when
 * `field` is given, that field of the JSON record; an invalid URN gives
 * its `UriError`.
 */
function urnTextOp(f: (input: string, opts: { profile?: UrnProfile }) => string, field?: 'normalized' | 'display'): Op {
  return (input, o) => {
    try {
      const text = f(input, urnOpt(o));
      return { ok: true, text, record: field === undefined ? { valid: true } : { valid: true, [field]: text } };
    } catch (e) {
      return invalid(e);
    }
  };
}

/**
 * `urn validate`: the generic syntax and the namespace's own rules (RFC 8141 §5),
 * such as the check digits of ISBNs, ISSNs and `urn:nbn:de` names.
 *
 * @example
 * ```ts
 * urnValidateOp('urn:urn:x', {}).problem?.code // 'reserved-nid'
 * urnValidateOp('urn:nbn:de:101-2020071409', {}).problem?.code // 'bad-check-digit'
 * urnValidateOp('urn:example:a', {}) // { ok: true, text: 'valid', record: { valid: true } }
 * ```
 */
export const urnValidateOp: Op = urnTextOp((input, opts) => {
  parseUrn(input, { ...opts, checkNamespace: true });
  return 'valid';
});

/**
 * `urn normalize`: the canonical form of the lexical equivalence rules (2012 draft §5, RFC 8141 §3).
 *
 * @example
 * ```ts
 * urnNormalizeOp('URN:EXAMPLE:a%2c', {}) // { ok: true, text: 'urn:example:a%2C', record: { valid: true, normalized: 'urn:example:a%2C' } }
 * ```
 */
export const urnNormalizeOp: Op = urnTextOp(normalizeUrn, 'normalized');

/**
 * `urn display`: the presentation form (2012 draft §2.2, §4).
 *
 * @example
 * ```ts
 * urnDisplayOp('urn:example:%C3%96l', {}) // { ok: true, text: 'urn:example:Öl', record: { valid: true, display: 'urn:example:Öl' } }
 * ```
 */
export const urnDisplayOp: Op = urnTextOp(displayUrn, 'display');

/**
 * `urn equivalent`: two URNs separated by a tab.
 *
 * @example
 * ```ts
 * urnEquivalentOp('urn:example:a\tURN:EXAMPLE:a', {}).ok // true
 * ```
 */
export const urnEquivalentOp: Op = (input, o) => {
  const tab = input.indexOf('\t');
  if (tab < 0) {
    const problem = { code: 'bad-pair', offset: input.length, message: 'expected two URNs separated by a tab' };
    return { ok: false, record: { valid: false, error: problem }, problem };
  }
  const a = input.slice(0, tab);
  const b = input.slice(tab + 1);
  try {
    const opts: { profile?: UrnProfile; purpose?: 'name' | 'cache' } = { ...urnOpt(o) };
    if (o.purpose) opts.purpose = o.purpose;
    // Both must be URNs: an invalid one is reported, never silently "different".
    parseUrn(a, urnOpt(o));
    parseUrn(b, urnOpt(o));
    const equivalent = urnEquivalent(a, b, opts);
    return { ok: equivalent, text: equivalent ? 'equivalent' : 'different', record: { valid: true, a, b, equivalent } };
  } catch (e) {
    return invalid(e, { a, b });
  }
};
