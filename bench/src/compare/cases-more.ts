/**
 * Cases beyond the generic syntax: IRIs (RFC 3987), URNs (RFC 8141), the
 * older generations as profiles (1997 and 2003 drafts, Appendix C),
 * finding URIs in text (RFC 3986 Appendix C), and scheme codecs (mailto,
 * data, file).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath as nodeFileURLToPath } from 'node:url';
import { need, per, show, type Case } from './case.js';
import { ROOT } from './cases-uri.js';
import { fastUri, uriJs, urikit, URIjs } from './peers.js';

const F_IRI_URI = 'IRI -> URI mapping';
const F_URI_IRI = 'URI -> IRI mapping';
const F_IRI_SYNTAX = 'IRI syntax (RFC 3987)';

function iriCases(): Case[] {
  const toUri = (section: string, input: string, expected: string[]): Case => ({
    feature: F_IRI_URI, section, input, expected, run: (lib) => need(lib, 'iriToUri')(input),
  });
  const toIri = (section: string, input: string, expected: string): Case => ({
    feature: F_URI_IRI, section, input, expected: [expected], run: (lib) => need(lib, 'uriToIri')(input),
  });
  const asIri = (section: string, input: string, expected: 'valid' | 'invalid'): Case => ({
    feature: F_IRI_SYNTAX, section, input: `${input} (as IRI)`, expected: [expected],
    run: (lib) => per(lib, {
      urikit: () => (urikit.isValid(input, 'iri') ? 'valid' : 'invalid'),
      'uri-js': () => (uriJs.parse(input, { iri: true }).error === undefined ? 'valid' : 'invalid'),
    }, 'no IRI validation'),
  });
  return [
    {
      feature: F_IRI_SYNTAX, section: 'RFC 3986 §2 (only ASCII; RFC 3987 §1.1)', input: 'http://example.com/résumé (as URI)',
      expected: ['invalid'], accepts: (a) => a.startsWith('invalid'),
      run: (lib) => need(lib, 'validate')('http://example.com/résumé'),
    },
    asIri('RFC 3987 §2.2 (ucschar in ipath)', 'http://example.com/résumé', 'valid'),
    asIri('RFC 3987 §2.2 (iprivate only in iquery)', 'http://example.com/\uE000', 'invalid'),
    asIri('RFC 3987 §2.2 (iprivate in iquery)', 'http://example.com/?\uE000', 'valid'),
    toUri('RFC 3987 §3.1 step 2', 'http://example.com/résumé?q=é#é', ['http://example.com/r%C3%A9sum%C3%A9?q=%C3%A9#%C3%A9']),
    // §3.1: the ireg-name may go through ToASCII (IDNA) or be percent-encoded; both are conformant.
    toUri('RFC 3987 §3.1', 'http://résumé.example/', ['http://xn--rsum-bpad.example/', 'http://r%C3%A9sum%C3%A9.example/']),
    toIri('RFC 3987 §3.2 (UTF-8 of ucschar decoded; %20 and %2F kept)', 'http://example.com/r%C3%A9sum%C3%A9%20%2F', 'http://example.com/résumé%20%2F'),
    toIri('RFC 3987 §3.2 step 2 (invalid UTF-8 stays encoded)', 'http://example.com/%FF%C3%A9', 'http://example.com/%FFé'),
    toIri('RFC 3987 §3.2 step 3 / §4.1 (bidi formatting character stays encoded)', 'http://example.com/%E2%80%AEabc', 'http://example.com/%E2%80%AEabc'),
  ];
}

/** One line for a URN: NID, NSS and the three RFC 8141 components. */
function urnLine(nid: string | undefined, nss: string | undefined, r: string | undefined, q: string | undefined, f: string | undefined): string {
  return `nid=${show(nid)} nss=${show(nss)} r=${show(r)} q=${show(q)} f=${show(f)}`;
}

/** fast-uri and uri-js have a `urn` scheme handler: NID and NSS, with the rest as a generic query. */
function handlerUrn(r: { nid?: string; nss?: string; query?: string; fragment?: string; error?: string }): string {
  if (r.error !== undefined) throw new Error(r.error);
  const rest = r.query === undefined ? '' : ` (generic query=${JSON.stringify(r.query)})`;
  return urnLine(r.nid, r.nss, undefined, undefined, r.fragment) + rest;
}

function urnParseCase(feature: string, section: string, input: string, expected: string): Case {
  return {
    feature, section, input, expected: [expected],
    run: (lib) => per(lib, {
      urikit: () => { const u = urikit.parseUrn(input); return urnLine(u.nid, u.nss, u.rComponent, u.qComponent, u.fComponent); },
      'fast-uri': () => handlerUrn(fastUri.parse(input) as never),
      'uri-js': () => handlerUrn(uriJs.parse(input) as never),
    }, 'no URN model'),
  };
}

function urnValidityCase(section: string, input: string, expected: 'valid' | 'invalid'): Case {
  return {
    feature: 'URN syntax (RFC 8141)', section, input, expected: [expected],
    run: (lib) => per(lib, {
      urikit: () => (urikit.isValidUrn(input) ? 'valid' : 'invalid'),
      'fast-uri': () => (fastUri.parse(input).error === undefined ? 'valid' : 'invalid'),
      'uri-js': () => (uriJs.parse(input).error === undefined ? 'valid' : 'invalid'),
    }, 'no URN model'),
  };
}

function urnEqualCase(section: string, a: string, b: string, expected: boolean): Case {
  return {
    feature: 'URN equivalence (RFC 8141 §3)', section, input: `${a} ≟ ${b}`, expected: [String(expected)],
    run: (lib) => per(lib, {
      // urikit's URN function and its generic comparison (scheme level, which
      // applies RFC 8141 §3 to a urn:) must give the one answer.
      urikit: () => {
        const urn = urikit.urnEquivalent(a, b);
        const generic = urikit.equivalent(a, b);
        return urn === generic ? String(urn) : `urnEquivalent ${urn}, equivalent ${generic}`;
      },
      'fast-uri': () => String(fastUri.equal(a, b)),
      'uri-js': () => String(uriJs.equal(a, b)),
      'URI.js': () => String(URIjs(a).equals(b)),
    }, 'no equivalence function'),
  };
}

function urnCases(): Case[] {
  const F_RQF = 'URN r-, q- and f-components (RFC 8141 §2.3)';
  return [
    urnParseCase('URN syntax (RFC 8141)', 'RFC 8141 §2', 'urn:example:a123,z456', urnLine('example', 'a123,z456', undefined, undefined, undefined)),
    urnValidityCase('RFC 8141 §2 (NID is 2 to 32 characters)', 'urn:a:b', 'invalid'),
    urnValidityCase('RFC 8141 §2 (NID may not end with "-")', 'urn:example-:x', 'invalid'),
    urnParseCase(F_RQF, 'RFC 8141 §2.3.1', 'urn:example:foo-bar-baz-qux?+CCResolve:cc=uk',
      urnLine('example', 'foo-bar-baz-qux', 'CCResolve:cc=uk', undefined, undefined)),
    urnParseCase(F_RQF, 'RFC 8141 §2.3.2', 'urn:example:weather?=op=map&lat=39.56&lon=-104.85&datetime=1969-07-21T02:56:15Z',
      urnLine('example', 'weather', undefined, 'op=map&lat=39.56&lon=-104.85&datetime=1969-07-21T02:56:15Z', undefined)),
    urnParseCase(F_RQF, 'RFC 8141 §2.3.3', 'urn:example:a123,z456#789', urnLine('example', 'a123,z456', undefined, undefined, '789')),
    // RFC 8141 §3.2, the examples verbatim, as pairs.
    urnEqualCase('RFC 8141 §3.2 (scheme and NID case-insensitive)', 'urn:example:a123,z456', 'URN:EXAMPLE:a123,z456', true),
    urnEqualCase('RFC 8141 §3.2 (percent-encoding kept)', 'urn:example:a123,z456', 'urn:example:a123,z456%2d', false),
    urnEqualCase('RFC 8141 §3.2 (hex case normalized)', 'urn:example:a123,z456%2d', 'urn:example:a123,z456%2D', true),
    urnEqualCase('RFC 8141 §3.2 (r-component ignored)', 'urn:example:a123,z456', 'urn:example:a123,z456?+abc', true),
    urnEqualCase('RFC 8141 §3.2 (q-component ignored)', 'urn:example:a123,z456', 'urn:example:a123,z456?=xyz', true),
    urnEqualCase('RFC 8141 §3.2 (f-component ignored)', 'urn:example:a123,z456', 'urn:example:a123,z456#789', true),
    urnEqualCase('RFC 8141 §3.1 (NSS compared case-sensitively)', 'urn:example:a123,z456', 'urn:example:A123,z456', false),
    urnEqualCase('RFC 8141 §3.1 (%-encoding case only: a triplet is never decoded)', 'urn:example:%41', 'urn:example:A', false),
    urnEqualCase('RFC 8141 §3.1 (the namespace\'s rules: in an ISBN, RFC 3187, hyphens only group the digits)', 'urn:isbn:0-395-36341-1', 'urn:isbn:0395363411', true),
  ];
}

interface AppendixC {
  base: string;
  cases: Array<{ section: string; ref: string; expected: string; strict?: boolean }>;
}

/** The drafts' Appendix C tables, read in place; only urikit has the profiles, peers show their RFC 3986 answer. */
function profileCases(): Case[] {
  const tables: Array<[string, 'draft-1997' | 'draft-2003', string, string]> = [
    ['appendix-c-1997.json', 'draft-1997', '1997 draft', 'draft-fielding-url-syntax-05'],
    ['appendix-c-2003.json', 'draft-2003', '2003 draft', 'draft-fielding-uri-rfc2396bis-01'],
  ];
  return tables.flatMap(([file, profile, year, doc]) => {
    const t = JSON.parse(readFileSync(new URL(`packages/urikit/test/data/${file}`, ROOT), 'utf8')) as AppendixC;
    return t.cases.map((c): Case => ({
      feature: `Older generations: ${year}, App. C (profile '${profile}')`,
      section: `${doc} App. ${c.section}`,
      input: `${t.base} + ${c.ref === '' ? '""' : c.ref}${c.strict === false ? ' (non-strict)' : ''}`,
      expected: [c.expected],
      judgeOnly: ['urikit'],
      run: (lib) => (lib.name === 'urikit'
        ? urikit.resolve(t.base, c.ref, { profile, strict: c.strict ?? true })
        : need(lib, 'resolve')(t.base, c.ref)),
    }));
  });
}

/** The 1995 URN draft (draft-ietf-uri-yaurn-00 §2): urn:<SchemeID>:<AuthorityID>:<ElementID>. */
function yaurnCases(): Case[] {
  const input = 'urn:dns:library.bigstate.edu:aj17-mcc';
  return [{
    feature: "Older generations: 1995 URN draft (profile 'yaurn-1995')",
    section: 'draft-ietf-uri-yaurn-00 §2',
    input,
    expected: ['schemeId="dns" authorityId="library.bigstate.edu" elementId="aj17-mcc"'],
    judgeOnly: ['urikit'],
    run: (lib) => per(lib, {
      urikit: () => {
        const u = urikit.parseUrn(input, { profile: 'yaurn-1995' });
        return `schemeId=${show(u.schemeId)} authorityId=${show(u.authorityId)} elementId=${show(u.elementId)}`;
      },
      'fast-uri': () => handlerUrn(fastUri.parse(input) as never),
      'uri-js': () => handlerUrn(uriJs.parse(input) as never),
    }, 'no URN model'),
  }];
}

function extractCase(section: string, text: string, expected: string[]): Case {
  return {
    feature: 'Finding URIs in text', section, input: text.replace(/\n/g, '⏎'), expected: [expected.join(' | ')],
    run: (lib) => per(lib, {
      urikit: () => urikit.extractUris(text).map((m) => m.uri).join(' | '),
      'URI.js': () => {
        const found: string[] = [];
        URIjs.withinString(text, (u) => { found.push(u); return u; });
        return found.join(' | ');
      },
    }, 'no extraction from text'),
  };
}

function textCases(): Case[] {
  return [
    // RFC 3986 Appendix C, the example paragraph verbatim.
    extractCase('RFC 3986 App. C',
      'Yes, Jim, I found it under "http://www.w3.org/Addressing/", but you can probably pick it up from <ftp://foo.example.com/rfc/>.  Note the warning in <http://www.ics.uci.edu/pub/ietf/uri/historical.html#WARNING>.',
      ['http://www.w3.org/Addressing/', 'ftp://foo.example.com/rfc/', 'http://www.ics.uci.edu/pub/ietf/uri/historical.html#WARNING']),
    // Appendix C: whitespace inside <...> (a URI wrapped across lines) is removed.
    extractCase('RFC 3986 App. C (embedded whitespace stripped)',
      'Look at <http://www.example.com/a/very/long/\n    path/that/wraps> now.',
      ['http://www.example.com/a/very/long/path/that/wraps']),
    // The 1993 URL draft's own reference (its References section), wrapped inside a %-escape.
    extractCase('2003 draft App. E; 1993 draft, References (a line break inside "%20")',
      'URL=<gopher://gopher.micro.umn.edu/00/Information%20About%2\n            0Gopher/About%20Gopher>',
      ['gopher://gopher.micro.umn.edu/00/Information%20About%20Gopher/About%20Gopher']),
    // "URN:ISBN" in prose has no NSS: no URN, so no URI to extract.
    extractCase('RFC 8141 §2 (a URN needs an NSS)',
      'the URN:ISBN of such book is urn:isbn:0-395-36341-1.',
      ['urn:isbn:0-395-36341-1']),
    // GNU-style quotes (`...'), common in Debian copyright files: both marks are wrappers.
    extractCase('2003 draft App. E (quotes are wrappers, not part of the URI)',
      "see `http://www.wide.ad.jp/about/index.html' for details",
      ['http://www.wide.ad.jp/about/index.html']),
  ];
}

/** mailto as one line: every address and header field decoded, sorted by field name. */
function mailtoLine(to: readonly string[], headers: Array<[string, string]>): string {
  const fields = headers.map(([k, v]) => `${k.toLowerCase()}=${v}`).sort();
  return [`to=${to.join(',')}`, ...fields].join('; ');
}

function mailtoCase(input: string, expected: string): Case {
  return {
    feature: 'Scheme codec: mailto (RFC 6068)', section: 'RFC 6068 §2, §6.1', input, expected: [expected],
    run: (lib) => per(lib, {
      urikit: () => { const m = urikit.mailtoScheme.parse(urikit.parse(input)); return mailtoLine(m.to, m.headers); },
      'fast-uri': () => handlerMailto(fastUri.parse(input) as never),
      'uri-js': () => handlerMailto(uriJs.parse(input) as never),
    }, 'no mailto codec'),
  };
}

function handlerMailto(r: { to?: string[]; headers?: Record<string, string>; subject?: string; body?: string; error?: string }): string {
  if (r.error !== undefined) throw new Error(r.error);
  const headers: Array<[string, string]> = Object.entries(r.headers ?? {});
  if (r.subject !== undefined) headers.push(['subject', r.subject]);
  if (r.body !== undefined) headers.push(['body', r.body]);
  return mailtoLine(r.to ?? [], headers);
}

function dataCase(input: string, expected: string): Case {
  return {
    feature: 'Scheme codec: data (RFC 2397)', section: 'RFC 2397 §2, §4', input, expected: [expected],
    run: (lib) => per(lib, {
      urikit: () => {
        const d = urikit.dataScheme.parse(urikit.parse(input));
        return `base64=${d.base64} data=${JSON.stringify(new TextDecoder().decode(d.data))}`;
      },
    }, 'no data codec'),
  };
}

function fileCase(input: string, windows: boolean, expected: string): Case {
  return {
    feature: 'Scheme codec: file URI <-> path (RFC 8089)', section: 'RFC 8089 App. E', input: `${input}${windows ? ' (Windows)' : ' (POSIX)'}`,
    expected: [expected],
    run: (lib) => per(lib, {
      urikit: () => urikit.fileUriToPath(input, { windows }),
      'Node URL': () => nodeFileURLToPath(input, { windows }),
    }, 'no file path conversion'),
  };
}

function schemeCases(): Case[] {
  return [
    mailtoCase('mailto:joe@example.com?cc=bob@example.com&body=hello', 'to=joe@example.com; body=hello; cc=bob@example.com'),
    mailtoCase('mailto:%22not%40me%22@example.org', 'to="not@me"@example.org'),
    dataCase('data:,A%20brief%20note', 'base64=false data="A brief note"'),
    dataCase('data:text/plain;charset=US-ASCII;base64,SGVsbG8sIFdvcmxkIQ==', 'base64=true data="Hello, World!"'),
    fileCase('file:///etc/hosts', false, '/etc/hosts'),
    fileCase('file:///C:/Program%20Files/x.txt', true, 'C:\\Program Files\\x.txt'),
    fileCase('file://host.example.com/Share/path/to/file.txt', true, '\\\\host.example.com\\Share\\path\\to\\file.txt'),
  ];
}

export function moreCases(): Case[] {
  return [...iriCases(), ...urnCases(), ...profileCases(), ...yaurnCases(), ...textCases(), ...schemeCases()];
}
