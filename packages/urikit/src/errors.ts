/**
 * The one error type of urikit: a closed set of codes, the offset of the
 * first offending character, and messages kept in one table.
 *
 * STYLE §6: errors are a closed union of codes plus the offset in the input;
 * non-fatal findings (lint) are never thrown.
 */

/**
 * Every message urikit can throw, keyed by its stable code.
 *
 * @example
 * ```ts
 * ERROR_MESSAGES['bad-port'] // "a port must be decimal digits"
 * ```
 */
export const ERROR_MESSAGES = {
  // Generic syntax (RFC 3986 §3, 2003 draft §3)
  'empty': 'the input is empty where a URI is required',
  'invalid-char': 'this character is not allowed here',
  'bad-percent': 'a "%" must be followed by two hexadecimal digits',
  'bad-utf8': 'the percent-encoded octets are not valid UTF-8',
  'missing-scheme': 'a URI must begin with a scheme followed by ":"',
  'bad-scheme': 'a scheme must begin with a letter and continue with letters, digits, "+", "-" or "."',
  'colon-in-first-segment': 'a relative path cannot have ":" in its first segment (write "./" before it)',
  'fragment-not-allowed': 'an absolute URI cannot have a fragment',
  'bad-port': 'a port must be decimal digits',
  'bad-host': 'this host is not a valid reg-name, IPv4 address or IP literal',
  'bad-ipv4': 'this is not a valid IPv4 address',
  'bad-ipv6': 'this is not a valid IPv6 address',
  'bad-ipvfuture': 'an IPvFuture literal is "v", hexadecimal digits, "." and at least one more character',
  'bad-zone-id': 'an IPv6 zone identifier is "%25" followed by unreserved or percent-encoded characters',
  'unclosed-ip-literal': 'an IP literal opened with "[" must be closed with "]"',
  'path-starts-with-double-slash': 'a path without an authority cannot begin with "//"',
  'not-absolute-base': 'the base of a resolution must be an absolute URI (a scheme and no fragment)',
  'above-root': 'a ".." segment climbs above the root of the path (refused by the aboveRoot: "error" option)',
  'bad-component': 'this text cannot be used as that component',
  'unknown-profile': 'there is no profile of that name',
  'unknown-kind': 'there is no kind of URI reference of that name',
  // Hosts, IDNA, IRIs (RFC 3986 §3.2.2, UTS #46, RFC 3987)
  'bad-hostname': 'this is not a valid DNS host name',
  'bad-idna': 'this domain name cannot be converted by IDNA (UTS #46)',
  'bad-iri': 'this is not a valid IRI',
  // Schemes (the scheme codecs, RFC 3986 §6.2.3)
  'unknown-scheme': 'no codec is registered for this scheme',
  'bad-scheme-specific-part': 'the scheme-specific part does not follow this scheme\'s syntax',
  'missing-host': 'this scheme requires a host',
  // URNs (RFC 8141; 2012 draft; 1995 draft §2)
  'bad-urn': 'this is not a valid URN',
  'bad-nid': 'a namespace identifier is 2 to 32 letters, digits or "-", beginning and ending with a letter or digit',
  'reserved-nid': 'the namespace identifier "urn" is reserved',
  'bad-nss': 'this namespace-specific string is not valid',
  'nul-in-urn': 'a URN cannot contain NUL, not even percent-encoded as %00',
  'bad-urn-component': 'a URN r-, q- or f-component is not valid here',
  'bad-directive': 'this URN query directive is not valid',
  'bad-namespace-nss': 'the namespace-specific string fails the namespace\'s own rules',
  'bad-check-digit': 'the check digit does not match the one computed from the rest of the identifier',
  'unbracketed-whitespace': 'a freestanding URN that contains white space must be enclosed in "<" and ">" (1995 draft §2)',
  'reserved-element-id': 'ElementIDs beginning "urn+" are reserved requests (m, a, c, p) and "#" and "?" are reserved (1995 draft §2.3)',
  // Text (2003 draft App. E, App. F, §5.1)
  'bad-base': 'no base URI could be established',
} as const;

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
  readonly code: UriErrorCode;
  /** Index into `input` of the first offending character (UTF-16 units). */
  readonly offset: number;
  /** The text that was being read, when known. */
  readonly input: string | undefined;

  constructor(code: UriErrorCode, offset: number, input?: string, detail?: string) {
    const base = ERROR_MESSAGES[code] ?? code;
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
