/**
 * `urikit serve --mirror` and `urikit handover`, as an operator runs them:
 * A serves names, B mirrors them (a harvest every second) and answers
 * them as A does, refusing writes; `urikit handover` moves the authority
 * to B (exit 0), A then redirects with 301 and B takes writes; a
 * malformed `--mirror` is a usage error (exit 2) before anything listens.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuilt, run, services, startService } from './run.js';

const dir = mkdtempSync(join(tmpdir(), 'urikit-serve-mirror-'));
const AUTH = 'urn:example:c';

beforeAll(() => requireBuilt());
afterAll(() => {
  for (const c of services) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const tokenFor = async (db: string) => (JSON.parse((await run(['token', 'create', '--authority', AUTH, '--db', db, '--json'])).stdout) as { token: string }).token;
const answer = async (url: string) => { const r = await fetch(url, { redirect: 'manual' }); return `${r.status} ${r.headers.get('location')}`; };

describe('urikit serve --mirror, urikit handover', () => {
  it('B mirrors A, refuses writes; the handover makes A redirect and B take writes', async () => {
    const [dbA, dbB] = [join(dir, 'a.sqlite'), join(dir, 'b.sqlite')];
    const [ta, tb] = [await tokenFor(dbA), await tokenFor(dbB)];
    const a = await startService(['serve', '--port', '0', '--db', dbA, '--no-rate-limit']);
    const put = (base: string, token: string, i: number) => fetch(`${base}/admin/names/${AUTH}:${i}`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ locations: [`https://repo.example/${i}`] }) });
    for (let i = 0; i < 3; i++) expect((await put(a.info.url, ta, i)).status).toBe(201);
    const b = await startService(['serve', '--port', '0', '--db', dbB, '--no-rate-limit', '--mirror', `${a.info.url},${AUTH},every 1`, '--harvest-allow-private']);
    let seen = '';
    for (let i = 0; i < 200 && seen !== `302 https://repo.example/2`; i++) {
      seen = await answer(`${b.info.url}/${AUTH}:2`);
      if (seen !== `302 https://repo.example/2`) await new Promise((r) => setTimeout(r, 50));
    }
    expect(seen).toBe('302 https://repo.example/2');
    expect((await put(b.info.url, tb, 1)).status).toBe(409);

    const h = await run(['handover', AUTH, '--from', a.info.url, '--from-token', ta, '--to', b.info.url, '--to-token', tb, '--settle-seconds', '1']);
    expect([h.code, h.stdout]).toEqual([0, expect.stringContaining(`${AUTH} handed over to ${b.info.url}`)]);
    expect(await answer(`${a.info.url}/${AUTH}:2`)).toBe(`301 ${b.info.url}/${AUTH}:2`);
    expect((await put(b.info.url, tb, 1)).status).toBe(200);
    expect((await put(a.info.url, ta, 1)).status).toBe(409);
  });

  it('refuses a malformed --mirror before it listens (exit 2), and a handover without its options', async () => {
    for (const spec of ['ftp://a.example,urn:example:c', 'https://a.example', 'https://a.example,urn:example:c,every 0', 'https://a.example,urn:example:c,often']) {
      const r = await run(['serve', '--port', '0', '--db', ':memory:', '--mirror', spec]);
      expect([spec, r.code, r.stderr]).toEqual([spec, 2, expect.stringContaining('--mirror')]);
    }
    const r = await run(['handover', AUTH, '--from', 'https://a.example']);
    expect([r.code, r.stderr]).toEqual([2, expect.stringContaining('--to')]);
  });
});
