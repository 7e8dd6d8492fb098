/**
 * The request line and Host as request-form.ts and the front read them
 * (RFC 9112 §3.2): absolute-form on every route, its authority for Host
 * and a foreign one misdirected (421, RFC 9110 §7.4); lines without a
 * version (GET only, a connection's first line only: 1995 draft §3.3);
 * two Host fields (400); CONNECT (501 with Allow). Over raw sockets, on
 * both engines.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { ServedHosts, splitAbsoluteForm } from '../../src/server/http/request-form.js';
import { SERVICE_METHODS } from '../../src/server/http/pipeline.js';
import { createToken } from '../../src/store/index.js';
import { testEngines } from '../helpers/engines.js';
import { parseAnswer, rawExchange, type RawAnswer } from '../helpers/http.js';

/** Every answer on one connection, in order (the server closes it after the last). */
async function answers(port: number, request: string): Promise<RawAnswer[]> {
  const { bytes } = await rawExchange(port, request);
  const all: RawAnswer[] = [];
  for (let at = bytes.indexOf('HTTP/1.'); at >= 0; at = bytes.indexOf('HTTP/1.', at + 1)) {
    if (at === 0 || bytes[at - 1] === 0x0a) all.push(parseAnswer(bytes.subarray(at)));
  }
  return all;
}

describe('splitAbsoluteForm (RFC 9112 §3.2.2)', () => {
  it.each([
    ['http://127.0.0.1:4500/urn:ietf:rfc:2141', { scheme: 'http', authority: '127.0.0.1:4500', host: '127.0.0.1', userinfo: false, originForm: '/urn:ietf:rfc:2141' }],
    ['HTTP://Urn.FlixCo.com./uri-res/N2L?urn:x:y', { scheme: 'http', authority: 'Urn.FlixCo.com.', host: 'urn.flixco.com', userinfo: false, originForm: '/uri-res/N2L?urn:x:y' }],
    ['https://[::1]:4500', { scheme: 'https', authority: '[::1]:4500', host: '::1', userinfo: false, originForm: '/' }],
    ['http://a.example?urn:x:y', { scheme: 'http', authority: 'a.example', host: 'a.example', userinfo: false, originForm: '/?urn:x:y' }],
    ['http://u:p@a.example/x', { scheme: 'http', authority: 'u:p@a.example', host: 'a.example', userinfo: true, originForm: '/x' }],
    ['http:///x', { scheme: 'http', authority: '', host: '', userinfo: false, originForm: '/x' }],
  ])('%s', (target, parts) => expect(splitAbsoluteForm(target)).toEqual(parts));
  it.each(['/urn:x:y', '*', 'urn:x:y', '1http://a/', '://a/'])('%s is not absolute-form', (target) => expect(splitAbsoluteForm(target)).toBeUndefined());
});

describe('ServedHosts', () => {
  const hosts = new ServedHosts((h) => h === 'urn.flixco.com');
  hosts.add('http://127.0.0.1:4500');
  hosts.add('https://urn.example.org');
  it.each([
    ['127.0.0.1', '127.0.0.1', true],
    ['urn.example.org', '10.0.0.5', true],
    ['urn.flixco.com', '10.0.0.5', true],
    ['10.0.0.5', '::ffff:10.0.0.5', true],
    ['localhost', '::1', true],
    ['localhost', '10.0.0.5', false],
    ['evil.example', '127.0.0.1', false],
    ['10.0.0.6', '10.0.0.5', false],
  ] as const)('%s on a connection to %s: %s', (host, local, expected) => expect(hosts.answersFor(host, local)).toBe(expected));
});

const engines = await testEngines('request-form.test');
afterAll(async () => { for (const e of engines) await e.cleanup(); });

for (const engine of engines) {
  const suite = engine.unavailable !== undefined ? describe.skip : describe;
  suite(`${engine.name}: request lines and Host (RFC 9112 §3.2)`, () => {
    let server: RunningServer;
    let token: string;
    let auth: string;
    beforeAll(async () => {
      server = await startServer({ port: 0, db: engine.freshDb(), demo: true, rateLimit: false, adminRateLimit: false, publicUrl: 'https://urn.example.org' });
      token = (await createToken(server.store, { authority: '*' })).token;
      auth = `Authorization: Bearer ${token}\r\n`;
    });
    afterAll(async () => { await server?.close(); });

    it('absolute-form is read whole on every route: /urn:…, /uri-res/, /<ElementID>, the admin API', async () => {
      const base = `http://127.0.0.1:${server.port}`;
      for (const [target, status, location] of [
        ['/urn:ietf:rfc:2141', 302, 'https://www.rfc-editor.org/rfc/rfc2141'],
        ['/uri-res/N2L?urn:ietf:rfc:2141', 302, 'https://www.rfc-editor.org/rfc/rfc2141'],
        ['/aj17-mcc', 302, 'http://library.bigstate.example.org/aj17-mcc.html'],
        ['/admin/names/urn:ietf:rfc:2141', 200, undefined],
      ] as const) {
        const [a] = await answers(server.port, `GET ${base}${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}Connection: close\r\n\r\n`);
        expect(a!.status, `${target}: ${a!.text.slice(0, 200)}`).toBe(status);
        expect(a!.headers.location).toBe(location);
      }
    });

    it('absolute-form naming the public URL\'s host is this server\'s', async () => {
      const [a] = await answers(server.port, `GET https://urn.example.org/admin/names?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}Connection: close\r\n\r\n`);
      expect(a!.status).toBe(200);
    });

    it('absolute-form naming a foreign host: 421 Misdirected Request on admin routes and resolutions alike (RFC 9110 §7.4)', async () => {
      for (const request of [
        `GET http://evil.example/admin/names HTTP/1.1\r\nHost: evil.example\r\n${auth}Connection: close\r\n\r\n`,
        `GET http://evil.example/urn:ietf:rfc:2141 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
      ]) {
        const [a] = await answers(server.port, request);
        expect(a!.status).toBe(421);
        expect(a!.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(JSON.parse(a!.text)).toMatchObject({ status: 421, code: 'misdirected-request' });
      }
      const body = '{"locations":["http://a.example/"]}';
      const [put] = await answers(server.port, `PUT http://evil.example/admin/names/urn:example:foreign HTTP/1.1\r\nHost: evil.example\r\n${auth}Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
      expect(put!.status).toBe(421);
      expect(await server.store.names.get('urn:example:foreign')).toBeUndefined();
    });

    it('a request line without a version is a GET only: a PUT with token and body is refused and nothing is written', async () => {
      const body = '{"locations":["http://a.example/"]}';
      for (const request of [
        `PUT /admin/names/urn:example:nover\r\n${auth}Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
        `GET /aj17-mcc HTTP/1.1\r\nHost: a\r\n\r\nPUT /admin/names/urn:example:nover\r\n${auth}Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      ]) {
        const all = await answers(server.port, request);
        const last = all.at(-1)!;
        expect(last.status).toBe(400);
        expect(JSON.parse(last.text)).toMatchObject({ code: 'version-less-request' });
      }
      expect(await server.store.names.get('urn:example:nover')).toBeUndefined();
    });

    it('two Host fields: 400 (RFC 9112 §3.2), and the connection closes', async () => {
      const all = await answers(server.port, 'GET /urn:ietf:rfc:2141 HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\nGET /urn:ietf:rfc:2141 HTTP/1.1\r\nHost: a\r\n\r\n');
      expect(all.map((a) => a.status)).toEqual([400]);
      expect(all[0]!.headers.connection).toBe('close');
      expect(JSON.parse(all[0]!.text)).toMatchObject({ code: 'duplicate-host' });
    });

    it('CONNECT: 501 in problem+json with Allow, first on a connection or after other requests; never a silent close', async () => {
      for (const [request, statuses] of [
        ['CONNECT a.example:443 HTTP/1.1\r\nHost: a.example:443\r\n\r\n', [501]],
        ['GET /aj17-mcc HTTP/1.1\r\nHost: a\r\n\r\nCONNECT a.example:443 HTTP/1.1\r\nHost: a.example:443\r\n\r\n', [302, 501]],
        ['GET /aj17-mcc HTTP/1.1\r\nHost: a\r\n\r\nGET alb002 HTTP/1.1\r\nHost: a\r\n\r\nCONNECT a.example:443 HTTP/1.1\r\nHost: a.example:443\r\n\r\n', [302, 302, 501]],
      ] as const) {
        const all = await answers(server.port, request);
        expect(all.map((a) => a.status)).toEqual(statuses);
        const last = all.at(-1)!;
        expect(last.headers.allow).toBe(SERVICE_METHODS);
        expect(last.headers['content-type']).toBe('application/problem+json');
        expect(JSON.parse(last.text)).toMatchObject({ status: 501, code: 'no-tunnel' });
      }
    });

    it('a refused request line is answered even when the client sends more than its line at once (RFC 9112 §9.6)', async () => {
      const socket = net.connect(server.port, '127.0.0.1');
      let got = '';
      socket.on('data', (d: Buffer) => { got += d.toString('latin1'); });
      await new Promise((r) => socket.once('connect', r));
      socket.write(`POST /admin/import\r\n${auth}Content-Length: 100000\r\n\r\n${'x'.repeat(100_000)}`);
      await new Promise((r) => socket.once('close', r));
      expect(got.startsWith('HTTP/1.1 400 Bad Request\r\n'), got.slice(0, 100)).toBe(true);
    });
  });
}
