/**
 * Kept answers (server/resolution/kept-answers.ts): a resolver gives an
 * answer again for a request of the same shape only while the subject
 * read for it is the same. Once the demo names' Last-Modified may be sent
 * (a second of margin after their second: conditional.ts), answers are
 * kept; each write, move, withdrawal and prefix rule that changes what a
 * name answers shows in the very next answer, on both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { createToken } from '../../src/store/index.js';
import { testEngines } from '../helpers/engines.js';
import { get } from '../helpers/http.js';

const engines = await testEngines('kept-answers.test');
afterAll(async () => { for (const e of engines) await e.cleanup(); });

const L = 'urn:dns:library.bigstate.edu';

for (const engine of engines) {
  const suite = engine.unavailable !== undefined ? describe.skip : describe;
  suite(`${engine.name}: kept answers`, () => {
    let server: RunningServer;
    let token: string;
    const admin = (method: string, path: string, body?: unknown) =>
      get(server.url, path, { authorization: `Bearer ${token}`, 'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' }, { method, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    /** Asks `path` three times (the later ones may be kept answers) and gives the first, after checking the others equal it. */
    const resolve = async (path: string, headers: Record<string, string> = {}) => {
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(await get(server.url, path, headers));
      const shown = answers.map((a) => [a.status, a.reason, a.headers.get('location'), a.headers.get('etag'), a.headers.get('link'), a.text]);
      expect(shown[1]).toEqual(shown[0]);
      expect(shown[2]).toEqual(shown[0]);
      return answers[0]!;
    };

    beforeAll(async () => {
      server = await startServer({ port: 0, db: engine.freshDb(), demo: true, rateLimit: false, adminRateLimit: false });
      token = (await createToken(server.store, { authority: '*' })).token;
      // Last-Modified (and so keeping) comes a second after the demo names' second.
      await new Promise((r) => setTimeout(r, 2100));
    });
    afterAll(async () => { await server?.close(); });

    it('a kept answer is the answer: Last-Modified present, the same bytes each time', async () => {
      const r = await resolve('/aj17-mcc');
      expect(r.status).toBe(302);
      expect(r.headers.get('last-modified')).not.toBeNull();
      await resolve(`/uri-res/I2Ls?${L}:aj17-mcc`, { accept: 'application/json' });
      await resolve('/urn:example:not-here');
    });

    it('a change of locations shows in the next answer, in every request form', async () => {
      const forms = ['/aj17-mcc', `/${L}:aj17-mcc`, `/uri-res/I2L?${L}:aj17-mcc`];
      for (const f of forms) await resolve(f);
      const before = (await get(server.url, '/aj17-mcc')).headers.get('etag');
      expect((await admin('PATCH', `/admin/names/${L}:aj17-mcc`, { locations: [{ url: 'https://kept.example/new' }] })).status).toBe(200);
      for (const f of forms) expect((await get(server.url, f)).headers.get('location'), f).toBe('https://kept.example/new');
      expect((await get(server.url, '/aj17-mcc')).headers.get('etag')).not.toBe(before);
    });

    it('a move, a withdrawal and a new name show in the next answer', async () => {
      await resolve('/kept-b');
      expect((await get(server.url, '/kept-b')).status).toBe(404);
      expect((await admin('PUT', `/admin/names/${L}:kept-b`, { locations: [{ url: 'https://kept.example/b' }] })).status).toBe(201);
      expect((await get(server.url, '/kept-b')).headers.get('location')).toBe('https://kept.example/b');
      expect((await admin('POST', `/admin/move/${L}:kept-b`, { to: 'https://kept.example/moved', permanent: true })).status).toBe(200);
      const moved = await get(server.url, '/kept-b');
      expect([moved.status, moved.headers.get('location')]).toEqual([301, 'https://kept.example/moved']);
      expect((await admin('POST', `/admin/withdraw/${L}:kept-b`, { reason: 'gone' })).status).toBe(200);
      expect((await get(server.url, '/kept-b')).status).toBe(410);
    });

    it('a prefix rule added for names the store does not hold answers at once', async () => {
      await resolve('/urn:example:kept-rule:x');
      expect((await get(server.url, '/urn:example:kept-rule:x')).status).toBe(404);
      expect((await admin('PUT', '/admin/prefix-rules', { prefix: 'urn:example:kept-rule:', target: 'https://rules.example/' })).status).toBeLessThan(300);
      expect((await get(server.url, '/urn:example:kept-rule:x')).headers.get('location')).toBe('https://rules.example/x');
    });
  });
}
