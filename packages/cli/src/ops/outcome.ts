/**
 * The shapes every operation shares: its options (plain data, so they
 * cross into worker threads), its outcome as text and as a JSON record,
 * and the helpers that turn what the library throws into that outcome.
 */
import { UriError, type Kind, type LintSeverity, type Profile, type UrnProfile } from 'urikit';

/**
 * Plain-data options of an operation (they cross into worker threads).
 *
 * @example
 * ```ts
 * import { OPS } from './index.js';
 * const o: OpOptions = { kind: 'uri', profile: 'draft-2003' };
 * OPS.validate!('../g', o).problem?.code // 'missing-scheme'
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
  /** Lint: also compare with the platform's WHATWG URL parser. */
  differential?: boolean;
}

/**
 * Why an input is invalid: a {@link UriError}'s code, offset and message.
 *
 * @example
 * ```ts
 * import { OPS } from './index.js';
 * const p: Problem = { code: 'invalid-char', offset: 8, message: 'this character is not allowed here at offset 8: U+0020' };
 * OPS.validate!('http://a b/', {}).problem // p
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
 * import { OPS } from './index.js';
 * const outcome: Outcome = OPS.normalize!('HTTP://A', {});
 * outcome // { ok: true, text: 'http://a/', record: { valid: true, normalized: 'http://a/' } }
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
 * const op: Op = (input) => ({ ok: input.length > 0, record: { valid: true, length: input.length } });
 * op('http://a/', {}) // { ok: true, record: { valid: true, length: 9 } }
 * ```
 */
export type Op = (input: string, o: OpOptions) => Outcome;

/**
 * Turns what a library call threw into a {@link Problem}; anything but a {@link UriError} (an internal fault) propagates.
 *
 * @example
 * ```ts
 * let thrown: unknown;
 * try { parse('%zz'); } catch (e) { thrown = e; }
 * toProblem(thrown) // matches { code: 'bad-percent', offset: 0 }
 * toProblem(new TypeError('a fault')) // throws TypeError
 * ```
 */
export function toProblem(e: unknown): Problem {
  if (e instanceof UriError) return { code: e.code, offset: e.offset, message: e.message };
  throw e;
}

/**
 * An invalid outcome for what a library call threw (a {@link UriError}).
 *
 * @example
 * ```ts
 * let thrown: unknown;
 * try { parse('%zz'); } catch (e) { thrown = e; }
 * invalid(thrown) // matches { ok: false, record: { valid: false }, problem: { code: 'bad-percent', offset: 0 } }
 * ```
 */
export function invalid(e: unknown, record: Record<string, unknown> = {}): Outcome {
  const problem = toProblem(e);
  return { ok: false, record: { valid: false, ...record, error: problem }, problem };
}

/**
 * Flattens a host-module answer (object, number, string) to `key: value` text.
 *
 * @example
 * ```ts
 * describe({ kind: 'reg-name', name: 'a' }) // 'kind=reg-name name=a'
 * ```
 */
export function describe(value: unknown, separator = ' '): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return value.map((v) => describe(v)).join(separator);
  return Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
    .join(separator);
}

/**
 * JSON cannot hold a bigint or a typed array; make host answers printable.
 *
 * @example
 * ```ts
 * plain({ n: 1n }) // { n: '1' }
 * ```
 */
export function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (_k, v: unknown) =>
    typeof v === 'bigint' ? v.toString() : ArrayBuffer.isView(v) ? Array.from(v as unknown as ArrayLike<number>) : v) ?? 'null');
}

/**
 * Calls `f`: its value, or the {@link Problem} of the {@link UriError} it threw (an input not of its kind).
 *
 * @example
 * ```ts
 * optional(() => domainToASCII('bücher.example')) // { value: 'xn--bcher-kva.example' }
 * optional(() => domainToASCII('xn--a.com')).problem?.code // 'bad-idna'
 * ```
 */
export function optional<T>(f: () => T): { value?: T; problem?: Problem } {
  try {
    return { value: f() };
  } catch (e) {
    return { problem: toProblem(e) };
  }
}
