import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createToken, openStore } from '../../src/store/index.js';
import { runMain, startChildServer, waitFor } from '../helpers/child.js';
import { testEngines } from '../helpers/engines.js';
import { get } from '../helpers/http.js';
import { storeSnapshot as snapshot } from '../helpers/snapshot.js';

/** A fresh admin token of `authority` in the store at `db`. */
async function tokenIn(db: string, authority: string): Promise<string> {
  const setup = await openStore(db);
  try { return (await createToken(setup, { authority })).token; } finally { await setup.close(); }
}

const engines = await testEngines('crash.test');
afterAll(async () => { for (const e of engines) await e.cleanup(); });


for (const engine of engines) {
  const suite = engine.unavailable !== undefined ? describe.skip : describe;
  suite(`${engine.name}: faults`, () => {
    // --exclusive (SQLite): the import keeps a rollback journal instead of the WAL; a kill leaves it hot, and the next opener rolls it back.
    const modes = [{ how: 'beside readers', mode: [] as string[] }, ...(engine.name === 'sqlite' ? [{ how: 'holding the store exclusively', mode: ['--exclusive'] }] : [])];
    it.each(modes)('a bulk import $how, killed with SIGKILL half-way, leaves the store exactly as before it', async ({ mode }) => {
      const db = engine.freshDb();
      const store = await openStore(db);
      await store.writer.put('urn:example:before', { urn: 'urn:example:before', locations: [{ url: 'http://a.example/before' }] });
      await store.writer.put('urn:example:n5', { urn: 'urn:example:n5', locations: [{ url: 'http://a.example/old-n5' }] });
      const before = await snapshot(store);
      await store.close();
      const total = 120_000;
      const file = join(tmpdir(), `urikit-kill-import-${process.pid}-${engine.name}.ndjson`);
      let text = '';
      for (let i = 0; i < total; i++) text += `{"urn":"urn:example:n${i}","locations":["http://a.example/n${i}"]}\n`;
      writeFileSync(file, text);
      const child = await runMain(['import', '--db', db, ...mode, '--format', 'ndjson', file]);
      await waitFor(child, () => {
        const m = /progress (\d+)\n(?![\s\S]*progress)/.exec(child.stderr());
        return m !== null && Number(m[1]) >= total / 2;
      }, 60_000);
      child.proc.kill('SIGKILL');
      await child.exited;
      rmSync(file, { force: true });
      expect(child.stdout()).toBe(''); // it never finished
      const after = await openStore(db);
      try {
        expect(await snapshot(after)).toBe(before);
        expect(await after.listing.count()).toBe(2);
      } finally { await after.close(); }
    });

    it('a restart after SIGKILL under write load loses no acknowledged write', async () => {
      const db = engine.freshDb();
      const token = await tokenIn(db, 'urn:example');
      const server = await startChildServer(['--db', db]);
      const acked = new Map<string, string>();
      let stop = false;
      const writer = async (w: number) => {
        for (let i = 0; !stop; i++) {
          const urn = `urn:example:w${w}-${i}`;
          const url = `http://a.example/${w}/${i}`;
          try {
            const r = await get(server.url, `/admin/names/${urn}`, { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, { method: 'PUT', body: JSON.stringify({ locations: [url] }) });
            if (r.status === 201) acked.set(urn, url);
          } catch { return; }
        }
      };
      const writers = [0, 1, 2, 3].map(writer);
      while (acked.size < 150) await new Promise((r) => setTimeout(r, 5));
      server.proc.kill('SIGKILL');
      await server.exited;
      stop = true;
      await Promise.all(writers);
      const restarted = await startChildServer(['--db', db]);
      try {
        const store = await openStore(db);
        try {
          for (const [urn, url] of acked) {
            const r = await store.names.get(urn);
            expect(r?.locations[0]?.url, urn).toBe(url);
          }
        } finally { await store.close(); }
        const [someUrn, someUrl] = [...acked][acked.size - 1]!;
        const r = await get(restarted.url, `/${someUrn}`);
        expect(r.status).toBe(302);
        expect(r.headers.get('location')).toBe(someUrl);
      } finally {
        restarted.proc.kill('SIGTERM');
        await restarted.exited;
      }
    });

    if (engine.name === 'postgres') {
      it('two server processes on one PostgreSQL see each other\'s writes at once', async () => {
        const db = engine.freshDb();
        const token = await tokenIn(db, 'urn:example');
        const a = await startChildServer(['--db', db]);
        const b = await startChildServer(['--db', db]);
        try {
          const put = (base: string, urn: string, url: string) => get(base, `/admin/names/${urn}`, { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, { method: 'PUT', body: JSON.stringify({ locations: [url] }) });
          for (let i = 0; i < 10; i++) {
            const [writer, reader] = i % 2 === 0 ? [a, b] : [b, a];
            const url = `http://a.example/shared/${i}`;
            const w = await put(writer.url, 'urn:example:shared', url);
            expect(w.status).toBeLessThan(300);
            const r = await get(reader.url, '/urn:example:shared');
            expect(r.status).toBe(302);
            expect(r.headers.get('location')).toBe(url);
          }
          const h = await get(a.url, '/admin/history/urn:example:shared', { authorization: `Bearer ${token}` });
          expect((JSON.parse(h.text) as { history: unknown[] }).history).toHaveLength(10);
        } finally {
          a.proc.kill('SIGTERM');
          b.proc.kill('SIGTERM');
          await Promise.all([a.exited, b.exited]);
        }
      });
    }
  });
}
