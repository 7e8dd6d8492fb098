/**
 * The service commands of the real binary, over real HTTP on 127.0.0.1:
 * serve (port 0, a SQLite file in a temporary directory, the example
 * names), token, import, resolve-urn and gateway. Every process started
 * here is stopped here.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { records, requireBuilt, run, services, start, startService, stop } from './run.js';

const dir = mkdtempSync(join(tmpdir(), 'urikit-cli-'));
const db = join(dir, 'names.sqlite');
const children: ChildProcess[] = services;

let server: { child: ChildProcess; info: { url: string; port: number } };
const AJ17 = 'urn:dns:library.bigstate.edu:aj17-mcc';
const hasDnsmasq = spawnSync('dnsmasq', ['--version']).status === 0;
if (!hasDnsmasq) console.warn('\n!!! dnsmasq is NOT installed: the CLI test of --dns-server and --yaurn-port is SKIPPED (apt-get install dnsmasq; .ci/run installs it) !!!\n');

/** A UDP port free on 127.0.0.1 now. */
async function freeUdpPort(): Promise<number> {
  const sock = createSocket('udp4');
  await new Promise<void>((r) => sock.bind(0, '127.0.0.1', r));
  const { port } = sock.address();
  await new Promise<void>((r) => sock.close(() => r()));
  return port;
}

/** GET `path` with the Host header given (fetch cannot set it), never following a redirect. */
function rawGet(port: number, path: string, host: string): Promise<{ status: number; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers }));
    }).on('error', reject);
  });
}

beforeAll(async () => {
  requireBuilt();
  server = await startService(['serve', '--port', '0', '--db', db, '--demo', '--no-rate-limit']);
});

afterAll(async () => {
  for (const c of children) await stop(c);
  rmSync(dir, { recursive: true, force: true });
});

describe('urikit serve', () => {
  it('listens on 127.0.0.1 and answers an RFC 2169 I2L request with a redirect', async () => {
    expect(server.info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${server.info.url}/uri-res/I2L?${AJ17}`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toMatch(/^https?:\/\//);
  });

  it('serves the web page at /', async () => {
    const res = await fetch(`${server.info.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
  });

  it('stops with exit status 0 on SIGTERM', async () => {
    const other = await startService(['serve', '--port', '0', '--db', ':memory:']);
    expect(await stop(other.child)).toBe(0);
  });

  it('a port in use is an operational failure (exit 3)', async () => {
    const r = await run(['serve', '--port', String(server.info.port), '--db', ':memory:']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('urikit serve:');
  });

  it('a bad --port is a usage error', async () => {
    expect((await run(['serve', '--port', 'http'])).code).toBe(2);
  });

  it('--urc0-line-length sets where a text/urc-0 URL is written as <URL:...> (1995 draft §3.4.2.1)', async () => {
    const narrow = await startService(['serve', '--port', '0', '--db', ':memory:', '--demo', '--no-rate-limit', '--urc0-line-length', '40']);
    const res = await fetch(`${narrow.info.url}/phone-list-wrapped`, { headers: { accept: 'text/urc-0' } });
    expect(await res.text()).toBe('=====\r\n<URL:ftp://elm.wnln.edu/pub/mirrors\r\n/phone-list.txt>\r\n');
    expect(await stop(narrow.child)).toBe(0);
    expect((await run(['serve', '--urc0-line-length', '3'])).code).toBe(2);
  });

  it('--rate-limit, --rate-burst and --trust-proxy: the limit per client behind the proxy; bad values are usage errors', async () => {
    const proxied = await startService(['serve', '--port', '0', '--db', ':memory:', '--demo', '--rate-limit', '1', '--rate-burst', '1', '--trust-proxy', '127.0.0.1,10.0.0.0/8', '--public-url', 'https://urn.example.org']);
    const as = (client: string) => fetch(`${proxied.info.url}/uri-res/I2L?${AJ17}`, { redirect: 'manual', headers: { 'x-forwarded-for': client } });
    expect((await as('203.0.113.1')).status).toBe(302);
    expect((await as('203.0.113.2')).status).toBe(302);
    const limited = await as('203.0.113.1');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('ratelimit-policy')).toBe('client;q=1;w=1');
    expect(await stop(proxied.child)).toBe(0);
    expect((await run(['serve', '--trust-proxy', 'proxy.example'])).code).toBe(2);
    expect((await run(['serve', '--public-url', 'ftp://urn.example.org'])).code).toBe(2);
    expect((await run(['serve', '--rate-limit', '0'])).code).toBe(2);
  });

  it('--host-authority, --location-scheme, --admin-rate-limit and --admin-rate-burst', async () => {
    const home = mkdtempSync(join(tmpdir(), 'urikit-cli-deploy-'));
    const file = join(home, 'names.sqlite');
    const served = await startService(['serve', '--port', '0', '--db', file, '--demo', '--rate-limit', '1000',
      '--host-authority', 'urn:dns:chris.lwr-ltd.co.uk',
      '--location-scheme', 'gopher', '--admin-rate-limit', '1', '--admin-rate-burst', '2']);
    try {
      // The 1995 bare form takes its authority from Host (§2.2.1); ElementIDs of urn:dns: names ignore case (§2.3.1).
      const bare = async (path: string, host: string) => (await rawGet(served.info.port, path, host)).headers.location;
      expect(await bare('/thesis12', 'chris.lwr-ltd.co.uk')).toBe('http://chris.lwr-ltd.example.org/thesis12.txt');
      expect(await bare('/AJ17-MCC', '127.0.0.1')).toBe('http://library.bigstate.example.org/aj17-mcc.html');
      expect((await rawGet(served.info.port, '/urn:dns:physics.bigstate.edu:THESIS12', '127.0.0.1')).status).toBe(302);
      // Locations of an allowed extra scheme are taken; the others are refused with their offset.
      const token = (await run(['token', 'create', '--authority', 'urn:example:', '--db', file])).stdout.trim();
      const put = (url: string) => fetch(`${served.info.url}/admin/names/urn:example:gopher-hole`, {
        method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ locations: [{ url }] }),
      });
      expect((await put('gopher://gopher.example/1')).status).toBeLessThan(300);
      const refused = await put('telnet://host.example/');
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ code: 'scheme-not-allowed', offset: 0 });
      // The token has had its burst of 2: the admin API holds it back (the rate, 1/s, refills slowly).
      let limited: Response | undefined;
      for (let i = 0; i < 10 && limited === undefined; i++) {
        const r = await fetch(`${served.info.url}/admin/names?prefix=urn:example:`, { headers: { authorization: `Bearer ${token}` } });
        if (r.status === 429) limited = r;
        else await r.arrayBuffer();
      }
      expect(limited?.headers.get('ratelimit-policy')).toBe('token;q=2;w=2');
      expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      expect(await stop(served.child)).toBe(0);
      rmSync(home, { recursive: true, force: true });
    }
    expect((await run(['serve', '--admin-rate-limit', 'many'])).code).toBe(2);
  });

  it('--name-cache-mb 0 serves every answer from the database file, and a bad size is a usage error', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'urikit-cli-cache-')), 'names.sqlite');
    const uncached = await startService(['serve', '--port', '0', '--db', file, '--demo', '--no-rate-limit', '--name-cache-mb', '0']);
    const res = await fetch(`${uncached.info.url}/uri-res/I2L?${AJ17}`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(await stop(uncached.child)).toBe(0);
    rmSync(dirname(file), { recursive: true, force: true });
    expect((await run(['serve', '--name-cache-mb', 'lots'])).code).toBe(2);
    expect((await run(['serve', '--name-cache-mb', '2000000'])).code).toBe(2);
  });
});

describe('urikit resolve-urn', () => {
  it('prints the location of a name', async () => {
    const r = await run(['resolve-urn', '--resolver', server.info.url, AJ17]);
    expect(r.code).toBe(0);
    const http = await fetch(`${server.info.url}/uri-res/I2L?${AJ17}`, { redirect: 'manual' });
    expect(r.stdout).toBe(`${http.headers.get('location')}\n`);
  });

  it('--json gives {status, locations, via}', async () => {
    const r = await run(['resolve-urn', '--json', '--service', 'I2Ls', '--resolver', server.info.url, AJ17]);
    expect(r.code).toBe(0);
    const [rec] = records(r.stdout);
    expect(rec!.status).toBeLessThan(400);
    expect((rec!.locations as Array<{ url: string }>)[0]!.url).toMatch(/^https?:\/\//);
    expect(rec!.via).toEqual([AJ17]);
  });

  it('an unknown name is exit 1', async () => {
    const r = await run(['resolve-urn', '--resolver', server.info.url, 'urn:example:no-such-name']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('404');
  });

  it('an invalid URN is exit 1 with its error code', async () => {
    const r = await run(['resolve-urn', '--json', '--resolver', server.info.url, 'urn:urn:x']);
    expect(r.code).toBe(1);
    expect(records(r.stdout)[0]).toMatchObject({ valid: false, error: { code: 'reserved-nid' } });
  });

  it('a resolver that is down is exit 3, naming what was tried', async () => {
    const r = await run(['resolve-urn', '--resolver', 'http://127.0.0.1:1', 'urn:example:a']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('http://127.0.0.1:1');
  });
});

describe('urikit resolve-urn and gateway as a client of the 1995 draft', () => {
  it('a moved name asked for in text/urc-0 through the 1995 bare form is followed to its new URN (1995 draft §4)', async () => {
    const r = await run(['resolve-urn', '--json', '--resolver', `${server.info.url}/{elementid}`, '--accept', 'text/urc-0', 'urn:dns:library.bigstate.edu:old-price-list']);
    expect(r.code).toBe(0);
    const [rec] = records(r.stdout);
    expect(rec!.via).toEqual(['urn:dns:library.bigstate.edu:old-price-list', 'urn:dns:library.bigstate.edu:current-version-of-price-list']);
    expect((rec!.locations as Array<{ url: string }>)[0]!.url).toBe('http://library.bigstate.example.org/prices/1995-03.txt');
  });

  it('a fragment stays with the client and is put back on the locations (2012 draft §2.4)', async () => {
    const r = await run(['resolve-urn', '--resolver', server.info.url, 'urn:isbn:0451450523#chapter1']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('https://openlibrary.org/isbn/0451450523#chapter1\n');
  });

  it('a 2012 draft s= directive names the service, and is sent as the draft writes it', async () => {
    const r = await run(['resolve-urn', '--json', '--accept', 'application/json', '--resolver', server.info.url, 'urn:isbn:0451450523?s=I2C']);
    expect(r.code).toBe(0);
    const [rec] = records(r.stdout);
    expect(rec!.status).toBe(200);
    expect(String(rec!.resolver)).toBe(`${server.info.url}/urn:isbn:0451450523?s=I2C`);
    expect(rec!.metadata).toMatchObject({ title: 'The Last Unicorn' });
  });

  it('--public-only refuses a resolver at a private address, for resolve-urn and for the gateway (2003 draft §7.3)', async () => {
    const r = await run(['resolve-urn', '--public-only', '--resolver', server.info.url, AJ17]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/not a public address/);
    const gw = await startService(['gateway', '--port', '0', '--public-only', '--resolver', server.info.url]);
    const page = await fetch(`${gw.info.url}/${AJ17}`);
    expect(page.status).toBe(502);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await stop(gw.child)).toBe(0);
  });

  it.skipIf(!hasDnsmasq)(hasDnsmasq ? '--dns-server and --yaurn-port: the 1995 rule (§2.2.1) reaches a second naming authority of one server' : '--dns-server and --yaurn-port (SKIPPED: dnsmasq is not installed)', async () => {
    const dnsPort = await freeUdpPort();
    const dns = spawn('dnsmasq', ['--no-daemon', '--no-resolv', '--no-hosts', '--conf-file=/dev/null', '--bind-interfaces', '--listen-address=127.0.0.1', `--port=${dnsPort}`, '--log-facility=-', '--user=root', '--host-record=urn.flixco.com,127.0.0.1'], { stdio: 'ignore' });
    children.push(dns);
    try {
      let r = await run(['resolve-urn', '--dns-server', `127.0.0.1:${dnsPort}`, '--yaurn-port', String(server.info.port), 'urn:dns:urn.flixco.com:casablanca']);
      for (let i = 0; i < 30 && r.code !== 0; i++) {
        // dnsmasq may not be listening yet
        await new Promise((res) => setTimeout(res, 100));
        r = await run(['resolve-urn', '--dns-server', `127.0.0.1:${dnsPort}`, '--yaurn-port', String(server.info.port), 'urn:dns:urn.flixco.com:casablanca']);
      }
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe('ftp://ftp.flixco.com/pub/movies/casablanca.mpg\n');
      expect((await run(['resolve-urn', '--yaurn-port', 'x', AJ17])).code).toBe(2);
    } finally {
      dns.kill('SIGTERM');
    }
  });
});

describe('urikit token and import', () => {
  it('token create prints a bearer token that the admin API accepts for its authority', async () => {
    const r = await run(['token', 'create', '--authority', 'urn:example:', '--db', db]);
    expect(r.code).toBe(0);
    const token = r.stdout.trim();
    expect(token).toMatch(/^\S{16,}$/);
    const put = await fetch(`${server.info.url}/admin/names/urn:example:cli-token-test`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ locations: [{ url: 'https://example.org/cli-token-test' }] }),
    });
    expect(put.status).toBe(201);
    const denied = await fetch(`${server.info.url}/admin/names/urn:isbn:0451450523`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ locations: [{ url: 'https://example.org/x' }] }),
    });
    expect(denied.status).toBe(403);
  });

  it('token create --json gives {id, authority, token}', async () => {
    const r = await run(['token', 'create', '--json', '--authority', 'urn:isbn:', '--db', db]);
    expect(r.code).toBe(0);
    const [rec] = records(r.stdout);
    expect(Object.keys(rec!).sort()).toEqual(['authority', 'id', 'token']);
    expect(String(rec!.token)).toContain(String(rec!.id));
  });

  it('token list shows every token without its secret; token revoke refuses it from then on, on the running server', async () => {
    const created = records((await run(['token', 'create', '--json', '--authority', 'urn:example:', '--db', db])).stdout)[0] as { id: string; token: string };
    const put = (path: string) => fetch(`${server.info.url}/admin/names/${path}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${created.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ locations: [{ url: 'https://example.org/revoke-test' }] }),
    });
    expect((await put('urn:example:revoke-test-1')).status).toBe(201);
    const listed = records((await run(['token', 'list', '--json', '--db', db])).stdout) as Array<{ id: string; authority: string; revoked?: string }>;
    const mine = listed.find((t) => t.id === created.id);
    expect(mine).toMatchObject({ id: created.id, authority: 'urn:example' });
    expect(mine!.revoked).toBeUndefined();
    expect(JSON.stringify(listed)).not.toContain(created.token.slice(16));
    const revoke = await run(['token', 'revoke', created.token, '--db', db]);
    expect(revoke.code).toBe(0);
    expect(revoke.stdout).toBe(`revoked ${created.id}\n`);
    expect((await put('urn:example:revoke-test-2')).status).toBe(401);
    const text = (await run(['token', 'list', '--db', db])).stdout;
    expect(text).toMatch(new RegExp(`^${created.id}  urn:example  created \\S+  revoked \\S+$`, 'm'));
    const again = await run(['token', 'revoke', created.id, '--db', db]);
    expect(again.code).toBe(1);
    expect((await run(['token', 'revoke', 'nonsense', '--db', db])).code).toBe(2);
  });

  it('import: NDJSON names become resolvable; importing again changes nothing', async () => {
    const file = join(dir, 'names.ndjson');
    writeFileSync(file, [
      JSON.stringify({ urn: 'urn:example:imported-1', locations: [{ url: 'https://example.org/imported-1' }] }),
      JSON.stringify({ urn: 'urn:example:imported-2', locations: [{ url: 'https://example.org/imported-2' }] }),
    ].join('\n') + '\n');
    const first = await run(['import', '--json', '--db', db, file]);
    expect(first.code).toBe(0);
    expect(records(first.stdout)[0]).toMatchObject({ ok: true, records: 2, created: 2 });
    const again = await run(['import', '--json', '--db', db, file]);
    expect(records(again.stdout)[0]).toMatchObject({ ok: true, records: 2, created: 0, unchanged: 2 });
    const r = await run(['resolve-urn', '--resolver', server.info.url, 'urn:example:imported-2']);
    expect(r.stdout).toBe('https://example.org/imported-2\n');
  });

  it('import: an invalid line is reported by number and nothing is imported (exit 1)', async () => {
    const file = join(dir, 'bad.ndjson');
    writeFileSync(file, [
      JSON.stringify({ urn: 'urn:example:never-1', locations: [{ url: 'https://example.org/n1' }] }),
      JSON.stringify({ urn: 'urn:urn:bad', locations: [{ url: 'https://example.org/n2' }] }),
    ].join('\n') + '\n');
    const r = await run(['import', '--db', db, file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:2: `, 'm'));
    const check = await run(['resolve-urn', '--resolver', server.info.url, 'urn:example:never-1']);
    expect(check.code).toBe(1);
  });

  it('import --exclusive: refused (exit 3, nothing imported) while the server has the store open; a new store loads', async () => {
    const file = join(dir, 'exclusive.ndjson');
    writeFileSync(file, `${JSON.stringify({ urn: 'urn:example:exclusive-1', locations: ['https://example.org/exclusive-1'] })}\n`);
    const refused = await run(['import', '--exclusive', '--db', db, file]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('is open in another process');
    expect((await run(['resolve-urn', '--resolver', server.info.url, 'urn:example:exclusive-1'])).code).toBe(1);
    const fresh = join(dir, 'exclusive.sqlite');
    const loaded = await run(['import', '--exclusive', '--json', '--db', fresh, file]);
    expect(loaded.code).toBe(0);
    expect(records(loaded.stdout)[0]).toMatchObject({ ok: true, created: 1 });
  });

  it('import: CSV from standard input', async () => {
    const csv = 'urn,url\nurn:example:csv-1,https://example.org/csv-1\n';
    const r = await run(['import', '--format', 'csv', '--db', db, '-'], csv);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const check = await run(['resolve-urn', '--resolver', server.info.url, 'urn:example:csv-1']);
    expect(check.stdout).toBe('https://example.org/csv-1\n');
  });
});

describe('urikit gateway', () => {
  it('resolves through the resolver and renders the locations as links', async () => {
    const gw = await startService(['gateway', '--port', '0', '--resolver', server.info.url]);
    const res = await fetch(`${gw.info.url}/${AJ17}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const page = await res.text();
    const http = await fetch(`${server.info.url}/uri-res/I2L?${AJ17}`, { redirect: 'manual' });
    expect(page).toContain(`href="${http.headers.get('location')}"`);
    expect(await stop(gw.child)).toBe(0);
  });
});

describe('urikit links, urn mint --db and serve --check-links', () => {
  it('links check --db checks the locations of a store (loopback allowed here), keeps their health, exits 1 when one is broken', async () => {
    const { createServer } = await import('node:http');
    const origin = createServer((req, res) => res.writeHead(req.url === '/gone' ? 404 : 200).end());
    await new Promise<void>((r) => origin.listen(0, '127.0.0.1', () => r()));
    const base = `http://127.0.0.1:${(origin.address() as { port: number }).port}`;
    try {
      const file = join(dir, 'links.sqlite');
      const ndjson = join(dir, 'links.ndjson');
      writeFileSync(ndjson, `${JSON.stringify({ urn: 'urn:example:ok', locations: [`${base}/ok`] })}\n${JSON.stringify({ urn: 'urn:example:gone', locations: [`${base}/gone`] })}\n`);
      expect((await run(['import', '--db', file, ndjson])).code).toBe(0);
      // without --allow-private nothing on 127.0.0.1 is fetched: both are blocked, none broken
      const guarded = await run(['links', 'check', '--db', file]);
      expect([guarded.code, guarded.stdout.split('\n').filter(Boolean).map((l) => l.split('\t')[0])]).toEqual([0, ['blocked', 'blocked']]);
      const r = await run(['links', 'check', '--json', '--db', file, '--allow-private', '--force', '--host-delay-ms', '0']);
      expect(r.code).toBe(1);
      const [out] = records(r.stdout);
      expect(out).toMatchObject({ summary: { checked: 2, ok: 1, broken: 1 }, lines: [{ urn: 'urn:example:gone', url: `${base}/gone`, state: 'failing', status: 404, consecutiveFailures: 1 }] });
      // a list of URLs, nothing kept
      const list = await run(['links', 'check', '--allow-private', '--all', `${base}/ok`, `${base}/gone`]);
      expect(list.stdout.split('\n').filter(Boolean).map((l) => l.split('\t').slice(0, 3).join(' '))).toEqual(['ok 0 200', 'failing 1 http-404']);
      expect(list.stderr).toContain('checked 2: 1 ok, 1 broken');
      expect((await run(['links', 'check'])).code).toBe(2);
    } finally {
      await new Promise((r) => origin.close(r));
    }
  });

  it('what the nightly links check (another process) writes shows on a running server within 5 s', async () => {
    const origin = http.createServer((req, res) => res.writeHead(req.url === '/gone' ? 404 : 200).end());
    await new Promise<void>((r) => origin.listen(0, '127.0.0.1', () => r()));
    const base = `http://127.0.0.1:${(origin.address() as { port: number }).port}`;
    const file = join(dir, 'cron-links.sqlite');
    const ndjson = join(dir, 'cron-links.ndjson');
    writeFileSync(ndjson, `${JSON.stringify({ urn: 'urn:example:cron', locations: [`${base}/gone`, `${base}/ok`] })}\n`);
    expect((await run(['import', '--db', file, ndjson])).code).toBe(0);
    const s = await startService(['serve', '--port', '0', '--db', file, '--no-rate-limit']);
    const health = async () => ((await (await fetch(`${s.info.url}/urn:example:cron`, { headers: { accept: 'application/json' } })).json()) as { locations: Array<{ url: string; health?: { state: string } }> }).locations;
    try {
      expect((await health()).map((l) => l.health)).toEqual([undefined, undefined]);
      expect((await run(['links', 'check', '--db', file, '--allow-private', '--force', '--host-delay-ms', '0'])).code).toBe(1);
      const checked = Date.now();
      let seen: Awaited<ReturnType<typeof health>> = [];
      while (Date.now() - checked < 5000) {
        seen = await health();
        if (seen.some((l) => l.health !== undefined)) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      // The failing location is shown, and resolution sends readers to the healthy one first.
      expect(seen.map((l) => [l.url, l.health?.state])).toEqual([[`${base}/ok`, undefined], [`${base}/gone`, 'failing']]);
    } finally {
      await stop(s.child);
      await new Promise((r) => origin.close(r));
    }
  });

  it('urn mint --db reserves the next free names in the store, the counter kept between runs', async () => {
    const file = join(dir, 'mint.sqlite');
    const first = await run(['urn', 'mint', '--db', file, '--prefix', 'urn:nbn:de:101-', '--start', '202007140', '--count', '2', '--json']);
    expect(first.code).toBe(0);
    expect(records(first.stdout)).toEqual([{ urn: 'urn:nbn:de:101-2020071401', status: 'reserved' }, { urn: 'urn:nbn:de:101-2020071413', status: 'reserved' }]);
    const next = await run(['urn', 'mint', '--db', file, '--prefix', 'urn:nbn:de:101-']);
    expect(next.stdout).toBe('urn:nbn:de:101-2020071427\n');
  });

  it('serve --check-links probes in the background and /admin/links reports it; the --links options need it', async () => {
    const file = join(dir, 'serve-links.sqlite');
    const ndjson = join(dir, 'serve-links.ndjson');
    writeFileSync(ndjson, `${JSON.stringify({ urn: 'urn:example:planted', locations: ['http://127.0.0.1:1/admin'] })}\n`);
    expect((await run(['import', '--db', file, ndjson])).code).toBe(0);
    const token = (await run(['token', 'create', '--authority', 'urn:example', '--db', file])).stdout.trim();
    const s = await startService(['serve', '--port', '0', '--db', file, '--check-links', '--link-checker-contact', 'mailto:ops@example.org']);
    try {
      let lines: Array<{ state: string; error?: string }> = [];
      for (const end = Date.now() + 10_000; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
        lines = (await (await fetch(`${s.info.url}/admin/links`, { headers: { authorization: `Bearer ${token}` } })).json() as { lines: typeof lines }).lines;
        if (lines[0]?.state !== 'unchecked') break;
      }
      expect(lines).toMatchObject([{ state: 'blocked', error: 'blocked-address (loopback)' }]);
    } finally {
      await stop(s.child);
    }
    expect((await run(['serve', '--links-pause', 'urn:example'])).code).toBe(2);
  });

  it('the schedule is the operator\'s: links check --ok-days/--failing-hours, serve --links-ok-days/--links-failing-hours/--links-broken-after and the pace', async () => {
    const origin = http.createServer((req, res) => res.writeHead(req.url === '/gone' ? 404 : 200).end());
    await new Promise<void>((r) => origin.listen(0, '127.0.0.1', () => r()));
    const base = `http://127.0.0.1:${(origin.address() as { port: number }).port}`;
    const HOUR = 3600_000;
    const after = (h: { lastCheck: number; nextCheck: number }) => (h.nextCheck - h.lastCheck) / HOUR;
    try {
      const file = join(dir, 'schedule.sqlite');
      const ndjson = join(dir, 'schedule.ndjson');
      writeFileSync(ndjson, `${JSON.stringify({ urn: 'urn:example:ok', locations: [`${base}/ok`] })}\n${JSON.stringify({ urn: 'urn:example:gone', locations: [`${base}/gone`] })}\n`);
      expect((await run(['import', '--db', file, ndjson])).code).toBe(0);
      const r = await run(['links', 'check', '--json', '--all', '--db', file, '--allow-private', '--host-delay-ms', '0', '--ok-days', '2', '--failing-hours', '5']);
      const [out] = records(r.stdout) as Array<{ lines: Array<{ url: string; lastCheck: number; nextCheck: number }> }>;
      expect(out!.lines.map((l) => [l.url, after(l)])).toEqual([[`${base}/gone`, 5], [`${base}/ok`, 48]]);
      expect((await run(['links', 'check', '--db', file, '--ok-days', '0'])).code).toBe(2);
      // serve, on a store not checked yet: one failure is enough to call a location broken, a failing one is asked again 3 hours on
      const served = join(dir, 'schedule-serve.sqlite');
      expect((await run(['import', '--db', served, ndjson])).code).toBe(0);
      const token = (await run(['token', 'create', '--authority', 'urn:example', '--db', served])).stdout.trim();
      const s = await startService(['serve', '--port', '0', '--db', served, '--check-links', '--links-allow-private', '--links-broken-after', '1',
        '--links-failing-hours', '3', '--links-ok-days', '1', '--links-host-delay-ms', '0', '--links-rate', '0', '--links-timeout-ms', '5000']);
      try {
        type Line = { url: string; state: string; broken: boolean; failures: number; lastCheck: string; nextCheck: string };
        const report = async () => (await (await fetch(`${s.info.url}/admin/links`, { headers: { authorization: `Bearer ${token}` } })).json() as { lines: Line[] }).lines;
        let lines: Line[] = [];
        for (const end = Date.now() + 10_000; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
          lines = await report();
          if (lines.every((l) => l.state !== 'unchecked')) break;
        }
        expect(lines.map((l) => [l.url, l.state, l.broken, l.failures, (Date.parse(l.nextCheck) - Date.parse(l.lastCheck)) / HOUR])).toEqual([
          [`${base}/gone`, 'failing', true, 1, 3], [`${base}/ok`, 'ok', false, 0, 24],
        ]);
      } finally {
        await stop(s.child);
      }
    } finally {
      await new Promise((r) => origin.close(r));
    }
  });
});
