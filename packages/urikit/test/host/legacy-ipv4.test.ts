/**
 * The rare IPv4 formats of the 2003 draft §7.3: what inet_aton() reads,
 * checked against glibc's answers (legacy-ipv4.json), and the relation
 * to the strict dotted-decimal IPv4address of §3.2.2.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { interpretLegacyIPv4, parseIPv4Address, formatIPv4, parseHost } from 'urikit';
import data from './legacy-ipv4.json' with { type: 'json' };

describe(`interpretLegacyIPv4 (${data.source})`, () => {
  for (const c of data.cases) {
    it(`${JSON.stringify(c.input)} -> ${c.address === null ? 'refused' : formatIPv4(c.address)}: ${c.comment}`, () => {
      expect(interpretLegacyIPv4(c.input)).toBe(c.address ?? undefined);
    });
    it(`${JSON.stringify(c.input)} -> ${c.url === null ? 'no address' : formatIPv4(c.url)} for the URL Standard's IPv4 parser`, () => {
      expect(interpretLegacyIPv4(c.input, { reader: 'url' })).toBe(c.url ?? undefined);
    });
  }
  for (const d of data.deviations) {
    it(`DEVIATION ${JSON.stringify(d.input)}: ${d.ruling}`, () => {
      expect(d.glibc).not.toBeNull();
      expect(interpretLegacyIPv4(d.input)).toBe(d.address ?? undefined);
    });
  }
});

describe('laws', () => {
  it('agrees with the strict IPv4address wherever that one accepts', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), (n) => {
        const text = formatIPv4(n);
        expect(parseIPv4Address(text)).toBe(n);
        expect(interpretLegacyIPv4(text)).toBe(n);
      }),
    );
  });
  it('the URL reader accepts everything inet_aton accepts, as the same address', () => {
    const part = fc.constantFrom('0', '0x', '0X', '1', '7f', '0x7f', '0177', '255', '256', '08', '00', '.', '..', 'a', '4294967295');
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 9 }), (parts) => {
        const text = parts.join('');
        const aton = interpretLegacyIPv4(text);
        if (aton !== undefined) expect(interpretLegacyIPv4(text, { reader: 'url' })).toBe(aton);
      }),
    );
  });
  it('reads every address written as one number, in decimal, octal and hex', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), (n) => {
        expect(interpretLegacyIPv4(String(n))).toBe(n);
        expect(interpretLegacyIPv4(`0${n.toString(8)}`)).toBe(n);
        expect(interpretLegacyIPv4(`0x${n.toString(16)}`)).toBe(n);
      }),
    );
  });
  it('reads a.b (8.24) and a.b.c (8.8.16) as their bytes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), (n) => {
        const a = n >>> 24;
        expect(interpretLegacyIPv4(`${a}.${n & 0xffffff}`)).toBe(n);
        expect(interpretLegacyIPv4(`${a}.${(n >>> 16) & 255}.${n & 0xffff}`)).toBe(n);
      }),
    );
  });
  it('never throws and answers in linear time on any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('0', '1', '7', '8', 'x', 'X', 'f', '.', 'g', ' ') }), (s) => {
        const v = interpretLegacyIPv4(s);
        expect(v === undefined || (Number.isInteger(v) && v >= 0 && v <= 0xffffffff)).toBe(true);
      }),
    );
    expect(interpretLegacyIPv4('0x' + '0'.repeat(200_000) + '1')).toBe(1);
  });
  it('the rare formats are registered names to the URI grammar (2003 draft §3.2.2)', () => {
    for (const text of ['0x7f.1', '127.1', '2130706433', '0177.0.0.1']) {
      expect(parseHost(text)).toEqual({ kind: 'reg-name', name: text });
    }
  });
});
