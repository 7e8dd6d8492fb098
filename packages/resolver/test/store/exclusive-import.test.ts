import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importNames, openStore, StoreInUseError } from '../../src/store/index.js';
import { openSqliteFile } from '../../src/store/sqlite-driver.js';
import { storeSnapshot, timelessSnapshot } from '../helpers/snapshot.js';

const dir = mkdtempSync(join(tmpdir(), 'urikit-exclusive-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const freshFile = () => join(dir, `x${files++}.sqlite`);

const urn = (i: number) => `urn:example:x-${i}`;
const ndjson = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `{"urn":"${urn(from + i)}","locations":["http://a.example/${from + i}"]}\n`).join('');


/** The journal mode written in the file's header, as a new connection finds it. */
function journalMode(file: string): string {
  const raw = openSqliteFile(file, { readOnly: true });
  try {
    return String((raw.prepare('pragma journal_mode').get() as { journal_mode: string }).journal_mode);
  } finally {
    raw.close();
  }
}

describe('a SQLite store held exclusively for a bulk import (urikit import --exclusive)', () => {
  it('writes the same store as an import beside readers, and leaves the file in WAL mode', async () => {
    const stores = [freshFile(), freshFile()];
    const snapshots: string[] = [];
    for (const [i, file] of stores.entries()) {
      const seed = await openStore(file);
      await importNames(seed, ndjson(0, 1500), { format: 'ndjson' });
      await seed.close();
      const store = await openStore(file, { exclusive: i === 0 });
      try {
        // Names new and old, across several batches; then the same file again changes nothing.
        expect(await importNames(store, ndjson(1000, 4000), { format: 'ndjson' })).toMatchObject({ ok: true, created: 2500, unchanged: 500 });
        expect(await importNames(store, ndjson(1000, 4000), { format: 'ndjson' })).toMatchObject({ ok: true, unchanged: 3000 });
        snapshots.push(await timelessSnapshot(store));
      } finally {
        await store.close();
      }
      expect(journalMode(file)).toBe('wal');
    }
    expect(snapshots[0]).toBe(snapshots[1]);
    const reopened = await openStore(stores[0]!);
    try {
      expect((await reopened.names.get(urn(3999)))?.locations).toEqual([{ url: 'http://a.example/3999' }]);
      expect(await reopened.listing.count()).toBe(4000);
    } finally {
      await reopened.close();
    }
  });

  it('an import refused by a bad line leaves the store as it was', async () => {
    const file = freshFile();
    const seed = await openStore(file);
    await importNames(seed, ndjson(0, 10), { format: 'ndjson' });
    const before = await storeSnapshot(seed);
    await seed.close();
    const store = await openStore(file, { exclusive: true });
    try {
      const report = await importNames(store, `${ndjson(10, 2500)}{"urn":"urn:a:x"}\n`, { format: 'ndjson' });
      expect(report).toMatchObject({ ok: false, created: 0, errors: [{ line: 2491, code: 'bad-nid' }] });
      expect(await storeSnapshot(store)).toBe(before);
    } finally {
      await store.close();
    }
  });

  it('is refused, with nothing written, while another connection has the file open', async () => {
    const file = freshFile();
    const server = await openStore(file);
    try {
      await server.writer.put(urn(1), { urn: urn(1), locations: [{ url: 'http://a.example/1' }] });
      await expect(openStore(file, { exclusive: true })).rejects.toThrow(StoreInUseError);
      await expect(openStore(file, { exclusive: true })).rejects.toThrow(/is open in another process/);
      // The other connection goes on reading and writing.
      await server.writer.put(urn(2), { urn: urn(2), locations: [{ url: 'http://a.example/2' }] });
      expect(await server.listing.count()).toBe(2);
    } finally {
      await server.close();
    }
    expect(journalMode(file)).toBe('wal');
    const alone = await openStore(file, { exclusive: true });
    await alone.close();
  });

  it('is for SQLite only: a PostgreSQL URL is refused before connecting', async () => {
    await expect(openStore('postgres://nobody@127.0.0.1:1/none', { exclusive: true })).rejects.toThrow(/is for a SQLite store/);
  });
});
