/**
 * Everything a client of the service could change, as one string: the
 * current records, the history (the change feed), the partial-redirect
 * rules and the authority registry. The fault tests compare it before and
 * after ("the store is unchanged").
 */
import type { Store } from '../../src/store/index.js';

export async function storeSnapshot(store: Store): Promise<string> {
  const names: unknown[] = [];
  for await (const r of store.listing.exportAll('')) names.push(r);
  const changes = await store.history.changes({ since: 0, limit: 10_000 });
  return JSON.stringify({ names, changes: changes.items, rules: await store.prefixRules.list(), authorities: await store.authorities.list() });
}

/** {@link storeSnapshot} without the clock: two stores written at different times compare equal. */
export async function timelessSnapshot(store: Store): Promise<string> {
  return (await storeSnapshot(store)).replace(/"(created|updated|at|datestamp)":\d+/g, '"$1":0');
}
