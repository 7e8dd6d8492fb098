/** The @example lines of the host modules' TSDoc, run as written (STYLE §11). */
import { describe, expect, it } from 'vitest';
import {
  parseHost, tryParseHost, formatHost, checkHostname, isHostname, findRegNameError, findIRegNameError,
  interpretLegacyIPv4, classifyHost, inspectHost, domainToASCII, domainToUnicode, punycodeEncode, punycodeDecode,
} from 'urikit';

describe('TSDoc examples of src/host', () => {
  it('parse-host.ts', () => {
    expect(parseHost('192.0.2.1')).toEqual({ kind: 'ipv4', address: 3221225985, text: '192.0.2.1' });
    expect(parseHost('[2001:DB8::0:1]')).toEqual({ kind: 'ipv6', groups: [0x2001, 0xdb8, 0, 0, 0, 0, 0, 1], text: '2001:db8::1' });
    expect(parseHost('[fe80::1%25eth0]').kind === 'ipv6' && (parseHost('[fe80::1%25eth0]') as { zone?: string }).zone).toBe('eth0');
    expect(parseHost('[v7.x:y]')).toEqual({ kind: 'ipvfuture', version: '7', address: 'x:y' });
    expect(parseHost('example.com')).toEqual({ kind: 'reg-name', name: 'example.com' });
    expect(tryParseHost('[::1]')?.kind).toBe('ipv6');
    expect(tryParseHost('[::1')).toBeUndefined();
    expect(formatHost(parseHost('[2001:0DB8:0:0::1]'))).toBe('[2001:db8::1]');
  });
  it('regname.ts', () => {
    expect(findRegNameError('example.com')).toBe(-1);
    expect(findRegNameError('a b')).toBe(1);
    expect(findIRegNameError('bücher.example')).toBe(-1);
    expect(findIRegNameError('a\u200Eb')).toBe(-1);
    expect(() => checkHostname('www.example.com.')).not.toThrow();
    expect(() => checkHostname('-bad.example')).toThrowError(expect.objectContaining({ code: 'bad-hostname', offset: 0 }));
    expect(isHostname('a--b.com')).toBe(true);
    expect(isHostname('host_name')).toBe(false);
  });
  it('legacy-ipv4.ts', () => {
    expect(interpretLegacyIPv4('0x7f.1')).toBe(2130706433);
    expect(interpretLegacyIPv4('0177.0.0.1')).toBe(2130706433);
    expect(interpretLegacyIPv4('2130706433')).toBe(2130706433);
    expect(interpretLegacyIPv4('127.1')).toBe(2130706433);
    expect(interpretLegacyIPv4('1.2.3.4.5')).toBeUndefined();
  });
  it('classify.ts', () => {
    expect(inspectHost('[::ffff:127.0.0.1]').embeddedIPv4).toEqual({ address: 2130706433, text: '127.0.0.1', class: 'loopback' });
    expect(inspectHost('0x7f.1').legacyIPv4).toBe(2130706433);
    expect(inspectHost('192.0.2.7').range?.name).toBe('Documentation (TEST-NET-1)');
    const table: Array<[string, string]> = [
      ['127.0.0.1', 'loopback'], ['0x7f.1', 'loopback'], ['[::ffff:127.0.0.1]', 'loopback'], ['[::ffff:8.8.8.8]', 'ipv4-mapped'],
      ['10.1.2.3', 'private'], ['example.org', 'documentation'], ['www.ietf.org', 'name'], ['8.8.8.8', 'public'],
    ];
    for (const [host, cls] of table) expect(classifyHost(host), host).toBe(cls);
  });
  it('idna.ts and punycode.ts', () => {
    expect(domainToASCII('Bücher.example')).toBe('xn--bcher-kva.example');
    expect(domainToASCII('faß.de')).toBe('xn--fa-hia.de');
    expect(domainToASCII('ＥＸＡＭＰＬＥ。com')).toBe('example.com');
    expect(() => domainToASCII('xn--a.com')).toThrowError(expect.objectContaining({ code: 'bad-idna' }));
    expect(domainToUnicode('xn--bcher-kva.example')).toBe('bücher.example');
    expect(domainToUnicode('EXAMPLE.com')).toBe('example.com');
    expect(() => domainToUnicode('xn--X')).toThrowError(expect.objectContaining({ code: 'bad-idna' }));
    expect(punycodeDecode('bcher-kva')).toBe('bücher');
    expect(punycodeDecode('zca')).toBe('ß');
    expect(punycodeEncode('bücher')).toBe('bcher-kva');
    expect(punycodeEncode('ß')).toBe('zca');
  });
});

describe('TSDoc examples of the constants', () => {
  it('MAX_LABEL_LENGTH, MAX_HOSTNAME_LENGTH, SPECIAL_PURPOSE_RANGES', async () => {
    const { MAX_LABEL_LENGTH, MAX_HOSTNAME_LENGTH, SPECIAL_PURPOSE_RANGES } = await import('urikit');
    expect(isHostname('a'.repeat(MAX_LABEL_LENGTH) + '.com')).toBe(true);
    expect(isHostname('a'.repeat(MAX_LABEL_LENGTH + 1))).toBe(false);
    expect(MAX_HOSTNAME_LENGTH).toBe(253);
    expect(SPECIAL_PURPOSE_RANGES.ipv4.find((r) => r.range === '127.0.0.0/8')?.class).toBe('loopback');
  });
});

describe('RFC 5952 §5 mixed notation', () => {
  it('writes an IPv4-mapped address with its IPv4 address in dotted decimal', () => {
    expect(parseHost('[::FFFF:C000:0201]')).toMatchObject({ kind: 'ipv6', text: '::ffff:192.0.2.1' });
    expect(formatHost(parseHost('[0:0:0:0:0:ffff:c000:201%25eth0]'))).toBe('[::ffff:192.0.2.1%25eth0]');
    // Only the well-known mapped prefix: NAT64 and compatible forms stay hexadecimal.
    expect(parseHost('[64:ff9b::c000:201]')).toMatchObject({ text: '64:ff9b::c000:201' });
  });
});
