/**
 * Resolution straight from the store, for the web page at `/` of
 * `urikit serve` (no HTTP round trip to itself).
 */
import { UriError } from 'urikit';
import type { ResolveResult } from '../../client/types.js';
import { preferredOrder, recordJson } from '../render/render.js';
import { nameKey } from '../../store/keys.js';
import type { Store } from '../../store/store.js';

/**
 * Resolves a URN against the store as the HTTP service would (moves are
 * followed up to 10 times, 1995 draft §4), in the client's result shape.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * await loadDemoData(store);
 * (await localResolveUrn(store, 'urn:ietf:rfc:2141')).locations[0]?.url; // 'https://www.rfc-editor.org/rfc/rfc2141'
 * (await localResolveUrn(store, 'urn:dns:library.bigstate.edu:old-price-list')).via.length; // 2 (one move followed)
 * await store.close();
 * ```
 */
export async function localResolveUrn(store: Store, urn: string): Promise<ResolveResult> {
  const via: string[] = [];
  let current = urn;
  for (let hop = 0; hop < 10; hop++) {
    via.push(current);
    let key: string;
    let spelling: string;
    try {
      ({ key, spelling } = nameKey(current));
    } catch (e) {
      if (e instanceof UriError) return { status: 400, locations: [], metadata: { code: e.code, offset: e.offset, detail: e.message }, via };
      throw e;
    }
    const r = await store.names.get(key);
    if (!r) {
      const rule = await store.prefixRules.match(key);
      // The rest of the name as asked (the key's case may be folded, keys.ts), as the resolver's own answer has it.
      if (rule) return { status: 302, locations: [{ url: rule.target + spelling.slice(rule.prefix.length) }], metadata: { prefixRule: rule }, via };
      return { status: 404, locations: [], via };
    }
    if (r.status === 'moved' && r.movedTo !== undefined && r.movedTo.slice(0, 4).toLowerCase() === 'urn:') {
      current = r.movedTo;
      continue;
    }
    const status = r.status === 'withdrawn' ? 410 : r.status === 'reserved' ? 404 : r.status === 'moved' ? (r.permanent ? 301 : 302) : 200;
    const locations = r.status === 'moved' ? [{ url: r.movedTo! }] : preferredOrder(r.locations).map((l) => ({ ...l }));
    return { status, locations, metadata: recordJson(r), via };
  }
  return { status: 508, locations: [], metadata: { detail: 'too many moves' }, via };
}
