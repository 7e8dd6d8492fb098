/**
 * `urikit serve --harvest`: the server harvests a repository (a test
 * OAI-PMH repository on 127.0.0.1) in the background, its names resolve,
 * and SIGTERM stops it while the next round is a day away; a malformed
 * `--harvest` is a usage error (exit 2) before anything listens.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintNbn } from 'urikit';
import { epicur, identify, listRecords, oaiFixture, type Fixture } from '../../resolver/test/harvest/oai-fixture.js';
import { requireBuilt, run, services, startService, stop } from './run.js';

const dir = mkdtempSync(join(tmpdir(), 'urikit-serve-harvest-'));
const AUTH = 'urn:nbn:de:101-';
const nbn = (i: number) => mintNbn(AUTH, { counter: 3000 + i });
let fixture: Fixture;

beforeAll(async () => {
  requireBuilt();
  fixture = await oaiFixture((args) => (args.verb === 'Identify' ? identify('2026-11-28T10:00:00Z') : listRecords([1, 2].map((i) => ({ id: `oai:c:${i}`, metadata: epicur(nbn(i), [`https://repo.example/${i}`]) })))));
});
afterAll(async () => {
  for (const c of services) c.kill('SIGKILL');
  await fixture.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('urikit serve --harvest', () => {
  it('harvests the repository in the background; its names resolve; SIGTERM stops it', async () => {
    const { child, info } = await startService(['serve', '--port', '0', '--db', join(dir, 'h.sqlite'), '--no-rate-limit',
      '--harvest', `${fixture.url},${AUTH},epicur`, '--harvest-allow-private', '--harvest-contact', 'mailto:urn-admin@library.example']);
    let status = 0;
    for (let i = 0; i < 200 && status !== 302; i++) {
      status = (await fetch(`${info.url}/${nbn(2)}`, { redirect: 'manual' })).status;
      if (status !== 302) await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(302);
    expect(fixture.userAgents.at(-1)).toBe('urikit-harvester/0.1 (+mailto:urn-admin@library.example)');
    expect(await stop(child)).toBe(0);
  });

  it('refuses a malformed --harvest before it listens (exit 2)', async () => {
    for (const spec of ['ftp://repo.example/oai,urn:nbn:de:101-', `${fixture.url}`, `${fixture.url},${AUTH},marc21`]) {
      const r = await run(['serve', '--port', '0', '--db', ':memory:', '--harvest', spec]);
      expect([spec, r.code, r.stderr]).toEqual([spec, 2, expect.stringContaining('--harvest')]);
    }
  });
});
