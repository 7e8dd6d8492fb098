/**
 * Cases of the generic syntax (RFC 3986, RFC 6874): resolution,
 * references, components, hosts, validation and normalization; and the
 * WHATWG URL Standard's own behaviour, where the WHATWG libraries are the
 * ones that have the feature.
 */
import { readFileSync } from 'node:fs';
import { need, per, show, type Case } from './case.js';
import { urikit, type Components } from './peers.js';

/** The repository root (bench/{src,dist}/compare/ -> ../../../). */
export const ROOT = new URL('../../../', import.meta.url);

interface ResolutionTable {
  base: string;
  cases: Array<{ section: string; ref: string; expected: string; nonStrict?: string }>;
}

/** The RFC 3986 §5.4 tables, read in place from the core's test data. */
function resolutionCases(): Case[] {
  const table = JSON.parse(
    readFileSync(new URL('packages/urikit/test/data/rfc3986-5.4-examples.json', ROOT), 'utf8'),
  ) as ResolutionTable;
  const strict = table.cases.map((c): Case => ({
    feature: c.section === '5.4.1' ? 'Resolution: RFC 3986 §5.4.1 normal examples' : 'Resolution: RFC 3986 §5.4.2 abnormal examples',
    section: `RFC 3986 §${c.section}`,
    input: `${table.base} + ${c.ref === '' ? '""' : c.ref}`,
    expected: [c.expected],
    run: (lib) => need(lib, 'resolve')(table.base, c.ref),
  }));
  // §5.4.2 also prints the answer of a non-strict parser "for backward compatibility".
  const nonStrict = table.cases.flatMap((c): Case[] => (c.nonStrict === undefined ? [] : [{
    feature: 'Resolution: RFC 3986 §5.4.2 non-strict (backward-compatible) mode',
    section: `RFC 3986 §${c.section}, §5.2.2`,
    input: `${table.base} + ${c.ref} (non-strict)`,
    expected: [c.nonStrict],
    run: (lib) => need(lib, 'resolveNonStrict')(table.base, c.ref),
  }]));
  return [...strict, ...nonStrict];
}

/** The components as one line: absent (undefined) and empty ("") kept apart. */
function line(c: Components, keys: ReadonlyArray<keyof Components>): string {
  return keys.map((k) => `${k}=${show(c[k])}`).join(' ');
}

const ALL: ReadonlyArray<keyof Components> = ['scheme', 'userinfo', 'host', 'port', 'path', 'query', 'fragment'];

function componentCase(feature: string, section: string, input: string, keys: ReadonlyArray<keyof Components>, expected: Components): Case {
  return {
    feature, section, input,
    expected: [line(expected, keys)],
    run: (lib) => line(need(lib, 'components')(input), keys),
  };
}

function roundTripCase(feature: string, section: string, input: string, expected = input): Case {
  return { feature, section, input, expected: [expected], run: (lib) => need(lib, 'roundTrip')(input) };
}

function invalidCase(input: string, section: string): Case {
  return {
    feature: 'Strict validation: rejects invalid input',
    section, input,
    expected: ['invalid'],
    accepts: (a) => a === 'invalid' || a.startsWith('invalid@'),
    run: (lib) => need(lib, 'validate')(input),
  };
}

/** A reference that is not a URI-reference must be refused when resolving, not repaired (RFC 3986 §4.1, §5.2.1). */
function invalidRefCase(ref: string, section: string): Case {
  const base = 'http://example/';
  return {
    feature: 'Strict validation: rejects invalid input',
    section, input: `${base} + ${ref}`,
    expected: ['invalid'],
    run: (lib) => {
      const resolve = need(lib, 'resolve');
      try {
        return `accepted: ${resolve(base, ref)}`;
      } catch {
        return 'invalid';
      }
    },
  };
}

function normalizeCase(feature: string, section: string, input: string, expected: string[]): Case {
  return { feature, section, input, expected, run: (lib) => need(lib, 'normalize')(input) };
}

const F_UNDEF = 'Undefined vs empty components';
const F_TRIP = 'Recomposition gives back the input';
const F_OPAQUE = 'Non-special schemes kept intact';
const F_WHATWG = 'WHATWG URL Standard parsing (what browsers do)';

export function uriCases(): Case[] {
  return [
    ...resolutionCases(),

    componentCase('Relative references without a base', 'RFC 3986 §4.2', '../g?x#y', ALL,
      { path: '../g', query: 'x', fragment: 'y' }),
    componentCase('Relative references without a base', 'RFC 3986 §4.2', '//example.com/p', ALL,
      { host: 'example.com', path: '/p' }),

    componentCase(F_UNDEF, 'RFC 3986 §3.4, §5.3', 'http://a?', ['query'], { path: '', query: '' }),
    componentCase(F_UNDEF, 'RFC 3986 §3.4, §5.3', 'http://a', ['query'], { path: '' }),
    componentCase(F_UNDEF, 'RFC 3986 §3.5, §5.3', 'http://a#', ['fragment'], { path: '', fragment: '' }),
    componentCase(F_UNDEF, 'RFC 3986 §3.3', 'http://a', ['path'], { path: '' }),

    roundTripCase(F_TRIP, 'RFC 3986 §5.3', 'http://a?'),
    roundTripCase(F_TRIP, 'RFC 3986 §5.3', 'http://a#'),
    roundTripCase(F_TRIP, 'RFC 3986 §5.3', 'HTTP://A/%7e'),

    componentCase(F_OPAQUE, 'RFC 3986 §3 (components as written)', 'foo://Bar/%7e', ['scheme', 'host', 'path'],
      { scheme: 'foo', host: 'Bar', path: '/%7e' }),
    roundTripCase(F_OPAQUE, 'RFC 3986 §5.3', 'foo://Bar/%7e'),
    normalizeCase(F_OPAQUE, 'RFC 3986 §6.2.2 (any scheme)', 'foo://Bar/%7e', ['foo://bar/~']),

    // A dotted quad above 255, or hex and short forms, is not IPv4address: it is a reg-name, kept as written (§7.4 warns of the rare forms).
    roundTripCase('Hosts: reg-name that looks like IPv4', 'RFC 3986 §3.2.2', 'http://256.0.0.1/'),
    roundTripCase('Hosts: reg-name that looks like IPv4', 'RFC 3986 §3.2.2, §7.4', 'http://0x7f.1/'),
    {
      feature: 'Security: rare IPv4 forms flagged', section: 'RFC 3986 §7.4', input: 'http://0x7f.1/',
      expected: ['rare-ip-format'], accepts: (a) => a.split(' ').includes('rare-ip-format'),
      run: (lib) => per(lib, { urikit: () => urikit.lint('http://0x7f.1/').map((f) => f.code).join(' ') }, 'no security lint'),
    },
    {
      feature: 'Security: rare IPv4 forms flagged', section: 'RFC 3986 §7.4; WHATWG URL Standard IPv4 number parser (an empty "0x" is 0)', input: 'http://127.0x.0x.1/',
      expected: ['rare-ip-format'], accepts: (a) => a.split(' ').includes('rare-ip-format'),
      run: (lib) => per(lib, { urikit: () => urikit.lint('http://127.0x.0x.1/').map((f) => f.code).join(' ') }, 'no security lint'),
    },
    roundTripCase('IPv6 zone IDs', 'RFC 6874 §2', 'http://[fe80::1%25en0]/'),
    roundTripCase('IPv6 zone IDs', 'RFC 6874 §2', 'http://[fe80::a%25eth0]:8080/x'),
    roundTripCase('IPvFuture literals', 'RFC 3986 §3.2.2', 'http://[v7.fe80::a+en1]/'),

    invalidCase('http://a b', 'RFC 3986 §3.2.2 (reg-name has no space)'),
    invalidCase('http://[::1', 'RFC 3986 §3.2.2 (IP-literal needs "]")'),
    invalidCase('http://a:b', 'RFC 3986 §3.2.3 (port = *DIGIT)'),
    invalidCase('%zz', 'RFC 3986 §2.1 (pct-encoded = "%" HEXDIG HEXDIG)'),
    invalidCase('http://a/%zz', 'RFC 3986 §2.1 (pct-encoded = "%" HEXDIG HEXDIG)'),
    invalidCase('1http:x', 'RFC 3986 §3.1, §4.2 (scheme starts with ALPHA; ":" in first segment)'),
    invalidRefCase('%zz', 'RFC 3986 §4.1, §2.1 (reference must be a URI-reference)'),
    invalidRefCase('1http:x', 'RFC 3986 §4.1, §4.2 (reference must be a URI-reference)'),
    invalidRefCase('a b', 'RFC 3986 §4.1, §3.3 (reference must be a URI-reference)'),
    {
      feature: 'Strict validation: error position reported',
      section: 'RFC 3986 §3.2.2 (offset of the space)',
      input: 'http://a b',
      expected: ['8'],
      run: (lib) => String(need(lib, 'errorOffset')('http://a b')),
    },

    normalizeCase('Normalization: case', 'RFC 3986 §6.2.2.1', 'HTTP://www.EXAMPLE.com/', ['http://www.example.com/']),
    normalizeCase('Normalization: percent-encoding', 'RFC 3986 §6.2.2.2', 'http://a/%7e', ['http://a/~']),
    normalizeCase('Normalization: percent-encoding', 'RFC 3986 §6.2.2.1', 'http://a/%3a', ['http://a/%3A']),
    normalizeCase('Normalization: percent-encoding', 'RFC 3986 §6.2.2', 'eXAMPLE://a/./b/../b/%63/%7bfoo%7d', ['example://a/b/c/%7Bfoo%7D']),
    normalizeCase('Normalization: dot segments', 'RFC 3986 §6.2.2.3', 'http://a/b/c/./../../g', ['http://a/g']),
    normalizeCase('Normalization: dot segments', 'RFC 3986 §6.2.2.3, §2.3', 'http://a/b/%2E%2E/c', ['http://a/c']),
    // §6.2.3: "http://example.com", "http://example.com/", "http://example.com:/" and "http://example.com:80/" are equivalent.
    normalizeCase('Normalization: scheme-based (empty path, empty port)', 'RFC 3986 §6.2.3', 'http://example.com', ['http://example.com/']),
    normalizeCase('Normalization: scheme-based (empty path, empty port)', 'RFC 3986 §6.2.3', 'http://example.com:/', ['http://example.com/']),
    normalizeCase('Normalization: default port removed', 'RFC 3986 §6.2.3; RFC 9110 §4.2.1', 'http://example.com:80/', ['http://example.com/']),
    // RFC 6455 §3: an empty ws path means "/", so both forms are the normal form.
    normalizeCase('Normalization: default port removed', 'RFC 3986 §6.2.3; RFC 6455 §3', 'ws://a:80/', ['ws://a/', 'ws://a']),
    normalizeCase('Normalization: default port removed', 'RFC 3986 §6.2.3; RFC 1738 §3.2', 'ftp://a:21/', ['ftp://a/']),

    // Inputs from the WHATWG URL Standard's example table; the answers are its basic URL parser's (§4.4):
    // only the libraries that implement that standard are judged.
    {
      feature: F_WHATWG, section: 'WHATWG URL Standard §4.4 (basic URL parser)',
      input: 'https://example.com/ + \\example\\..\\demo/.\\',
      expected: ['https://example.com/demo/'],
      judgeOnly: ['whatwg-url', 'Node URL'],
      run: (lib) => need(lib, 'resolve')('https://example.com/', '\\example\\..\\demo/.\\'),
    },
    {
      feature: F_WHATWG, section: 'WHATWG URL Standard §4.4 (basic URL parser)',
      input: 'https:example.org',
      expected: ['https://example.org/'],
      judgeOnly: ['whatwg-url', 'Node URL'],
      run: (lib) => need(lib, 'roundTrip')('https:example.org'),
    },
  ];
}
