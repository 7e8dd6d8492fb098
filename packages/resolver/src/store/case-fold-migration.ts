/**
 * Migration 0011: the keys of `urn:dns:` names under the 1995 draft
 * §2.3.1 case rule (keys.ts: their ElementIDs are not case-sensitive, so
 * the whole key is lower case, its `%hh` triplets upper case as RFC 8141
 * §3.1 keeps them). Before it, a key kept the ElementID's case.
 *
 * Every `urn:dns:` name whose key changes is moved to its new key, with
 * its history, its links, its resolution counts and the lists of the
 * names it points at; its `urn` keeps the spelling it was registered
 * with. Names that become one key under the rule (`…:MixedCase` beside
 * `…:mixedcase`) are never merged: none of them is moved, each keeps its
 * key and its record, and `name_key_collisions` lists them for the
 * operator (`NameListing.keyCollisions`; `urikit serve` warns of them at
 * start). The one whose key is already lower case is the one the rule's
 * key finds.
 *
 * Written out here as it is on the day the migration was made (a
 * migration stays as it was written): it does not call keys.ts.
 */
import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { Engine } from './schema.js';
import { nameSlot } from './slots.js';

/** The key of a `urn:dns:` key under the §2.3.1 rule: ASCII letters lower case, `%hh` kept. */
function foldDnsKey(key: string): string {
  let out = '';
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c === 0x25) { out += key.slice(i, i + 3); i += 2; continue; }
    out += c >= 0x41 && c <= 0x5a ? String.fromCharCode(c + 0x20) : key[i];
  }
  return out;
}

/** A key prefix of a `urn:dns:` rule, counter or token authority, folded; any other left as it is. */
function foldPrefix(prefix: string): string {
  return prefix.startsWith('urn:dns:') ? foldDnsKey(prefix) : prefix;
}

/** The tables whose `key` column names a name, besides `names` itself. */
const KEYED_TABLES = ['history', 'resolution_stats', 'resolution_stats_recent', 'resolution_stats_pending'] as const;

/**
 * Runs migration 0011 on `db` (inside the migration's transaction on
 * PostgreSQL; in one of its own on SQLite, whose migrations kysely runs
 * outside one).
 */
export async function foldDnsKeys(db: Kysely<any>, engine: Engine): Promise<void> {
  await db.schema.createTable('name_key_collisions').ifNotExists()
    .addColumn('old_key', engine === 'postgres' ? sql`text collate "C"` : sql`text`, (c) => c.primaryKey())
    .addColumn('key', engine === 'postgres' ? sql`text collate "C"` : sql`text`, (c) => c.notNull())
    .execute();
  const run = async (trx: Kysely<any>) => {
    // Every urn:dns: key that the rule changes, by its new key.
    const byNewKey = new Map<string, string[]>();
    let after = 'urn:dns:';
    for (;;) {
      const page = await trx.selectFrom('names').select('key').where('key', '>', after).where('key', '<', 'urn:dns;').orderBy('key').limit(5000).execute() as Array<{ key: string }>;
      for (const { key } of page) {
        const folded = foldDnsKey(key);
        if (folded === key) continue;
        const list = byNewKey.get(folded);
        if (list) list.push(key);
        else byNewKey.set(folded, [key]);
      }
      if (page.length < 5000) break;
      after = page[page.length - 1]!.key;
    }
    const moves = new Map<string, string>();
    const collisions: Array<{ old_key: string; key: string }> = [];
    for (const [folded, olds] of byNewKey) {
      const taken = await trx.selectFrom('names').select('key').where('key', '=', folded).executeTakeFirst();
      if (olds.length === 1 && !taken) { moves.set(olds[0]!, folded); continue; }
      for (const old of olds) collisions.push({ old_key: old, key: folded });
      if (taken) collisions.push({ old_key: folded, key: folded });
    }
    for (let i = 0; i < collisions.length; i += 500) await trx.insertInto('name_key_collisions').values(collisions.slice(i, i + 500)).execute();
    for (const [old, key] of moves) {
      // The urn column is '' when the URN is the key (records.ts): it keeps the old spelling now, in the
      // record and in every version of the history, whose JSON left it out for the same reason.
      const spelledAsKey = (await trx.selectFrom('names').select('urn').where('key', '=', old).executeTakeFirst() as { urn: string } | undefined)?.urn === '';
      await trx.updateTable('names').set({ key, urn: sql`case when urn = '' then ${old} else urn end` }).where('key', '=', old).execute();
      if (spelledAsKey) {
        await trx.updateTable('history').set({ record: sql`${`{"urn":${JSON.stringify(old)},`} || substr(record, 2)` }).where('key', '=', old).where('record', 'not like', '{"urn":%').execute();
      }
      if (engine === 'sqlite') {
        // The row goes to its new key's slot when that is free (slots.ts); else a lookup finds it by the key index.
        await trx.executeQuery(CompiledQuery.raw('update names set id = ? where key = ? and not exists (select 1 from names where id = ?)', [nameSlot(key), key, nameSlot(key)]));
      }
      for (const table of KEYED_TABLES) await trx.updateTable(table).set({ key }).where('key', '=', old).execute();
      await trx.updateTable('name_links').set({ source: key }).where('source', '=', old).execute();
    }
    // Links name their target by key, whether the store holds it or not yet (links.ts).
    const kept = new Set(collisions.map((c) => c.old_key));
    const links = await trx.selectFrom('name_links').selectAll().where('target', '>', 'urn:dns:').where('target', '<', 'urn:dns;').execute() as Array<{ target: string; source: string; rel: string }>;
    for (const l of links) {
      const target = foldDnsKey(l.target);
      if (target === l.target || kept.has(l.target)) continue;
      await trx.deleteFrom('name_links').where('target', '=', l.target).where('source', '=', l.source).where('rel', '=', l.rel).execute();
      await trx.insertInto('name_links').values({ ...l, target }).onConflict((oc) => oc.doNothing()).execute();
    }
    // The lists of the names that moved names point at (links.ts: movedFrom, predecessors) name them by key.
    if (moves.size > 0) {
      const targets = new Set<string>();
      for (const key of moves.values()) {
        for (const r of await trx.selectFrom('name_links').select('target').where('source', '=', key).execute() as Array<{ target: string }>) targets.add(r.target);
      }
      for (const target of targets) {
        const row = await trx.selectFrom('names').select('data').where('key', '=', target).executeTakeFirst() as { data: string } | undefined;
        if (!row) continue;
        const d = JSON.parse(row.data) as Record<string, unknown>;
        for (const f of ['movedFrom', 'predecessors']) {
          if (Array.isArray(d[f])) d[f] = (d[f] as string[]).map((k) => moves.get(k) ?? k).sort();
        }
        await trx.updateTable('names').set({ data: JSON.stringify(d) }).where('key', '=', target).execute();
      }
    }
    // Prefixes made by the same key function: partial-redirect rules, mint counters, token authorities.
    for (const [table, column] of [['prefix_rules', 'prefix'], ['mint_counters', 'prefix']] as const) {
      const rows = await trx.selectFrom(table).select(column).where(column, '>=', 'urn:dns:').where(column, '<', 'urn:dns;').execute() as Array<Record<string, string>>;
      for (const r of rows) {
        const old = r[column]!;
        const folded = foldPrefix(old);
        if (folded === old) continue;
        const taken = await trx.selectFrom(table).select(column).where(column, '=', folded).executeTakeFirst();
        // Two rules or counters of one prefix under the rule: the one already folded stays in force, the other as it was.
        if (!taken) await trx.updateTable(table).set({ [column]: folded }).where(column, '=', old).execute();
      }
    }
    const tokens = await trx.selectFrom('tokens').select(['id', 'authority']).where('authority', '>=', 'urn:dns:').where('authority', '<', 'urn:dns;').execute() as Array<{ id: string; authority: string }>;
    for (const t of tokens) {
      const folded = foldPrefix(t.authority);
      if (folded !== t.authority) await trx.updateTable('tokens').set({ authority: folded }).where('id', '=', t.id).execute();
    }
  };
  if (engine === 'sqlite') await db.transaction().execute(run);
  else await run(db);
}
