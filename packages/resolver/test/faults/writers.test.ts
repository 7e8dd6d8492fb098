/**
 * Writers that do not fail each other: several server processes on one
 * store take 1,200 concurrent PUTs, and more as long as a bulk import of
 * 100,000 names runs beside them. Every write waits for the store's write
 * lock (SQLite: BEGIN IMMEDIATE, retried without blocking; PostgreSQL: an
 * advisory lock) instead of failing.
 */
import { rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createToken, openStore } from '../../src/store/index.js';
import { runMain, startChildServer, type Child } from '../helpers/child.js';
import { testEngines } from '../helpers/engines.js';

/** A PUT through `agent`: the 1,200 requests are all in flight at once, over a pool of connections per server. */
function put(agent: http.Agent, base: string, path: string, token: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method: 'PUT', agent, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const PUTS = 1200;
const NAMES = 40;
const IMPORTED = 100_000;

const engines = await testEngines('writers.test');
afterAll(async () => { for (const e of engines) await e.cleanup(); });

for (const engine of engines) {
  const suite = engine.unavailable !== undefined ? describe.skip : describe;
  // PostgreSQL is meant for many processes; SQLite for one machine's few.
  const processes = engine.name === 'postgres' ? 6 : 2;
  suite(`${engine.name}: concurrent writers`, () => {
    it(`${processes} server processes, ${PUTS} concurrent PUTs and more while an import of ${IMPORTED.toLocaleString('en')} names runs: every write succeeds, versions without gaps`, async () => {
      const db = engine.freshDb();
      const setup = await openStore(db);
      const { token } = await createToken(setup, { authority: 'urn:example' });
      await setup.close();
      const file = join(tmpdir(), `urikit-writers-${process.pid}-${engine.name}.ndjson`);
      let text = '';
      for (let i = 0; i < IMPORTED; i++) text += `{"urn":"urn:example:bulk:${i}","locations":["http://a.example/bulk/${i}"]}\n`;
      writeFileSync(file, text);
      const servers: Array<Child & { url: string }> = [];
      try {
        for (let i = 0; i < processes; i++) servers.push(await startChildServer(['--db', db, '--no-rate-limit']));
        const agent = new http.Agent({ keepAlive: true, maxSockets: 50 });
        const sent = new Array<number>(NAMES).fill(0);
        const answers: Array<{ i: number; status: number; at: number }> = [];
        let total = 0;
        const write = async () => {
          const i = total++;
          sent[i % NAMES]!++;
          const status = await put(agent, servers[i % processes]!.url, `/admin/names/urn:example:w${i % NAMES}`, token, JSON.stringify({ locations: [`http://a.example/${i}`] }));
          answers.push({ i, status, at: Date.now() });
        };
        const wave = (n: number) => Promise.all(Array.from({ length: n }, write));
        // 1,200 PUTs at once, then waves of 100 for as long as the import runs.
        let importing = true;
        const load = (async () => {
          await wave(PUTS);
          while (importing) await wave(100);
        })().finally(() => agent.destroy());
        const importer = await runMain(['import', '--db', db, '--format', 'ndjson', file]);
        let importWriting: { at: number; inFlight: number } | undefined;
        importer.proc.stderr!.on('data', () => { if (importWriting === undefined && /progress/.test(importer.stderr())) importWriting = { at: Date.now(), inFlight: total - answers.length }; });
        const code = await importer.exited;
        importing = false;
        await load;
        expect(code, importer.stderr()).toBe(0);
        expect(JSON.parse(importer.stdout())).toMatchObject({ ok: true, created: IMPORTED });
        // The import wrote while PUTs were in flight, and PUTs were answered after it began.
        expect(importWriting?.inFlight).toBeGreaterThan(0);
        expect(answers.filter((a) => a.at > importWriting!.at).length).toBeGreaterThan(0);
        expect(total).toBeGreaterThanOrEqual(PUTS);
        expect(answers.filter((a) => a.status >= 300)).toEqual([]);
        const store = await openStore(db);
        try {
          for (let k = 0; k < NAMES; k++) {
            const versions = (await store.history.versions(`urn:example:w${k}`)).map((e) => e.version);
            expect(versions).toEqual(Array.from({ length: sent[k]! }, (_, v) => v + 1));
          }
          expect(await store.listing.count('urn:example:bulk:')).toBe(IMPORTED);
        } finally {
          await store.close();
        }
      } finally {
        for (const s of servers) s.proc.kill('SIGTERM');
        await Promise.all(servers.map((s) => s.exited));
        rmSync(file, { force: true });
      }
    }, 240_000);
  });
}
