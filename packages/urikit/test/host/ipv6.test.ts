/**
 * IPv6 literals through parseHost: every form of the RFC 3986 §3.2.2
 * grammar, valid and invalid, the RFC 5952 §4 canonical text, RFC 6874
 * zone identifiers, and the Dartware list (../shared/conformance, in place).
 */
import { describe, expect, it } from 'vitest';
import { parseHost, tryParseHost, formatHost, isUriError } from 'urikit';
import data from './ipv6.json' with { type: 'json' };
import ipv6list from '../../../../../shared/conformance/ipv6list.json' with { type: 'json' };

describe(`IPv6 addresses (${data.source})`, () => {
  for (const c of data.addresses) {
    it(`[${c.input}] is ${c.valid ? 'valid' : 'invalid'}: ${c.comment}`, () => {
      if (c.valid) {
        const h = parseHost(`[${c.input}]`);
        expect(h).toEqual({ kind: 'ipv6', groups: c.groups, text: c.canonical });
        expect(formatHost(h)).toBe(`[${c.canonical}]`);
        // The canonical text is a fixed point.
        expect(parseHost(`[${c.canonical}]`)).toEqual(h);
      } else {
        let err: unknown;
        try {
          parseHost(`[${c.input}]`);
        } catch (e) {
          err = e;
        }
        expect(isUriError(err), 'throws a UriError').toBe(true);
        const e = err as { code: string; offset: number };
        expect(['bad-ipv6', 'bad-zone-id', 'unclosed-ip-literal', 'bad-host']).toContain(e.code);
        expect(e.offset).toBeGreaterThanOrEqual(1);
        expect(e.offset).toBeLessThanOrEqual(c.input.length + 2);
      }
    });
  }
  it('has at least 100 cases', () => {
    expect(data.addresses.length).toBeGreaterThanOrEqual(100);
  });
});

describe('RFC 6874 zone identifiers', () => {
  for (const z of data.zones) {
    it(`[${z.input}] ${z.valid ? 'keeps zone ' + JSON.stringify(z.zone) : 'is refused'}: ${z.comment}`, () => {
      if (z.valid) {
        expect(parseHost(`[${z.input}]`)).toEqual({ kind: 'ipv6', groups: z.groups, zone: z.zone, text: z.canonical });
      } else {
        expect(tryParseHost(`[${z.input}]`)).toBeUndefined();
      }
    });
  }
});

describe('IP literal brackets', () => {
  it('reports an unclosed literal at the end', () => {
    expect(() => parseHost('[::1')).toThrowError(expect.objectContaining({ code: 'unclosed-ip-literal', offset: 4 }));
  });
  it('points into the brackets, counting the "["', () => {
    expect(() => parseHost('[1::2::3]')).toThrowError(expect.objectContaining({ code: 'bad-ipv6', offset: 6 })); // the second "::";
  });
  it('refuses an empty literal', () => {
    expect(tryParseHost('[]')).toBeUndefined();
  });
});

describe('the Dartware IPv6 list (../shared/conformance/ipv6list.json, read in place)', () => {
  for (const r of ipv6list as Array<{ input: string; valid: boolean; comment?: string; source: string }>) {
    it(`${JSON.stringify(r.input)} ${r.valid ? 'valid' : 'invalid'} (${r.source})`, () => {
      const h = tryParseHost(`[${r.input}]`);
      expect(h?.kind === 'ipv6').toBe(r.valid);
    });
  }
});
