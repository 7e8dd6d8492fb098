/**
 * What a server keeps in memory from the store besides names (the health
 * of locations, the authority registry) and how a change made by any
 * process reaches every server: a write transaction that changes such
 * state raises its topic's counter in `store_changes`, in the same
 * transaction; each server reads the counters once a poll (one indexed
 * read of two rows) and reloads a topic whose counter moved. Names,
 * tokens and prefix rules need none of this: they are read from the
 * store on every request (names through a cache that follows every
 * write, cached-reader.ts and postgres-cache.ts).
 */
import type { Kysely } from 'kysely';
import type { StoreDb } from './db.js';
import type { Database } from './schema.js';

/**
 * A kind of state servers keep in memory.
 *
 * @example
 * ```ts
 * const t: ChangeTopic = 'link_health';
 * t; // 'link_health'
 * ```
 */
export type ChangeTopic = 'link_health' | 'authorities';

/**
 * Raises `topic`'s counter inside a write transaction (`trx`): every
 * server reloads the topic after the commit, at its next poll.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * const before = (await store.changes.read()).get('authorities')!;
 * // AuthorityRegistry.put calls noteChange(trx, 'authorities') in its transaction.
 * await store.authorities.put({ name: 'urn:dns:a.example', children: [], parents: [] });
 * (await store.changes.read()).get('authorities'); // before + 1
 * await store.close();
 * ```
 */
export async function noteChange(trx: Kysely<Database>, topic: ChangeTopic): Promise<void> {
  await trx.updateTable('store_changes').set((eb) => ({ n: eb('n', '+', 1) })).where('topic', '=', topic).execute();
}

/**
 * A watch of the store's counters (see {@link StoreChanges.watch}).
 *
 * @example
 * ```ts
 * const w: ChangeWatch = { close: () => undefined };
 * w.close(); // undefined
 * ```
 */
export interface ChangeWatch {
  close(): void;
}

/**
 * The counters of the store's topics, read and watched.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * const seen: ChangeTopic[] = [];
 * const watch = await store.changes.watch(10, async (topic) => { seen.push(topic); }, () => undefined);
 * await store.authorities.put({ name: 'urn:dns:a.example', children: [], parents: [] });
 * await new Promise((r) => setTimeout(r, 50));
 * seen; // ['authorities']
 * watch.close();
 * await store.close();
 * ```
 */
export class StoreChanges {
  readonly #db: StoreDb;

  constructor(db: StoreDb) {
    this.#db = db;
  }

  /** Every topic's counter now. */
  async read(): Promise<Map<string, number>> {
    const rows = await this.#db.readDb.selectFrom('store_changes').select(['topic', 'n']).execute();
    return new Map(rows.map((r) => [r.topic, Number(r.n)]));
  }

  /**
   * Reads the counters now (the state the caller loaded before is taken
   * as current), then every `intervalMs`, awaiting `reload` for each
   * topic whose counter moved. A failed poll or reload (the database
   * away) is reported to `onError`, and the topic is reloaded at the next
   * poll that succeeds.
   */
  async watch(intervalMs: number, reload: (topic: ChangeTopic) => Promise<unknown>, onError: (e: unknown) => void): Promise<ChangeWatch> {
    let seen = new Map<string, number>();
    try {
      seen = await this.read();
    } catch (e) {
      onError(e);
    }
    const poll = async () => {
      for (const [topic, n] of await this.read()) {
        if (seen.get(topic) === n) continue;
        await reload(topic as ChangeTopic);
        seen.set(topic, n);
      }
    };
    // A poll under way: the next tick waits for it.
    let polling = false;
    const timer = setInterval(() => {
      if (polling) return;
      polling = true;
      poll().catch(onError).finally(() => { polling = false; });
    }, intervalMs);
    timer.unref?.();
    return { close: () => clearInterval(timer) };
  }
}
