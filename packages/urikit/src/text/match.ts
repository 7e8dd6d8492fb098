/**
 * The shapes of URI extraction from text (2003 draft Appendix E): what a
 * caller asks for and what each match reports.
 */

/**
 * Options of {@link extractUris} and {@link extractUrisFromStream}.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#appendix-C
 * @example
 * ```ts
 * const opts: ExtractOptions = { schemes: ['http', 'https'], abbreviated: true, iri: false };
 * extractUris('see ftp://a.example/ and http://b.example/', opts).map((m) => m.uri) // ['http://b.example/']
 * ```
 */
export interface ExtractOptions {
  /**
   * Which schemes to accept (compared case-insensitively). Default: the
   * schemes of `PROSE_SCHEMES`, any `x-` scheme, and any syntactically
   * valid scheme followed by `//`. `'any'` accepts every syntactically
   * valid scheme with something after its ":".
   */
  schemes?: readonly string[] | 'any';
  /**
   * Also find the abbreviated forms of 2003 draft Appendix F: a host that
   * begins with `www.` (read as `http://`) or `ftp.` (read as `ftp://`),
   * and a bare host name with a common top label (RFC 1591 generic ones, a
   * few newer ones, any two-letter country code) followed by a path, such
   * as `example.com/guide` (read as `http://`). Default `false`.
   */
  abbreviated?: boolean;
  /** Also find bare e-mail addresses `user@host`, reported as `mailto:user@host`. Default `false`. */
  emails?: boolean;
  /** Accept non-ASCII characters (RFC 3987 IRIs). Default `true`; when `false` they end a URI. */
  iri?: boolean;
  /**
   * Where a URN's NSS ends in text. `'rfc8141'` (default): at the first
   * character excluded by the 2012 draft §2.5.3 list that RFC 8141 §2 does
   * not admit (`/` is admitted, `?+`, `?=` and `#` begin components).
   * `'urn-2012'`: at the first character of that list, `/` included; a
   * following `?` query (directives) and `#` fragment are kept.
   */
  urnProfile?: 'rfc8141' | 'urn-2012';
}

/**
 * One URI found in text: `uri` is the URI as it should be used (wrappers,
 * the `URL:` prefix and ignored white space removed, an abbreviated form
 * completed), `start`/`end` the span of the URI as written in the text
 * (UTF-16 offsets, `end` exclusive, wrappers and `URL:` outside it).
 *
 * ```text
 *   ... from <URL:ftp://ds.internic.
 *             net/rfc/>.
 *                 ^start          ^end      uri = "ftp://ds.internic.net/rfc/"
 * ```
 *
 * @example
 * ```ts
 * const m: UriMatch = { uri: 'http://a/', start: 5, end: 14, wrapped: 'angle' };
 * extractUris('see <http://a/> now')[0] // matches m
 * ```
 */
export interface UriMatch {
  uri: string;
  start: number;
  end: number;
  /** The wrapper around the URI: `<...>`, `"..."`, `(...)` or `[...]` (2003 draft App. E). */
  wrapped?: 'angle' | 'quotes' | 'parens' | 'brackets';
  /** The URI was written after the old `URL:` prefix (2003 draft App. E). */
  urlPrefix?: true;
  /** `uri` was completed from an abbreviated form or a bare e-mail address (2003 draft App. F). */
  abbreviated?: true;
  /**
   * The URI crosses a line break right after a hyphen: the hyphen "may or
   * may not actually be part of the URI" (2003 draft App. E). `uri` keeps
   * it (the characters as written); `alternatives` has the reading without.
   */
  ambiguous?: true;
  /** The other readings of an ambiguous match, less preferred than `uri`. */
  alternatives?: string[];
}
