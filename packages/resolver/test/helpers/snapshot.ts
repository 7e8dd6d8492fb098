/**
 * Everything a client of the service could change, as one string: the
 * current records, the history (the change feed), the partial-redirect
 * rules and the authority registry. The fault tests compare it before and
 * after ("the store is unchanged", issue 7 acceptance).
 */
import type { Store } from '../../src/store/index.js';

export async function storeSnapshot(store: Store): Promise<string> {
  const names: unknown[] = [];
  for await (const r of store.listing.exportAll('')) names.push(r);
  const changes = await store.history.changes({ since: 0, limit: 10_000 });
  return JSON.stringify({ names, changes: changes.items, rules: await store.prefixRules.list(), authorities: await store.authorities.list() });
}
