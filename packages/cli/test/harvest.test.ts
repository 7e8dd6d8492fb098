// `urikit harvest` (the built binary) harvesting a urikit resolver's /oai
// into a SQLite file: names under the authority applied, the others
// refused and printed; the next run is incremental; a repository on the
// loopback address is not reached without --allow-private; usage errors.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintNbn } from 'urikit';
import { importNames, openStore, startServer, type RunningServer } from '@urikit/resolver';
import { requireBuilt, run } from './run.js';

const SECOND = mintNbn('urn:nbn:de:101-', { counter: 202007141 });
let dir: string;
let source: RunningServer;
beforeAll(async () => {
  requireBuilt();
  dir = mkdtempSync(join(tmpdir(), 'urikit-cli-harvest-'));
  source = await startServer({ port: 0, db: ':memory:', rateLimit: false, oai: { pageSize: 10 } });
  const lines = [mintNbn('urn:nbn:de:101-', { counter: 202007140 }), SECOND, 'urn:example:elsewhere']
    .map((urn, i) => JSON.stringify({ urn, locations: [`https://repo.example/${i}`] })).join('\n');
  expect(await importNames(source.store, lines, { format: 'ndjson' })).toMatchObject({ ok: true });
});
afterAll(async () => {
  await source?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('urikit harvest', () => {
  it('harvests epicur into a store: applied, refused and printed, incremental the next time', async () => {
    const db = join(dir, 'target.sqlite');
    const base = `${source.url}/oai`;
    // the loopback address is not reached unless allowed: the harvest fails (exit 3) and says why
    const guarded = await run(['harvest', base, '--authority', 'urn:nbn:de:101-', '--db', db]);
    expect(guarded.code).toBe(3);
    expect(guarded.stderr).toContain('blocked-address (loopback)');
    const r = await run(['harvest', base, '--authority', 'urn:nbn:de:101', '--db', db, '--allow-private', '--delay-ms', '0', '--contact', 'mailto:urn@library.example']);
    expect(r.code).toBe(1);
    expect(r.stdout.split('\t').slice(0, 4)).toEqual(['refused', 'outside-authority', 'urn:example:elsewhere', 'urn:example:elsewhere']);
    expect(r.stderr).toContain('harvested: 1 pages, 2 applied, 0 unchanged, 1 refused');
    const again = await run(['harvest', base, '--authority', 'urn:nbn:de:101', '--db', db, '--allow-private', '--delay-ms', '0', '--json']);
    const report = JSON.parse(again.stdout) as { status: string; from?: string; applied: number; refused: number };
    // from where the first began: nothing new (the name refused before comes again only if it changed in that same second)
    expect([report.status, report.applied, again.code]).toEqual(['ok', 0, report.refused > 0 ? 1 : 0]);
    expect(report.from).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const store = await openStore(db);
    try {
      expect((await store.names.get(SECOND))?.locations).toEqual([{ url: 'https://repo.example/1' }]);
      expect(await store.listing.count()).toBe(2);
    } finally {
      await store.close();
    }
  });

  it('usage errors', async () => {
    expect((await run(['harvest'])).code).toBe(2);
    expect((await run(['harvest', 'http://repo.example/oai'])).code).toBe(2);
    expect((await run(['harvest', 'http://repo.example/oai?verb=Identify', '--authority', 'urn:x:'])).code).toBe(2);
    expect((await run(['harvest', 'http://repo.example/oai', '--authority', 'urn:x:', '--format', 'marc21'])).code).toBe(2);
  });
});
