/**
 * The errors of @urikit/resolver: a closed set of codes of its own (a
 * text/urc-0 body that cannot be read, a resolution that failed), kept
 * apart from the core's (urikit's `ERROR_MESSAGES` lists what is wrong
 * with a URI; what went wrong asking a resolver is this package's
 * business), with the same shape as the core's `UriError`: a stable code,
 * an offset, the input, one table of messages (STYLE §6).
 */

/**
 * Every message the resolver package throws with a {@link ResolverError},
 * keyed by its stable code.
 *
 * @example
 * ```ts
 * RESOLVER_ERROR_MESSAGES['redirect-loop']; // 'the resolvers redirect this URN in a loop (1995 draft §4)'
 * ```
 */
export const RESOLVER_ERROR_MESSAGES = {
  // Result formats (1995 draft §3.4.2)
  'bad-urc0': 'this text/urc-0 body does not follow the 1995 draft §3.4.2',
  // Resolution client (1995 draft §4)
  'no-resolver': 'no resolver is known for this URN (configuration, the 1995 urn:dns rule and DNS NAPTR found none)',
  'resolver-unreachable': 'no resolver for this URN could be reached',
  'redirect-loop': 'the resolvers redirect this URN in a loop (1995 draft §4)',
  'too-many-redirects': 'the resolvers redirected this URN more times than allowed (1995 draft §4)',
  'bad-resolver-answer': 'the resolver answered in a form that cannot be read',
} as const;

/**
 * The stable code of a {@link ResolverError}.
 *
 * @example
 * ```ts
 * const code: ResolverErrorCode = 'no-resolver';
 * RESOLVER_ERROR_MESSAGES[code].startsWith('no resolver is known'); // true
 * ```
 */
export type ResolverErrorCode = keyof typeof RESOLVER_ERROR_MESSAGES;

/**
 * What the resolver package throws for a text/urc-0 body it cannot read
 * or a resolution that failed: a stable `code`, the `offset` (UTF-16
 * index into `input`) of the first offending character, and the input.
 * A malformed URN is still the core's `UriError`.
 *
 * @example
 * ```ts
 * const e = new ResolverError('bad-urc0', 5, 'ftp:/\u0001', 'a control character');
 * e.code; // 'bad-urc0'
 * e.message; // 'this text/urc-0 body does not follow the 1995 draft §3.4.2 (a control character) at offset 5: U+0001'
 * JSON.stringify(e); // JSON.stringify({ code: 'bad-urc0', offset: 5, message: e.message })
 * ```
 */
export class ResolverError extends Error {
  override readonly name: string = 'ResolverError';
  /** A stable, machine-readable code; see {@link RESOLVER_ERROR_MESSAGES}. */
  readonly code: ResolverErrorCode;
  /** Index into `input` of the first offending character (UTF-16 units). */
  readonly offset: number;
  /** The text that was being read, when known. */
  readonly input: string | undefined;

  constructor(code: ResolverErrorCode, offset: number, input?: string, detail?: string) {
    super(`${RESOLVER_ERROR_MESSAGES[code]}${detail ? ` (${detail})` : ''} at offset ${offset}${input !== undefined ? shownAt(input, offset) : ''}`);
    this.code = code;
    this.offset = offset;
    this.input = input;
  }

  /** A plain object for JSON answers (`application/problem+json` and the CLI's `--json`). */
  toJSON(): { code: ResolverErrorCode; offset: number; message: string } {
    return { code: this.code, offset: this.offset, message: this.message };
  }
}

/** The character at `offset`, so that a message says what and where (as the core's UriError does). */
function shownAt(input: string, offset: number): string {
  if (offset < 0 || offset > input.length) return '';
  if (offset === input.length) return ': end of input';
  const cp = input.codePointAt(offset) ?? 0;
  return `: ${cp < 0x21 || cp === 0x7f ? `U+${cp.toString(16).toUpperCase().padStart(4, '0')}` : JSON.stringify(String.fromCodePoint(cp))}`;
}

/**
 * True if `e` is a {@link ResolverError}, optionally of one code.
 *
 * @example
 * ```ts
 * isResolverError(new ResolverError('no-resolver', 0), 'no-resolver'); // true
 * isResolverError(new ResolverError('no-resolver', 0), 'redirect-loop'); // false
 * isResolverError(new TypeError('x')); // false
 * ```
 */
export function isResolverError(e: unknown, code?: ResolverErrorCode): e is ResolverError {
  return e instanceof ResolverError && (code === undefined || e.code === code);
}
