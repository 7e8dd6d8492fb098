/**
 * URN query directives (2012 draft §2.3) and the two registries of §9.2:
 * query keywords (§9.2.1) and resolution service designators (§9.2.2).
 */
import { UriError } from '../errors.js';
import { ALPHA, CLASS, QUERY, isPctEncoded } from '../chars.js';
import { ALPHANUM } from './chars.js';
import type { UrnDirective } from './types.js';
import { URN_MESSAGES, registerMessages } from '../messages.js';

// The messages of the URN codes this module throws (messages.ts).
registerMessages(URN_MESSAGES);

/**
 * An entry of the URN Query Keywords sub-registry (2012 draft §9.2.1).
 *
 * @example
 * ```ts
 * const k: UrnDirectiveKeyword | undefined = getDirectiveKeyword('c');
 * k?.scope // "global"
 * ```
 */
export interface UrnDirectiveKeyword {
  keyword: string;
  purpose: string;
  scope: 'global' | 'specific';
  reference: string;
}

/**
 * An entry of the URN Resolution Service Designators sub-registry (2012 draft §9.2.2).
 *
 * @example
 * ```ts
 * const d: UrnServiceDesignator | undefined = getServiceDesignator('I2L');
 * d?.status // "provisional"
 * ```
 */
export interface UrnServiceDesignator {
  name: string;
  purpose: string;
  status: 'std' | 'exp' | 'provisional' | 'deprecated';
  reference: string;
}

// 2012 draft §9.2.1, "Initial registrations"
const keywords = new Map<string, UrnDirectiveKeyword>([
  ['s', { keyword: 's', purpose: 'intended URN resolution service', scope: 'global', reference: '2012 draft §2.3.1' }],
  ['c', { keyword: 'c', purpose: 'component of structured resource', scope: 'global', reference: '2012 draft §2.3.2' }],
]);

// 2012 draft §9.2.2, entries derived from RFC 2483 §4, all "provisional"
const designators = new Map<string, UrnServiceDesignator>(
  ([
    ['I2L', 'URI to URL', '4.1'],
    ['I2Ls', 'URI to URLs', '4.2'],
    ['I2R', 'URI to resource', '4.3'],
    ['I2Rs', 'URI to resources', '4.4'],
    ['I2C', 'URI to URC', '4.5'],
    ['I2Cs', 'URI to URCs', '4.6'],
    ['I2N', 'URI to URN', '4.7'],
    ['I2Ns', 'URI to URNs', '4.8'],
    ['I=I', 'URI equal to URI?', '4.9'],
  ] as const).map(([name, purpose, sec]) => [name, { name, purpose, status: 'provisional', reference: `RFC 2483 §${sec}` }]),
);

/**
 * Registers a query keyword (2012 draft §9.2.1); a registered keyword may
 * appear only once in a URN reference (§2.3).
 *
 * @example
 * ```ts
 * registerDirectiveKeyword({ keyword: 'lang', purpose: 'language', scope: 'specific', reference: 'RFC 0000' });
 * getDirectiveKeyword('lang')?.scope // "specific"
 * ```
 */
export function registerDirectiveKeyword(entry: UrnDirectiveKeyword): void {
  if (scanKeyword(entry.keyword, 0, entry.keyword.length) !== entry.keyword.length) {
    throw new UriError('bad-directive', 0, entry.keyword, 'not a keywd');
  }
  keywords.set(entry.keyword, { ...entry });
}

/**
 * The registered query keyword of that name (case-sensitive, 2012 draft §2.3).
 *
 * @example
 * ```ts
 * getDirectiveKeyword('s')?.purpose; // "intended URN resolution service"
 * ```
 */
export function getDirectiveKeyword(keyword: string): UrnDirectiveKeyword | undefined {
  return keywords.get(keyword);
}

/**
 * Registers a resolution service designator for the `s` keyword (2012 draft §9.2.2).
 *
 * @example
 * ```ts
 * registerServiceDesignator({ name: 'I2T', purpose: 'URI to thumbnail', status: 'exp', reference: 'RFC 0000' });
 * getServiceDesignator('I2T')?.status // "exp"
 * ```
 */
export function registerServiceDesignator(entry: UrnServiceDesignator): void {
  if (entry.name === '' || scanValue(entry.name, 0, entry.name.length) !== entry.name.length) {
    throw new UriError('bad-directive', 0, entry.name, 'not a value');
  }
  designators.set(entry.name, { ...entry });
}

/**
 * The registered service designator of that name (2012 draft §9.2.2, RFC 2483 §4).
 *
 * @example
 * ```ts
 * getServiceDesignator('I2L')?.purpose; // "URI to URL"
 * ```
 */
export function getServiceDesignator(name: string): UrnServiceDesignator | undefined {
  return designators.get(name);
}

/**
 * Every registered service designator, in registration order.
 *
 * @example
 * ```ts
 * listServiceDesignators().map((d) => d.name).slice(0, 2); // ["I2L", "I2Ls"]
 * ```
 */
export function listServiceDesignators(): UrnServiceDesignator[] {
  return [...designators.values()];
}

/**
 * Splits a URN query into its directives (2012 draft §2.3:
 * `urn-query = directive *( "&" directive )`, `directive = keywd "=" value`);
 * a registered keyword that appears more than once marks every directive
 * using it `ignored`.
 *
 * @see https://datatracker.ietf.org/doc/html/draft-ietf-urnbis-rfc2141bis-urn-03#section-2.3
 * @example
 * ```ts
 * parseDirectives('s=I2L&c=ToC');
 * // [{ keyword: 's', value: 'I2L', ignored: false }, { keyword: 'c', value: 'ToC', ignored: false }]
 * ```
 */
export function parseDirectives(query: string): UrnDirective[] {
  const r = scanDirectives(query, 0, query.length);
  if (typeof r === 'number') throw directiveError(query, r);
  return r;
}

/**
 * The value of the directive with that keyword, unless it is absent or
 * ignored under the duplicate rule of 2012 draft §2.3.
 *
 * @example
 * ```ts
 * getDirective(parseDirectives('s=I2L&s=I2R&c=ToC'), 's'); // undefined (both ignored)
 * ```
 */
export function getDirective(directives: readonly UrnDirective[] | undefined, keyword: string): string | undefined {
  if (directives === undefined) return undefined;
  for (const d of directives) if (d.keyword === keyword && !d.ignored) return d.value;
  return undefined;
}

/** @internal The error for a failed scan at `offset` (a `%00` is reported as NUL). */
export function directiveError(input: string, offset: number): UriError {
  if (input.charCodeAt(offset) === 0 || (input.charCodeAt(offset) === 0x25 && input.startsWith('00', offset + 1))) {
    return new UriError('nul-in-urn', offset, input);
  }
  if (input.charCodeAt(offset) === 0x25) return new UriError('bad-percent', offset, input);
  return new UriError('bad-directive', offset, input);
}

/**
 * @internal One pass over `input[start, end)`: the directives, or the offset
 * of the first character that breaks the `urn-query` rule.
 */
export function scanDirectives(input: string, start: number, end: number): UrnDirective[] | number {
  const out: UrnDirective[] = [];
  let i = start;
  for (;;) {
    const k = scanKeyword(input, i, end);
    if (k === i || k >= end || input.charCodeAt(k) !== 0x3d /* = */) {
      // keywd = ALPHA *( ["-"] (ALPHA / DIGIT) ): after a "-" only a letter or digit can follow,
      // so the character after a dangling "-" is the first offending one
      return k > i && input.charCodeAt(k) === 0x2d ? k + 1 : k;
    }
    const v = scanValue(input, k + 1, end);
    out.push({ keyword: input.slice(i, k), value: input.slice(k + 1, v), ignored: false });
    if (v === end) break;
    if (input.charCodeAt(v) !== 0x26 /* & */) return v;
    i = v + 1;
  }
  // 2012 draft §2.3: "Each registered <keywd> MUST NOT appear more than once [...]
  // a URN resolver [...] MUST ignore all query directives therein using the offending <keywd>(s)"
  if (out.length > 1) {
    let seen: Map<string, number> | undefined;
    for (const d of out) {
      if (!keywords.has(d.keyword)) continue;
      seen ??= new Map();
      seen.set(d.keyword, (seen.get(d.keyword) ?? 0) + 1);
    }
    if (seen !== undefined) for (const d of out) if ((seen.get(d.keyword) ?? 0) > 1) d.ignored = true;
  }
  return out;
}

// 2012 draft §2.3: keywd = ALPHA *( ["-"] (ALPHA / DIGIT) )
function scanKeyword(input: string, i: number, end: number): number {
  if (i >= end || !hasClass(input.charCodeAt(i), ALPHA)) return i;
  i++;
  while (i < end) {
    const c = input.charCodeAt(i);
    if (hasClass(c, ALPHANUM)) i++;
    else if (c === 0x2d /* - */ && i + 1 < end && hasClass(input.charCodeAt(i + 1), ALPHANUM)) i += 2;
    else break;
  }
  return i;
}

// 2012 draft §2.3: value = *v-pchar; v-pchar = unreserved / pct-encoded / v-subdels, where
// v-subdels is "<sub-delims> except "&" plus the extra characters allowed in <pchar> and for
// <query>": the core's `query` class without "&". A "%" must begin pct-encoded, never %00 (§2.5.3).
function scanValue(input: string, i: number, end: number): number {
  while (i < end) {
    const c = input.charCodeAt(i);
    if (c !== 0x26 /* & */ && hasClass(c, QUERY)) i++;
    else if (c === 0x25 && i + 2 < end && isPctEncoded(input, i) && !input.startsWith('00', i + 1)) i += 3;
    else break;
  }
  return i;
}

/** True if the code unit is ASCII and in one of the core classes of `mask`. */
function hasClass(c: number, mask: number): boolean {
  return c < 128 && (CLASS[c]! & mask) !== 0;
}
