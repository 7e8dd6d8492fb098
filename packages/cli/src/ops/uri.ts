/**
 * The operations on URI references: parse, validate, normalize, resolve,
 * compare and lint (RFC 3986 §3-§6, the 2003 draft §7).
 */
import { equivalent, isValid, lint, normalize, parse, resolve } from 'urikit';
import type { LintFinding, LintSeverity, Profile, UriReference } from 'urikit';
import { invalid, type Op, type OpOptions } from './outcome.js';

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

/**
 * `parse`: the components as written (RFC 3986 §3).
 *
 * @example
 * ```ts
 * parseOp('http://a/b', {}).text // 'scheme=http\thost=a\thostKind=reg-name\tpath=/b'
 * ```
 */
export const parseOp: Op = (input, o) => {
  try {
    const ref = parse(input, o.kind ?? 'uri-reference', profileOpt(o));
    return { ok: true, text: componentsLine(ref), record: { valid: true, components: componentsRecord(ref) } };
  } catch (e) {
    return invalid(e);
  }
};

/**
 * `validate`: does the input match the grammar rule of its kind.
 *
 * @example
 * ```ts
 * validateOp('http://a b/', {}).problem?.code // 'invalid-char'
 * ```
 */
export const validateOp: Op = (input, o) => {
  try {
    parse(input, o.kind ?? 'uri-reference', profileOpt(o));
    return { ok: true, text: 'valid', record: { valid: true } };
  } catch (e) {
    return invalid(e);
  }
};

/**
 * `normalize`: the comparison ladder (RFC 3986 §6.2.2, §6.2.3).
 *
 * @example
 * ```ts
 * normalizeOp('HTTP://A:80', {}).text // 'http://a/'
 * normalizeOp('https://\uFEFFhttps://www.sec.gov/', {}).problem?.code // 'invalid-char'
 * ```
 */
export const normalizeOp: Op = (input, o) => {
  try {
    // The same grammar as validate: a line validate refuses is no line to normalize.
    parse(input, o.kind ?? 'uri-reference');
    const level = o.level === 'syntax' ? 'syntax' : 'scheme';
    const normalized = normalize(input, { level });
    return { ok: true, text: normalized, record: { valid: true, normalized } };
  } catch (e) {
    return invalid(e);
  }
};

/**
 * The text-mode answer of `normalize` and of a quiet `validate` for one
 * input, without the Outcome and JSON record a line would otherwise build
 * (bulk mode's hot path): the line to print, `null` to print nothing, or
 * `undefined` when the input is invalid, and the full operation must run
 * to report it. May throw what the library throws; the caller then runs
 * the full operation too.
 *
 * @example
 * ```ts
 * QUICK_TEXT.normalize!('HTTP://A:80', {}) // 'http://a/'
 * QUICK_TEXT.validate!('http://a/', {}) // null
 * QUICK_TEXT.validate!('http://a b/', {}) // undefined
 * QUICK_TEXT.normalize!('http://例え.jp/', {}) // undefined (normalizeOp refuses an IRI by default)
 * ```
 */
export const QUICK_TEXT: Record<string, (input: string, o: OpOptions) => string | null | undefined> = {
  // normalize reads an IRI reference; for ASCII text that is the grammar of a
  // URI reference (RFC 3987 §2.2), the kind normalizeOp checks by default.
  // Any other kind, or non-ASCII text (a longer UTF-8 form), takes the full operation.
  normalize: (input, o) => ((o.kind ?? 'uri-reference') === 'uri-reference' && Buffer.byteLength(input) === input.length
    ? normalize(input, { level: o.level === 'syntax' ? 'syntax' : 'scheme' })
    : undefined),
  validate: (input, o) => (isValid(input, o.kind ?? 'uri-reference', profileOpt(o)) ? null : undefined),
};

/**
 * {@link QUICK_TEXT} for a block known to be ASCII (bulk mode checks the
 * bytes of a block at once), with its options read once: the function for
 * every line of the job, or `undefined` when the operation has none.
 *
 * @example
 * ```ts
 * quickAscii('normalize', { level: 'syntax' })!('HTTP://A:80/') // 'http://a:80/'
 * quickAscii('normalize', {})!('http://a b/') // throws UriError
 * quickAscii('validate', {})!('http://a b/') // undefined (invalid: the full operation reports it)
 * quickAscii('parse', {}) // undefined
 * ```
 */
export function quickAscii(op: string, o: OpOptions): ((input: string) => string | null | undefined) | undefined {
  if (op === 'normalize') {
    // ASCII text: an IRI reference is a URI reference (RFC 3987 §2.2), the kind normalizeOp checks by default.
    if ((o.kind ?? 'uri-reference') !== 'uri-reference') return undefined;
    const opts = { level: o.level === 'syntax' ? 'syntax' as const : 'scheme' as const };
    return (input) => normalize(input, opts);
  }
  if (op === 'validate') {
    const kind = o.kind ?? 'uri-reference';
    const opts = profileOpt(o);
    return (input) => (isValid(input, kind, opts) ? null : undefined);
  }
  return undefined;
}

/**
 * `resolve`: the reference against `o.base` (RFC 3986 §5.2).
 *
 * @example
 * ```ts
 * resolveOp('../g', { base: 'http://a/b/c/d;p?q' }).text // 'http://a/b/g'
 * ```
 */
export const resolveOp: Op = (input, o) => {
  try {
    const opts: { strict?: boolean; profile?: Profile } = { ...profileOpt(o) };
    if (o.strict !== undefined) opts.strict = o.strict;
    const resolved = resolve(o.base ?? '', input, opts);
    return { ok: true, text: resolved, record: { valid: true, base: o.base, resolved } };
  } catch (e) {
    return invalid(e, { base: o.base });
  }
};

/**
 * `compare`: two references separated by a tab (RFC 3986 §6).
 *
 * @example
 * ```ts
 * compareOp('http://a\tHTTP://A:80/', { level: 'scheme' }).ok // true
 * ```
 */
export const compareOp: Op = (input, o) => {
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
    const same = equivalent(a, b, opts);
    return { ok: same, text: same ? 'equivalent' : 'different', record: { valid: true, a, b, level, equivalent: same } };
  } catch (e) {
    return invalid(e, { a, b });
  }
};

/** The exit-code-relevant findings: everything but the severities asked to be quiet. */
function loud(findings: readonly LintFinding[], quiet: readonly LintSeverity[] | undefined): LintFinding[] {
  const q = quiet ?? ['info'];
  return findings.filter((f) => !q.includes(f.severity));
}

/**
 * `lint`: the security considerations of the 2003 draft §7.
 *
 * @example
 * ```ts
 * lintOp('ftp://u:p@h/', {}).ok // false (a password in the userinfo)
 * lintOp('http://a\\@b/', { differential: true }).text // 'warning parser-differential [0-12]: an RFC 3986 parser and a WHATWG URL parser (browsers, fetch, Node) read this URI differently (RFC 3986 refuses it, a WHATWG URL parser reads "http://a/@b/" (name))'
 * ```
 */
export const lintOp: Op = (input, o) => {
  try {
    parse(input, o.kind ?? 'uri-reference', profileOpt(o));
  } catch (e) {
    // With --differential, what a browser makes of an input RFC 3986 refuses.
    const differential = o.differential ? lint(input, { differential: true }).filter((f) => f.code === 'parser-differential') : [];
    if (differential.length === 0) return invalid(e);
    const outcome = invalid(e);
    const text = differential.map((f) => `${f.severity} ${f.code} [${f.start}-${f.end}]: ${f.message}`).join('\n');
    return { ...outcome, text, record: { ...outcome.record, findings: differential } };
  }
  let findings: LintFinding[];
  try {
    findings = [...lint(input, o.differential ? { differential: true } : undefined)];
  } catch (e) {
    return invalid(e);
  }
  const text = findings.map((f) => `${f.severity} ${f.code} [${f.start}-${f.end}]: ${f.message}`).join('\n');
  return {
    ok: loud(findings, o.quiet).length === 0,
    ...(text ? { text } : {}),
    record: { valid: true, findings },
  };
};
