/**
 * The core's own test tables, runnable in any JavaScript runtime: Node,
 * Deno, Bun and a browser. Plain ESM with no import at all: the caller
 * passes in the core (the bundle a user's bundler makes of `urikit`) and the
 * text of each data file (TABLE_FILES), so the same file runs where there is
 * no file system (a page in Chromium) as well as in a process.
 *
 * Each table checks what the vitest test that reads the same data file
 * checks (named at each table), one case per row as there, so that a
 * runtime's count can be compared with Node's. A case fails by throwing;
 * every case of every table runs, and the first failures of each table are
 * kept with the reason.
 */

/**
 * The data files the tables read: paths under packages/urikit/test/, and
 * `conformance/…` for the files of ../shared/conformance/ read in place.
 */
export const TABLE_FILES = [
  'data/core-references.json',
  'data/rfc3986-5.4-examples.json',
  'data/appendix-c-1997.json',
  'data/appendix-c-2003.json',
  'data/above-root.json',
  'data/rfc3986-6-normalization.json',
  'data/spec-url-examples.json',
  'host/hostname.json',
  'host/jsts-rulings.json',
  'host/ipv6.json',
  'host/legacy-ipv4.json',
  'host/classify.json',
  'host/punycode.json',
  'host/idna.json',
  'host/idna-expected-failures.txt',
  'iri/iri.json',
  'urn/data/syntax-rfc8141.json',
  'urn/data/syntax-urn-2012.json',
  'urn/data/syntax-yaurn-1995.json',
  'urn/data/spec-urns.json',
  'urn/data/equivalence-2012.json',
  'urn/data/equivalence-rfc8141.json',
  'urn/data/namespaces.json',
  'urn/data/publicid.json',
  'urn/data/directives.json',
  'urn/data/presentation.json',
  'urn/data/nbn-check-digit.json',
  'text/extract-cases.json',
  'text/appendix-e.json',
  'text/base-cases.json',
  'text/abbreviated-cases.json',
  'profiles/url-1993.json',
  'schemes/codecs.json',
  'schemes/charset.json',
  'schemes/file-path.json',
  'security/lint.json',
  'security/differential.json',
  'conformance/jsts-format.json',
  'conformance/ipv6list.json',
  'conformance/IdnaTestV2-17.0.txt',
];

/** The runtime this runs in, with its version: `Deno 2.9.6`, `Bun 1.4.5`, `Node v24.1.0`, `Chromium 140.0.0.0` (the user agent gives the major version only). */
export function runtimeName() {
  const g = /** @type {any} */ (globalThis);
  // Deno and Bun also define `process`: ask for them first.
  if (g.Deno?.version?.deno) return `Deno ${g.Deno.version.deno}`;
  if (g.Bun?.version) return `Bun ${g.Bun.version}`;
  if (g.process?.versions?.node) return `Node ${g.process.version}`;
  const ua = g.navigator?.userAgent ?? '';
  const chrome = /(?:Headless)?Chrome\/(\S+)/.exec(ua);
  return chrome ? `Chromium ${chrome[1]}` : ua || 'an unknown runtime';
}

// ---- assertions: each throws an Error saying what differs ----

const show = (v) => {
  if (v === undefined) return 'undefined';
  if (typeof v === 'bigint') return `${v}n`;
  try {
    const s = JSON.stringify(v);
    return s.length > 200 ? `${s.slice(0, 200)}…` : s;
  } catch {
    return String(v);
  }
};

/** Deep equality of plain data. `strict`: a key holding undefined counts (vitest's toStrictEqual), else it is as absent (toEqual). */
function same(a, b, strict) {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((x, i) => same(x, b[i], strict));
  const keys = (o) => Object.keys(o).filter((k) => strict || o[k] !== undefined);
  const ka = keys(a);
  const kb = keys(b);
  return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && same(a[k], b[k], strict));
}

/** Every key of `pattern` is in `value` with the same value (vitest's toMatchObject, on plain data). */
function matches(value, pattern) {
  if (typeof pattern !== 'object' || pattern === null || Array.isArray(pattern)) return same(value, pattern, false);
  if (typeof value !== 'object' || value === null) return false;
  return Object.keys(pattern).every((k) => matches(value[k], pattern[k]));
}

function eq(actual, expected, what = 'value') {
  if (!Object.is(actual, expected)) throw new Error(`${what}: got ${show(actual)}, want ${show(expected)}`);
}
function equal(actual, expected, what = 'value') {
  if (!same(actual, expected, false)) throw new Error(`${what}: got ${show(actual)}, want ${show(expected)}`);
}
function strictEqual(actual, expected, what = 'value') {
  if (!same(actual, expected, true)) throw new Error(`${what}: got ${show(actual)}, want ${show(expected)}`);
}
function matchObject(actual, pattern, what = 'value') {
  if (!matches(actual, pattern)) throw new Error(`${what}: got ${show(actual)}, want at least ${show(pattern)}`);
}
function ok(cond, what) {
  if (!cond) throw new Error(what);
}

/** What `f` threw, or a failure if it returned. */
function thrown(f, what = 'call') {
  try {
    const v = f();
    throw new NotThrown(`${what}: returned ${show(v)}, want an error`);
  } catch (e) {
    if (e instanceof NotThrown) throw new Error(e.message);
    return e;
  }
}
class NotThrown extends Error {}

/** `f` throws a UriError of `code` (and `offset`, when given). */
function throwsUri(api, f, code, offset, what = 'call') {
  const e = thrown(f, what);
  ok(e instanceof api.UriError, `${what}: threw ${show(String(e))}, not a UriError`);
  if (code !== undefined) eq(e.code, code, `${what}: code`);
  if (offset !== undefined) eq(e.offset, offset, `${what}: offset`);
  return e;
}

/** True if `f` returns, false if it throws. */
const succeeds = (f) => {
  try {
    f();
    return true;
  } catch {
    return false;
  }
};

// ---- the tables: name -> (api, read) => [label, () => void][] ----

/** @type {Array<[string, (api: any, read: (path: string) => any) => Array<[string, () => void]>]>} */
const TABLES = [
  // core/parse.test.ts
  ['parse: core-references.json', (api, read) => read('data/core-references.json').cases.map((row) => [
    `${row.valid ? 'valid' : 'invalid'} ${row.kind} ${show(row.input)}`,
    () => {
      if (row.valid) {
        eq(api.isValid(row.input, row.kind), true, 'isValid');
        const ref = api.parse(row.input, row.kind);
        if (row.components) strictEqual(ref, row.components, 'parse');
        eq(api.serialize(ref), row.input, 'serialize');
        strictEqual(api.tryParse(row.input, row.kind), ref, 'tryParse');
      } else {
        eq(api.isValid(row.input, row.kind), false, 'isValid');
        eq(api.tryParse(row.input, row.kind), undefined, 'tryParse');
        throwsUri(api, () => api.parse(row.input, row.kind), row.code, row.offset, 'parse');
      }
    },
  ])],
  // core/conformance.test.ts
  ['parse: JSON-Schema-Test-Suite uri, uri-reference, iri, iri-reference', (api, read) => read('conformance/jsts-format.json')
    .filter((r) => ['uri', 'uri-reference', 'iri', 'iri-reference'].includes(r.format))
    .map((r) => [`${r.format} ${show(r.input)}`, () => eq(api.isValid(r.input, r.format), r.valid, 'isValid')])],
  // profiles/spec-examples.test.ts
  ['parse: every URL of the five documents (spec-url-examples.json)', (api, read) => read('data/spec-url-examples.json').cases.map((ex) => [
    `${ex.document} ${ex.section}: ${ex.uri}`,
    () => {
      const opts = { profile: ex.profile };
      eq(api.isValid(ex.uri, 'uri', opts), true, 'isValid');
      const ref = api.parse(ex.uri, 'uri', opts);
      if (ex.parts) strictEqual(ref, ex.parts, 'parse');
      const codec = api.getScheme(ref.scheme);
      if (ex.codec) {
        ok(codec !== undefined, `no codec for ${ref.scheme}`);
        const typed = codec.parse(ref);
        if (ref.scheme === 'urn') matchObject(typed, ex.codec, 'codec.parse');
        else strictEqual(typed, ex.codec, 'codec.parse');
      }
      if (ex.equivalentTo) eq(api.equivalent(ex.uri, ex.equivalentTo, { level: ex.level ?? 'scheme' }), true, 'equivalent');
      if (ex.notEquivalentTo) eq(api.equivalent(ex.uri, ex.notEquivalentTo), false, 'equivalent');
      if (ex.resolve) eq(api.resolve(ex.uri, ex.resolve.ref, opts), ex.resolve.expected, 'resolve');
    },
  ])],
  // profiles/url-1993.test.ts
  ['parse and resolve: the 1993 draft (url-1993.json)', (api, read) => {
    const t = read('profiles/url-1993.json');
    const profile = 'url-1993';
    return [
      ...t.valid.map((c) => [`valid ${c.uri}`, () => {
        eq(api.isValid(c.uri, 'uri', { profile }), true, 'isValid');
        eq(api.parse(c.uri, 'uri', { profile }).scheme, c.uri.slice(0, c.uri.indexOf(':')), 'scheme');
      }]),
      ...t.invalid.map((c) => [`invalid ${c.uri}`, () => {
        eq(api.isValid(c.uri, 'uri', { profile }), false, 'isValid');
        eq(api.tryParse(c.uri, 'uri', { profile }), undefined, 'tryParse');
      }]),
      ...t.partialValid.map((p) => [`partial ${show(p)}`, () => {
        eq(api.isValid(p, 'uri-reference', { profile }), true, 'isValid uri-reference');
        eq(api.isValid(p, 'uri', { profile }), false, 'isValid uri');
      }]),
      ...t.partialInvalid.map((p) => [`not partial ${show(p)}`, () => eq(api.isValid(p, 'uri-reference', { profile }), false, 'isValid')]),
      ...t.resolve.map((c) => [`resolve ${show(c.ref)}`, () => eq(api.resolve(t.base, c.ref, { profile }), c.expected, 'resolve')]),
    ];
  }],
  // core/resolve.test.ts
  ['resolve: RFC 3986 §5.4', (api, read) => {
    const t = read('data/rfc3986-5.4-examples.json');
    return t.cases.map((c) => [`§${c.section} ${show(c.ref)}`, () => {
      eq(api.resolve(t.base, c.ref), c.expected, 'resolve');
      eq(api.resolve(t.base, c.ref, { strict: true }), c.expected, 'strict');
      eq(api.resolve(t.base, c.ref, { strict: false }), c.nonStrict ?? c.expected, 'non-strict');
    }]);
  }],
  // profiles/appendix-c.test.ts
  ...[['data/appendix-c-1997.json', 'draft-1997'], ['data/appendix-c-2003.json', 'draft-2003'], ['data/rfc3986-5.4-examples.json', undefined]].map(([file, profile]) => [
    `resolve: ${file.slice(5)} under ${profile ?? 'the default profile'}`,
    (api, read) => {
      const doc = read(file);
      return doc.cases.map((c) => [`${c.section} ${show(c.ref)}`, () => {
        const strict = c.strict ?? true;
        eq(api.resolve(doc.base, c.ref, profile ? { profile, strict } : { strict }), c.expected, 'resolve');
        if (c.nonStrict !== undefined) eq(api.resolve(doc.base, c.ref, { strict: false }), c.nonStrict, 'non-strict');
      }]);
    },
  ]),
  // profiles/above-root.test.ts
  ['resolve: ".." above the root (above-root.json)', (api, read) => read('data/above-root.json').cases.map((c) => [`${c.profile}: ${c.base} + ${c.ref}`, () => {
    const profile = c.profile;
    eq(api.resolve(c.base, c.ref, { profile, aboveRoot: 'keep' }), c.keep, 'keep');
    eq(api.resolve(c.base, c.ref, { profile, aboveRoot: 'remove' }), c.remove, 'remove');
    eq(api.resolve(c.base, c.ref, { profile }), c[c.default], 'default');
    if (c.keep === c.remove) eq(api.resolve(c.base, c.ref, { profile, aboveRoot: 'error' }), c.keep, 'error');
    else throwsUri(api, () => api.resolve(c.base, c.ref, { profile, aboveRoot: 'error' }), 'above-root', undefined, 'error');
  }])],
  // core/normalize.test.ts
  ['normalize: RFC 3986 §6.2.2, §6.2.3', (api, read) => read('data/rfc3986-6-normalization.json').normalize.map((row) => [`§${row.section} ${show(row.input)}`, () => {
    if (row.error !== undefined) {
      throwsUri(api, () => api.normalize(row.input), row.error, undefined, 'normalize');
      return;
    }
    eq(api.normalize(row.input, { level: 'syntax' }), row.syntax, 'syntax');
    eq(api.normalize(row.input, { level: 'scheme' }), row.scheme, 'scheme');
    eq(api.normalize(row.input), row.scheme, 'default');
  }])],
  ['equivalent: RFC 3986 §6.2', (api, read) => read('data/rfc3986-6-normalization.json').equivalent.map((row) => [`§${row.section} ${row.a} ${row.b} ${row.level}`, () => {
    const opts = { level: row.level, ignoreFragment: row.ignoreFragment ?? false };
    eq(api.equivalent(row.a, row.b, opts), row.equivalent, 'a, b');
    eq(api.equivalent(row.b, row.a, opts), row.equivalent, 'b, a');
  }])],
  // host/hostname.test.ts
  ['hosts: isHostname / checkHostname (hostname.json)', (api, read) => read('host/hostname.json').hostnames.map((c) => [show(c.input), () => {
    eq(api.isHostname(c.input), c.valid, 'isHostname');
    if (c.valid) api.checkHostname(c.input);
    else throwsUri(api, () => api.checkHostname(c.input), 'bad-hostname', c.offset, 'checkHostname');
  }])],
  ['hosts: parseHost (hostname.json)', (api, read) => read('host/hostname.json').hosts.map((c) => [show(c.input), () => {
    if (c.expect) {
      const h = api.parseHost(c.input, c.options);
      equal(h, c.expect, 'parseHost');
      eq(api.formatHost(h), c.formatted ?? c.input, 'formatHost');
    } else {
      throwsUri(api, () => api.parseHost(c.input, c.options), c.error, c.offset, 'parseHost');
    }
  }])],
  ['hosts: JSON-Schema-Test-Suite ipv4, ipv6, hostname, idn-hostname', (api, read) => {
    const rulings = read('host/jsts-rulings.json');
    const ours = (format, input) => {
      switch (format) {
        case 'ipv4': return api.tryParseHost(input)?.kind === 'ipv4';
        case 'ipv6': return api.tryParseHost(`[${input}]`)?.kind === 'ipv6';
        case 'hostname': return api.isHostname(input) && succeeds(() => api.domainToASCII(input));
        default: return succeeds(() => api.domainToASCII(input));
      }
    };
    return read('conformance/jsts-format.json').filter((r) => ['ipv4', 'ipv6', 'hostname', 'idn-hostname'].includes(r.format)).map((r) => {
      const ruling = rulings.rulings.find((x) => x.format === r.format && x.input === r.input);
      const gap = rulings.expectedFailures.find((x) => x.format === r.format && x.input === r.input);
      return [`${r.format} ${show(r.input)}`, () => {
        if (gap) ok(ours(r.format, r.input) !== r.valid, 'an expected failure passes');
        else if (ruling) {
          ok(ruling.ours !== r.valid, 'a ruling that agrees with the suite');
          eq(ours(r.format, r.input), ruling.ours, `ruling (${ruling.ruling.slice(0, 60)})`);
        }
        else eq(ours(r.format, r.input), r.valid, 'valid');
      }];
    });
  }],
  // host/ipv6.test.ts
  ['hosts: IPv6 addresses (ipv6.json)', (api, read) => read('host/ipv6.json').addresses.map((c) => [`[${c.input}]`, () => {
    if (c.valid) {
      const h = api.parseHost(`[${c.input}]`);
      equal(h, { kind: 'ipv6', groups: c.groups, text: c.canonical }, 'parseHost');
      eq(api.formatHost(h), `[${c.canonical}]`, 'formatHost');
      equal(api.parseHost(`[${c.canonical}]`), h, 'canonical text');
    } else {
      const e = throwsUri(api, () => api.parseHost(`[${c.input}]`), undefined, undefined, 'parseHost');
      ok(['bad-ipv6', 'bad-zone-id', 'unclosed-ip-literal', 'bad-host'].includes(e.code), `code ${e.code}`);
      ok(e.offset >= 1 && e.offset <= c.input.length + 2, `offset ${e.offset}`);
    }
  }])],
  ['hosts: RFC 6874 zone identifiers (ipv6.json)', (api, read) => read('host/ipv6.json').zones.map((z) => [`[${z.input}]`, () => {
    if (z.valid) equal(api.parseHost(`[${z.input}]`), { kind: 'ipv6', groups: z.groups, zone: z.zone, text: z.canonical }, 'parseHost');
    else eq(api.tryParseHost(`[${z.input}]`), undefined, 'tryParseHost');
  }])],
  ['hosts: the Dartware IPv6 list through parseHost', (api, read) => read('conformance/ipv6list.json').map((r) => [show(r.input), () => {
    eq(api.tryParseHost(`[${r.input}]`)?.kind === 'ipv6', r.valid, 'an IPv6 host');
  }])],
  // core/ip.test.ts
  ['hosts: the Dartware IPv6 list through parseIPv6Address', (api, read) => read('conformance/ipv6list.json').map((row) => [show(row.input), () => {
    eq(api.isIPv6Address(row.input), row.valid, 'isIPv6Address');
    if (row.valid) {
      const text = api.formatIPv6(api.parseIPv6Address(row.input).groups);
      eq(api.formatIPv6(api.parseIPv6Address(text).groups), text, 'formatIPv6 is a fixed point');
    }
  }])],
  // host/legacy-ipv4.test.ts: two tests per row (inet_aton, the URL Standard), and the deviations
  ['hosts: rare IPv4 formats (legacy-ipv4.json)', (api, read) => {
    const data = read('host/legacy-ipv4.json');
    return [
      ...data.cases.flatMap((c) => [
        [`${show(c.input)} as inet_aton`, () => eq(api.interpretLegacyIPv4(c.input), c.address ?? undefined, 'interpretLegacyIPv4')],
        [`${show(c.input)} as the URL Standard`, () => eq(api.interpretLegacyIPv4(c.input, { reader: 'url' }), c.url ?? undefined, 'interpretLegacyIPv4 url')],
      ]),
      ...data.deviations.map((d) => [`DEVIATION ${show(d.input)}`, () => {
        ok(d.glibc !== null, 'glibc');
        eq(api.interpretLegacyIPv4(d.input), d.address ?? undefined, 'interpretLegacyIPv4');
      }]),
    ];
  }],
  // host/classify.test.ts
  ['hosts: classifyHost (classify.json)', (api, read) => read('host/classify.json').cases.map((c) => [c.host, () => {
    eq(api.classifyHost(c.host), c.class, 'classifyHost');
    const info = api.inspectHost(c.host);
    eq(info.class, c.class, 'inspectHost');
    if (c.embeddedIPv4) eq(info.embeddedIPv4?.text, c.embeddedIPv4, 'embeddedIPv4');
  }])],
  // host/idna.test.ts
  ['IDNA: Punycode (punycode.json)', (api, read) => {
    const puny = read('host/punycode.json');
    const both = (s) => () => {
      eq(api.punycodeEncode(s.decoded), s.encoded, 'punycodeEncode');
      eq(api.punycodeDecode(s.encoded), s.decoded, 'punycodeDecode');
    };
    return [
      ...puny.samples.map((s) => [`(${s.sample}) ${s.name}`, both(s)]),
      ...puny.extra.map((s) => [show(s.encoded), both(s)]),
      ...puny.bad.map((b) => [`refuses ${show(b.encoded)}`, () => throwsUri(api, () => api.punycodeDecode(b.encoded), 'bad-idna', b.offset, 'punycodeDecode')]),
    ];
  }],
  ['IDNA: domainToASCII / domainToUnicode (idna.json)', (api, read) => {
    const idna = read('host/idna.json');
    return [
      ...idna.valid.map((c) => [show(c.input.slice(0, 50)), () => {
        const opts = c.options ?? undefined;
        eq(api.domainToASCII(c.input, opts), c.ascii, 'domainToASCII');
        eq(api.domainToUnicode(c.input, opts), c.unicode, 'domainToUnicode');
        eq(api.domainToASCII(c.unicode, opts), c.ascii, 'domainToASCII of the Unicode form');
        eq(api.domainToUnicode(c.ascii, opts), c.unicode, 'domainToUnicode of the ASCII form');
      }]),
      ...idna.invalid.map((c) => [`refuses ${show(c.input.slice(0, 50))}`, () => {
        throwsUri(api, () => api.domainToASCII(c.input), 'bad-idna', c.offset, 'domainToASCII');
        if ('toUnicode' in c) eq(api.domainToUnicode(c.input), c.toUnicode, 'domainToUnicode');
        else throwsUri(api, () => api.domainToUnicode(c.input), 'bad-idna', undefined, 'domainToUnicode');
      }]),
    ];
  }],
  // host/idna-conformance.test.ts
  ['IDNA: UTS #46 IdnaTestV2.txt 17.0, every line', (api, read) => {
    const text = read('conformance/IdnaTestV2-17.0.txt');
    const unescape = (s) => s.replace(/\\u([0-9A-Fa-f]{4})|\\x\{([0-9A-Fa-f]+)\}/g, (_, a, b) => String.fromCodePoint(parseInt(a ?? b, 16)));
    const expected = new Map();
    for (const l of read('host/idna-expected-failures.txt').split('\n')) {
      const m = /^(\d+)\s+(toAsciiN|toUnicode)\s+(.+)$/.exec(l.trim());
      if (m) expected.set(`${m[1]} ${m[2]}`, m[3]);
    }
    const cases = [];
    text.split('\n').forEach((raw, i) => {
      const body = raw.replace(/#.*/, '');
      if (body.trim() === '') return;
      // Blank columns: toUnicode is the source, a status is none ([]), toAsciiN is toUnicode, its status toUnicode's.
      const c = body.split(';').map((x) => x.trim());
      const source = unescape(c[0]);
      const toUnicode = c[1] === '' ? source : unescape(c[1]);
      const uStatus = c[2] === '' ? '[]' : c[2];
      const toAsciiN = c[3] === '' ? toUnicode : unescape(c[3]);
      const aStatus = c[4] === '' ? uStatus : c[4];
      const line = i + 1;
      cases.push([`line ${line}`, () => {
        for (const [op, f, want, wantError] of [['toAsciiN', api.domainToASCII, toAsciiN, aStatus !== '[]'], ['toUnicode', api.domainToUnicode, toUnicode, uStatus !== '[]']]) {
          let value;
          let failed = false;
          try { value = f(source); } catch { failed = true; }
          const passes = wantError ? failed : !failed && value === want;
          const why = expected.get(`${line} ${op}`);
          if (why === undefined) ok(passes, `${op} of ${show(source)}: got ${failed ? 'an error' : show(value)}, want ${wantError ? 'an error' : show(want)}`);
          else ok(!passes, `${op}: listed as an expected failure (${why}) but passes`);
        }
      }]);
    });
    return cases;
  }],
  // iri/iri.test.ts
  ['IRIs: iriToUri / uriToIri (iri.json)', (api, read) => {
    const data = read('iri/iri.json');
    return [
      ...data.iriToUri.map((c) => [`iriToUri ${c.iri}`, () => {
        const uri = api.iriToUri(c.iri, c.options);
        eq(uri, c.uri, 'iriToUri');
        eq(api.isValid(uri, 'uri-reference'), true, 'isValid');
      }]),
      ...data.uriToIri.map((c) => [`uriToIri ${c.uri}`, () => {
        const iri = api.uriToIri(c.uri, c.options);
        eq(iri, c.iri, 'uriToIri');
        eq(api.isValid(iri, 'iri-reference'), true, 'isValid');
      }]),
    ];
  }],
  // schemes/codecs.test.ts
  ['schemes: the codecs (codecs.json)', (api, read) => {
    const t = read('schemes/codecs.json');
    const codecOf = (uri) => {
      const ref = api.parse(uri, 'uri');
      const codec = api.getScheme(ref.scheme);
      if (codec === undefined) throw new Error(`no codec for ${ref.scheme}`);
      return { ref, codec };
    };
    return [
      ...t.valid.map((c) => [`valid ${c.uri}`, () => {
        const { ref, codec } = codecOf(c.uri);
        codec.validate(ref);
        const typed = codec.parse(ref);
        if (ref.scheme === 'urn') matchObject(typed, c.fields, 'codec.parse');
        else if (ref.scheme === 'data') {
          // The payload is compared as text: "data": null in the table stands for the octets after ",".
          strictEqual({ ...typed, data: null }, c.fields, 'codec.parse');
          eq(new TextDecoder().decode(typed.data), decodeURIComponent(c.uri.slice(c.uri.indexOf(',') + 1)), 'data');
        } else strictEqual(typed, c.fields, 'codec.parse');
      }]),
      ...t.invalid.map((c) => [`invalid ${c.uri}`, () => {
        const ref = api.parse(c.uri, 'uri');
        const codec = api.getScheme(ref.scheme);
        throwsUri(api, () => codec.validate(ref), c.code, undefined, 'validate');
        thrown(() => codec.parse(ref), 'codec.parse');
      }]),
      ...t.roundTrip.map((uri) => [`round trip ${uri}`, () => {
        const { ref, codec } = codecOf(uri);
        eq(codec.build(codec.parse(ref)), uri, 'build');
      }]),
      ...t.normalize.map((c) => [`normalize ${c.uri}`, () => {
        eq(api.normalize(c.uri, { level: 'scheme' }), c.expected, 'normalize');
        eq(api.normalize(c.expected, { level: 'scheme' }), c.expected, 'normalize is idempotent');
      }]),
      ...t.equivalent.map((c) => [`equivalent ${c.a} ${c.b}`, () => {
        eq(api.equivalent(c.a, c.b), c.expected, 'a, b');
        eq(api.equivalent(c.b, c.a), c.expected, 'b, a');
      }]),
    ];
  }],
  // schemes/charset.test.ts
  ['schemes: the charset of ftp, gopher and news (charset.json)', (api, read) => {
    const codecs = {
      ftp: (charset) => (charset ? api.ftpCodec({ charset }) : api.ftpScheme),
      gopher: (charset) => (charset ? api.gopherCodec({ charset }) : api.gopherScheme),
      news: (charset) => (charset ? api.newsCodec({ charset }) : api.newsScheme),
    };
    return read('schemes/charset.json').cases.map((c) => [`${c.uri}: ${c.field}`, () => {
      const ref = api.parse(c.uri, 'uri');
      const latin1 = codecs[c.codec]('iso-8859-1');
      equal(latin1.parse(ref)[c.field], c['iso-8859-1'], 'iso-8859-1');
      equal(codecs[c.codec]('utf-8').parse(ref)[c.field], c['utf-8'], 'utf-8');
      equal(codecs[c.codec]().parse(ref)[c.field], c['utf-8'], 'default');
      codecs[c.codec]().validate(ref);
      eq(latin1.build(latin1.parse(ref)).toUpperCase(), c.uri.toUpperCase(), 'build');
    }]);
  }],
  // schemes/file-path.test.ts
  ['schemes: file URIs and paths (file-path.json)', (api, read) => {
    const t = read('schemes/file-path.json');
    return [
      ...t.toPath.map((c) => [`toPath ${c.uri}`, () => {
        if (c.posix !== undefined) eq(api.fileUriToPath(c.uri), c.posix, 'posix');
        if (c.windows !== undefined) eq(api.fileUriToPath(c.uri, { windows: true }), c.windows, 'windows');
      }]),
      ...t.toPathErrors.map((c) => [`no path ${c.uri}`, () => throwsUri(api, () => api.fileUriToPath(c.uri, { windows: !c.posix }), undefined, undefined, 'fileUriToPath')]),
      ...t.toUri.map((c) => [`toUri ${show(c.posix ?? c.windows)}`, () => eq(api.pathToFileUri(c.posix ?? c.windows, { windows: c.windows !== undefined }), c.uri, 'pathToFileUri')]),
      ...t.toUriErrors.map((c) => [`refused ${show(c.posix ?? c.windows)}`, () => thrown(() => api.pathToFileUri(c.posix ?? c.windows, { windows: c.windows !== undefined }), 'pathToFileUri')]),
    ];
  }],
  // schemes/urn-codec.test.ts
  ['schemes: the urn codec on every URN of the five documents (spec-urns.json)', (api, read) => read('urn/data/spec-urns.json').urns.map((c) => [`${c.input} (${c.profile})`, () => {
    // 1995 draft §2: the angle brackets delimit a URN in text; they are not part of it.
    const uri = c.input.replace(/^<|>$/g, '');
    const codec = api.urnCodec(c.profile);
    const urn = codec.parse(api.parse(uri, 'uri'));
    matchObject(urn, c.expect, 'codec.parse');
    if (uri.startsWith('urn:')) eq(codec.build(urn), uri, 'build');
  }])],
  // security/lint.test.ts
  ['security: lint (lint.json)', (api, read) => {
    const t = read('security/lint.json');
    return [
      ...t.cases.map((c) => [`${c.uri} (${c.section})`, () => {
        const got = api.lint(c.uri, 'options' in c ? c.options : undefined);
        equal(got.map(({ code, start, end }) => ({ code, start, end })), c.findings, 'findings');
        for (const g of got) {
          if (!(g.code in api.LINT_RULES)) continue; // the UriError of an input that does not parse
          const rule = api.LINT_RULES[g.code];
          eq(g.severity, rule[0], 'severity');
          ok(g.message.startsWith(rule[1]), `message ${show(g.message)}`);
        }
      }]),
      ...t.clean.map((uri) => [`silent on ${show(uri)}`, () => {
        equal(api.lint(uri), [], 'lint');
        equal(api.lint(uri, { differential: true }), [], 'lint differential');
      }]),
    ];
  }],
  // security/differential.test.ts
  ['security: parserDifferentials (differential.json)', (api, read) => read('security/differential.json').cases.map((c) => [show(c.uri), () => {
    const got = api.parserDifferentials(c.uri);
    equal(got.map((d) => d.kind), c.differentials.map((d) => d.kind), 'kinds');
    c.differentials.forEach((d, i) => matchObject(got[i], Object.fromEntries(Object.entries(d).map(([k, v]) => [k, v ?? undefined])), `differential ${i}`));
    for (const d of got) ok(d.start >= 0 && d.end <= c.uri.length, `span ${d.start}-${d.end}`);
    const findings = api.lint(c.uri, { differential: true }).filter((f) => f.code === 'parser-differential');
    equal(findings.map((f) => [f.start, f.end]), got.map((d) => [d.start, d.end]), 'lint findings');
    eq(api.lint(c.uri).some((f) => f.code === 'parser-differential'), false, 'lint without the option');
  }])],
  // urn/syntax.test.ts
  ...[['rfc8141', 'urn/data/syntax-rfc8141.json'], ['urn-2012', 'urn/data/syntax-urn-2012.json'], ['yaurn-1995', 'urn/data/syntax-yaurn-1995.json']].map(([profile, file]) => [
    `URNs: parseUrn, profile ${profile}`,
    (api, read) => {
      const data = read(file);
      const parts = ['nid', 'nss', 'rComponent', 'qComponent', 'fComponent', 'schemeId', 'authorityId', 'elementId', 'experimental', 'reservedRequest'];
      return [
        ...data.valid.map((row) => [`valid: ${row.input}`, () => {
          const urn = api.parseUrn(row.input, { profile });
          eq(urn.profile, profile, 'profile');
          for (const k of parts) {
            if (k in row) equal(urn[k], row[k], k);
            else if (k !== 'nid' && k !== 'nss') eq(urn[k], undefined, k);
          }
          if ('directives' in row) equal(urn.directives?.map((d) => [d.keyword, d.value]), row.directives, 'directives');
          eq(api.isValidUrn(row.input, { profile }), true, 'isValidUrn');
        }]),
        ...data.invalid.map((row) => [`invalid: ${row.input}`, () => {
          throwsUri(api, () => api.parseUrn(row.input, { profile }), row.code, row.offset, 'parseUrn');
          eq(api.isValidUrn(row.input, { profile }), false, 'isValidUrn');
        }]),
      ];
    },
  ]),
  ['URNs: every URN of the five documents (spec-urns.json)', (api, read) => {
    const data = read('urn/data/spec-urns.json');
    return [
      ...data.urns.map((row) => [`${row.doc} ${row.section}: ${row.input}`, () => {
        const urn = api.parseUrn(row.input, { profile: row.profile });
        for (const [k, v] of Object.entries(row.expect)) equal(urn[k], v, k);
      }]),
      ...data.notUrns.map((row) => [`${row.doc}: ${row.text} is not a URN`, () => eq(api.isValidUrn(row.text), false, 'isValidUrn')]),
    ];
  }],
  // urn/equivalence.test.ts
  ['URNs: 2012 draft §5.1 equivalence classes', (api, read) => {
    const t = read('urn/data/equivalence-2012.json');
    const ids = Object.keys(t.urns);
    return ['name', 'cache'].flatMap((purpose) => {
      const classOf = new Map();
      t.classes[purpose].forEach((cls, k) => cls.forEach((id) => classOf.set(id, k)));
      return ids.flatMap((a) => ids.map((b) => [`${purpose}: URN ${a} vs URN ${b}`, () => {
        eq(api.urnEquivalent(t.urns[a], t.urns[b], { profile: 'urn-2012', purpose }), classOf.get(a) === classOf.get(b), 'urnEquivalent');
      }]));
    });
  }],
  ['URNs: RFC 8141 §3.2 examples', (api, read) => read('urn/data/equivalence-rfc8141.json').groups.map((g) => [g.section.slice(0, 80), () => {
    const eqs = g.equivalent ?? [];
    const distinct = g.distinct ?? [];
    for (const a of eqs) for (const b of eqs) eq(api.urnEquivalent(a, b), true, `${a} ~ ${b}`);
    for (const a of distinct) for (const b of distinct) eq(api.urnEquivalent(a, b), a === b, `${a} vs ${b}`);
    for (const a of [...eqs, ...distinct]) {
      for (const b of g.notEquivalentTo ?? []) {
        eq(api.urnEquivalent(a, b), false, `${a} !~ ${b}`);
        eq(api.urnEquivalent(b, a), false, `${b} !~ ${a}`);
      }
    }
  }])],
  // urn/namespaces.test.ts
  ['URNs: the shipped namespaces (namespaces.json)', (api, read) => Object.entries(read('urn/data/namespaces.json').namespaces).flatMap(([nid, ns]) => [
    ...ns.valid.map((nss) => [`valid: urn:${nid}:${nss}`, () => {
      eq(api.getUrnNamespace(nid).validateNss(nss), -1, 'validateNss');
      eq(api.parseUrn(`urn:${nid}:${nss}`, { checkNamespace: true }).nss, nss, 'parseUrn');
    }]),
    ...ns.invalid.map(({ nss, at }) => [`invalid: urn:${nid}:${nss}`, () => {
      const generic = api.isValidUrn(`urn:${nid}:${nss}`);
      if (nid === 'example') {
        // RFC 6963: nothing beyond the generic syntax, which these break
        eq(generic, false, 'isValidUrn');
        throwsUri(api, () => api.parseUrn(`urn:${nid}:${nss}`), undefined, 5 + nid.length + at, 'parseUrn');
        return;
      }
      eq(api.getUrnNamespace(nid).validateNss(nss), at, 'validateNss');
      if (generic) {
        eq(api.isValidUrn(`urn:${nid}:${nss}`, { checkNamespace: true }), false, 'isValidUrn checkNamespace');
        throwsUri(api, () => api.parseUrn(`urn:${nid}:${nss}`, { checkNamespace: true }), 'bad-namespace-nss', 5 + nid.length + at, 'parseUrn');
      }
    }]),
    ...ns.equivalent.map(([a, b]) => [`equivalent: ${a} ~ ${b}`, () => {
      eq(api.urnEquivalent(a, b), true, 'urnEquivalent');
      eq(api.normalizeUrn(a), api.normalizeUrn(b), 'normalizeUrn');
      eq(api.normalizeUrn(api.normalizeUrn(a)), api.normalizeUrn(a), 'normalizeUrn is a fixed point');
    }]),
    ...ns.different.map(([a, b]) => [`not equivalent: ${a} vs ${b}`, () => {
      eq(api.urnEquivalent(a, b), false, 'urnEquivalent');
      eq(api.urnEquivalent(a, b, { namespaces: false }), false, 'urnEquivalent without namespaces');
    }]),
  ])],
  ['URNs: RFC 3151 publicid transcription (publicid.json)', (api, read) => {
    const p = read('urn/data/publicid.json');
    return [
      ...p.cases.map(({ publicId, nss, normalized }) => [`${publicId} <-> ${nss}`, () => {
        eq(api.publicIdToNss(publicId), nss, 'publicIdToNss');
        eq(api.nssToPublicId(nss), normalized ?? publicId, 'nssToPublicId');
        eq(api.isValidUrn(`urn:publicid:${nss}`, { checkNamespace: true }), true, 'isValidUrn');
      }]),
      ...p.invalidPublicIds.map(({ publicId, at }) => [`refuses ${publicId}`, () => throwsUri(api, () => api.publicIdToNss(publicId), 'invalid-char', at, 'publicIdToNss')]),
    ];
  }],
  // urn/directives.test.ts
  ['URNs: parseDirectives (directives.json)', (api, read) => {
    const data = read('urn/data/directives.json');
    return [
      ...data.valid.map(({ query, directives }) => [query, () => equal(api.parseDirectives(query).map((d) => [d.keyword, d.value, d.ignored]), directives, 'parseDirectives')]),
      ...data.invalid.map(({ query, code, offset }) => [`${query} -> ${code}`, () => throwsUri(api, () => api.parseDirectives(query), code, offset, 'parseDirectives')]),
    ];
  }],
  // urn/presentation.test.ts
  ['URNs: presentation and building (presentation.json)', (api, read) => {
    const data = read('urn/data/presentation.json');
    return [
      ...data.identifierToNss.map(({ text, nss }) => [`${text} -> ${nss}`, () => {
        eq(api.identifierToNss(text), nss, 'identifierToNss');
        eq(api.isValidUrn(`urn:example:${nss}`), true, 'isValidUrn');
        eq(api.isValidUrn(`urn:example:${nss}`, { profile: 'urn-2012' }), true, 'isValidUrn urn-2012');
      }]),
      ...data.refused.map((row) => [`refuses ${row.text ?? show(row.codeUnits)}`, () => {
        const text = 'codeUnits' in row ? String.fromCharCode(...row.codeUnits) : row.text;
        throwsUri(api, () => api.identifierToNss(text), row.code, row.offset, 'identifierToNss');
      }]),
      ...data.displayUrn.map(({ urn, display, profile }) => [`${urn} -> ${display}`, () => eq(api.displayUrn(urn, profile ? { profile } : undefined), display, 'displayUrn')]),
      ...data.build.map(({ parts, expect }) => [expect, () => eq(api.buildUrn(parts), expect, 'buildUrn')]),
      ...data.buildRefused.map(({ parts, code, why }) => [`refuses ${why}`, () => throwsUri(api, () => api.buildUrn(parts), code, undefined, 'buildUrn')]),
    ];
  }],
  // urn/nbn-check-digit.test.ts
  ['URNs: the NBN check digit (nbn-check-digit.json)', (api, read) => {
    const data = read('urn/data/nbn-check-digit.json');
    return [
      ...data.valid.map(({ urn }) => [`valid: ${urn}`, () => eq(api.parseUrn(urn, { checkNamespace: true }).nss, urn.slice(8), 'parseUrn')]),
      ...data.invalid.map(({ urn, code, offset }) => [`invalid: ${urn}`, () => {
        throwsUri(api, () => api.parseUrn(urn, { checkNamespace: true }), code, offset, 'parseUrn');
        if (code === 'bad-check-digit') eq(api.parseUrn(urn).nss, urn.slice(8), 'generic parseUrn');
      }]),
      ...data.mint.map(({ prefix, counter, width, urn }) => [`${prefix} + ${counter}`, () => {
        eq(api.mintNbn(prefix, { counter, ...(width !== undefined ? { width } : {}) }), urn, 'mintNbn');
      }]),
    ];
  }],
  // text/extract.test.ts
  ['extraction: plain-text cases (extract-cases.json)', (api, read) => {
    const noWhite = (s) => s.replace(/[\r\n]+[ >]*/g, '').replace(/[ \t]/g, '');
    const appendix = read('text/appendix-e.json');
    return [
      ...appendix.paragraphs.map(({ document, section, text, expected }) => [`${document} ${section}`, () => {
        const found = api.extractUris(text);
        equal(found.map((m) => m.uri), expected, 'extractUris');
        for (const m of found) eq(noWhite(text.slice(m.start, m.end)), m.uri, 'span');
      }]),
      ...read('text/extract-cases.json').cases.map(({ note, text, options, expected }) => [note, () => {
        const found = api.extractUris(text, options);
        equal(found, expected, 'extractUris');
        for (const m of found) {
          eq(api.isValid(m.uri, options?.iri === false ? 'uri' : 'iri'), true, `isValid ${m.uri}`);
          if (!m.abbreviated) eq(noWhite(text.slice(m.start, m.end)), m.uri, 'span');
        }
      }]),
    ];
  }],
  // text/base.test.ts
  ['extraction: base URIs and abbreviated URIs (base-cases.json, abbreviated-cases.json)', (api, read) => {
    const base = read('text/base-cases.json');
    return [
      ...base.layers.map(({ note, layers, expected, error }) => [`establishBase ${note}`, () => {
        if (error !== undefined) ok(api.isUriError(thrown(() => api.establishBase(layers), 'establishBase'), error), `establishBase: not a UriError ${error}`);
        else eq(api.establishBase(layers) ?? null, expected, 'establishBase');
      }]),
      ...base.headers.map(({ note, headers, outer, expected }) => [`baseFromHeaders ${note}`, () => eq(api.baseFromHeaders(headers, outer) ?? null, expected, 'baseFromHeaders')]),
      ...read('text/abbreviated-cases.json').cases.map(({ input, options, expected }) => [`expandAbbreviated ${input}`, () => eq(api.expandAbbreviated(input, options) ?? null, expected, 'expandAbbreviated')]),
    ];
  }],
];

/** The most failures of one table reported by name (enough to compare a runtime's list of differences). */
const MAX_FAILURES = 200;

/** The names of the tables, in the order they run. */
export const TABLE_NAMES = TABLES.map(([name]) => name);

/**
 * Runs every table on `api` (the module namespace of the bundled core).
 * `files` maps each path of TABLE_FILES to the file's text. Returns, per
 * table, the number of cases, how many failed, and the first failures
 * (the case and what went wrong).
 */
export function runTables(api, files) {
  const parsed = new Map();
  const read = (path) => {
    if (!(path in files)) throw new Error(`${path} was not passed in`);
    if (!parsed.has(path)) parsed.set(path, path.endsWith('.json') ? JSON.parse(files[path]) : files[path]);
    return parsed.get(path);
  };
  const tables = [];
  for (const [name, build] of TABLES) {
    let cases;
    try {
      cases = build(api, read);
    } catch (e) {
      tables.push({ name, cases: 0, failed: 1, failures: [{ case: '(the table)', message: `could not read the table: ${e}` }] });
      continue;
    }
    const failures = [];
    let failed = 0;
    for (const [label, check] of cases) {
      try {
        check();
      } catch (e) {
        failed++;
        if (failures.length < MAX_FAILURES) failures.push({ case: label, message: e instanceof Error ? e.message : String(e) });
      }
    }
    tables.push({ name, cases: cases.length, failed, failures });
  }
  return { runtime: runtimeName(), tables };
}
