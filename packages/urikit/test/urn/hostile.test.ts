/**
 * Hostile input: every URN entry point on 1 MiB adversarial strings
 * (`?+?+…`, `%%%…`, `::::…`, long NSSs with directives). The scanners are
 * one pass over `charCodeAt` (STYLE; RFC 8141 §2 and the 2012 draft's ABNF
 * need no backtracking), so each case is a correctness check on a large
 * input: results and error offsets are asserted, never a time.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  buildUrn, displayUrn, getDirective, getDirectiveKeyword, getUrnNamespace, identifierToNss, isValidUrn, normalizeUrn, nssToPublicId,
  parseDirectives, parseUrn, publicIdToNss, registerDirectiveKeyword, registerServiceDesignator, registerUrnNamespace, urnEquivalent,
  UriError,
} from 'urikit';
import type { UrnProfile } from 'urikit';

// The machine is shared: a generous per-test limit so that load never fails a case
// (a quadratic scanner on 1 MiB would still take far longer than this).
vi.setConfig({ testTimeout: 30_000 });

const MB = 1 << 20;
const rep = (s: string, total: number): string => s.repeat(Math.ceil(total / s.length));

function thrown(f: () => unknown): UriError {
  try {
    f();
  } catch (e) {
    if (e instanceof UriError) return e;
    throw e;
  }
  throw new Error('no error');
}

type Refused = [name: string, input: string, profile: UrnProfile, code: string, offset: number];

// Each input is about 1 MiB; the offset is that of the first offending character.
const refused: Refused[] = [
  ['?+ after ?+', `urn:ex:a?+${rep('?+', MB)}`, 'rfc8141', 'bad-urn-component', 10],
  ['?= after ?=', `urn:ex:a?=${rep('?=', MB)}`, 'rfc8141', 'bad-urn-component', 10],
  ['"?" then anything but "+" or "="', `urn:ex:a${rep('?', MB)}`, 'rfc8141', 'bad-urn-component', 9],
  ['%%% in the NSS', `urn:ex:${rep('%', MB)}`, 'rfc8141', 'bad-percent', 7],
  ['a cut triplet after 1 MiB of triplets', `urn:ex:${rep('%41', MB)}%4`, 'rfc8141', 'bad-percent', 7 + 3 * Math.ceil(MB / 3)],
  ['%00 after 1 MiB', `urn:ex:${rep('a', MB)}%00`, 'rfc8141', 'nul-in-urn', 7 + MB],
  [':::: for a NID', `urn:${rep(':', MB)}`, 'rfc8141', 'bad-nid', 4],
  ['a 1 MiB NID', `urn:${rep('a', MB)}:x`, 'rfc8141', 'bad-nid', 36],
  ['"#" after "#"', `urn:ex:a${rep('#', MB)}`, 'rfc8141', 'bad-urn-component', 9],
  ['a space after 1 MiB of r-component', `urn:ex:a?+${rep('r?', MB)} `, 'rfc8141', 'bad-urn-component', 10 + 2 * Math.ceil(MB / 2)],
  ['"/" in a 2012 NSS', `urn:ex:${rep('a/', MB)}`, 'urn-2012', 'bad-nss', 8],
  ['&& in 1 MiB of directives', `urn:ex:a?${rep('s=1&', MB)}&`, 'urn-2012', 'bad-directive', 9 + 4 * Math.ceil(MB / 4)],
  ['a keyword of dashes', `urn:ex:a?${rep('-', MB)}=1`, 'urn-2012', 'bad-directive', 9],
  ['%%% in a directive value', `urn:ex:a?s=${rep('%', MB)}`, 'urn-2012', 'bad-percent', 11],
  [':::: in a 1995 AuthorityID', `urn:dns:${rep(':', MB)}`, 'yaurn-1995', 'bad-nss', 8],
  ['white space outside "<" ">"', `urn:dns:a.example.com:${rep(' x', MB)}`, 'yaurn-1995', 'unbracketed-whitespace', 22],
  ['a 1 MiB host name', `urn:dns:${rep('a.', MB)}com:x`, 'yaurn-1995', 'bad-nss', 8 + 255],
  ['"?" after 1 MiB of white space', `<urn:dns:a.example.com:${rep(' ', MB)}?>`, 'yaurn-1995', 'reserved-element-id', 23 + MB],
];

describe('1 MiB hostile inputs are refused at the first offending character', () => {
  it.each(refused)('%s', (_name, input, profile, code, offset) => {
    const e = thrown(() => parseUrn(input, { profile }));
    expect([e.code, e.offset]).toEqual([code, offset]);
    expect(isValidUrn(input, { profile })).toBe(false);
    expect(thrown(() => normalizeUrn(input, { profile })).offset).toBe(offset);
  });
});

describe('1 MiB valid inputs are read whole', () => {
  it('an r-component of "?+" pairs after a pchar', () => {
    const r = `a${rep('?+', MB)}`;
    const urn = parseUrn(`urn:ex:x?+${r}`);
    expect(urn.rComponent).toBe(r);
    expect(urnEquivalent(`urn:ex:x?+${r}`, 'URN:EX:x')).toBe(true);
  });
  it('an NSS of colons, and one of 1 MiB of triplets in either case', () => {
    expect(parseUrn(`urn:ex:${rep(':', MB)}`).nss).toHaveLength(MB);
    const lower = `urn:ex:${rep('%2c', MB)}`;
    const upper = `urn:ex:${rep('%2C', MB)}`;
    expect(normalizeUrn(lower)).toBe(upper);
    expect(urnEquivalent(lower, upper)).toBe(true);
    expect(urnEquivalent(lower, `urn:ex:${rep(',', MB / 3)}`)).toBe(false);
  });
  it('a long NSS with 1 MiB of directives (2012 draft §2.3: a repeated registered keyword is ignored)', () => {
    const input = `urn:ex:${rep('a', MB)}?${rep('s=I2L&', MB)}c=ToC`;
    const urn = parseUrn(input, { profile: 'urn-2012' });
    expect(urn.nss).toHaveLength(MB);
    expect(urn.directives!.length).toBe(Math.ceil(MB / 6) + 1);
    expect(getDirective(urn.directives, 's')).toBeUndefined();
    expect(getDirective(urn.directives, 'c')).toBe('ToC');
    // §5 step 5b: reordered by keyword, "c" first
    expect(normalizeUrn(input, { profile: 'urn-2012', purpose: 'cache' }).startsWith(`urn:ex:${'a'.repeat(MB)}?c=ToC&s=I2L&`)).toBe(true);
    expect(normalizeUrn(input, { profile: 'urn-2012' })).toBe(`urn:ex:${'a'.repeat(MB)}`);
  });
  it('a q-component of 1 MiB of directives', () => {
    const q = `${rep('x=y&', MB)}z=1`;
    const urn = parseUrn(`urn:ex:a?=${q}`);
    expect(urn.qComponent).toBe(q);
    expect(urn.directives!.at(-1)).toEqual({ keyword: 'z', value: '1', ignored: false });
    expect(parseDirectives(q)).toHaveLength(Math.ceil(MB / 4) + 1);
  });
  it('1 MiB of insignificant white space in a bracketed 1995 URN', () => {
    const urn = parseUrn(`<urn:dns:a.example.com:${rep(' x', MB)}>`, { profile: 'yaurn-1995' });
    expect(urn.elementId).toBe('x'.repeat(MB / 2));
  });
  it('buildUrn round-trips a 1 MiB NSS', () => {
    const nss = rep('a%2F:', MB);
    expect(parseUrn(buildUrn({ nid: 'ex', nss, rComponent: 'r', fComponent: 'f' })).nss).toBe(nss);
  });
});

describe('presentation and the namespaces on 1 MiB inputs', () => {
  it('identifierToNss and displayUrn', () => {
    expect(identifierToNss(rep('%', MB))).toBe('%25'.repeat(MB));
    const e = rep('\u00e9', MB);
    const nss = identifierToNss(e);
    expect(nss).toBe('%C3%A9'.repeat(MB));
    expect(displayUrn(`urn:ex:${nss}`)).toBe(`urn:ex:${e}`);
    expect(thrown(() => identifierToNss(`${rep('a', MB)}\u0000`)).offset).toBe(MB);
    expect(thrown(() => identifierToNss(`${rep('a', MB)}\uD800\u0000`))).toMatchObject({ code: 'invalid-char', offset: MB });
  });
  it('publicid both ways', () => {
    const id = rep('a//', MB);
    const nss = publicIdToNss(id);
    expect(nss).toBe('a:'.repeat(Math.ceil(MB / 3)));
    expect(nssToPublicId(nss)).toBe(id);
    expect(thrown(() => nssToPublicId(rep('%2F', MB))).offset).toBe(3);
    expect(thrown(() => nssToPublicId(`${rep('a', MB)}++`)).offset).toBe(MB + 1);
  });
  it.each([
    ['isbn', rep('1-', MB), 'bad-namespace-nss', 9 + 26],
    ['issn', rep('1', MB), 'bad-namespace-nss', 9 + 4],
    ['uuid', rep('a', MB), 'bad-namespace-nss', 9 + 8],
    ['oid', `${rep('1.', MB)}01`, 'bad-namespace-nss', 8 + 2 * Math.ceil(MB / 2) + 1],
    ['ietf', `id:${rep('a', MB)}:`, 'bad-namespace-nss', 9 + 3 + MB],
    ['ietf', `params:${rep('x::', MB)}`, 'bad-namespace-nss', 9 + 7 + 2],
    ['nbn', `fi${rep(':a', MB)}`, 'bad-namespace-nss', 8 + 2 + 2 * Math.ceil(MB / 2)],
    ['publicid', rep('+', MB), 'bad-namespace-nss', 13],
  ])('checkNamespace %s on 1 MiB', (nid, nss, code, offset) => {
    const e = thrown(() => parseUrn(`urn:${nid}:${nss}`, { checkNamespace: true }));
    expect([e.code, e.offset]).toEqual([code, offset]);
  });
  it.each([
    ['oid', rep('1.', MB) + '1'],
    ['ietf', `id:${rep('a-', MB)}b`],
    ['ietf', `params:${rep('x:', MB)}y`],
    ['nbn', `fi-${rep('x', MB)}`],
    ['publicid', rep('a:', MB)],
    ['example', rep('a/', MB)],
  ])('valid %s NSS of 1 MiB', (nid, nss) => {
    const input = `urn:${nid}:${nss}`;
    expect(isValidUrn(input, { checkNamespace: true })).toBe(true);
    expect(normalizeUrn(normalizeUrn(input))).toBe(normalizeUrn(input));
  });
});

describe('the registries on 1 MiB names', () => {
  it('refuse them at the first offending character and find nothing', () => {
    expect(thrown(() => registerUrnNamespace({ nid: rep('a', MB), reference: 'x' }))).toMatchObject({ code: 'bad-nid', offset: 32 });
    expect(thrown(() => registerUrnNamespace({ nid: `a${rep('_', MB)}`, reference: 'x' }))).toMatchObject({ code: 'bad-nid', offset: 1 });
    expect(getUrnNamespace(rep('ISBN', MB))).toBeUndefined();
    expect(thrown(() => registerDirectiveKeyword({ keyword: `${rep('a-', MB)}-`, purpose: '', scope: 'specific', reference: '' })).code).toBe('bad-directive');
    expect(thrown(() => registerServiceDesignator({ name: `${rep('I2L', MB)}&`, purpose: '', status: 'exp', reference: '' })).code).toBe('bad-directive');
    expect(getDirectiveKeyword(rep('s', MB))).toBeUndefined();
  });
  it('display a 1 MiB public identifier through its namespace', () => {
    expect(displayUrn(`urn:publicid:${rep('a:', MB)}`)).toBe(`urn:publicid:${rep('a//', (MB / 2) * 3)}`);
  });
});
