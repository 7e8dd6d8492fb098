/**
 * The links the store keeps both ways (src/store/links.ts) on both
 * engines: a name learns of the names that moved to it or name it their
 * successor, whether they were written before it, after it, in the same
 * import, or before the store had the table (migration 0004); a change of
 * those lists is a new version in the history; the answers carry them as
 * `Link: rel="predecessor-version"` (RFC 5829 §3.4) and I2Ns lists the
 * names that moved there (RFC 2483).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { importNames, openStore, type Store } from '../../src/store/index.js';
import { startServer } from '../../src/server/index.js';
import { testEngines } from '../helpers/engines.js';
import { get } from '../helpers/http.js';
import { openSqliteFile } from '../../src/store/sqlite-driver.js';

const engines = await testEngines('links.test');
afterAll(async () => { for (const e of engines) await e.cleanup(); });

const put = (store: Store, key: string, extra: Record<string, unknown> = {}) =>
  store.writer.put(key, { urn: key, locations: [{ url: `http://a.example/${key.slice(11)}` }], ...extra });

for (const engine of engines) {
  const suite = engine.unavailable !== undefined ? describe.skip : describe;
  suite(`${engine.name}: links between names`, () => {
    it('a move to a name that exists gives it the mover, as a new version', async () => {
      const store = await openStore(engine.freshDb());
      try {
        await put(store, 'urn:example:b');
        await put(store, 'urn:example:a');
        await store.writer.move('urn:example:a', { to: 'URN:EXAMPLE:b', permanent: true }, 'tok');
        const b = (await store.names.get('urn:example:b'))!;
        expect(b.movedFrom).toEqual(['urn:example:a']);
        expect(b.version).toBe(2);
        const h = await store.history.versions('urn:example:b');
        expect(h.map((e) => [e.version, e.op, e.actor ?? null])).toEqual([[1, 'create', null], [2, 'update', 'tok']]);
        // Taking the name back undoes the link, again as a version.
        await put(store, 'urn:example:a', { status: 'active' });
        const again = (await store.names.get('urn:example:b'))!;
        expect(again.movedFrom).toBeUndefined();
        expect(again.version).toBe(3);
      } finally { await store.close(); }
    });

    it('a name written after the names pointing at it learns of them', async () => {
      const store = await openStore(engine.freshDb());
      try {
        await put(store, 'urn:example:old', { successor: 'urn:example:new' });
        await store.writer.put('urn:example:gone', { urn: 'urn:example:gone', status: 'moved', movedTo: 'urn:example:new' });
        const created = await put(store, 'urn:example:new');
        expect(created.record).toMatchObject({ version: 1, movedFrom: ['urn:example:gone'], predecessors: ['urn:example:old'] });
        // An update keeps the lists (they come from the other names, not from the input).
        const updated = await store.writer.put('urn:example:new', { urn: 'urn:example:new', locations: [{ url: 'http://b.example/' }] });
        expect(updated.record).toMatchObject({ version: 2, movedFrom: ['urn:example:gone'], predecessors: ['urn:example:old'] });
        expect((await put(store, 'urn:example:new', { locations: [{ url: 'http://b.example/' }] })).op).toBe('unchanged');
      } finally { await store.close(); }
    });

    it('one import with both ends of a link, in either order, and links to names of the store', async () => {
      const store = await openStore(engine.freshDb());
      try {
        await put(store, 'urn:example:kept');
        const lines = [
          { urn: 'urn:example:p', status: 'moved', movedTo: 'urn:example:q' },
          { urn: 'urn:example:q', locations: ['http://a.example/q'] },
          { urn: 'urn:example:r', locations: ['http://a.example/r'], successor: 'urn:example:kept' },
        ].map((l) => JSON.stringify(l)).join('\n');
        expect(await importNames(store, lines, { format: 'ndjson', actor: 'imp' })).toMatchObject({ ok: true, created: 3 });
        expect(await store.names.get('urn:example:q')).toMatchObject({ version: 1, movedFrom: ['urn:example:p'] });
        expect(await store.names.get('urn:example:kept')).toMatchObject({ version: 2, predecessors: ['urn:example:r'] });
        // Importing the same again changes nothing, the lists included.
        expect(await importNames(store, lines, { format: 'ndjson' })).toMatchObject({ ok: true, unchanged: 3 });
        expect((await store.names.get('urn:example:kept'))!.version).toBe(2);
      } finally { await store.close(); }
    });

    it('the answers carry the links: predecessor-version, successor-version, and I2Ns lists the names that moved there', async () => {
      const server = await startServer({ port: 0, db: engine.freshDb(), demo: true, rateLimit: false });
      try {
        const current = await get(server.url, '/urn:dns:library.bigstate.edu:current-version-of-price-list');
        expect(current.headers.get('link')).toBe('<urn:dns:library.bigstate.edu:old-price-list>; rel="predecessor-version", <urn:dns:library.bigstate.edu:price-list-1994>; rel="predecessor-version"');
        const names = await get(server.url, '/uri-res/N2Ns?urn:dns:library.bigstate.edu:current-version-of-price-list');
        expect(names.text).toBe('# the names of urn:dns:library.bigstate.edu:current-version-of-price-list\r\nurn:dns:library.bigstate.edu:current-version-of-price-list\r\nurn:dns:library.bigstate.edu:old-price-list\r\n');
        const older = await get(server.url, '/urn:dns:library.bigstate.edu:price-list-1994');
        expect(older.headers.get('link')).toBe('<urn:dns:library.bigstate.edu:current-version-of-price-list>; rel="successor-version"');
      } finally { await server.close(); }
    });
  });
}

describe('migration 0004: the links of a store written before it', () => {
  it('fills name_links from the records there are and gives each target its lists', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'urikit-links-'));
    const file = join(dir, 'old.sqlite');
    try {
      // A store of migration 0003, written as it was: no name_links table, no lists.
      let store = await openStore(file);
      await put(store, 'urn:example:t');
      await store.writer.put('urn:example:m', { urn: 'urn:example:m', status: 'moved', movedTo: 'urn:example:t' });
      await put(store, 'urn:example:s', { successor: 'urn:example:t' });
      await store.close();
      const db = openSqliteFile(file);
      // (and of no later migration either: they run again after 0004)
      db.exec("drop table name_links; drop table link_health; drop table resolution_stats; drop table resolution_stats_recent; drop table resolution_stats_pending; drop table names_generation; drop table mint_counters; drop table store_changes; drop index names_by_datestamp; delete from kysely_migration where name >= '0004'");
      db.prepare("update names set data = json_remove(data, '$.movedFrom', '$.predecessors') where key = 'urn:example:t'").run();
      expect(JSON.parse((db.prepare("select data from names where key = 'urn:example:t'").get() as { data: string }).data).movedFrom).toBeUndefined();
      db.close();
      store = await openStore(file);
      expect(await store.names.get('urn:example:t')).toMatchObject({ movedFrom: ['urn:example:m'], predecessors: ['urn:example:s'] });
      // and the table serves later writes
      await store.writer.put('urn:example:s', { urn: 'urn:example:s', locations: [{ url: 'http://a.example/s' }] });
      expect((await store.names.get('urn:example:t'))!.predecessors).toBeUndefined();
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
