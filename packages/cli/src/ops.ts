/**
 * The per-input operations behind the commands: one function per command
 * that takes one input (a URI, a host, a URN, a pair) and returns its
 * outcome as text and as a JSON record. They are pure and their options
 * are plain data, so the same code runs in the main thread and in the
 * worker threads of `--jobs`.
 */
import { MissingFeatureError, UriError, uri } from './api.js';
import type { Kind, LintFinding, LintSeverity, Profile, UriReference, UrnProfile } from 'urikit';

/**
 * Plain-data options of an operation (they cross into worker threads).
 *
 * @example
 * ```ts
 * const o: OpOptions = { kind: 'uri', profile: 'draft-2003' };
 * ```
 */
export interface OpOptions {
  kind?: Kind;
  profile?: Profile;
  urnProfile?: UrnProfile;
  level?: 'simple' | 'syntax' | 'scheme';
  strict?: boolean;
  base?: string;
  ignoreFragment?: boolean;
  purpose?: 'name' | 'cache';
  /** Lint severities that do not make the exit code 1. */
  quiet?: LintSeverity[];
}

/**
 * Why an input is invalid: a {@link UriError}'s code, offset and message.
 *
 * @example
 * ```ts
 * const p: Problem = { code: 'invalid-char', offset: 8, message: 'this character is not allowed here' };
 * ```
 */
export interface Problem {
  code: string;
  offset: number;
  message: string;
}

/**
 * What one operation made of one input.
 *
 * @example
 * ```ts
 * OPS.normalize!('HTTP://A', {}) // { ok: true, text: 'http://a/', record: { valid: true, normalized: 'http://a/' } }
 * ```
 */
export interface Outcome {
  /** False when the input is invalid (or, for compare/lint, fails the check). */
  ok: boolean;
  /** Text for standard output in text mode (no trailing newline), if any. */
  text?: string;
  /** The JSON record (`--json`), without `input` and `line`, which the caller adds. */
  record: Record<string, unknown>;
  /** The reason the input is invalid, when it is. */
  problem?: Problem;
}

/**
 * An operation: one input in, one outcome out.
 *
 * @example
 * ```ts
 * const op: Op = OPS.validate!;
 * ```
 */
export type Op = (input: string, o: OpOptions) => Outcome;

/**
 * Turns what a library call threw into a {@link Problem}; missing features and internal faults propagate.
 *
 * @example
 * ```ts
 * try { parse('%zz') } catch (e) { toProblem(e) } // { code: 'bad-percent', offset: 0, ... }
 * ```
 */
export function toProblem(e: unknown): Problem {
  if (e instanceof UriError) return { code: e.code, offset: e.offset, message: e.message };
  throw e;
}

function invalid(e: unknown, record: Record<string, unknown> = {}): Outcome {
  const problem = toProblem(e);
  return { ok: false, record: { valid: false, ...record, error: problem }, problem };
}

const COMPONENTS = ['scheme', 'userinfo', 'host', 'hostKind', 'port', 'path', 'query', 'fragment'] as const;

/**
 * `key=value` pairs of the components present, tab-separated (absent ones left out, empty ones kept).
 *
 * @example
 * ```ts
 * componentsLine(parse('http://a/b?')) // 'scheme=http\thost=a\thostKind=reg-name\tpath=/b\tquery='
 * ```
 */
export function componentsLine(ref: UriReference): string {
  const parts: string[] = [];
  for (const k of COMPONENTS) {
    const v = ref[k];
    if (v !== undefined) parts.push(`${k}=${v}`);
  }
  return parts.join('\t');
}

function componentsRecord(ref: UriReference): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of COMPONENTS) if (ref[k] !== undefined) out[k] = ref[k];
  return out;
}

function profileOpt(o: OpOptions): { profile?: Profile } {
  return o.profile ? { profile: o.profile } : {};
}
function urnOpt(o: OpOptions): { profile?: UrnProfile } {
  return o.urnProfile ? { profile: o.urnProfile } : {};
}

/** Flattens a host-module answer (object, number, string) to `key: value` text. */
function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return value.map((v) => describe(v)).join(' ');
  return Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
    .join(' ');
}

/** JSON cannot hold a bigint or a typed array; make host answers printable. */
function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (_k, v: unknown) =>
    typeof v === 'bigint' ? v.toString() : ArrayBuffer.isView(v) ? Array.from(v as unknown as ArrayLike<number>) : v) ?? 'null');
}

/** Calls `f`, or gives `undefined` when the library lacks it or the input is not of its kind. */
function optional<T>(f: () => T): { value?: T; problem?: Problem } {
  try {
    return { value: f() };
  } catch (e) {
    if (e instanceof MissingFeatureError) return {};
    return { problem: toProblem(e) };
  }
}

// ---------------------------------------------------------------- URIs

/** `parse`: the components as written (RFC 3986 §3). */
const parseOp: Op = (input, o) => {
  try {
    const ref = uri.parse(input, o.kind ?? 'uri-reference', profileOpt(o));
    return { ok: true, text: componentsLine(ref), record: { valid: true, components: componentsRecord(ref) } };
  } catch (e) {
    return invalid(e);
  }
};

/** `validate`: does the input match the grammar rule of its kind. */
const validateOp: Op = (input, o) => {
  try {
    uri.parse(input, o.kind ?? 'uri-reference', profileOpt(o));
    return { ok: true, text: 'valid', record: { valid: true } };
  } catch (e) {
    return invalid(e);
  }
};

/** `normalize`: the comparison ladder (RFC 3986 §6.2.2, §6.2.3). */
const normalizeOp: Op = (input, o) => {
  try {
    const level = o.level === 'syntax' ? 'syntax' : 'scheme';
    const normalized = uri.normalize(input, { level });
    return { ok: true, text: normalized, record: { valid: true, normalized } };
  } catch (e) {
    return invalid(e);
  }
};

/** `resolve`: the reference against `o.base` (RFC 3986 §5.2). */
const resolveOp: Op = (input, o) => {
  try {
    const opts: { strict?: boolean; profile?: Profile } = { ...profileOpt(o) };
    if (o.strict !== undefined) opts.strict = o.strict;
    const resolved = uri.resolve(o.base ?? '', input, opts);
    return { ok: true, text: resolved, record: { valid: true, base: o.base, resolved } };
  } catch (e) {
    return invalid(e, { base: o.base });
  }
};

/** `compare`: two references separated by a tab (RFC 3986 §6). */
const compareOp: Op = (input, o) => {
  const tab = input.indexOf('\t');
  if (tab < 0) {
    const problem = { code: 'bad-pair', offset: input.length, message: 'expected two URIs separated by a tab' };
    return { ok: false, record: { valid: false, error: problem }, problem };
  }
  const a = input.slice(0, tab);
  const b = input.slice(tab + 1);
  try {
    const level = o.level ?? 'syntax';
    const opts: { level: 'simple' | 'syntax' | 'scheme'; ignoreFragment?: boolean } = { level };
    if (o.ignoreFragment) opts.ignoreFragment = true;
    const equivalent = uri.equivalent(a, b, opts);
    return { ok: equivalent, text: equivalent ? 'equivalent' : 'different', record: { valid: true, a, b, level, equivalent } };
  } catch (e) {
    return invalid(e, { a, b });
  }
};

/** The exit-code-relevant findings: everything but the severities asked to be quiet. */
function loud(findings: readonly LintFinding[], quiet: readonly LintSeverity[] | undefined): LintFinding[] {
  const q = quiet ?? ['info'];
  return findings.filter((f) => !q.includes(f.severity));
}

/** `lint`: the security considerations of the 2003 draft §7. */
const lintOp: Op = (input, o) => {
  try {
    uri.parse(input, o.kind ?? 'uri-reference', profileOpt(o));
  } catch (e) {
    return invalid(e);
  }
  const findings = uri.lint(input);
  const text = findings.map((f) => `${f.severity} ${f.code} [${f.start}-${f.end}]: ${f.message}`).join('\n');
  return {
    ok: loud(findings, o.quiet).length === 0,
    ...(text ? { text } : {}),
    record: { valid: true, findings },
  };
};

// ---------------------------------------------------------------- hosts

/** Picks the host out of a URI with an authority; otherwise the input is the host. */
function hostOf(input: string): string {
  // RFC 3986 §3: scheme ":" "//" authority; a plain scan, no regular expression.
  const colon = input.indexOf('://');
  if (colon > 0 && isSchemeText(input, colon)) {
    const ref = uri.parse(input, 'uri-reference');
    return ref.host ?? '';
  }
  return input;
}

function isSchemeText(s: string, end: number): boolean {
  for (let i = 0; i < end; i++) {
    const c = s.charCodeAt(i) | 0x20;
    const alpha = c >= 0x61 && c <= 0x7a;
    if (i === 0 ? !alpha : !(alpha || (s.charCodeAt(i) >= 0x30 && s.charCodeAt(i) <= 0x39) || s[i] === '+' || s[i] === '-' || s[i] === '.')) return false;
  }
  return true;
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** A 32-bit IPv4 address as dotted decimal (RFC 3986 §3.2.2 `IPv4address`). */
function dottedQuad(n: number): string {
  return `${(n >>> 24) & 255}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
}

/** `host`: what a host is (2003 draft §3.2.2), what it really names (§7.3), its class and IDNA forms. */
const hostOp: Op = (input) => {
  let host: string;
  try {
    host = hostOf(input);
  } catch (e) {
    return invalid(e);
  }
  let parsed = optional(() => uri.parseHost(host));
  let idnaFirst: { value?: string; problem?: Problem } = {};
  if (parsed.problem && !isAscii(host)) {
    // An internationalized name: a URI carries its A-label form (RFC 3987 §3.1, UTS #46).
    idnaFirst = optional(() => uri.domainToASCII(host));
    if (idnaFirst.value !== undefined) parsed = optional(() => uri.parseHost(idnaFirst.value!));
    else if (idnaFirst.problem) parsed = { problem: idnaFirst.problem };
  }
  const legacy = optional(() => uri.interpretLegacyIPv4(host));
  const klass = optional(() => uri.classifyHost(host));
  const shape = (parsed.value ?? {}) as { kind?: string; text?: string };
  const legacyNumber = typeof legacy.value === 'number' ? legacy.value : undefined;
  const isName = shape.kind === 'reg-name' && legacyNumber === undefined && host !== '';
  const ascii = idnaFirst.value !== undefined ? idnaFirst : isName ? optional(() => uri.domainToASCII(host)) : {};
  const unicode = isName ? optional(() => uri.domainToUnicode(host)) : {};
  const record: Record<string, unknown> = { host };
  const lines: string[] = [`host: ${host}`];
  if (shape.kind !== undefined) { record.kind = shape.kind; lines.push(`kind: ${shape.kind}`); }
  if (parsed.value !== undefined) record.parsed = plain(parsed.value);
  if (shape.kind === 'ipv6' && shape.text !== undefined) lines.push(`canonical (RFC 5952): ${shape.text}`);
  if (legacyNumber !== undefined && shape.kind !== 'ipv4') {
    record.legacyIPv4 = { address: dottedQuad(legacyNumber), number: legacyNumber };
    lines.push(`legacy IPv4 (2003 draft §7.3): ${dottedQuad(legacyNumber)} (${legacyNumber})`);
  }
  if (klass.value !== undefined) { record.class = plain(klass.value); lines.push(`class: ${describe(klass.value)}`); }
  if (ascii.value !== undefined) { record.ascii = ascii.value; lines.push(`ascii: ${ascii.value}`); }
  if (unicode.value !== undefined) { record.unicode = unicode.value; lines.push(`unicode: ${unicode.value}`); }
  if (ascii.problem) { record.idnaError = ascii.problem; lines.push(`idna: ${ascii.problem.code}: ${ascii.problem.message}`); }
  const problem = parsed.problem && legacyNumber === undefined ? parsed.problem : undefined;
  if (problem) return { ok: false, text: lines.join('\n'), record: { valid: false, ...record, error: problem }, problem };
  return { ok: true, text: lines.join('\n'), record: { valid: true, ...record } };
};

// ---------------------------------------------------------------- URNs

/** `urn parse`: NID, NSS and the components of RFC 8141 §2 (or the older profiles). */
const urnParseOp: Op = (input, o) => {
  try {
    const urn = uri.parseUrn(input, urnOpt(o));
    return { ok: true, text: describe(urn).replaceAll(' ', '\t'), record: { valid: true, urn: plain(urn) } };
  } catch (e) {
    return invalid(e);
  }
};

/** `urn validate`. */
const urnValidateOp: Op = (input, o) => {
  try {
    uri.parseUrn(input, urnOpt(o));
    return { ok: true, text: 'valid', record: { valid: true } };
  } catch (e) {
    return invalid(e);
  }
};

/** `urn normalize`: the canonical form of the lexical equivalence rules (2012 draft §5, RFC 8141 §3). */
const urnNormalizeOp: Op = (input, o) => {
  try {
    const normalized = uri.normalizeUrn(input, urnOpt(o));
    return { ok: true, text: normalized, record: { valid: true, normalized } };
  } catch (e) {
    return invalid(e);
  }
};

/** `urn display`: the presentation form (2012 draft §2.2, §4). */
const urnDisplayOp: Op = (input, o) => {
  try {
    const display = uri.displayUrn(input, urnOpt(o));
    return { ok: true, text: display, record: { valid: true, display } };
  } catch (e) {
    return invalid(e);
  }
};

/** `urn equivalent`: two URNs separated by a tab. */
const urnEquivalentOp: Op = (input, o) => {
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

/**
 * Every operation by name, for the commands and the worker threads.
 *
 * @example
 * ```ts
 * OPS['urn normalize']!('URN:EXAMPLE:a%2c', {}).text // 'urn:example:a%2C'
 * ```
 */
export const OPS: Record<string, Op> = {
  parse: parseOp,
  validate: validateOp,
  normalize: normalizeOp,
  resolve: resolveOp,
  compare: compareOp,
  lint: lintOp,
  host: hostOp,
  'urn parse': urnParseOp,
  'urn validate': urnValidateOp,
  'urn normalize': urnNormalizeOp,
  'urn display': urnDisplayOp,
  'urn equivalent': urnEquivalentOp,
};
