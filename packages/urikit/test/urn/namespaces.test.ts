import { describe, expect, it } from 'vitest';
import { getUrnNamespace, isValidUrn, listUrnNamespaces, normalizeUrn, nssToPublicId, parseUrn, publicIdToNss, registerUrnNamespace, urnEquivalent, UriError } from 'urikit';
import data from './data/namespaces.json' with { type: 'json' };
import publicids from './data/publicid.json' with { type: 'json' };

type Ns = { valid: string[]; invalid: Array<{ nss: string; at: number }>; equivalent: string[][]; different: string[][] };
const table = data.namespaces as Record<string, Ns>;

describe('the shipped namespaces', () => {
  it('are all registered, each with at least 10 valid and 10 invalid identifiers in the table', () => {
    expect(listUrnNamespaces().map((ns) => ns.nid).sort()).toEqual(Object.keys(table).sort());
    for (const ns of Object.values(table)) {
      expect(ns.valid.length).toBeGreaterThanOrEqual(10);
      expect(ns.invalid.length).toBeGreaterThanOrEqual(10);
    }
  });
  for (const [nid, ns] of Object.entries(table)) {
    describe(nid, () => {
      it.each(ns.valid)(`valid: urn:${nid}:%s`, (nss) => {
        expect(getUrnNamespace(nid)!.validateNss!(nss)).toBe(-1);
        expect(parseUrn(`urn:${nid}:${nss}`, { checkNamespace: true }).nss).toBe(nss);
      });
      it.each(ns.invalid)(`invalid: urn:${nid}:$nss (problem at $at)`, ({ nss, at }) => {
        const plugin = getUrnNamespace(nid)!;
        const generic = isValidUrn(`urn:${nid}:${nss}`);
        if (nid === 'example') {
          // RFC 6963: nothing beyond the generic syntax, which these break
          expect(generic).toBe(false);
          let err: unknown;
          try { parseUrn(`urn:${nid}:${nss}`); } catch (e) { err = e; }
          expect((err as UriError).offset).toBe(5 + nid.length + at);
          return;
        }
        expect(plugin.validateNss!(nss)).toBe(at);
        if (generic) {
          expect(isValidUrn(`urn:${nid}:${nss}`, { checkNamespace: true })).toBe(false);
          expect(() => parseUrn(`urn:${nid}:${nss}`, { checkNamespace: true })).toThrow(expect.objectContaining({ code: 'bad-namespace-nss', offset: 5 + nid.length + at }));
        }
      });
      it.each(ns.equivalent)('equivalent: %s ~ %s', (a, b) => {
        expect(urnEquivalent(a, b)).toBe(true);
        // one canonical form for keys and storage, itself a fixed point
        expect(normalizeUrn(a)).toBe(normalizeUrn(b));
        expect(normalizeUrn(normalizeUrn(a))).toBe(normalizeUrn(a));
      });
      it.each(ns.different)('not equivalent: %s vs %s', (a, b) => {
        expect(urnEquivalent(a, b)).toBe(false);
        // the namespace only removes false negatives: without it they differ too
        expect(urnEquivalent(a, b, { namespaces: false })).toBe(false);
      });
    });
  }
});

describe('RFC 3151 publicid transcription, both ways', () => {
  it.each(publicids.cases)('$publicId <-> $nss', ({ publicId, nss, normalized }) => {
    expect(publicIdToNss(publicId)).toBe(nss);
    expect(nssToPublicId(nss)).toBe(normalized ?? publicId);
    expect(isValidUrn(`urn:publicid:${nss}`, { checkNamespace: true })).toBe(true);
  });
  it.each(publicids.invalidPublicIds)('refuses $publicId (at $at)', ({ publicId, at }) => {
    expect(() => publicIdToNss(publicId)).toThrow(expect.objectContaining({ code: 'invalid-char', offset: at }));
  });
  it('refuses what is not a public identifier', () => {
    expect(() => publicIdToNss('caf\u00e9')).toThrow(expect.objectContaining({ code: 'invalid-char', offset: 3 }));
    expect(() => publicIdToNss('   ')).toThrow(expect.objectContaining({ code: 'bad-nss' }));
    expect(() => nssToPublicId('a++b')).toThrow(expect.objectContaining({ code: 'bad-namespace-nss', offset: 2 }));
  });
});

describe('registerUrnNamespace', () => {
  it('plugs in a namespace with its own rules, found under any case of its NID', () => {
    registerUrnNamespace({ nid: 'X-Test', reference: 'test', validateNss: (nss) => (/^[a-z]+$/.test(nss) ? -1 : 0), normalizeNss: (nss) => nss.toLowerCase() });
    expect(getUrnNamespace('x-test')?.nid).toBe('x-test');
    expect(isValidUrn('urn:X-TEST:abc', { checkNamespace: true })).toBe(true);
    expect(isValidUrn('urn:x-test:ABC', { checkNamespace: true })).toBe(false);
  });
  it('lets normalizeUrn apply the namespace\'s normalizeNss (RFC 8141 §3.1)', () => {
    registerUrnNamespace({ nid: 'x-lower', reference: 'test', normalizeNss: (nss) => nss.toLowerCase() });
    expect(normalizeUrn('urn:x-lower:ABC')).toBe('urn:x-lower:abc');
    expect(urnEquivalent('urn:x-lower:ABC', 'URN:X-LOWER:abc')).toBe(true);
  });
  it('refuses a bad or reserved NID', () => {
    expect(() => registerUrnNamespace({ nid: 'urn', reference: 'x' })).toThrow(expect.objectContaining({ code: 'reserved-nid' }));
    expect(() => registerUrnNamespace({ nid: 'a_b', reference: 'x' })).toThrow(expect.objectContaining({ code: 'bad-nid' }));
    expect(() => registerUrnNamespace({ nid: '-ab', reference: 'x' })).toThrow(expect.objectContaining({ code: 'bad-nid' }));
  });
});
