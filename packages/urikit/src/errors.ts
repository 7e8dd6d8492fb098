/**
 * The one error type of urikit: a closed set of codes, the offset of the
 * first offending character, and a message per code (messages.ts, one
 * table per area, so that a browser bundle carries only the messages its
 * modules can throw).
 *
 * STYLE §6: errors are a closed union of codes plus the offset in the input;
 * non-fatal findings (lint) are never thrown.
 */
import { COMPONENT_MESSAGES, HOST_NAME_MESSAGES, TEXT_MESSAGES, URI_MESSAGES, URN_MESSAGES, URN_NAMESPACE_MESSAGES, messageOf } from './messages.js';

/**
 * Every message urikit can throw, keyed by its stable code: the tables of
 * messages.ts, one per area, merged.
 *
 * @example
 * ```ts
 * ERROR_MESSAGES['bad-port'] // "a port must be decimal digits"
 * ERROR_MESSAGES['bad-nid'].startsWith('a namespace identifier') // true
 * ```
 */
export const ERROR_MESSAGES = /* @__PURE__ */ (() => ({ ...URI_MESSAGES, ...COMPONENT_MESSAGES, ...HOST_NAME_MESSAGES, ...URN_MESSAGES, ...URN_NAMESPACE_MESSAGES, ...TEXT_MESSAGES }) as const)();

/**
 * The stable code of a {@link UriError}.
 *
 * @example
 * ```ts
 * const code: UriErrorCode = 'bad-port';
 * ERROR_MESSAGES[code] // "a port must be decimal digits"
 * ```
 */
export type UriErrorCode = keyof typeof ERROR_MESSAGES;

/**
 * What every urikit function throws on bad input: a stable `code`, the
 * `offset` (UTF-16 index into the input) of the first offending
 * character, and the input itself.
 *
 * @example
 * ```ts
 * parse('http://a b/') // throws UriError invalid-char at offset 8
 * new UriError('bad-port', 9, 'http://a:x/').code // "bad-port"
 * ```
 */
export class UriError extends Error {
  override readonly name = 'UriError';
  /** A stable, machine-readable code; see {@link ERROR_MESSAGES}. */
  declare readonly code: UriErrorCode;
  /** Index into `input` of the first offending character (UTF-16 units). */
  declare readonly offset: number;
  /** The text that was being read, when known. */
  declare readonly input: string | undefined;

  constructor(code: UriErrorCode, offset: number, input?: string, detail?: string) {
    // Every module registers the messages of what it throws (messages.ts); a
    // code of an area no loaded module throws is shown by itself.
    const base = messageOf(code) ?? code;
    super(`${base}${detail ? ` (${detail})` : ''} at offset ${offset}${input !== undefined ? describeAt(input, offset) : ''}`);
    this.code = code;
    this.offset = offset;
    this.input = input;
  }

  /** A plain object for JSON answers (`application/problem+json` and the CLI's `--json`). */
  toJSON(): { code: UriErrorCode; offset: number; message: string } {
    return { code: this.code, offset: this.offset, message: this.message };
  }
}

/** Shows the offending character, so that a message says "what and where". */
function describeAt(input: string, offset: number): string {
  if (offset < 0 || offset > input.length) return '';
  if (offset === input.length) return ': end of input';
  const cp = input.codePointAt(offset) ?? 0;
  const shown = cp < 0x21 || cp === 0x7f ? `U+${cp.toString(16).toUpperCase().padStart(4, '0')}` : JSON.stringify(String.fromCodePoint(cp));
  return `: ${shown}`;
}

/**
 * True if `e` is a {@link UriError}, optionally of one code.
 *
 * @example
 * ```ts
 * isUriError(new UriError('bad-ipv6', 8, 'http://[::g]/'), 'bad-ipv6') // true
 * isUriError(new TypeError('x')) // false
 * ```
 */
export function isUriError(e: unknown, code?: UriErrorCode): e is UriError {
  return e instanceof UriError && (code === undefined || e.code === code);
}
