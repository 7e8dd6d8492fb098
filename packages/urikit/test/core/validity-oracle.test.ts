/**
 * isValid against a literal transcription of RFC 3986 Appendix A (with
 * RFC 6874's IPv6addrz, which the default profile admits) as one regular
 * expression per rule: a slow test oracle (STYLE §9) that shares no code
 * with the scanner or with isValid's shortcut for plain URLs. The random
 * strings are drawn from the URI alphabet, the delimiters, broken and
 * whole triplets, and characters no URI has, behind prefixes that reach
 * the shortcut ("scheme://") and the paths beside it.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isValid, parse } from 'urikit';

// RFC 3986 Appendix A, rule by rule (ALPHA, DIGIT, HEXDIG: RFC 2234 core rules).
const UNRESERVED = "A-Za-z0-9\\-._~";
const SUB_DELIMS = "!$&'()*+,;=";
const PCT = '%[0-9A-Fa-f]{2}';
const PCHAR = `(?:[${UNRESERVED}${SUB_DELIMS}:@]|${PCT})`;
const SCHEME = '[A-Za-z][A-Za-z0-9+\\-.]*';
const USERINFO = `(?:[${UNRESERVED}${SUB_DELIMS}:]|${PCT})*`;
const DEC_OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9][0-9]|[0-9])';
const IPV4 = `${DEC_OCTET}\\.${DEC_OCTET}\\.${DEC_OCTET}\\.${DEC_OCTET}`;
const H16 = '[0-9A-Fa-f]{1,4}';
const LS32 = `(?:${H16}:${H16}|${IPV4})`;
const IPV6 = '(?:' + [
  `(?:${H16}:){6}${LS32}`,
  `::(?:${H16}:){5}${LS32}`,
  `(?:${H16})?::(?:${H16}:){4}${LS32}`,
  `(?:(?:${H16}:){0,1}${H16})?::(?:${H16}:){3}${LS32}`,
  `(?:(?:${H16}:){0,2}${H16})?::(?:${H16}:){2}${LS32}`,
  `(?:(?:${H16}:){0,3}${H16})?::${H16}:${LS32}`,
  `(?:(?:${H16}:){0,4}${H16})?::${LS32}`,
  `(?:(?:${H16}:){0,5}${H16})?::${H16}`,
  `(?:(?:${H16}:){0,6}${H16})?::`,
].join('|') + ')';
// RFC 6874 §2: IPv6addrz = IPv6address "%25" ZoneID; ZoneID = 1*( unreserved / pct-encoded ).
const IPV6Z = `${IPV6}%25(?:[${UNRESERVED}]|${PCT})+`;
// "v" is case-insensitive in ABNF (RFC 2234 §2.3).
const IPVFUTURE = `[vV][0-9A-Fa-f]+\\.[${UNRESERVED}${SUB_DELIMS}:]+`;
const IP_LITERAL = `\\[(?:${IPV6}|${IPV6Z}|${IPVFUTURE})\\]`;
const REG_NAME = `(?:[${UNRESERVED}${SUB_DELIMS}]|${PCT})*`;
const HOST = `(?:${IP_LITERAL}|${IPV4}|${REG_NAME})`;
const AUTHORITY = `(?:${USERINFO}@)?${HOST}(?::[0-9]*)?`;
const SEGMENT = `${PCHAR}*`;
const SEGMENT_NZ = `${PCHAR}+`;
const SEGMENT_NZ_NC = `(?:[${UNRESERVED}${SUB_DELIMS}@]|${PCT})+`;
const PATH_ABEMPTY = `(?:/${SEGMENT})*`;
const PATH_ABSOLUTE = `/(?:${SEGMENT_NZ}(?:/${SEGMENT})*)?`;
const PATH_NOSCHEME = `${SEGMENT_NZ_NC}(?:/${SEGMENT})*`;
const PATH_ROOTLESS = `${SEGMENT_NZ}(?:/${SEGMENT})*`;
const QUERY = `(?:${PCHAR}|[/?])*`;
const HIER_PART = `(?://${AUTHORITY}${PATH_ABEMPTY}|${PATH_ABSOLUTE}|${PATH_ROOTLESS}|)`;
const RELATIVE_PART = `(?://${AUTHORITY}${PATH_ABEMPTY}|${PATH_ABSOLUTE}|${PATH_NOSCHEME}|)`;
const URI = `${SCHEME}:${HIER_PART}(?:\\?${QUERY})?(?:#${QUERY})?`;
const ABSOLUTE_URI = `${SCHEME}:${HIER_PART}(?:\\?${QUERY})?`;
const RELATIVE_REF = `${RELATIVE_PART}(?:\\?${QUERY})?(?:#${QUERY})?`;

const ORACLE = {
  uri: new RegExp(`^${URI}$`),
  'absolute-uri': new RegExp(`^${ABSOLUTE_URI}$`),
  'uri-reference': new RegExp(`^(?:${URI}|${RELATIVE_REF})$`),
} as const;

// Pieces of URIs: the alphabet (both cases), every delimiter, triplets
// whole and broken, the shapes of hosts, and characters outside the
// grammar (space, controls, '"<>\^`{|}', non-ASCII, a lone surrogate).
const PIECES = [
  'a', 'z', 'A', 'Z', 'x', '0', '9', '-', '.', '_', '~', '!', '$', '&', "'", '(', ')', '*', '+', ',', ';', '=',
  ':', '/', '?', '#', '[', ']', '@', '//', '%41', '%2f', '%', '%4', '%G1', '::1', 'v1.x', '1.2.3.4', '%25e',
  ' ', '\t', '\n', '\0', '"', '<', '>', '\\', '^', '`', '{', '|', '}', '\u007f', 'é', '\u00a0', '\uD83D\uDE00', '\uD800',
];
const body = fc.array(fc.constantFrom(...PIECES), { maxLength: 16 }).map((p) => p.join(''));
// Prefixes that reach the plain-URL shortcut ("scheme://") or just miss it.
const PREFIXES = ['http://', 'file:///', 'a+b.c-d://', 'HTTPS://', 'x://', 'http:/', 'http:', '1http://', '://', '//', '/', ''];
const candidate = fc.oneof(
  fc.tuple(fc.constantFrom(...PREFIXES), body).map(([p, b]) => p + b),
  body,
  fc.string({ unit: 'binary', maxLength: 24 }),
);

describe('isValid against RFC 3986 Appendix A', () => {
  it.each([
    ['http://example.com/a/b?c=d&e', true],
    ['file:///Users/x/node_modules/@s/p/dist/esm/a.mjs?x=1', true],
    ['http://example.com/a b', false],
    ['http://Example.com/', true],
    ['http://example.com/%zz', false],
    ['http://example.com/é', false],
    ['http://[::1]:80/#f', true],
    ['http://a:b@c/', true],
    ['http:///', true],
    ['http://', true],
  ])('the oracle and isValid agree on %s (%s)', (s, valid) => {
    expect(ORACLE.uri.test(s)).toBe(valid);
    expect(isValid(s, 'uri')).toBe(valid);
  });

  it('agrees with the oracle, and with parse, on random strings of the URI alphabet and outside it', () => {
    fc.assert(fc.property(candidate, (s) => {
      for (const kind of ['uri', 'absolute-uri', 'uri-reference'] as const) {
        const ok = isValid(s, kind);
        expect([kind, ok]).toStrictEqual([kind, ORACLE[kind].test(s)]);
        let parsed = true;
        try { parse(s, kind); } catch { parsed = false; }
        expect([kind, parsed]).toStrictEqual([kind, ok]);
      }
    }), { numRuns: 20000 });
  });
});
