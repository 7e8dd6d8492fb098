/**
 * The scheme registry (lean half): one small typed codec per scheme (STYLE §10), which
 * scheme-based normalization and comparison consult
 * (2003 draft §6.2.3, RFC 3986 §6.2.3).
 */
import type { SchemeCodec, SchemeRules } from './codec.js';
import { BUILTIN_RULES } from './rules.js';

// Pre-populated with the rules of the codecs urikit ships (no side-effect
// imports: the package is `sideEffects: false`); codecs registered by
// `registerScheme` win over the built-in ones.
const registered = new Map<string, SchemeCodec<any>>();
// Whether `registered` holds any codec (it only grows): a field, not its
// `size` getter, for schemeRulesAt, which normalize calls once per input.
const any = { registered: false };
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
  any.registered = true;
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
  return registered.get(key) ?? builtinRules.get(key) ?? experimentalScheme(key, experimentalRules, experimentalRulesOf);
}

const experimentalRulesOf = (name: string): SchemeRules => ({ name, authority: 'optional', experimental: true });

// The built-in rules by the length of their name, for schemeRulesAt.
const builtinByLength: SchemeRules[][] = [];
for (const r of BUILTIN_RULES) (builtinByLength[r.name.length] ??= []).push(r);

/**
 * @internal {@link getSchemeRules} of the scheme `text.slice(0, end)`,
 * found without slicing or lowering it while no codec is registered and
 * the name is not an `x-` one: `normalize`'s single pass allocates nothing
 * on input that is already normal. Scheme characters are ALPHA, DIGIT,
 * "+", "-" and "." (RFC 3986 §3.1), so `| 0x20` lowers a letter and
 * leaves the others as they are.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-3.1
 * @example
 * ```ts
 * schemeRulesAt('HTTP://a/', 4)?.defaultPort // 80
 * schemeRulesAt('nosuch:x', 6) // undefined
 * ```
 */
export function schemeRulesAt(text: string, end: number): SchemeRules | undefined {
  const c0 = text.charCodeAt(0) | 0x20;
  if (any.registered || (c0 === 0x78 && text.charCodeAt(1) === 0x2d)) return getSchemeRules(text.slice(0, end));
  const candidates = builtinByLength[end];
  if (candidates === undefined) return undefined;
  next: for (let n = 0; n < candidates.length; n++) {
    const name = candidates[n]!.name;
    if (name.charCodeAt(0) !== c0) continue;
    for (let k = 1; k < end; k++) if ((text.charCodeAt(k) | 0x20) !== name.charCodeAt(k)) continue next;
    return candidates[n];
  }
  return undefined;
}

/**
 * @internal For an `x-` scheme name (lower case) that nothing registered:
 * the entry `make` builds for it, kept in `cache`; `undefined` for any
 * other name. The 1993 draft ("Registration of naming schemes"): "experimental
 * scheme identifiers [...] must start with the characters "x-"".
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-6.2.3
 * @example
 * ```ts
 * experimentalScheme('x-acme', new Map(), (name) => name.length) // 6
 * experimentalScheme('acme', new Map(), (name) => name.length) // undefined
 * ```
 */
export function experimentalScheme<T>(key: string, cache: Map<string, T>, make: (name: string) => T): T | undefined {
  if (key.length < 3 || !key.startsWith('x-')) return undefined;
  let entry = cache.get(key);
  if (entry === undefined) cache.set(key, (entry = make(key)));
  return entry;
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
