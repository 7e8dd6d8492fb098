/**
 * The sentences of docs/comparison.md that name a peer's
 * result, each tied to the summary cell that backs it. Every run checks
 * them, so a new peer version (or a new case) that changes a cell shows up
 * as a stale sentence instead of a silent wrong claim in the documentation.
 */
import { byFeature, rollUp, type Result } from './report.js';

interface Claim {
  /** The page's words, shortened. */
  says: string;
  feature: string;
  lib: string;
  /** The summary cell the sentence relies on. */
  cell: string;
}

const CLAIMS: readonly Claim[] = [
  { says: 'fast-uri gets every §5.4.1 example right', feature: 'Resolution: RFC 3986 §5.4.1 normal examples', lib: 'fast-uri', cell: '✓ 23/23' },
  { says: 'uri-js gets every §5.4.1 example right', feature: 'Resolution: RFC 3986 §5.4.1 normal examples', lib: 'uri-js', cell: '✓ 23/23' },
  { says: 'uri-js gets every §5.4.2 example right', feature: 'Resolution: RFC 3986 §5.4.2 abnormal examples', lib: 'uri-js', cell: '✓ 19/19' },
  { says: 'fast-uri gets all §5.4.2 examples but http:g', feature: 'Resolution: RFC 3986 §5.4.2 abnormal examples', lib: 'fast-uri', cell: '✗ 18/19' },
  { says: 'urikit, fast-uri and uri-js give the non-strict answer when asked', feature: 'Resolution: RFC 3986 §5.4.2 non-strict (backward-compatible) mode', lib: 'fast-uri', cell: '✓' },
  { says: 'WHATWG needs a base for a relative reference', feature: 'Relative references without a base', lib: 'whatwg-url', cell: '✗ 0/2' },
  { says: 'fast-uri rejects 8 of the 9 invalid inputs', feature: 'Strict validation: rejects invalid input', lib: 'fast-uri', cell: '✗ 8/9' },
  { says: 'uri-js accepts all 9 invalid inputs', feature: 'Strict validation: rejects invalid input', lib: 'uri-js', cell: '✗ 0/9' },
  { says: 'only urikit reports the error position', feature: 'Strict validation: error position reported', lib: 'fast-uri', cell: '—' },
  { says: 'fast-uri normalizes percent-encoding per §6.2.2', feature: 'Normalization: percent-encoding', lib: 'fast-uri', cell: '✓ 3/3' },
  { says: 'uri-js normalizes percent-encoding per §6.2.2', feature: 'Normalization: percent-encoding', lib: 'uri-js', cell: '✓ 3/3' },
  { says: 'WHATWG leaves percent-encoding as written', feature: 'Normalization: percent-encoding', lib: 'whatwg-url', cell: '✗ 0/3' },
  { says: 'fast-uri does not remove the ftp default port', feature: 'Normalization: default port removed', lib: 'fast-uri', cell: '✗ 2/3' },
  { says: 'uri-js does not remove the ftp default port', feature: 'Normalization: default port removed', lib: 'uri-js', cell: '✗ 2/3' },
  { says: 'WHATWG rejects zone IDs', feature: 'IPv6 zone IDs', lib: 'whatwg-url', cell: '✗ 0/2' },
  { says: 'WHATWG rejects IPvFuture', feature: 'IPvFuture literals', lib: 'whatwg-url', cell: '✗' },
  { says: 'WHATWG refuses 256.0.0.1 and rewrites 0x7f.1', feature: 'Hosts: reg-name that looks like IPv4', lib: 'whatwg-url', cell: '✗ 0/2' },
  { says: 'fast-uri refuses 256.0.0.1 and rewrites 0x7f.1', feature: 'Hosts: reg-name that looks like IPv4', lib: 'fast-uri', cell: '✗ 0/2' },
  { says: 'urikit has no WHATWG mode; the WHATWG libraries pass', feature: 'WHATWG URL Standard parsing (what browsers do)', lib: 'urikit', cell: '—' },
  { says: 'fast-uri and uri-js accept forbidden NIDs', feature: 'URN syntax (RFC 8141)', lib: 'fast-uri', cell: '✗ 1/3' },
  { says: 'fast-uri and uri-js accept forbidden NIDs', feature: 'URN syntax (RFC 8141)', lib: 'uri-js', cell: '✗ 1/3' },
  { says: 'neither knows a namespace\'s rules, and uri-js decodes %41 in a URN', feature: 'URN equivalence (RFC 8141 §3)', lib: 'uri-js', cell: '✗ 4/9' },
  { says: 'neither knows a namespace\'s rules, and uri-js decodes %41 in a URN', feature: 'URN equivalence (RFC 8141 §3)', lib: 'fast-uri', cell: '✗ 5/9' },
  { says: 'fast-uri has a working mailto codec', feature: 'Scheme codec: mailto (RFC 6068)', lib: 'fast-uri', cell: '✓ 2/2' },
  { says: 'uri-js has a working mailto codec', feature: 'Scheme codec: mailto (RFC 6068)', lib: 'uri-js', cell: '✓ 2/2' },
  { says: "Node's fileURLToPath matches on the file cases", feature: 'Scheme codec: file URI <-> path (RFC 8089)', lib: 'Node URL', cell: '✓ 3/3' },
  { says: 'URI.js finds URIs in text but does not rejoin wrapped ones, nor find a urn:', feature: 'Finding URIs in text', lib: 'URI.js', cell: '✗ 2/5' },
];

/** The claims whose backing cell changed: each with the cell it now has. */
export function staleClaims(names: string[], results: Result[]): string[] {
  const features = byFeature(results);
  return CLAIMS.flatMap((claim) => {
    const i = names.indexOf(claim.lib);
    const rs = features.get(claim.feature);
    const now = rs === undefined || i < 0 ? 'missing' : rollUp(rs.map((r) => r.cells[i]!));
    return now === claim.cell ? [] : [`"${claim.says}": ${claim.lib} / ${claim.feature} is now ${now} (was ${claim.cell})`];
  });
}
