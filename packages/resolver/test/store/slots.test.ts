import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { importNames, openStore } from '../../src/store/index.js';
import { migrationProvider } from '../../src/store/migrations.js';
import type { Database } from '../../src/store/schema.js';
import { nameSlot } from '../../src/store/slots.js';
import { kyselySqlite, openSqliteFile } from '../../src/store/sqlite-driver.js';

const dir = mkdtempSync(join(tmpdir(), 'urikit-slots-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const freshFile = () => join(dir, `s${n++}.sqlite`);

/** The row ids of `keys`, read from the file beside the store's own connections. */
function rowIds(file: string, keys: string[]): Array<{ key: string; id: number }> {
  const raw = openSqliteFile(file, { readOnly: true });
  try {
    return raw.prepare(`select key, id from names where key in (${keys.map(() => '?').join(', ')}) order by key`).all(...keys).map((r) => ({ key: r.key as string, id: r.id as number }));
  } finally {
    raw.close();
  }
}

describe('name slots (SQLite names table keyed by a 52-bit hash of the key)', () => {
  it('are fixed: they are part of the file format', () => {
    // Changing these values orphans the rows of every existing store.
    expect([
      nameSlot('urn:isbn:0451450523'),
      nameSlot('urn:ietf:rfc:2141'),
      nameSlot('urn:dns:library.bigstate.edu:aj17-mcc'),
      nameSlot(''),
    ]).toEqual([1536382062627820, 3901352530236944, 3221660497294564, 2271358496518796]);
    for (let i = 0; i < 10_000; i++) {
      const s = nameSlot(`urn:example:${i}`);
      expect(Number.isSafeInteger(s) && s >= 0 && s < 2 ** 52).toBe(true);
    }
  });

  // Real 52-bit collisions, found once by hashing urn:example:0 … urn:example:134217727.
  const COLLISIONS = [
    ['urn:example:43812349', 'urn:example:82272186'],
    ['urn:example:54542312', 'urn:example:118080129'],
    ['urn:example:56462399', 'urn:example:119506129'],
    ['urn:example:98452831', 'urn:example:111572395'],
  ] as const;

  it('collide where the tests say they do', () => {
    for (const [a, b] of COLLISIONS) expect(nameSlot(a)).toBe(nameSlot(b));
  });

  it('store the second of two colliding names elsewhere, and find both', async () => {
    const file = freshFile();
    const store = await openStore(file);
    try {
      const [a, b] = COLLISIONS[0];
      await store.writer.put(a, { urn: a, locations: [{ url: 'http://a.example/a' }] });
      await store.writer.put(b, { urn: b, locations: [{ url: 'http://a.example/b' }] });
      expect((await store.names.get(a))?.locations[0]?.url).toBe('http://a.example/a');
      expect((await store.names.get(b))?.locations[0]?.url).toBe('http://a.example/b');
      expect(await store.names.get('urn:example:c')).toBeUndefined();
      const ids = rowIds(file, [a, b]);
      expect(ids[0]).toEqual({ key: a, id: nameSlot(a) });
      expect(ids[1]!.key).toBe(b);
      expect(Number.isSafeInteger(ids[1]!.id) && ids[1]!.id !== nameSlot(b)).toBe(true);
      // An update keeps each row where it is.
      await store.writer.put(b, { urn: b, locations: [{ url: 'http://a.example/b2' }] });
      await store.writer.put(a, { urn: a, locations: [{ url: 'http://a.example/a2' }] });
      expect((await store.names.get(a))?.locations[0]?.url).toBe('http://a.example/a2');
      expect((await store.names.get(b))?.locations[0]?.url).toBe('http://a.example/b2');
    } finally {
      await store.close();
    }
  });

  it('let a bulk import place colliding names, in one batch, across batches and against a stored name', async () => {
    const store = await openStore(freshFile());
    try {
      const [p, q] = COLLISIONS[3];
      await store.writer.put(p, { urn: p, locations: [{ url: `http://a.example/${p}` }] });
      const keys = Array.from({ length: 1200 }, (_, i) => `urn:example:n${i}`);
      keys[10] = COLLISIONS[1][0]; // both in the first full batch of 500
      keys[20] = COLLISIONS[1][1];
      keys[100] = COLLISIONS[2][0]; // first batch, and the partial last batch
      keys[1100] = COLLISIONS[2][1];
      keys[1150] = q; // against the stored name
      const lines = keys.map((k) => JSON.stringify({ urn: k, locations: [`http://a.example/${k}`] })).join('\n');
      expect(await importNames(store, lines, { format: 'ndjson' })).toMatchObject({ ok: true, created: 1200 });
      for (const k of [...keys, p]) expect((await store.names.get(k))?.locations[0]?.url).toBe(`http://a.example/${k}`);
      expect(await store.listing.count('urn:example:')).toBe(1201);
    } finally {
      await store.close();
    }
  });

  it('are given to the names of a store made before them (migration 0002), which resolve as before', async () => {
    const file = freshFile();
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: kyselySqlite(openSqliteFile(file)) }) });
    const { error } = await new Migrator({ db, provider: migrationProvider('sqlite') }).migrateTo('0001_names');
    expect(error).toBeUndefined();
    const row = (i: number) => ({ key: `urn:example:m${i}`, urn: `urn:example:m${i}`, status: 'active', data: JSON.stringify({ locations: [{ url: `http://a.example/m${i}` }] }), version: 1, created: 1000, updated: 2000 });
    for (let i = 0; i < 12_000; i += 500) await db.insertInto('names').values(Array.from({ length: 500 }, (_, j) => row(i + j))).execute();
    await db.destroy();
    const store = await openStore(file);
    try {
      expect(await store.listing.count()).toBe(12_000);
      for (const i of [0, 4999, 5000, 11_999]) {
        expect(await store.names.get(`urn:example:m${i}`)).toMatchObject({ status: 'active', version: 1, created: 1000, updated: 2000, locations: [{ url: `http://a.example/m${i}` }] });
      }
      const ids = rowIds(file, ['urn:example:m0', 'urn:example:m11999']);
      expect(ids.map((r) => r.id)).toEqual(ids.map((r) => nameSlot(r.key)));
      expect((await store.listing.list({ prefix: 'urn:example:m1', limit: 3 })).items.map((r) => r.key)).toEqual(['urn:example:m1', 'urn:example:m10', 'urn:example:m100']);
    } finally {
      await store.close();
    }
  });
});
