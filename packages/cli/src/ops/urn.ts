/**
 * The URN operations: parse, validate, normalize, display and equivalent
 * (RFC 8141, the 2012 draft, the 1995 draft).
 */
import { uri } from '../api.js';
import type { UrnProfile } from 'urikit';
import { describe, invalid, plain, type Op, type OpOptions } from './outcome.js';

function urnOpt(o: OpOptions): { profile?: UrnProfile } {
  return o.urnProfile ? { profile: o.urnProfile } : {};
}


/**
 * `urn parse`: NID, NSS and the components of RFC 8141 §2 (or the older profiles).
 *
 * @example
 * ```ts
 * urnParseOp('urn:example:a?+r', {}).record // { valid: true, urn: { nid: 'example', nss: 'a', rComponent: 'r', ... } }
 * ```
 */
export const urnParseOp: Op = (input, o) => {
  try {
    const urn = uri.parseUrn(input, urnOpt(o));
    return { ok: true, text: describe(urn, '\t'), record: { valid: true, urn: plain(urn) } };
  } catch (e) {
    return invalid(e);
  }
};

/**
 * `urn validate`: the generic syntax and the namespace's own rules (RFC 8141 §5),
 * such as the check digits of ISBNs, ISSNs and `urn:nbn:de` names.
 *
 * @example
 * ```ts
 * urnValidateOp('urn:urn:x', {}).problem?.code // 'reserved-nid'
 * urnValidateOp('urn:nbn:de:101-2020071409', {}).problem?.code // 'bad-check-digit'
 * ```
 */
export const urnValidateOp: Op = (input, o) => {
  try {
    uri.parseUrn(input, { ...urnOpt(o), checkNamespace: true });
    return { ok: true, text: 'valid', record: { valid: true } };
  } catch (e) {
    return invalid(e);
  }
};

/**
 * `urn normalize`: the canonical form of the lexical equivalence rules (2012 draft §5, RFC 8141 §3).
 *
 * @example
 * ```ts
 * urnNormalizeOp('URN:EXAMPLE:a%2c', {}).text // 'urn:example:a%2C'
 * ```
 */
export const urnNormalizeOp: Op = (input, o) => {
  try {
    const normalized = uri.normalizeUrn(input, urnOpt(o));
    return { ok: true, text: normalized, record: { valid: true, normalized } };
  } catch (e) {
    return invalid(e);
  }
};

/**
 * `urn display`: the presentation form (2012 draft §2.2, §4).
 *
 * @example
 * ```ts
 * urnDisplayOp('urn:example:a', {}).text // 'urn:example:a'
 * ```
 */
export const urnDisplayOp: Op = (input, o) => {
  try {
    const display = uri.displayUrn(input, urnOpt(o));
    return { ok: true, text: display, record: { valid: true, display } };
  } catch (e) {
    return invalid(e);
  }
};

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
    uri.parseUrn(a, urnOpt(o));
    uri.parseUrn(b, urnOpt(o));
    const equivalent = uri.urnEquivalent(a, b, opts);
    return { ok: equivalent, text: equivalent ? 'equivalent' : 'different', record: { valid: true, a, b, equivalent } };
  } catch (e) {
    return invalid(e, { a, b });
  }
};
