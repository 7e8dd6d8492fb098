// urikit's /oai harvested in epicur by an OAI-PMH harvester no one here
// wrote, HTTP::OAI::Harvester (Debian libhttp-oai-perl;
// ../harvest/perl-oai/harvest.pl): every name once over the resumption
// tokens, withdrawn names as deleted records, each record's URN and URLs as
// the store holds them; and every page of that list valid against the
// OAI-PMH 2.0 schema with the epicur one (xmllint). Skipped, loudly, when
// the Perl package is not installed (.ci/run installs it).
import { execFile, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintNbn } from 'urikit';
import { importNames, preferredOrder, startServer, URN_LOCATIONS_XSD, type RunningServer } from '@urikit/resolver';
import { harvest } from './harvester.js';

const here = dirname(fileURLToPath(import.meta.url));
const hasPerl = spawnSync('perl', ['-MHTTP::OAI', '-MXML::LibXML', '-e', '1']).status === 0;
const hasXmllint = spawnSync('xmllint', ['--version']).status === 0;
if (!hasPerl) console.warn('\n!!! HTTP::OAI is NOT installed: the harvest of /oai by a third-party harvester is SKIPPED (apt-get install libhttp-oai-perl; .ci/run installs it) !!!\n');

const N = 60;
const urnOf = (i: number) => (i % 2 === 0 ? mintNbn('urn:nbn:de:101-', { counter: 9000 + i }) : `urn:example:perl-${i}`);

describe.skipIf(!hasPerl)(hasPerl ? 'HTTP::OAI::Harvester harvests /oai in epicur' : 'HTTP::OAI::Harvester harvests /oai in epicur (SKIPPED: not installed)', () => {
  let server: RunningServer;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'urikit-perl-oai-'));
    server = await startServer({ port: 0, db: ':memory:', rateLimit: false, oai: { pageSize: 7 } });
    let lines = '';
    for (let i = 0; i < N; i++) lines += `${JSON.stringify({ urn: urnOf(i), locations: [{ url: `https://repo.example/${i}`, mediaType: 'text/html' }, ...(i % 3 === 0 ? [{ url: `https://mirror.example/${i}`, preference: 2 }] : [])] })}\n`;
    expect(await importNames(server.store, lines, { format: 'ndjson' })).toMatchObject({ ok: true });
    for (let i = 0; i < N; i += 11) await server.store.writer.withdraw(urnOf(i), { reason: 'retracted' });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('every name once, withdrawn ones deleted, URN and URLs as the store holds them', async () => {
    // asynchronously: the server answering it runs in this process
    const { stdout: out } = await promisify(execFile)('perl', [join(here, '..', 'harvest', 'perl-oai', 'harvest.pl'), `${server.url}/oai`, 'epicur'], { encoding: 'utf8' });
    const rows = out.trim().split('\n').map((l) => l.split('\t'));
    expect(rows.length).toBe(N);
    expect(new Set(rows.map((r) => r[0]))).toEqual(new Set(Array.from({ length: N }, (_, i) => urnOf(i))));
    for (const [id, , deleted, urn, urls] of rows) {
      const rec = await server.store.names.get(id!);
      expect(deleted).toBe(rec?.status === 'withdrawn' ? 'deleted' : '');
      if (rec?.status === 'active') {
        expect(urn).toBe(rec.urn);
        expect(urls).toBe(preferredOrder(rec.locations).map((l) => l.url).join(' '));
      }
    }
  });

  it.skipIf(!hasXmllint)('every page of the list is valid against the OAI-PMH 2.0 and epicur schemas (xmllint)', async () => {
    for (const f of readdirSync(join(here, 'schema'))) copyFileSync(join(here, 'schema', f), join(dir, f));
    writeFileSync(join(dir, 'urn_locations.xsd'), URN_LOCATIONS_XSD);
    const files: string[] = [];
    const keep = (xml: string) => { const f = join(dir, `p${files.length}.xml`); writeFileSync(f, xml); files.push(f); return xml; };
    const ask = async (q: Record<string, string>) => (await fetch(`${server.url}/oai?${new URLSearchParams(q)}`)).text();
    const h = await harvest(ask, 'ListRecords', { metadataPrefix: 'epicur' }, keep);
    expect([h.pages, h.headers.length]).toEqual([Math.ceil(N / 7), N]);
    const r = spawnSync('xmllint', ['--noout', '--schema', join(dir, 'harvest.xsd'), ...files], { encoding: 'utf8' });
    expect(r.stderr.split('\n').filter((l) => l !== '' && !l.endsWith(' validates'))).toEqual([]);
    expect(r.status).toBe(0);
  });
});
