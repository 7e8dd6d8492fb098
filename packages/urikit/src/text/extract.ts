/**
 * Finding URIs in plain text (2003 draft Appendix E, 1997 draft Appendix E,
 * RFC 3986 Appendix C): double quotes, `<...>`, `<URL:...>`, enclosing
 * parentheses and brackets, white space inside `<...>`, a hyphen at a line
 * break, trailing sentence punctuation.
 */
import { UriScanner } from './scanner.js';
import type { ExtractOptions, UriMatch } from './match.js';

/**
 * Finds every URI a careful reader would see in `text`, with its offsets
 * and the URI as it should be used (2003 draft Appendix E,
 * https://www.rfc-editor.org/rfc/rfc3986#appendix-C). One forward scan,
 * linear in the length of `text`.
 *
 * Rules, in the words of the drafts:
 * - "double-quotes", "angle brackets" and the old `URL:` prefix are
 *   wrappers and not part of the URI; so are parentheses and brackets that
 *   enclose the URI (an unbalanced `)` ends it, `(...)` inside it belongs);
 * - inside `<...>` "the whitespace should be ignored" (also for the 1995
 *   draft's `<urn:...>`, and inside a `%` escape broken across lines, as
 *   in the 1993 draft's own `<gopher://...Information%20About%2⏎0Gopher...>`),
 *   and so are the `> ` markers of quoted mail at the start of a
 *   continuation line when the line of the `<` is quoted;
 * - at "a line break immediately after a hyphen" the URI goes on, and
 *   since "the hyphen may or may not actually be part of the URI" the match
 *   is `ambiguous` with the reading without the hyphen in `alternatives`;
 * - trailing `. , ; : ! ?` and a repeated opening quote or emphasis mark
 *   are punctuation of the sentence, not of the URI (also the apostrophe
 *   that closes a GNU-style `` `...' `` quote);
 * - a URN's NSS ends "when an octet/character from the excluded character
 *   set is encountered" (2012 URN draft §2.5.3; RFC 8141 `?+`, `?=`, `#`
 *   components are kept).
 *
 * Every match is a valid URI (an IRI when `iri` is on, the default), and
 * a match with the scheme `urn` is a valid URN (`URN:ISBN` in prose is not).
 *
 * @example
 * ```ts
 * extractUris('Yes, Jim, I found it under "http://www.w3.org/Addressing/",')
 * // [{ uri: 'http://www.w3.org/Addressing/', start: 28, end: 57, wrapped: 'quotes' }]
 * extractUris('from <ftp://ds.internic.\n      net/rfc/>.')[0].uri // "ftp://ds.internic.net/rfc/"
 * extractUris('<http://a.example/x%2\n 0y>')[0].uri // "http://a.example/x%20y"
 * extractUris('the URN:ISBN of such book') // []
 * ```
 */
export function extractUris(text: string, opts?: ExtractOptions): UriMatch[] {
  const scanner = new UriScanner(opts);
  scanner.text = text;
  scanner.final = true;
  const out: UriMatch[] = [];
  scanner.run(out);
  return out;
}
