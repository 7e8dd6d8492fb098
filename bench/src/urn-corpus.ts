/**
 * A synthetic URN corpus, generated at bench time by a seeded generator (the
 * same strings on every run, no data file): names of every namespace the
 * core's registry ships (example, ietf, isbn, issn, nbn, oid, publicid,
 * uuid: packages/urikit/src/urn/namespaces/registry.ts) and of other
 * IANA-registered NIDs that have no plug-in (epc, ogc, oasis, mpeg, lex,
 * xmpp, iso), the 1995 draft's `urn:<SchemeID>:<AuthorityID>:<ElementID>`
 * shape (draft-ietf-uri-yaurn-00 §2), RFC 8141 r-/q-/f-components, the
 * 2012 draft's query directives (§2.3: `s=`, `c=`), percent-encoding
 * (reserved, unreserved and UTF-8 octets, in either case of hex digit),
 * and for each name a variant that differs only where URN-equivalence
 * says case or form does not count (RFC 8141 §3.1: "urn", the NID, the
 * hex digits of `%hh`; the namespaces' own rules: ISBN hyphens, UUID hex
 * case, NBN country code).
 */

/** The corpus: `urns[i]` and `variants[i]` are a pair for `equivalent`. */
export interface UrnCorpus {
  urns: string[];
  variants: string[];
}

/** A deterministic generator (a 32-bit LCG, Numerical Recipes' constants). */
function random(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return Math.floor((s / 2 ** 32) * n);
  };
}

const HEX = '0123456789abcdef';
const WORDS = ['a123', 'report', 'Chapter', 'ToC', 'x-y.z', 'data_set', 'v2', 'A~B', 'item', 'Name', 'foo', 'bar', 'BAZ', 'path/to', 'seq'];

/** ISO 2108: an ISBN-13 with its check digit, hyphenated as a publisher would. */
function isbn13(r: (n: number) => number): string {
  const d = [9, 7, 8, r(2), ...Array.from({ length: 8 }, () => r(10))];
  const sum = d.reduce((acc, x, i) => acc + x * (i % 2 === 0 ? 1 : 3), 0);
  d.push((10 - (sum % 10)) % 10);
  const s = d.join('');
  return `${s.slice(0, 3)}-${s.slice(3, 4)}-${s.slice(4, 7)}-${s.slice(7, 12)}-${s.slice(12)}`;
}

/** ISO 2108: an ISBN-10 with its check digit ("X" for 10). */
function isbn10(r: (n: number) => number): string {
  const d = Array.from({ length: 9 }, () => r(10));
  const sum = d.reduce((acc, x, i) => acc + x * (10 - i), 0);
  const check = (11 - (sum % 11)) % 11;
  const s = d.join('') + (check === 10 ? 'X' : String(check));
  return `${s.slice(0, 1)}-${s.slice(1, 4)}-${s.slice(4, 9)}-${s.slice(9)}`;
}

/** ISO 3297: an ISSN `NNNN-NNNC`. */
function issn(r: (n: number) => number): string {
  const d = Array.from({ length: 7 }, () => r(10));
  const sum = d.reduce((acc, x, i) => acc + x * (8 - i), 0);
  const check = (11 - (sum % 11)) % 11;
  const s = d.join('') + (check === 10 ? 'X' : String(check));
  return `${s.slice(0, 4)}-${s.slice(4)}`;
}

const hex = (r: (n: number) => number, n: number): string => Array.from({ length: n }, () => HEX[r(16)]).join('');
const word = (r: (n: number) => number): string => WORDS[r(WORDS.length)]!;

/** One NSS-bearing URN body (after "urn:"), NID as registered (lower case). */
function body(r: (n: number) => number, k: number): string {
  switch (k) {
    case 0: return `isbn:${r(2) === 0 ? isbn13(r) : isbn10(r)}`;
    case 1: return `uuid:${hex(r, 8)}-${hex(r, 4)}-${hex(r, 4)}-${hex(r, 4)}-${hex(r, 12)}`;
    case 2: return `ietf:${['rfc', 'bcp', 'std', 'fyi'][r(4)]}:${1 + r(9000)}`;
    case 3: return `ietf:params:xml:ns:${word(r)}`;
    case 4: return `issn:${issn(r)}`;
    case 5: return `nbn:${['fi', 'se', 'nl', 'it'][r(4)]}-${word(r).toLowerCase()}${r(100000)}`;
    case 6: return `oid:1.3.6.1.4.1.${r(60000)}.${r(100)}`;
    case 7: return `publicid:ISO+8879%3A1986:ENTITIES+Added+Latin+${1 + r(2)}:EN`;
    case 8: return `example:${word(r)}%2c${r(1000)}/${word(r)}`;
    case 9: return `example:%C3%A9t%C3%A9-${r(100)}`; // UTF-8 octets (RFC 8141 §2: non-ASCII is percent-encoded)
    case 10: return `example:${word(r)}%41${r(100)}`; // an encoded unreserved character, never decoded (RFC 8141 §3.1)
    case 11: return `dns:library.bigstate.edu:${word(r).toLowerCase()}${r(100)}-mcc`; // 1995 draft §2: urn:<SchemeID>:<AuthorityID>:<ElementID>
    case 12: return `epc:id:sgtin:${r(10_000_000)}.${r(100_000)}.${r(1_000_000)}`;
    case 13: return `ogc:def:crs:EPSG::${2000 + r(30000)}`;
    case 14: return `oasis:names:specification:docbook:dtd:xml:${r(5)}.${r(10)}`;
    case 15: return `mpeg:mpeg7:schema:${2001 + r(20)}`;
    case 16: return `lex:eu:council:directive:${2000 + r(25)}-${r(12) + 1}-${r(28) + 1};${r(100)}`;
    case 17: return `xmpp:${word(r).toLowerCase()}@example.org`;
    default: return `iso:std:iso:${1000 + r(30000)}:-${1 + r(9)}:ed-${1 + r(5)}:v1:en`;
  }
}
const BODIES = 19;

/** What may follow the NSS: nothing, RFC 8141 r-/q-/f-components, or 2012 draft §2.3 directives. */
function tail(r: (n: number) => number): string {
  switch (r(8)) {
    case 0: return `?+${word(r)}=%2f${r(10)}`;
    case 1: return `?=c=ToC&s=I2L`; // the 2012 draft's directives (§2.3) as an RFC 8141 q-component
    case 2: return `?s=I2L`; // the 2012 draft's form (§2.3.2): no URN under RFC 8141, the generic rules apply
    case 3: return `#sec-${r(20)}`;
    case 4: return `?+r?=q#f`;
    default: return '';
  }
}

/** The same name with case and form changed where they do not count (RFC 8141 §3.1 and the namespaces' rules). */
function variant(urn: string, r: (n: number) => number): string {
  const colon = urn.indexOf(':', 4);
  const nid = urn.slice(4, colon);
  let nss = urn.slice(colon + 1);
  // the hex digits of %hh in the other case
  nss = nss.replace(/%[0-9A-Fa-f]{2}/g, (h) => (h === h.toUpperCase() ? h.toLowerCase() : h.toUpperCase()));
  if (nid === 'isbn' && r(2) === 0) nss = nss.replace(/-/g, ''); // RFC 8254: hyphens do not count
  if (nid === 'uuid') nss = nss.replace(/^[^?#]*/, (s) => s.toUpperCase()); // RFC 4122 §3: hex case does not count
  if (nid === 'nbn') nss = nss.slice(0, 2).toUpperCase() + nss.slice(2); // RFC 8458 §4.2: the country code
  const scheme = ['URN', 'urn', 'Urn'][r(3)]!;
  const nidCase = r(2) === 0 ? nid.toUpperCase() : nid;
  return `${scheme}:${nidCase}:${nss}`;
}

/** `n` URNs and their variants, the same on every run. */
export function urnCorpus(n: number, seed = 0x5eed): UrnCorpus {
  const r = random(seed);
  const urns: string[] = [];
  const variants: string[] = [];
  for (let i = 0; i < n; i++) {
    let urn = `urn:${body(r, i % BODIES)}${tail(r)}`;
    if (r(4) === 0) urn = 'URN:' + urn.slice(4); // some written with "URN:"
    urns.push(urn);
    variants.push(variant(urn, r));
  }
  return { urns, variants };
}
