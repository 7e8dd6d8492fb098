/**
 * classifyHost over every row of the IANA IPv4 and IPv6 Special-Purpose
 * Address Registries (first and last address of each block), embedded
 * IPv4 addresses, special-use names and the rare IPv4 formats; and the
 * SSRF recipe of docs/library/hosts-and-iris.md ("blocking requests to internal addresses").
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { classifyHost, inspectHost, SPECIAL_PURPOSE_RANGES, parse, parseHost, isUriError, formatIPv4, type HostClass } from 'urikit';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import data from './classify.json' with { type: 'json' };

describe(`classifyHost (${data.source.slice(0, 120)}...)`, () => {
  it('uses exactly the registry rows of the data file', () => {
    expect(SPECIAL_PURPOSE_RANGES.ipv4.map((r) => ({ range: r.range, class: r.class }))).toEqual(data.ipv4);
    expect(SPECIAL_PURPOSE_RANGES.ipv6.map((r) => ({ range: r.range, class: r.class }))).toEqual(data.ipv6);
  });
  for (const c of data.cases) {
    it(`${c.host} is ${c.class}${c.range ? ` (in ${c.range})` : ''}`, () => {
      expect(classifyHost(c.host)).toBe(c.class);
      const info = inspectHost(c.host);
      expect(info.class).toBe(c.class);
      if ('embeddedIPv4' in c && c.embeddedIPv4) expect(info.embeddedIPv4?.text).toBe(c.embeddedIPv4);
    });
  }
  it('accepts a parsed host too', () => {
    expect(classifyHost(parseHost('[::1]'))).toBe('loopback');
    expect(classifyHost({ kind: 'ipv4', address: 0x0a000001, text: '10.0.0.1' })).toBe('private');
  });
  it('names the registry row and the embedded address', () => {
    expect(inspectHost('192.0.2.7').range).toMatchObject({ range: '192.0.2.0/24', name: 'Documentation (TEST-NET-1)', rfc: 'RFC 5737', globallyReachable: false });
    expect(inspectHost('[::ffff:127.0.0.1]').embeddedIPv4).toEqual({ address: 0x7f000001, text: '127.0.0.1', class: 'loopback' });
    expect(inspectHost('0x7f.1').legacyIPv4).toBe(0x7f000001);
    expect(inspectHost('8.8.8.8').range).toBeUndefined();
  });
  it('throws a UriError on a string that is not a host', () => {
    let err: unknown;
    try {
      classifyHost('a b');
    } catch (e) {
      err = e;
    }
    expect(isUriError(err, 'bad-host')).toBe(true);
  });
});

/** The recipe of docs/library/hosts-and-iris.md, word for word: a URI is fetched only if its host is public or a name that resolves to public addresses. */
function isInternal(uri: string): boolean {
  const ref = parse(uri, 'uri');
  if (ref.host === undefined) return true;
  const cls: HostClass = classifyHost(ref.host);
  return cls !== 'public' && cls !== 'name';
}

describe('SSRF: blocking requests to internal addresses (2003 draft §7.3)', () => {
  it.each(['http://0x7f.1/', 'http://2130706433/', 'http://[::ffff:127.0.0.1]/', 'http://127.1/'])('%s is loopback', (uri) => {
    expect(classifyHost(parse(uri).host!)).toBe('loopback');
    expect(isInternal(uri)).toBe(true);
  });
  it.each([
    'http://127.0.0.1/', 'http://0177.0.0.1/', 'http://localhost:8080/', 'http://[::1]/', 'http://0/', 'http://[::]/',
    'http://169.254.169.254/latest/meta-data/', 'http://[fd00::1]/', 'http://10.0.0.1/', 'http://0xa9fea9fe/',
    'http://[64:ff9b::10.0.0.1]/', 'http://127.0.0.1./', 'http://%31%32%37.0.0.1/', 'http://127.0.0.1%00.evil.example/',
    // The URL Standard's IPv4 number parser reads an empty "0x" as 0: these
    // are no DNS names, whatever a resolver would answer for them.
    'http://127.0x.0x.1/', 'http://0x7f.0x.1/', 'http://10.0x.0x.1/', 'http://169.254.0x.0xfe/', 'http://0x/',
    // RFC 6052 /48 (RFC 8215) and Teredo (RFC 4380) addresses around internal IPv4 addresses.
    'http://[64:ff9b:1:a9fe:a9:fe00::]/', 'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/',
  ])('%s is internal', (uri) => {
    expect(isInternal(uri)).toBe(true);
  });
  it.each(['http://127.0x.0x.1', 'http://0x7f.0x.1', 'http://0x7f.1'])('%s is where fetch() really goes: a server on 127.0.0.1 answers it', async (origin) => {
    const server = createServer((_req, res) => res.end('loopback'));
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`${origin}:${port}/`);
      expect(await res.text()).toBe('loopback');
      expect(classifyHost(parse(`${origin}/`).host!)).toBe('loopback');
    } finally {
      await new Promise((ok) => server.close(ok));
    }
  });
  it.each(['http://8.8.8.8/', 'https://www.ietf.org/rfc/rfc3986.txt', 'http://[2606:4700::1111]/'])('%s is not', (uri) => {
    expect(isInternal(uri)).toBe(false);
  });
});

type Lookup = (host: string, opts: { all: true }) => Promise<Array<{ address: string }>>;

/** The recipe's assertPublic, word for word, with its DNS lookup passed in. */
async function assertPublic(url: string, lookup: Lookup): Promise<void> {
  const ref = parse(url, 'uri');
  if (ref.host === undefined) throw new Error('no host');
  const cls = classifyHost(ref.host);
  if (cls !== 'public' && cls !== 'name') throw new Error(`blocked: ${ref.host} is ${cls}`);
  if (cls === 'name') {
    for (const { address } of await lookup(ref.host, { all: true })) {
      const resolved = classifyHost(address);
      if (resolved !== 'public') throw new Error(`blocked: ${ref.host} resolves to ${address} (${resolved})`);
    }
  }
}

describe('SSRF: the recipe behind a resolver that answers every name', () => {
  // A wildcard resolver (as some ISPs and captive portals run) gives a public
  // address for any name, so a host read as a name passes the DNS step: the
  // recipe is safe only if the hosts fetch() reads as addresses are never names.
  const asked: string[] = [];
  const wildcard: Lookup = async (host) => { asked.push(host); return [{ address: '93.184.215.14' }]; };
  it.each(['http://127.0x.0x.1/', 'http://0x7f.0x.1/', 'http://10.0x.0x.1/', 'http://169.254.0x.0xfe/', 'http://0x/', 'http://0x7f.1/', 'http://127.1/'])('%s is blocked before any DNS question', async (uri) => {
    asked.length = 0;
    await expect(assertPublic(uri, wildcard)).rejects.toThrow(/^blocked: /);
    expect(asked).toEqual([]);
  });
  it('a name goes to the resolver, and is blocked when it resolves to an internal address', async () => {
    asked.length = 0;
    await expect(assertPublic('http://www.ietf.org/', wildcard)).resolves.toBeUndefined();
    expect(asked).toEqual(['www.ietf.org']);
    await expect(assertPublic('http://www.ietf.org/', async () => [{ address: '127.0.0.1' }])).rejects.toThrow('blocked: www.ietf.org resolves to 127.0.0.1 (loopback)');
  });
});

describe('laws of classifyHost', () => {
  const address = fc.oneof(
    fc.integer({ min: 0, max: 0xffffffff }),
    // Bias towards the special-purpose blocks: their first, last and inner addresses.
    fc.constantFrom(...SPECIAL_PURPOSE_RANGES.ipv4).chain((r) => {
      const [base, bits] = r.range.split('/') as [string, string];
      const start = parseHost(base).kind === 'ipv4' ? (parseHost(base) as { address: number }).address : 0;
      const size = 2 ** (32 - Number(bits));
      return fc.integer({ min: start, max: start + size - 1 });
    }),
  );
  it('a rare IPv4 format has the class of the address it names (2003 draft §7.3)', () => {
    fc.assert(
      fc.property(address, (n) => {
        const cls = classifyHost(formatIPv4(n));
        expect(classifyHost(String(n))).toBe(cls);
        expect(classifyHost(`0x${n.toString(16)}`)).toBe(cls);
        expect(classifyHost(`0${n.toString(8)}`)).toBe(cls);
        expect(classifyHost(`${n >>> 24}.${n & 0xffffff}`)).toBe(cls);
      }),
    );
  });
  it('an IPv4-mapped or NAT64 address has the class of its IPv4 address unless that is public', () => {
    fc.assert(
      fc.property(address, (n) => {
        const cls = classifyHost(formatIPv4(n));
        expect(classifyHost(`[::ffff:${formatIPv4(n)}]`)).toBe(cls === 'public' ? 'ipv4-mapped' : cls);
        expect(classifyHost(`[64:ff9b::${formatIPv4(n)}]`)).toBe(cls === 'public' ? 'nat64' : cls);
        expect(inspectHost(`[::ffff:${formatIPv4(n)}]`).embeddedIPv4?.address).toBe(n);
      }),
    );
  });
});
