/**
 * The demonstration names of `urikit serve --demo` (`npm start`): every
 * URN example of the five source documents, the 1995 draft's phone-list
 * (§3.4.2.1) and FlixCo (§3.5) examples as records, and a few real RFC
 * and ISBN URNs. Where a document gives a name but no location, the
 * location is an invented one under example.org.
 */
import type { Authority, NameInput } from '../store/types.js';

/**
 * The naming authority `GET /<ElementID>` serves in the demo (1995 draft
 * §2: `urn:dns:library.bigstate.edu:aj17-mcc`).
 *
 * @example
 * ```ts
 * DEMO_AUTHORITY; // 'urn:dns:library.bigstate.edu'
 * ```
 */
export const DEMO_AUTHORITY = 'urn:dns:library.bigstate.edu';

const PHONE_LIST = 'ftp://elm.wnln.edu/pub/mirrors/phone-list.txt';
const PHONES = 'ftp://gagu.bigstate.edu/admin/phones.html';

/**
 * The demonstration names: the URN examples of the five documents (1995
 * draft §2–§3.5, 2012 draft §5, RFC 8141 §2) and real RFC and ISBN URNs.
 *
 * @example
 * ```ts
 * DEMO_NAMES.find((n) => n.urn === 'urn:dns:library.bigstate.edu:phone-list')?.locations?.length; // 2
 * ```
 */
export const DEMO_NAMES: readonly NameInput[] = [
  // 1995 draft §2 and §2.3
  { urn: 'urn:dns:library.bigstate.edu:aj17-mcc', locations: [{ url: 'http://library.bigstate.example.org/aj17-mcc.html', mediaType: 'text/html' }], metadata: { title: 'The typical URN of the 1995 draft', source: 'draft-ietf-uri-yaurn-00 §2' } },
  { urn: 'urn:dns:physics.bigstate.edu:thesis12', locations: [{ url: 'http://physics.bigstate.example.org/theses/12.ps' }], metadata: { source: 'draft-ietf-uri-yaurn-00 §2.3' } },
  { urn: 'urn:dns:chris.lwr-ltd.co.uk:thesis12', locations: [{ url: 'http://chris.lwr-ltd.example.org/thesis12.txt' }], metadata: { source: 'draft-ietf-uri-yaurn-00 §2.3', note: 'same ElementID as urn:dns:physics.bigstate.edu:thesis12, a different name' } },
  // 1995 draft §3.3: "GET current-version-of-price-list HTTP/1.0", "GET alb002 HTTP/1.0"
  { urn: 'urn:dns:library.bigstate.edu:current-version-of-price-list', locations: [{ url: 'http://library.bigstate.example.org/prices/1995-03.txt', mediaType: 'text/plain' }], metadata: { source: 'draft-ietf-uri-yaurn-00 §3.3' } },
  { urn: 'urn:dns:library.bigstate.edu:alb002', locations: [{ url: 'http://library.bigstate.example.org/albums/002.html' }], metadata: { source: 'draft-ietf-uri-yaurn-00 §3.3' } },
  // 1995 draft §3.4.2.1, the four phone-list examples, one record each
  { urn: 'urn:dns:library.bigstate.edu:phone-list-elm', locations: [{ url: PHONE_LIST }], metadata: { source: 'draft-ietf-uri-yaurn-00 §3.4.2.1, a single URL and no metainformation' } },
  { urn: 'urn:dns:library.bigstate.edu:phone-list-wrapped', locations: [{ url: PHONE_LIST }], metadata: { source: 'draft-ietf-uri-yaurn-00 §3.4.2.1, a URL on multiple lines (served with a 40-column urc-0 line length)' } },
  { urn: 'urn:dns:library.bigstate.edu:phone-lists', locations: [{ url: PHONE_LIST }, { url: PHONES }], metadata: { source: 'draft-ietf-uri-yaurn-00 §3.4.2.1, multiple URLs' } },
  {
    urn: 'urn:dns:library.bigstate.edu:phone-list',
    locations: [
      { url: PHONE_LIST, charset: 'US-ASCII', meta: "This is the most up-to-date version of the WNLN-Bigstate phone list.\nIt is maintained by Cheryl O'Donnell.", preference: 1 },
      { url: PHONES, charset: 'US-ASCII', meta: 'This is the mirror of the first URL at Bigstate.' },
    ],
    metadata: { title: 'WNLN-Bigstate phone list', maintainer: "Cheryl O'Donnell", source: 'draft-ietf-uri-yaurn-00 §3.4.2.1, multiple URLs with metainformation' },
  },
  // The features of today's resolvers, on the demo authority
  { urn: 'urn:dns:library.bigstate.edu:old-price-list', status: 'moved', movedTo: 'urn:dns:library.bigstate.edu:current-version-of-price-list', permanent: true, reason: 'replaced by the current price list' },
  { urn: 'urn:dns:library.bigstate.edu:price-list-1994', locations: [{ url: 'http://library.bigstate.example.org/prices/1994-12.txt' }], successor: 'urn:dns:library.bigstate.edu:current-version-of-price-list' },
  { urn: 'urn:dns:library.bigstate.edu:withdrawn-report', status: 'withdrawn', reason: 'withdrawn at the author\'s request; the name stays assigned', metadata: { title: 'A report that was withdrawn' } },
  { urn: 'urn:dns:library.bigstate.edu:reserved-2027', status: 'reserved', metadata: { title: 'A name held for a future publication' } },
  // FlixCo (1995 draft §3.5.1, §3.5.2)
  { urn: 'urn:dns:urn.flixco.com:casablanca', locations: [{ url: 'ftp://ftp.flixco.com/pub/movies/casablanca.mpg', mediaType: 'video/mpeg' }], metadata: { title: 'Casablanca', note: 'a pointer to an affiliated library of classic films' } },
  // 2012 draft §5 (lexical equivalence): all of URN:foo:a123,456, urn:FOO:a123,456, urn:foo:a123,456#xyz and urn:foo:a123,456?x=y name this record
  { urn: 'urn:foo:a123,456', locations: [{ url: 'http://example.org/foo/a123,456' }], metadata: { source: 'draft-ietf-urnbis-rfc2141bis-urn-03 §5' } },
  { urn: 'urn:foo:A123,456', locations: [{ url: 'http://example.org/foo/A123,456' }], metadata: { source: 'draft-ietf-urnbis-rfc2141bis-urn-03 §5: not equivalent to urn:foo:a123,456 (NSS case)' } },
  { urn: 'urn:foo:a123%2C456', locations: [{ url: 'http://example.org/foo/a123%2C456' }], metadata: { source: 'draft-ietf-urnbis-rfc2141bis-urn-03 §5: not equivalent to urn:foo:a123,456 (%2C is not ",")' } },
  // RFC 8141 §2 example
  { urn: 'urn:example:a123,z456', locations: [{ url: 'https://example.org/a123,z456' }], metadata: { source: 'RFC 8141 §2' } },
  // Real names: RFCs (RFC 2648) and ISBNs (RFC 3187)
  { urn: 'urn:ietf:rfc:2141', locations: [{ url: 'https://www.rfc-editor.org/rfc/rfc2141', mediaType: 'text/html' }, { url: 'https://www.rfc-editor.org/rfc/rfc2141.txt', mediaType: 'text/plain' }], metadata: { title: 'URN Syntax', year: 1997 }, successor: 'urn:ietf:rfc:8141' },
  { urn: 'urn:ietf:rfc:8141', locations: [{ url: 'https://www.rfc-editor.org/rfc/rfc8141', mediaType: 'text/html' }], metadata: { title: 'Uniform Resource Names (URNs)', year: 2017 } },
  { urn: 'urn:ietf:rfc:2169', locations: [{ url: 'https://www.rfc-editor.org/rfc/rfc2169', mediaType: 'text/html' }], metadata: { title: 'A Trivial Convention for using HTTP in URN Resolution', year: 1997 } },
  { urn: 'urn:ietf:rfc:2483', locations: [{ url: 'https://www.rfc-editor.org/rfc/rfc2483', mediaType: 'text/html' }], metadata: { title: 'URI Resolution Services Necessary for URN Resolution', year: 1999 } },
  { urn: 'urn:ietf:rfc:3986', locations: [{ url: 'https://www.rfc-editor.org/rfc/rfc3986', mediaType: 'text/html' }], metadata: { title: 'Uniform Resource Identifier (URI): Generic Syntax', year: 2005 } },
  { urn: 'urn:isbn:0451450523', locations: [{ url: 'https://openlibrary.org/isbn/0451450523' }], metadata: { title: 'The Last Unicorn', creator: 'Peter S. Beagle' } },
  { urn: 'urn:isbn:0-395-36341-1', locations: [{ url: 'https://openlibrary.org/isbn/0395363411' }], metadata: { source: 'RFC 3187 §4 example; draft-ietf-urnbis-rfc2141bis-urn-03 §2.3 (URN:ISBN with c=ToC)' } },
];

/**
 * The authority registry of the demo, behind its reserved requests (1995
 * draft §3.5: FlixCo's `urn+m` and `urn+a`).
 *
 * @example
 * ```ts
 * DEMO_AUTHORITIES.map((a) => a.name); // ['urn:dns:urn.flixco.com', 'urn:dns:library.bigstate.edu']
 * ```
 */
export const DEMO_AUTHORITIES: readonly Authority[] = [
  {
    name: 'urn:dns:urn.flixco.com',
    contact: 'mailto:url-admin@flixco.com',
    charset: 'US-ASCII',
    language: 'en',
    meta: 'The URNs on this server mostly point to movies created by FlixCo.\nOther URNs are pointers to affiliated libraries of classic films.\nWe are currently resolving URNs with CERN httpd 3.4a.',
    allUrl: 'ftp://ftp.flixco.com/pub/all-urns',
    allMeta: 'This file is a list of all URNs resolvable at urn.flixco.com.\nThe file is about 50K, and is sorted with the most-recently added URNs at the end.',
    children: ['urn:dns:classics.flixco.com'],
    parents: ['urn:dns:flixco.com'],
  },
  {
    name: 'urn:dns:library.bigstate.edu',
    contact: 'mailto:urn-admin@library.bigstate.example.org',
    charset: 'US-ASCII',
    language: 'en',
    meta: 'The demonstration names of urikit serve --demo.',
    children: ['urn:dns:physics.bigstate.edu'],
    parents: ['urn:dns:bigstate.edu'],
  },
];

/**
 * Partial redirects of the demo: a sub-namespace handed on with the
 * suffix passed through (as nbn-resolving.org serves URN:NBN, RFC 8458).
 *
 * @example
 * ```ts
 * DEMO_PREFIX_RULES[0]; // { prefix: 'urn:nbn:de:', target: 'https://nbn-resolving.org/urn:nbn:de:' }
 * ```
 */
export const DEMO_PREFIX_RULES: ReadonlyArray<{ prefix: string; target: string }> = [
  { prefix: 'urn:nbn:de:', target: 'https://nbn-resolving.org/urn:nbn:de:' },
];
