import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importNames, openStore, type Store } from '../../src/store/index.js';
import { SeenKeys } from '../../src/store/seen-keys.js';
import { openSqliteFile } from '../../src/store/sqlite-driver.js';
import type { NameInput } from '../../src/store/types.js';
import { storeSnapshot, timelessSnapshot } from '../helpers/snapshot.js';

const dir = mkdtempSync(join(tmpdir(), 'urikit-bulk-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const freshFile = () => join(dir, `b${files++}.sqlite`);

const urn = (i: number) => `urn:example:bulk-${i}`;
const active = (i: number) => ({ urn: urn(i), locations: [`http://a.example/${i}`] });
const ndjson = (records: object[]) => records.map((r) => `${JSON.stringify(r)}\n`).join('');

/** The SQL of the indexes of `names` and `history`, read beside the store's connections. */
function namesIndexes(file: string): string[] {
  const raw = openSqliteFile(file, { readOnly: true });
  try {
    return raw.prepare("select sql from sqlite_schema where type = 'index' and tbl_name in ('names', 'history') and sql is not null order by name").all().map((r) => r.sql as string);
  } finally {
    raw.close();
  }
}


describe('SeenKeys (the duplicate check of an import, for tens of millions of names)', () => {
  it.each([
    { what: 'distinct keys, past several doublings of the table', keys: Array.from({ length: 300_000 }, (_, i) => urn(i)), firstRepeat: undefined },
    { what: 'a key again', keys: ['urn:ex:a', 'urn:ex:b', 'urn:ex:a'], firstRepeat: { line: 3, first: 1 } },
    { what: 'keys that differ in one character only', keys: ['urn:ex:ab', 'urn:ex:ba', 'urn:ex:aa', 'urn:ex:bb', 'urn:ex:ba'], firstRepeat: { line: 5, first: 2 } },
    { what: 'the empty key and a long one', keys: ['', 'x'.repeat(10_000), ''], firstRepeat: { line: 3, first: 1 } },
  ])('$what', ({ keys, firstRepeat }) => {
    const seen = new SeenKeys(4);
    let repeat: { line: number; first: number } | undefined;
    keys.forEach((k, i) => {
      const first = seen.firstLine(k, i + 1);
      if (first !== undefined && repeat === undefined) repeat = { line: i + 1, first };
    });
    expect(repeat).toEqual(firstRepeat);
    expect(seen.size).toBe(new Set(keys).size);
  });
});

describe('bulk import on SQLite: new names staged and written in slot order', () => {
  it('into an empty store: every name found, the indexes of names and history as the migrations made them', async () => {
    const file = freshFile();
    const store = await openStore(file);
    const before = namesIndexes(file);
    try {
      const report = await importNames(store, ndjson(Array.from({ length: 2500 }, (_, i) => active(i))), { format: 'ndjson' });
      expect(report).toMatchObject({ ok: true, created: 2500 });
      for (const i of [0, 999, 1000, 2499]) expect((await store.names.get(urn(i)))?.locations).toEqual([{ url: `http://a.example/${i}` }]);
      expect(namesIndexes(file)).toEqual(before);
      expect(before.length).toBeGreaterThan(0);
      // Again: every name unchanged, nothing written.
      expect(await importNames(store, ndjson(Array.from({ length: 2500 }, (_, i) => active(i))), { format: 'ndjson' })).toMatchObject({ ok: true, unchanged: 2500 });
      expect((await store.history.changes({ since: 0, limit: 5000 })).items).toHaveLength(2500);
    } finally {
      await store.close();
    }
  });

  // Each file spans several batches of the import (1,000 records), so a
  // link or a move may point at a name held back in an earlier batch.
  const cases: Array<{ what: string; stored: number; records: object[]; ok: boolean; check?: (s: Store) => Promise<void> }> = [
    {
      what: 'a successor named in a later batch than the name it points at',
      stored: 0,
      records: [...Array.from({ length: 1500 }, (_, i) => active(i)), { ...active(5000), successor: urn(3) }],
      ok: true,
      check: async (s) => expect((await s.names.get(urn(3)))?.predecessors).toEqual([urn(5000)]),
    },
    {
      what: 'a move to a name of an earlier batch',
      stored: 0,
      records: [...Array.from({ length: 1200 }, (_, i) => active(i)), { urn: urn(5000), status: 'moved', movedTo: urn(7) }],
      ok: true,
      check: async (s) => expect((await s.names.get(urn(7)))?.movedFrom).toEqual([urn(5000)]),
    },
    {
      what: 'a cycle of moves closed two batches later',
      stored: 0,
      records: [{ urn: urn(9000), status: 'moved', movedTo: urn(9001) }, ...Array.from({ length: 2100 }, (_, i) => active(i)), { urn: urn(9001), status: 'moved', movedTo: urn(9000) }],
      ok: false,
    },
    {
      what: 'into a store holding more names than the import (its indexes kept)',
      stored: 3000,
      records: [...Array.from({ length: 1100 }, (_, i) => active(10_000 + i)), { ...active(20_000), successor: urn(10_001) }],
      ok: true,
      check: async (s) => {
        expect((await s.names.get(urn(10_001)))?.predecessors).toEqual([urn(20_000)]);
        expect((await s.names.get(urn(2999)))?.status).toBe('active');
      },
    },
  ];

  it.each(cases)('$what: the same store as writes without staging', async ({ stored, records, ok, check }) => {
    const staged = await openStore(freshFile());
    const plain = await openStore(freshFile());
    try {
      for (const s of [staged, plain]) {
        if (stored > 0) expect(await importNames(s, ndjson(Array.from({ length: stored }, (_, i) => active(i))), { format: 'ndjson' })).toMatchObject({ ok: true });
      }
      const before = await timelessSnapshot(staged);
      const report = await importNames(staged, ndjson(records), { format: 'ndjson' });
      expect(report.ok).toBe(ok);
      if (!ok) {
        expect(report.errors[0]).toMatchObject({ code: 'redirect-cycle' });
        expect(await timelessSnapshot(staged)).toBe(before);
        return;
      }
      // The writer's bulk path without the promise of distinct keys: nothing staged.
      await plain.writer.bulk(async (b) => {
        const all = (records as NameInput[]).map((input) => ({ key: input.urn.toLowerCase(), input: { ...input, locations: (input.locations as unknown as string[] ?? []).map((url) => ({ url })) } }));
        for (let i = 0; i < all.length; i += 1000) await b.write(all.slice(i, i + 1000));
      });
      expect(await timelessSnapshot(staged)).toBe(await timelessSnapshot(plain));
      await check?.(staged);
    } finally {
      await staged.close();
      await plain.close();
    }
  });
});
