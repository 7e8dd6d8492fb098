/**
 * STYLE §11: every `@example` of src/urn and every example of
 * docs/readme/40-urn.md, run as written.
 */
import { describe, expect, it } from 'vitest';
import {
  buildUrn, displayUrn, getDirective, getDirectiveKeyword, getServiceDesignator, getUrnNamespace, identifierToNss,
  isValidUrn, listServiceDesignators, listUrnNamespaces, normalizeUrn, nssToPublicId, parseDirectives, parseUrn,
  publicIdToNss, registerDirectiveKeyword, registerServiceDesignator, registerUrnNamespace, urnEquivalent,
} from 'urikit';
import { CLASS } from '../../src/chars.js';
import { ALPHANUM, AUTHORITY_1995, CLASS_1995, ELEMENT_1995 } from '../../src/urn/chars.js';
import { checkFqdn } from '../../src/urn/yaurn.js';
import { upperPct } from '../../src/urn/equivalence.js';
import { checkIsbnDigits, isbn } from '../../src/urn/namespaces/isbn.js';
import { checkIssn, issn } from '../../src/urn/namespaces/issn.js';
import { uuid } from '../../src/urn/namespaces/uuid.js';
import { oid } from '../../src/urn/namespaces/oid.js';
import { ietf } from '../../src/urn/namespaces/ietf.js';
import { nbn } from '../../src/urn/namespaces/nbn.js';
import { publicid } from '../../src/urn/namespaces/publicid.js';
import { example } from '../../src/urn/namespaces/example.js';

describe('TSDoc examples of src/urn', () => {
  it('parse.ts', () => {
    expect(parseUrn('urn:example:a123,z456?+cc=1?=lang=en#p')).toEqual({
      profile: 'rfc8141', nid: 'example', nss: 'a123,z456', rComponent: 'cc=1', qComponent: 'lang=en',
      directives: [{ keyword: 'lang', value: 'en', ignored: false }], fComponent: 'p',
    });
    expect(isValidUrn('urn:ex:a?+')).toBe(false);
    expect(isValidUrn('urn:isbn:0-395-36341-1?s=I2L&c=ToC', { profile: 'urn-2012' })).toBe(true);
  });
  it('equivalence.ts', () => {
    expect(normalizeUrn('URN:FOO:a123%2c456#xyz')).toBe('urn:foo:a123%2C456');
    expect(normalizeUrn('urn:foo:a?c=ToC&s=I2L', { profile: 'urn-2012', purpose: 'cache' })).toBe('urn:foo:a?c=ToC&s=I2L');
    expect(urnEquivalent('URN:foo:a123,456', 'urn:FOO:a123,456')).toBe(true);
    expect(urnEquivalent('urn:foo:a123,456?x=y', 'urn:foo:a123,456', { profile: 'urn-2012', purpose: 'cache' })).toBe(false);
  });
  it('build.ts', () => {
    expect(buildUrn({ nid: 'example', nss: 'a123', rComponent: 'x', fComponent: 'p' })).toBe('urn:example:a123?+x#p');
    expect(buildUrn({ profile: 'urn-2012', nid: 'isbn', nss: '0-395-36341-1', directives: [{ keyword: 's', value: 'I2L' }] })).toBe('urn:isbn:0-395-36341-1?s=I2L');
  });
  it('directives.ts', () => {
    expect(parseDirectives('s=I2L&c=ToC')).toEqual([{ keyword: 's', value: 'I2L', ignored: false }, { keyword: 'c', value: 'ToC', ignored: false }]);
    expect(getDirective(parseDirectives('s=I2L&s=I2R&c=ToC'), 's')).toBeUndefined();
    expect(getDirectiveKeyword('s')?.purpose).toBe('intended URN resolution service');
    expect(getServiceDesignator('I2L')?.purpose).toBe('URI to URL');
    expect(listServiceDesignators().map((d) => d.name).slice(0, 2)).toEqual(['I2L', 'I2Ls']);
    registerDirectiveKeyword({ keyword: 'lang', purpose: 'language', scope: 'specific', reference: 'RFC 0000' });
    registerServiceDesignator({ name: 'I2T', purpose: 'URI to thumbnail', status: 'exp', reference: 'RFC 0000' });
    expect(getDirectiveKeyword('lang')?.scope).toBe('specific');
  });
  it('namespaces', () => {
    registerUrnNamespace({ nid: 'x-foo', reference: 'RFC 0000', normalizeNss: (nss) => nss.toLowerCase() });
    expect(normalizeUrn('urn:x-foo:ABC')).toBe('urn:x-foo:abc');
    expect(getUrnNamespace('ISBN')?.reference).toBe('RFC 3187, RFC 8254');
    expect(listUrnNamespaces().map((ns) => ns.nid).slice(0, 3)).toEqual(['example', 'ietf', 'isbn']);
    expect(isbn.normalizeNss?.('0-395-36341-x')).toBe('039536341X');
    expect(checkIsbnDigits('9780395363416')).toBe(-1);
    expect(checkIsbnDigits('0395363412')).toBe(9);
    expect(issn.validateNss?.('1050-124x')).toBe(-1);
    expect(checkIssn('0317-8471')).toBe(-1);
    expect(checkIssn('0317-8472')).toBe(8);
    expect(uuid.normalizeNss?.('F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6')).toBe('f81d4fae-7dec-11d0-a765-00a0c91e6bf6');
    expect(oid.validateNss?.('1.3.6.1')).toBe(-1);
    expect(ietf.normalizeNss?.('RFC:2648')).toBe('rfc:2648');
    expect(ietf.normalizeNss?.('PARAMS:xml:ns:XMPP-bind')).toBe('params:xml:ns:XMPP-bind');
    expect(nbn.normalizeNss?.('DE:bvb:19-146642')).toBe('de:bvb:19-146642');
    expect(publicid.displayNss?.('-:OASIS:DTD+DocBook+XML+V4.1.2:EN')).toBe('-//OASIS//DTD DocBook XML V4.1.2//EN');
    expect(example.validateNss?.('a123,z456')).toBe(-1);
    expect(publicIdToNss('ISO/IEC 10179:1996//DTD DSSSL Architecture//EN')).toBe('ISO%2FIEC+10179%3A1996:DTD+DSSSL+Architecture:EN');
    expect(nssToPublicId('ISO%2FIEC+10179%3A1996:DTD+DSSSL+Architecture:EN')).toBe('ISO/IEC 10179:1996//DTD DSSSL Architecture//EN');
  });
  it('presentation.ts, equivalence.ts, chars.ts, yaurn.ts', () => {
    expect(identifierToNss('ISO/IEC 10179:1996')).toBe('ISO%2FIEC%2010179:1996');
    expect(identifierToNss('Ölfeld #3')).toBe('%C3%96lfeld%20%233');
    expect(displayUrn('urn:example:%C3%96lfeld%2C3')).toBe('urn:example:Ölfeld%2C3');
    expect(upperPct('a%2cb')).toBe('a%2Cb');
    expect((CLASS[0x61]! & ALPHANUM) !== 0).toBe(true);
    expect((CLASS_1995[0x2b]! & ELEMENT_1995) !== 0).toBe(true);
    expect((CLASS_1995[0x3a]! & AUTHORITY_1995) !== 0).toBe(false);
    expect(checkFqdn('library.bigstate.edu')).toBe(-1);
    expect(checkFqdn('localhost')).toBe(9);
  });
});

describe('docs/readme/40-urn.md examples', () => {
  it('parsing and validating', () => {
    expect(parseUrn('URN:ISBN:0-395-36341-1?s=I2L&c=ToC', { profile: 'urn-2012' }).directives).toEqual([
      { keyword: 's', value: 'I2L', ignored: false }, { keyword: 'c', value: 'ToC', ignored: false },
    ]);
    expect(parseUrn('<urn:dns:library.bigstate.edu:aj17-mcc>', { profile: 'yaurn-1995' })).toEqual({
      profile: 'yaurn-1995', nid: 'dns', nss: 'library.bigstate.edu:aj17-mcc', schemeId: 'dns', authorityId: 'library.bigstate.edu', elementId: 'aj17-mcc',
    });
    expect(parseUrn('urn:dns:urn.flixco.com:urn+m', { profile: 'yaurn-1995' }).reservedRequest).toBe('m');
    expect(isValidUrn('urn:ex:a?x=y')).toBe(false);
    expect(isValidUrn('urn:isbn:0-395-36341-2', { checkNamespace: true })).toBe(false);
  });
  it('directives', () => {
    expect(parseDirectives('s=I2L&s=I2R&c=ToC').map((d) => d.ignored)).toEqual([true, true, false]);
    expect(getDirective(parseDirectives('s=I2L&c=ToC'), 's')).toBe('I2L');
    expect(getServiceDesignator('I2Ls')).toEqual({ name: 'I2Ls', purpose: 'URI to URLs', status: 'provisional', reference: 'RFC 2483 §4.2' });
  });
  it('equivalence', () => {
    expect(normalizeUrn('urn:ISBN:0-395-36341-1')).toBe('urn:isbn:0395363411');
    expect(urnEquivalent('urn:foo:a123,456', 'urn:foo:A123,456')).toBe(false);
    expect(urnEquivalent('urn:foo:a123,456?x=y', 'urn:foo:a123,456', { profile: 'urn-2012' })).toBe(true);
  });
  it('namespaces', () => {
    registerUrnNamespace({ nid: 'x-lower', reference: 'internal', validateNss: (nss) => (/^[a-z0-9]+$/i.test(nss) ? -1 : 0), normalizeNss: (nss) => nss.toLowerCase() });
    expect(urnEquivalent('urn:x-lower:ABC', 'urn:x-lower:abc')).toBe(true);
    expect(nssToPublicId('-:OASIS:DTD+DocBook+XML+V4.1.2:EN')).toBe('-//OASIS//DTD DocBook XML V4.1.2//EN');
  });
  it('presentation', () => {
    expect(displayUrn('urn:example:%E2%80%AEevil')).toBe('urn:example:%E2%80%AEevil');
    expect(displayUrn('urn:publicid:ISO%2FIEC+10179%3A1996:DTD+DSSSL+Architecture:EN')).toBe('urn:publicid:ISO/IEC 10179:1996//DTD DSSSL Architecture//EN');
  });
});
