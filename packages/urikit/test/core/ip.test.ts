import { describe, expect, it } from 'vitest';
import { formatIPv4, formatIPv6, isIPv6Address, parseIPv4Address, parseIPv6Address, UriError } from 'urikit';
import ipv6list from '../../../../../shared/conformance/ipv6list.json' with { type: 'json' };

describe('parseIPv4Address (RFC 3986 §3.2.2 dec-octet)', () => {
  const cases: Array<[string, number | undefined]> = [
    ['0.0.0.0', 0], ['255.255.255.255', 0xffffffff], ['192.0.2.1', 0xc0000201], ['10.0.0.1', 0x0a000001],
    ['249.250.199.100', 0xf9fac764], ['256.0.0.1', undefined], ['01.0.0.1', undefined], ['1.2.3', undefined],
    ['1.2.3.4.', undefined], ['.1.2.3.4', undefined], ['1..2.3', undefined], ['1.2.3.4.5', undefined],
    ['', undefined], ['1.2.3.a', undefined], ['1.2.3.0255', undefined], ['1.2.3.-1', undefined],
  ];
  for (const [text, value] of cases) it(JSON.stringify(text), () => expect(parseIPv4Address(text)).toBe(value));
  it('reads a range of a longer text', () => expect(parseIPv4Address('[10.0.0.1]', 1, 9)).toBe(0x0a000001));
  it('formats back', () => {
    for (const [text, value] of cases) if (value !== undefined) expect(formatIPv4(value)).toBe(text);
  });
});

describe('parseIPv6Address (RFC 3986 §3.2.2, RFC 6874)', () => {
  it('gives the eight groups and the zone as written', () => {
    expect(parseIPv6Address('2001:db8::1')).toEqual({ groups: [0x2001, 0xdb8, 0, 0, 0, 0, 0, 1] });
    expect(parseIPv6Address('::')).toEqual({ groups: [0, 0, 0, 0, 0, 0, 0, 0] });
    expect(parseIPv6Address('1::')).toEqual({ groups: [1, 0, 0, 0, 0, 0, 0, 0] });
    expect(parseIPv6Address('1:2:3:4:5:6:7::')).toEqual({ groups: [1, 2, 3, 4, 5, 6, 7, 0] });
    expect(parseIPv6Address('::ffff:192.0.2.1')).toEqual({ groups: [0, 0, 0, 0, 0, 0xffff, 0xc000, 0x201] });
    expect(parseIPv6Address('fe80::1%25eth0')).toEqual({ groups: [0xfe80, 0, 0, 0, 0, 0, 0, 1], zone: 'eth0' });
    expect(parseIPv6Address('fe80::1%25en%30')).toEqual({ groups: [0xfe80, 0, 0, 0, 0, 0, 0, 1], zone: 'en%30' });
  });
  it('throws bad-ipv6 / bad-zone-id with the offset', () => {
    const bad: Array<[string, string, number]> = [
      ['1::2::3', 'bad-ipv6', 5], ['fe80::1%eth0', 'bad-zone-id', 7], ['fe80::1%25', 'bad-zone-id', 10], ['12345::', 'bad-ipv6', 4], ['', 'bad-ipv6', 0],
    ];
    for (const [text, code, offset] of bad) {
      let err: unknown;
      try { parseIPv6Address(text); } catch (e) { err = e; }
      expect(err).toBeInstanceOf(UriError);
      expect([(err as UriError).code, (err as UriError).offset]).toEqual([code, offset]);
    }
  });
  it('formats to RFC 5952 §4 text (§5 for IPv4-mapped)', () => {
    const cases: Array<[string, string]> = [
      ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::1'], // §4.1, §4.2.1
      ['2001:db8:0:1:1:1:1:1', '2001:db8:0:1:1:1:1:1'], // §4.2.2: one 0 group is not compressed
      ['2001:0:0:1:0:0:0:1', '2001:0:0:1::1'], // §4.2.3: the longest run
      ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'], // §4.2.3: the first of equal runs
      ['2001:DB8::ABCD', '2001:db8::abcd'], // §4.3
      ['0:0:0:0:0:0:0:0', '::'], ['0:0:0:0:0:0:0:1', '::1'], ['1:0:0:0:0:0:0:0', '1::'],
      // Ruling, RFC 5952 §5: an IPv4-mapped address (::ffff:0:0/96) is written in the
      // RECOMMENDED mixed notation (was '::ffff:c000:201' before formatIPv6 followed §5).
      ['::ffff:192.0.2.1', '::ffff:192.0.2.1'], ['::ffff:c000:201', '::ffff:192.0.2.1'],
      ['64:ff9b::c000:201', '64:ff9b::c000:201'], // §5 names only the IPv4-mapped prefix
    ];
    for (const [input, canonical] of cases) expect(formatIPv6(parseIPv6Address(input).groups)).toBe(canonical);
    expect(formatIPv6([0xfe80, 0, 0, 0, 0, 0, 0, 1], 'eth0')).toBe('fe80::1%25eth0');
  });
});

describe('ipv6list.json (the Dartware / Rich Brown list), read in place', () => {
  const rows = ipv6list as Array<{ input: string; valid: boolean; comment?: string; source: string }>;
  // No rulings needed: every row agrees with RFC 3986 §3.2.2 (its one zone
  // row, "2001:db8::%1", is invalid both there and under RFC 6874 §2).
  for (const row of rows) {
    const expected = row.valid;
    it(`${JSON.stringify(row.input)} ${expected ? 'valid' : 'invalid'} (${row.source})`, () => {
      expect(isIPv6Address(row.input)).toBe(expected);
      if (expected) expect(formatIPv6(parseIPv6Address(formatIPv6(parseIPv6Address(row.input).groups)).groups)).toBe(formatIPv6(parseIPv6Address(row.input).groups));
    });
  }
});
