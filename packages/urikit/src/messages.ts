/**
 * The message of every {@link UriError} code, in one table per area: the
 * URI syntax and its schemes (what `parse`, `resolve` and `normalize`
 * throw), components and the scheme codecs, host names and IDNA, URNs,
 * URN namespaces, text. errors.ts
 * merges them into `ERROR_MESSAGES`.
 *
 * The `UriError` constructor finds a message here, in the URI table or in
 * the table of an area some loaded module registered: a module that throws
 * a code of another area calls {@link registerMessages} with that area's
 * table as it loads. A bundler keeps a table only where a module it keeps
 * registers it, so a browser bundle of `parse` + `resolve` + `normalize`
 * carries the messages of the URI table and of the URN namespaces (which
 * scheme-level normalization holds), not every message (DESIGN.md,
 * "Packaging"; docs/architecture.md, Packaging).
 */

/**
 * The URI syntax (RFC 3986 §3–§5, 2003 draft §3–§5, RFC 6874) and the
 * scheme codecs (RFC 3986 §6.2.3): every module may throw these.
 *
 * @example
 * ```ts
 * URI_MESSAGES['bad-port'] // "a port must be decimal digits"
 * ```
 */
export const URI_MESSAGES = {
  // Generic syntax (RFC 3986 §3, 2003 draft §3)
  'empty': 'the input is empty where a URI is required',
  'invalid-char': 'this character is not allowed here',
  'bad-percent': 'a "%" must be followed by two hexadecimal digits',
  'missing-scheme': 'a URI must begin with a scheme followed by ":"',
  'bad-scheme': 'a scheme must begin with a letter and continue with letters, digits, "+", "-" or "."',
  'colon-in-first-segment': 'a relative path cannot have ":" in its first segment (write "./" before it)',
  'fragment-not-allowed': 'an absolute URI cannot have a fragment',
  'bad-port': 'a port must be decimal digits',
  'bad-host': 'this host is not a valid reg-name, IPv4 address or IP literal',
  'bad-ipv6': 'this is not a valid IPv6 address',
  'bad-ipvfuture': 'an IPvFuture literal is "v", hexadecimal digits, "." and at least one more character',
  'bad-zone-id': 'an IPv6 zone identifier is "%25" followed by unreserved or percent-encoded characters',
  'unclosed-ip-literal': 'an IP literal opened with "[" must be closed with "]"',
  'not-absolute-base': 'the base of a resolution must be an absolute URI (a scheme and no fragment)',
  'above-root': 'a ".." segment climbs above the root of the path (refused by the aboveRoot: "error" option)',
  'bad-component': 'this text cannot be used as that component',
  'unknown-profile': 'there is no profile of that name',
  'unknown-kind': 'there is no kind of URI reference of that name',
  // Schemes (the scheme codecs, RFC 3986 §6.2.3)
  'bad-scheme-specific-part': 'the scheme-specific part does not follow this scheme\'s syntax',
} as const;

/**
 * Components and the scheme codecs: percent-decoding to UTF-8 (RFC 3986
 * §2.5, RFC 3629), a component that cannot be written where it goes (RFC
 * 3986 §3.3), the codecs' own requirements (RFC 3986 §6.2.3, RFC 8089).
 * `parse`, `resolve` and `normalize` throw none of them.
 *
 * @example
 * ```ts
 * COMPONENT_MESSAGES['missing-host'] // "this scheme requires a host"
 * ```
 */
export const COMPONENT_MESSAGES = {
  'bad-utf8': 'the percent-encoded octets are not valid UTF-8',
  'path-starts-with-double-slash': 'a path without an authority cannot begin with "//"',
  'unknown-scheme': 'no codec is registered for this scheme',
  'missing-host': 'this scheme requires a host',
} as const;

/**
 * Host names, IPv4 addresses, IDNA and IRIs (RFC 3986 §3.2.2, UTS #46, RFC 3987).
 *
 * @example
 * ```ts
 * HOST_NAME_MESSAGES['bad-hostname'] // "this is not a valid DNS host name"
 * ```
 */
export const HOST_NAME_MESSAGES = {
  'bad-ipv4': 'this is not a valid IPv4 address',
  'bad-hostname': 'this is not a valid DNS host name',
  'bad-idna': 'this domain name cannot be converted by IDNA (UTS #46)',
  'bad-iri': 'this is not a valid IRI',
} as const;

/**
 * URNs (RFC 8141; 2012 draft; 1995 draft §2).
 *
 * @example
 * ```ts
 * URN_MESSAGES['reserved-nid'] // 'the namespace identifier "urn" is reserved'
 * ```
 */
export const URN_MESSAGES = {
  'bad-urn': 'this is not a valid URN',
  'bad-nid': 'a namespace identifier is 2 to 32 letters, digits or "-", beginning and ending with a letter or digit',
  'reserved-nid': 'the namespace identifier "urn" is reserved',
  'bad-nss': 'this namespace-specific string is not valid',
  'nul-in-urn': 'a URN cannot contain NUL, not even percent-encoded as %00',
  'bad-urn-component': 'a URN r-, q- or f-component is not valid here',
  'bad-directive': 'this URN query directive is not valid',
  'unbracketed-whitespace': 'a freestanding URN that contains white space must be enclosed in "<" and ">" (1995 draft §2)',
  'reserved-element-id': 'ElementIDs beginning "urn+" are reserved requests (m, a, c, p) and "#" and "?" are reserved (1995 draft §2.3)',
} as const;

/**
 * The rules of a URN namespace (RFC 8141 §5: each namespace's own syntax).
 *
 * @example
 * ```ts
 * URN_NAMESPACE_MESSAGES['bad-check-digit'] // "the check digit does not match the one computed from the rest of the identifier"
 * ```
 */
export const URN_NAMESPACE_MESSAGES = {
  'bad-namespace-nss': 'the namespace-specific string fails the namespace\'s own rules',
  'bad-check-digit': 'the check digit does not match the one computed from the rest of the identifier',
} as const;

/**
 * Text (2003 draft App. E, App. F, §5.1).
 *
 * @example
 * ```ts
 * TEXT_MESSAGES['bad-base'] // "no base URI could be established"
 * ```
 */
export const TEXT_MESSAGES = {
  'bad-base': 'no base URI could be established',
} as const;

// The messages the UriError constructor finds: the URI table, and each
// table a loaded module registered. Module state, written only as modules
// load: that is what lets a bundle leave out the tables of the areas it
// does not hold.
const known: { [code: string]: string } = { ...URI_MESSAGES };

/**
 * @internal Makes the messages of `table` known to the `UriError`
 * constructor: called, as it loads, by each module that throws a code
 * outside {@link URI_MESSAGES} (test/core/errors.test.ts checks that each does).
 *
 * @example
 * ```ts
 * registerMessages(TEXT_MESSAGES);
 * messageOf('bad-base') // "no base URI could be established"
 * ```
 */
export function registerMessages(table: { readonly [code: string]: string }): void {
  Object.assign(known, table);
}

/**
 * @internal The message of `code`, once its table is known.
 *
 * @example
 * ```ts
 * messageOf('bad-port') // "a port must be decimal digits"
 * ```
 */
export function messageOf(code: string): string | undefined {
  return known[code];
}
