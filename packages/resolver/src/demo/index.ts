/**
 * The demonstration data of `urikit serve --demo` and `npm start`.
 */
import { nameKey } from '../store/keys.js';
import { LifecycleError } from '../store/lifecycle.js';
import type { Store } from '../store/store.js';
import { DEMO_AUTHORITIES, DEMO_NAMES, DEMO_PREFIX_RULES } from './data.js';

export { DEMO_AUTHORITY, DEMO_NAMES, DEMO_AUTHORITIES, DEMO_PREFIX_RULES } from './data.js';

/**
 * Loads the demonstration names, authority registry and prefix rules into
 * a store; loading twice changes nothing, and a demonstration name moved
 * or withdrawn since is left as it is.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * await loadDemoData(store); // { names: 25 }
 * ```
 */
export async function loadDemoData(store: Store): Promise<{ names: number }> {
  for (const input of DEMO_NAMES) {
    try {
      await store.writer.put(nameKey(input.urn).key, input, 'demo');
    } catch (e) {
      // A name moved or withdrawn since (the lifecycle refuses to undo it): left as it is.
      if (!(e instanceof LifecycleError)) throw e;
    }
  }
  for (const a of DEMO_AUTHORITIES) {
    const cur = await store.authorities.get(a.name);
    if (!cur || JSON.stringify(cur) !== JSON.stringify(a)) await store.authorities.put(a);
  }
  for (const r of DEMO_PREFIX_RULES) {
    const existing = (await store.prefixRules.list(r.prefix)).find((x) => x.prefix === r.prefix);
    if (!existing || existing.target !== r.target) await store.prefixRules.put(r.prefix, r.target);
  }
  return { names: DEMO_NAMES.length };
}
