// RFC 3402/3404 substitution expressions, service fields, and NAPTR
// discovery against a real DNS server (dnsmasq) on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { Resolver } from 'node:dns/promises';
import { applySubstitution, discoverySteps, parseServiceField, ResolutionError, resolveUrn } from '@urikit/resolver';
import { startTestServer, tableResolver, type TestServer } from './http-servers.js';

const table = JSON.parse(readFileSync(new URL('./naptr-substitutions.json', import.meta.url), 'utf8')) as {
  cases: { expr: string; aus: string; result: string | null }[];
};

describe('substitution expressions (RFC 3402 §3.2)', () => {
  it.each(table.cases)('$expr on $aus', ({ expr, aus, result }) => {
    expect(applySubstitution(expr, aus) ?? null).toBe(result);
  });
});

describe('service fields (RFC 3404, Service Parameters)', () => {
  it.each([
    { field: 'http+N2L+N2C+N2R', protocol: 'http', services: ['N2L', 'N2C', 'N2R'] },
    { field: 'z3950+N2L+N2C', protocol: 'z3950', services: ['N2L', 'N2C'] },
    { field: '', protocol: '', services: [] },
    { field: 'HTTP+i2l', protocol: 'http', services: ['I2L'] },
  ])('$field', ({ field, protocol, services }) => {
    expect(parseServiceField(field)).toEqual({ protocol, services });
  });
});

const hasDnsmasq = spawnSync('dnsmasq', ['--version']).status === 0;
if (!hasDnsmasq) {
  console.warn('\n!!! dnsmasq is NOT installed: the NAPTR discovery tests against a real DNS server are SKIPPED (apt-get install dnsmasq; .ci/run installs it) !!!\n');
}

/** A free UDP port on 127.0.0.1 (taken, read, released). */
async function freeUdpPort(): Promise<number> {
  const s = createSocket('udp4');
  await new Promise<void>((r) => s.bind(0, '127.0.0.1', r));
  const { port } = s.address();
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe.skipIf(!hasDnsmasq)(hasDnsmasq ? 'NAPTR discovery against dnsmasq on 127.0.0.1 (RFC 3404)' : 'NAPTR discovery against dnsmasq (SKIPPED: dnsmasq is not installed)', () => {
  let dns: ChildProcess;
  let dnsPort: number;
  let server: TestServer;
  const body = (name: string) => `=====\r\nhttp://127.0.0.1:1/${name}\r\n`;

  beforeAll(async () => {
    server = await startTestServer(tableResolver({
      'urn:example:n1': { status: 200, type: 'text/urc-0', body: body('n1') },
      'urn:cid:199606121851.1@bar.example.test': { status: 200, type: 'text/urc-0', body: body('cid') },
      'urn:ordered:x': { status: 200, type: 'text/urc-0', body: body('ordered') },
    }));
    const p = server.port;
    dnsPort = await freeUdpPort();
    const args = [
      '--no-daemon', '--no-resolv', '--no-hosts', '--conf-file=/dev/null', '--bind-interfaces',
      '--listen-address=127.0.0.1', `--port=${dnsPort}`, '--log-facility=-', '--user=root',
      // example.urn.arpa: a non-terminal record (empty flags) hands over to naptr.test
      '--naptr-record=example.urn.arpa,100,10,,,,naptr.test',
      // naptr.test: a terminal "u" record whose regexp builds the RFC 2169 request URI
      `--naptr-record=naptr.test,100,10,u,http+I2L+I2Ls,!^(urn:example:.*)$!http://127.0.0.1:${p}/uri-res/I2L?\\1!`,
      // cid.urn.arpa: the RFC 3404 urn:cid example, rewritten to the domain, then SRV
      '--naptr-record=cid.urn.arpa,100,10,,,!^urn:cid:.+@([^\\.]+\\.)(.*)$!\\2!i',
      '--naptr-record=example.test,100,50,a,z3950+N2L+N2C,,cidserver.example.test',
      '--naptr-record=example.test,100,50,s,http+N2L+N2C+N2R,,_http._tcp.example.test',
      `--srv-host=_http._tcp.example.test,www.example.test,${p},0,0`,
      '--host-record=www.example.test,127.0.0.1',
      // ordered.urn.arpa: an unknown flag is skipped; the lowest order that matches wins
      `--naptr-record=ordered.urn.arpa,10,10,x,http+I2L,!^.*$!http://127.0.0.1:1/unknown-flag!`,
      `--naptr-record=ordered.urn.arpa,20,10,u,http+I2L,!^(.*)$!http://127.0.0.1:${p}/uri-res/I2L?\\1!`,
      `--naptr-record=ordered.urn.arpa,30,10,u,http+I2L,!^(.*)$!http://127.0.0.1:1/too-late?\\1!`,
      // flaga.urn.arpa: an "a" record names a host to ask on port 80
      '--naptr-record=flaga.urn.arpa,100,10,a,http+N2L,,host-a.test',
      '--host-record=host-a.test,127.0.0.1',
      // the 1995 rule through this DNS server: two addresses, both equivalent
      '--host-record=multi.test,127.0.0.1',
    ];
    dns = spawn('dnsmasq', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    dns.stderr?.on('data', (d: Buffer) => { stderr += d.toString(); });
    const r = new Resolver({ timeout: 200, tries: 1 });
    r.setServers([`127.0.0.1:${dnsPort}`]);
    for (let i = 0; ; i++) {
      try {
        await r.resolveNaptr('example.urn.arpa');
        break;
      } catch (e) {
        if (i > 50 || dns.exitCode !== null) throw new Error(`dnsmasq did not start: ${stderr} ${String(e)}`);
        await new Promise((res) => setTimeout(res, 100));
      }
    }
  });
  afterAll(async () => {
    if (dns && dns.exitCode === null) {
      const exited = new Promise((r) => dns.once('exit', r));
      dns.kill('SIGTERM');
      await exited;
    }
    await server?.close();
  });

  const discovery = () => ({ order: ['naptr' as const], dnsServers: [`127.0.0.1:${dnsPort}`] });

  it('a non-terminal record, then a "u" record giving the request URI', async () => {
    const r = await resolveUrn('urn:example:n1', { discovery: discovery() });
    expect(r.locations.map((l) => l.url)).toEqual(['http://127.0.0.1:1/n1']);
    expect(server.seen[server.seen.length - 1]!.url).toBe('/uri-res/I2L?urn:example:n1');
  });

  it('the RFC 3404 urn:cid rewrite, then an "s" record and its SRV target (the z3950 record is passed over)', async () => {
    const r = await resolveUrn('urn:cid:199606121851.1@bar.example.test', { discovery: discovery() });
    expect(r.locations.map((l) => l.url)).toEqual(['http://127.0.0.1:1/cid']);
    const last = server.seen[server.seen.length - 1]!;
    expect(last.url).toBe('/uri-res/I2L?urn:cid:199606121851.1@bar.example.test');
    expect(last.headers.host).toBe(`www.example.test:${server.port}`);
  });

  it('records are taken by order; an unknown flag is skipped (RFC 3403 §4.1; RFC 3404, Flags)', async () => {
    const r = await resolveUrn('urn:ordered:x', { discovery: discovery() });
    expect(r.locations.map((l) => l.url)).toEqual(['http://127.0.0.1:1/ordered']);
  });

  it('an "a" record gives the host on the default port', async () => {
    const [step] = discoverySteps('urn:flaga:x', 'I2L', discovery());
    expect(await step!.targets()).toEqual([{ url: 'http://127.0.0.1:80/uri-res/I2L?urn:flaga:x', host: 'host-a.test', source: 'naptr' }]);
  });

  it('the 1995 rule through the same DNS server: urn:dns:<fqdn> at that host (1995 draft §2.2.1)', async () => {
    const yaurn = await startTestServer(tableResolver({ 'aj17-mcc': { status: 200, type: 'text/urc-0', body: body('aj17') } }));
    try {
      const r = await resolveUrn('urn:dns:multi.test:aj17-mcc', { discovery: { order: ['yaurn-1995'], yaurnPort: yaurn.port, dnsServers: [`127.0.0.1:${dnsPort}`] } });
      expect(r.locations.map((l) => l.url)).toEqual(['http://127.0.0.1:1/aj17']);
      expect(yaurn.seen[0]!.url).toBe('/aj17-mcc');
      expect(yaurn.seen[0]!.headers.host).toBe(`multi.test:${yaurn.port}`);
    } finally {
      await yaurn.close();
    }
  });

  it('a NID without records: no resolver, and the DNS answer is in the message', async () => {
    const err = await resolveUrn('urn:nothing:x', { discovery: discovery() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResolutionError);
    expect((err as ResolutionError).code).toBe('no-resolver');
    expect((err as ResolutionError).attempts[0]?.url).toBe('(naptr discovery)');
  });
});
