/**
 * The scheme registry: pre-populated without side-effect imports, `x-`
 * schemes, and a codec registered from outside the package (imported
 * from 'urikit' like any user would) used through normalize and equivalent.
 */
import { describe, expect, it } from 'vitest';
import {
  equivalent, getScheme, getSchemeRules, isUriError, listSchemes, normalize, parse, registerScheme,
  UriError, type SchemeCodec, type UriReference,
} from 'urikit';

describe('the built-in registry (RFC 3986 §6.2.3 facts per scheme)', () => {
  it.each([
    ['http', 80], ['https', 443], ['ws', 80], ['wss', 443], ['ftp', 21], ['gopher', 70],
    ['telnet', 23], ['nntp', 119], ['news', 119], ['wais', 210], ['prospero', 1525], ['rlogin', 513], ['tn3270', 23],
  ])('%s: default port %i, from getScheme and getSchemeRules, any case', (name, port) => {
    expect(getScheme(name)?.defaultPort).toBe(port);
    expect(getScheme(name.toUpperCase())?.defaultPort).toBe(port);
    expect(getSchemeRules(name)?.defaultPort).toBe(port);
  });
  it('lists every built-in scheme', () => {
    expect(listSchemes()).toEqual(expect.arrayContaining([
      'http', 'https', 'ws', 'wss', 'ftp', 'gopher', 'news', 'nntp', 'wais', 'prospero',
      'telnet', 'rlogin', 'tn3270', 'file', 'mailto', 'data', 'urn', 'afs',
    ]));
  });
  it('each built-in codec has the rules getSchemeRules gives', () => {
    for (const name of listSchemes().filter((n) => n !== 'acme')) {
      const codec = getScheme(name)!;
      const rules = getSchemeRules(name)!;
      expect(codec.name).toBe(name);
      for (const k of ['defaultPort', 'authority', 'emptyPathIsSlash', 'fragmentSignificant', 'experimental', 'normalize'] as const) {
        expect(codec[k], `${name}.${k}`).toBe(rules[k]);
      }
    }
  });
  it('x- schemes get the generic rules, flagged experimental (1993 draft); afs is experimental too', () => {
    const x = getScheme('X-Foo')!;
    expect(x.experimental).toBe(true);
    expect(x.name).toBe('x-foo');
    const ref = parse('x-foo://h/p?q', 'uri');
    expect(x.build(x.parse(ref))).toBe('x-foo://h/p?q');
    expect(getSchemeRules('x-foo')?.experimental).toBe(true);
    expect(getScheme('afs')?.experimental).toBe(true);
    expect(getScheme('x-')).toBeUndefined();
    expect(getScheme('no-such-scheme')).toBeUndefined();
  });
});

// A scheme codec written the way a user of the package would write one.
interface Acme { tenant: string; id: number }
const acme: SchemeCodec<Acme> = {
  name: 'ACME',
  defaultPort: 4040,
  authority: 'required',
  emptyPathIsSlash: true,
  validate(ref: UriReference) {
    if (!/^\/[0-9]+$/.test(ref.path)) throw new UriError('bad-scheme-specific-part', 0, ref.path);
  },
  parse(ref: UriReference): Acme {
    this.validate(ref);
    return { tenant: ref.host!, id: Number(ref.path.slice(1)) };
  },
  build: (f: Acme) => `acme://${f.tenant}/${f.id}`,
  // Ids are numbers: leading zeros do not count.
  normalize: (ref: UriReference) => (/^\/[0-9]+$/.test(ref.path) ? { ...ref, path: `/${Number(ref.path.slice(1))}` } : ref),
  // Tenants are compared without a "www." prefix.
  equivalent: (a: UriReference, b: UriReference) =>
    a.host?.replace(/^www\./, '') === b.host?.replace(/^www\./, '') && a.path === b.path,
};

describe('a codec registered from outside the package', () => {
  registerScheme(acme);
  it('is found by name, in any case', () => {
    expect(getScheme('acme')).toBe(acme);
    expect(listSchemes()).toContain('acme');
    expect(getScheme('acme')!.parse(parse('acme://corp/0042', 'uri'))).toEqual({ tenant: 'corp', id: 42 });
  });
  it('drives normalize: default port, empty path, its own rule', () => {
    expect(normalize('ACME://Corp:4040/0042', { level: 'scheme' })).toBe('acme://corp/42');
    expect(normalize('acme://corp:4040', { level: 'scheme' })).toBe('acme://corp/');
    expect(normalize('acme://corp:4041/7')).toBe('acme://corp:4041/7');
    // the syntax level does not consult the codec's own rule
    expect(normalize('acme://corp/0042', { level: 'syntax' })).toBe('acme://corp/0042');
  });
  it('drives equivalent', () => {
    expect(equivalent('acme://www.corp:4040/007', 'ACME://corp/7')).toBe(true);
    expect(equivalent('acme://corp/7', 'acme://other/7')).toBe(false);
    expect(equivalent('acme://www.corp/7', 'acme://corp/7', { level: 'syntax' })).toBe(false);
  });
  it('its validate throws a UriError', () => {
    let err: unknown;
    try { acme.validate(parse('acme://corp/x', 'uri')); } catch (e) { err = e; }
    expect(isUriError(err, 'bad-scheme-specific-part')).toBe(true);
  });
  it('can replace a built-in codec and be put back', () => {
    const builtin = getScheme('gopher')!;
    registerScheme({ ...builtin, defaultPort: 7070 } as SchemeCodec<unknown>);
    expect(normalize('gopher://h:7070/0x')).toBe('gopher://h/0x');
    registerScheme(builtin);
    expect(normalize('gopher://h:7070/0x')).toBe('gopher://h:7070/0x');
  });
});
