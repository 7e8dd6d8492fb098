/**
 * Migration 0011 on both engines: a store written before the 1995 draft
 * §2.3.1 case rule was in the key (ElementIDs of `urn:dns:` names kept
 * their case in it) gets the rule's keys, with history, links and
 * resolution counts; names that become one key are listed, never merged.
 *
 * The old store is made from a new one: names written, then their rows
 * given the keys the old key function gave them, and 0011 taken off the
 * list of migrations run.
 */
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { nameSlot } from '../../src/store/slots.js';
import { testEngines } from '../helpers/engines.js';

const L = 'urn:dns:library.bigstate.edu';
const engines = await testEngines('case-fold-migration.test');
afterAll(async () => { for (const e of engines) await e.cleanup(); });

/** Runs statements (with `?` parameters) on the store's database, outside the store. */
async function onDatabase(url: string, statements: Array<[string, unknown[]]>): Promise<void> {
  if (!url.startsWith('postgres')) {
    const db = new DatabaseSync(url);
    try { for (const [text, params] of statements) db.prepare(text).run(...(params as Array<string | number>)); } finally { db.close(); }
    return;
  }
  const u = new URL(url);
  const schema = u.searchParams.get('schema')!;
  u.searchParams.delete('schema');
  const c = new pg.Client({ connectionString: u.toString() });
  await c.connect();
  try {
    await c.query(`set search_path to ${schema}`);
    for (const [text, params] of statements) {
      let n = 0;
      await c.query(text.replace(/\?/g, () => `$${++n}`), params);
    }
  } finally { await c.end(); }
}

/** The statements that give a name the key the old key function gave it: `key` kept its ElementID's case. */
function oldKey(engine: string, newKey: string, old: string): Array<[string, unknown[]]> {
  return [
    [`update names set key = ?, urn = case when urn = ? then '' else urn end${engine === 'sqlite' ? `, id = ${nameSlot(old)}` : ''} where key = ?`, [old, old, newKey]],
    // The history's JSON leaves out a URN that is the key (records.ts historyJson).
    ['update history set key = ?, record = replace(record, ?, ?) where key = ?', [old, `"urn":${JSON.stringify(old)},`, '', newKey]],
    ['update name_links set target = ? where target = ?', [old, newKey]],
    ['update name_links set source = ? where source = ?', [old, newKey]],
    ...['resolution_stats', 'resolution_stats_recent', 'resolution_stats_pending'].map((t): [string, unknown[]] => [`update ${t} set key = ? where key = ?`, [old, newKey]]),
  ];
}

for (const engine of engines) {
  const suite = engine.unavailable !== undefined ? describe.skip : describe;
  suite(`${engine.name}: migration 0011 (the §2.3.1 case rule in the keys)`, () => {
    it('moves each urn:dns: name to its key, with its history, links and counts; lists names that collide, merging none', async () => {
      const url = engine.freshDb();
      let store = await openStore(url);
      const w = store.writer;
      await w.put(`${L}:mixedcase`, { urn: `${L}:MixedCase`, locations: [{ url: 'http://a.example/mixed' }] });
      await w.put(`${L}:mixedcase`, { urn: `${L}:MixedCase`, locations: [{ url: 'http://a.example/mixed2' }] });
      await w.put(`${L}:src`, { urn: `${L}:Src`, status: 'moved', movedTo: `${L}:MixedCase` });
      // Three spellings of one name: the old keys kept them apart.
      await w.put(`${L}:dup`, { urn: `${L}:dup`, locations: [{ url: 'http://a.example/dup-lower' }] });
      await w.put(`${L}:dup-1`, { urn: `${L}:Dup`, locations: [{ url: 'http://a.example/dup-mixed' }] });
      await w.put(`${L}:dup-2`, { urn: `${L}:DUP`, locations: [{ url: 'http://a.example/dup-upper' }] });
      await store.stats.add([{ key: `${L}:mixedcase`, day: '2026-11-01', service: 'I2L', human: 3, robot: 1 }]);
      await store.close();
      await onDatabase(url, [
        ...oldKey(engine.name, `${L}:mixedcase`, `${L}:MixedCase`),
        ...oldKey(engine.name, `${L}:src`, `${L}:Src`),
        ...oldKey(engine.name, `${L}:dup-1`, `${L}:Dup`),
        ...oldKey(engine.name, `${L}:dup-2`, `${L}:DUP`),
        ['update names set data = replace(data, ?, ?)', [`"${L}:src"`, `"${L}:Src"`]],
        // A store of migration 0010: 0011 and what came after it run again (0012 finds its tables there).
        ["delete from kysely_migration where name >= '0011'", []],
        ['drop table name_key_collisions', []],
      ]);

      store = await openStore(url);
      try {
        // The name alone under its spelling moved to its key, with every version and its counts.
        const mixed = (await store.names.lookup(`${L}:mixedcase`)).record;
        expect(mixed).toMatchObject({ key: `${L}:mixedcase`, urn: `${L}:MixedCase`, version: 3, movedFrom: [`${L}:src`] });
        const versions = await store.history.versions(`${L}:mixedcase`);
        expect(versions.map((v) => [v.version, v.record.urn, v.record.key])).toEqual([1, 2, 3].map((n) => [n, `${L}:MixedCase`, `${L}:mixedcase`]));
        expect((await store.names.lookup(`${L}:src`)).record).toMatchObject({ urn: `${L}:Src`, status: 'moved' });
        const counts = await store.stats.report({ key: `${L}:mixedcase` }, 'name');
        expect(counts.totals).toEqual({ human: 3, robot: 1 });
        // The three spellings of dup are kept as they were, each with its record, and listed.
        expect(await store.listing.keyCollisions()).toEqual([{ key: `${L}:dup`, storedAs: [`${L}:DUP`, `${L}:Dup`, `${L}:dup`] }]);
        expect((await store.names.lookup(`${L}:dup`)).record?.locations[0]?.url).toBe('http://a.example/dup-lower');
        const kept = await store.listing.list({ prefix: `${L}:` });
        expect(kept.items.map((r) => r.key)).toEqual([`${L}:DUP`, `${L}:Dup`, `${L}:dup`, `${L}:mixedcase`, `${L}:src`]);
      } finally {
        await store.close();
      }
    });
  });
}
