/**
 * Normalization and comparison: the comparison ladder of the 2003 draft §6
 * (RFC 3986 §6.2): simple string comparison (§6.2.1), syntax-based
 * normalization (§6.2.2) and scheme-based normalization (§6.2.3). The
 * generic steps are one pass over the characters (the scan of
 * rfc3986-scanner.ts with the edits of normalizing-pass.ts); a scheme's own step, where it has
 * one, works on the components of that pass's result.
 */
import { UriError } from './errors.js';
import { normalizingScan, componentsOf, scanState } from './rfc3986-scanner.js';
import { serialize } from './serialize.js';
import { getSchemeRules, schemeRulesAt } from './schemes/registry.js';
import { beginEdits, compareEdits, endCompare, endEdits, lastPass, type SchemeStep } from './normalizing-pass.js';
import { urnLexicalForm } from './urn/lexical.js';
import type { SchemeRules } from './schemes/codec.js';
import { URN_RULES } from './schemes/rules.js';
import { plainNormalForm } from './plain-uri.js';

/**
 * How far up the ladder {@link normalize} goes (RFC 3986 §6.2.2, §6.2.3).
 *
 * @example
 * ```ts
 * normalize('http://h:80/', { level: 'syntax' }) // "http://h:80/"
 * normalize('http://h:80/', { level: 'scheme' }) // "http://h/"
 * ```
 */
export type NormalizeLevel = 'syntax' | 'scheme';
/**
 * Which rung of the ladder {@link equivalent} compares at (RFC 3986 §6.2.1–6.2.3).
 *
 * @example
 * ```ts
 * equivalent('http://h/%7e', 'http://h/~', { level: 'simple' }) // false
 * equivalent('http://h/%7e', 'http://h/~', { level: 'syntax' }) // true
 * ```
 */
export type CompareLevel = 'simple' | NormalizeLevel;

/**
 * Options of {@link normalize}.
 *
 * @example
 * ```ts
 * normalize('HTTP://[::0:1]', { level: 'scheme' }) // "http://[::1]/"
 * ```
 */
export interface NormalizeOptions {
  /** `syntax` (RFC 3986 §6.2.2) or `scheme` (adds §6.2.3; the default). */
  level?: NormalizeLevel;
}

/**
 * Options of {@link equivalent}.
 *
 * @example
 * ```ts
 * equivalent('x:a#1', 'x:a#2', { level: 'syntax', ignoreFragment: true }) // true
 * ```
 */
export interface EquivalentOptions {
  /** `simple` (§6.2.1), `syntax` (§6.2.2) or `scheme` (§6.2.3; the default). */
  level?: CompareLevel;
  /** Compare without the fragments (default `false`). */
  ignoreFragment?: boolean;
}


/** The generic normal form of `input` (RFC 3986 §6.2.2; at the scheme level the generic part of §6.2.3), in one pass. */
function genericForm(input: string, schemeLevel: boolean, plain?: boolean): string {
  beginEdits(schemeLevel);
  normalizingScan(input, plain);
  return endEdits(input);
}

/**
 * §6.2.3: the scheme's own `normalize` step on the components of the
 * generic form `generic`; a reference that breaks its scheme's own rules
 * keeps its generic form. The built-in steps: schemes/rules.ts.
 */
function codecForm(generic: string): string {
  const ref = componentsOf(generic, 'iri-reference');
  try {
    return serialize(getSchemeRules(ref.scheme!)!.normalize!(ref));
  } catch (e) {
    if (!(e instanceof UriError)) throw e;
    return generic;
  }
}

/**
 * The normal form of `input` at `level`. At the scheme level a `urn:` that
 * is a URN under RFC 8141 takes the urn scheme's lexical form (RFC 8141
 * §3.1: percent-encoding is never decoded; the namespace's rules apply),
 * unless a caller registered a codec of its own for `urn`; a `urn:` that
 * is no URN keeps the generic form, read again as a URN if the generic
 * steps made it one (so that the result is a fixed point). `components`
 * false drops a URN's r-, q- and f-components (for equivalence).
 */
function normalForm(input: string, level: NormalizeLevel, components: boolean): string {
  if (level === 'scheme') {
    const lexical = urnForm(input, components);
    if (lexical !== undefined) return lexical;
  }
  // A plain URL with nothing to change, at once (plain-uri.ts): no pass.
  // After the URN test, which reads one or two characters of any other
  // input: the expression first cost URNs 4% (measured, urn suite).
  const plain = plainNormalForm(input, level === 'scheme');
  if (plain === 0) return input;
  const generic = genericForm(input, level === 'scheme', plain === 1);
  return schemeForm(generic, lastPass.step, components);
}

/**
 * What the scheme's step (`step`, from the pass) makes of the generic form
 * `generic`: the codec's own rules, or for a `urn:` that is no URN as
 * written (urnForm said so) the urn scheme's generic rules, read again as
 * a URN if they made it one (so that the result is a fixed point).
 */
function schemeForm(generic: string, step: SchemeStep, components: boolean): string {
  if (step === 'codec') return codecForm(generic);
  if (step !== 'urn') return generic;
  const out = codecForm(generic);
  return urnLexicalForm(out, components) ?? out;
}

/**
 * The lexical form of `input` (RFC 8141 §3.1, urn/lexical.ts) when it is a
 * URN in ASCII and the built-in `urn` rules govern its scheme (no codec of
 * a caller's for `urn`); otherwise `undefined`, and the generic pass
 * decides. Checked before any generic pass: a URN's form is read from the
 * input as written in one pass of its own, so the generic form (which
 * would decode `%41`) is never built for it.
 */
function urnForm(input: string, components: boolean): string | undefined {
  if ((input.charCodeAt(0) | 0x20) !== 0x75 || input.charCodeAt(3) !== 0x3a || schemeRulesAt(input, 3) !== URN_RULES) return undefined;
  return urnLexicalForm(input, components);
}

/**
 * Normalizes a URI reference (or IRI reference) up the comparison ladder
 * of RFC 3986 §6.2 (https://www.rfc-editor.org/rfc/rfc3986#section-6.2.2).
 * At `syntax` (§6.2.2, no scheme knowledge): scheme and host to lower
 * case, `%hh` to `%HH`, triplets of unreserved characters decoded, dot
 * segments removed (from a relative path only where no base can give them
 * a meaning), an empty port omitted (§3.2.3). At `scheme` (the default,
 * §6.2.3) also: the default port omitted, an empty path with an authority
 * to `/` when the scheme says so, IPv6 hosts to their RFC 5952 text, the
 * scheme codec's own rules, and for a URN the rules of RFC 8141 §3 and of
 * its namespace (percent-encoding is then never decoded). Idempotent;
 * throws a {@link UriError} on invalid input. Input already in normal form
 * is returned as it is, with no allocation.
 *
 * @example
 * ```ts
 * normalize('HTTP://www.Example.COM:80/a/%7euser/./b/../c') // "http://www.example.com/a/~user/c"
 * normalize('http://[2001:DB8:0:0::1]:80', { level: 'syntax' }) // "http://[2001:db8:0:0::1]:80"
 * normalize('HTTPS://Example.com:', { level: 'syntax' }) // "https://example.com"
 * normalize('mid/content=5/../6') // "mid/6"
 * normalize('URN:ISBN:0-395-36341-1?+r%2f') // "urn:isbn:0395363411?+r%2F"
 * normalize('urn:example:%41', { level: 'syntax' }) // "urn:example:A"
 * ```
 */
export function normalize(input: string, opts?: NormalizeOptions): string {
  return normalForm(input, opts?.level ?? 'scheme', true);
}

/** The text before the first "#", for simple comparison without the fragment. */
const withoutFragment = (s: string): string => {
  const k = s.indexOf('#');
  return k < 0 ? s : s.slice(0, k);
};

/**
 * True if `a` and `b` identify the same resource at the given rung of the
 * comparison ladder (RFC 3986 §6.2, https://www.rfc-editor.org/rfc/rfc3986#section-6.2):
 * `simple` compares the strings, `syntax` and `scheme` (the default)
 * compare the normal forms of {@link normalize}, and at `scheme` a scheme
 * codec may compare the components itself; two URNs compare by RFC 8141 §3
 * (r-, q- and f-components ignored) and their namespace's rules. Symmetric.
 * Fragments count unless `ignoreFragment` (or the scheme says they are not
 * significant).
 *
 * @example
 * ```ts
 * equivalent('http://example.com', 'HTTP://EXAMPLE.com:80/') // true
 * equivalent('http://a/b#x', 'http://a/b#y', { ignoreFragment: true }) // true
 * equivalent('http://a/%7E', 'http://a/~', { level: 'simple' }) // false
 * equivalent('urn:isbn:0-395-36341-1', 'URN:ISBN:0395363411') // true
 * equivalent('urn:example:a123,z456', 'urn:example:a123,z456?+abc') // true
 * equivalent('urn:example:%41', 'urn:example:A') // false
 * ```
 */
export function equivalent(a: string, b: string, opts?: EquivalentOptions): boolean {
  const level = opts?.level ?? 'scheme';
  const ignoreFragment = opts?.ignoreFragment === true;
  if (level === 'simple') return ignoreFragment ? withoutFragment(a) === withoutFragment(b) : a === b;
  if (level !== 'syntax' && level !== 'scheme') throw new UriError('bad-component', 0, String(level), 'unknown comparison level');
  const schemeLevel = level === 'scheme';
  // RFC 8141 §3.1: two URNs compare by their lexical forms, r-, q- and f-components ignored.
  let ua: string | undefined;
  let ub: string | undefined;
  if (schemeLevel && (a.charCodeAt(3) === 0x3a || b.charCodeAt(3) === 0x3a)) {
    ua = urnForm(a, false);
    ub = urnForm(b, false);
    if (ua !== undefined && ub !== undefined) return ua === ub;
  }
  let na = genericForm(a, schemeLevel);
  const stepA = lastPass.step;
  const endA = lastPass.schemeEnd;
  const rulesA = lastPass.rules;
  // b written as a is but for the case of the scheme and of a reg-name host (§6.2.2.1) has a's
  // normal form: one comparison of the code units, no second pass.
  if (stepA === 'none' && rulesA?.equivalent === undefined && sameButCase(a, b)) return true;
  if (stepA === 'none' && !ignoreFragment && rulesA?.fragmentSignificant !== false && rulesA?.equivalent === undefined) {
    // The answer is na === nb unless b's scheme has a step of its own:
    // b's pass compares its normal form with na as it goes, building none.
    beginEdits(schemeLevel);
    compareEdits(na);
    normalizingScan(b);
    const same = endCompare(b);
    if (lastPass.step === 'none') return same;
  }
  let nb = genericForm(b, schemeLevel);
  const stepB = lastPass.step;
  const endB = lastPass.schemeEnd;
  if (stepA === 'urn' && stepB === 'urn') {
    // RFC 8141 §3.1: URN-equivalence ignores the r-, q- and f-components.
    na = ua ?? schemeForm(na, 'urn', false);
    nb = ub ?? schemeForm(nb, 'urn', false);
    return ignoreFragment ? withoutFragment(na) === withoutFragment(nb) : na === nb;
  }
  // A URN beside a non-URN: the urn scheme's generic rules (schemes/rules.ts).
  if (stepA !== 'none') na = codecForm(na);
  if (stepB !== 'none') nb = codecForm(nb);
  let dropFragments = ignoreFragment;
  if (schemeLevel) {
    let rules: SchemeRules | undefined;
    if (stepA === 'none' && stepB === 'none') {
      // The passes found the schemes and a's rules; the normal forms' schemes are the inputs' in lower case.
      rules = endA > 0 && endA === endB && sameScheme(a, b, endA) ? rulesA : undefined;
    } else {
      const end = schemeEnd(na);
      rules = end > 0 && end === schemeEnd(nb) && samePrefix(na, nb, end) ? schemeRulesAt(na, end) : undefined;
    }
    if (rules?.fragmentSignificant === false) dropFragments = true;
    if (rules?.equivalent !== undefined) {
      const ra = componentsOf(na, 'iri-reference');
      const rb = componentsOf(nb, 'iri-reference');
      if (dropFragments) {
        delete ra.fragment;
        delete rb.fragment;
      }
      try {
        return rules.equivalent(ra, rb);
      } catch (e) {
        if (!(e instanceof UriError)) throw e;
      }
    }
  }
  return dropFragments ? withoutFragment(na) === withoutFragment(nb) : na === nb;
}

/** The index of the ":" that ends the scheme of a valid reference (RFC 3986 §3.1), or -1. */
function schemeEnd(s: string): number {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x3a) return i;
    if (c === 0x2f || c === 0x3f || c === 0x23) return -1;
  }
  return -1;
}

/**
 * True if `b` is `a` but for the case of ASCII letters in the scheme and in
 * a reg-name host, which RFC 3986 §6.2.2.1 says are case-insensitive; the
 * userinfo, an IP literal (an RFC 6874 zone ID keeps its case), the port,
 * path, query and fragment must be the same code units. Such a `b` is
 * valid too, and its normal form is `a`'s. Reads where the components of
 * `a` are from the scan that has just normalized it (scanState).
 */
function sameButCase(a: string, b: string): boolean {
  const st = scanState;
  const schemeEnd = st.schemeEnd;
  const len = a.length;
  if (b.length !== len || schemeEnd < 0) return false;
  const folded = st.hostStart >= 0 && st.hostKind === 'reg-name';
  const exactFrom = folded ? st.hostEnd : schemeEnd;
  // The exact part first, where most pairs that are not the same differ:
  // its first code units and its last one, then all of it. Slices and ===:
  // V8 compares the code units natively, several times faster than a loop
  // over a long URL.
  for (let k = exactFrom, end = Math.min(len, exactFrom + 8); k < end; k++) if (a.charCodeAt(k) !== b.charCodeAt(k)) return false;
  if (exactFrom < len && a.charCodeAt(len - 1) !== b.charCodeAt(len - 1)) return false;
  if ((len - exactFrom > 8 && a.slice(exactFrom) !== b.slice(exactFrom)) || !sameLetters(a, b, 0, schemeEnd)) return false;
  return !folded || (a.slice(schemeEnd, st.hostStart) === b.slice(schemeEnd, st.hostStart) && sameLetters(a, b, st.hostStart, st.hostEnd));
}

/** True if `a` and `b` hold the same code units in [from, to) but for the case of ASCII letters. */
function sameLetters(a: string, b: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) {
    const x = a.charCodeAt(k);
    const y = b.charCodeAt(k);
    if (x !== y && ((x | 0x20) !== (y | 0x20) || (x | 0x20) < 0x61 || (x | 0x20) > 0x7a)) return false;
  }
  return true;
}

/** True if the schemes `a[0, n)` and `b[0, n)` are the same but for case (RFC 3986 §3.1; scheme characters differ in bit 0x20 only by case). */
function sameScheme(a: string, b: string, n: number): boolean {
  for (let k = 0; k < n; k++) if ((a.charCodeAt(k) | 0x20) !== (b.charCodeAt(k) | 0x20)) return false;
  return true;
}

/** True if `a` and `b` begin with the same `n` code units. */
function samePrefix(a: string, b: string, n: number): boolean {
  for (let k = 0; k < n; k++) if (a.charCodeAt(k) !== b.charCodeAt(k)) return false;
  return true;
}
