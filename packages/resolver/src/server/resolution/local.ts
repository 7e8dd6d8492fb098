/**
 * Resolution straight from the store, for the web page at `/` of
 * `urikit serve` (no HTTP round trip to itself).
 */
import { UriError } from 'urikit';
import type { ResolveResult } from '../../client/types.js';
import { preferredOrder, recordJson } from '../render/render.js';
import { nameKey, type NameKey } from '../../store/keys.js';
import type { Store } from '../../store/store.js';
import { ANSWERS } from './answer-table.js';
import { readSubject, type Subject, type SubjectSources } from './subject.js';

/**
 * What the page's resolution reads besides the store: the locations'
 * health, the children delegated to other resolvers, and how to ask such
 * a resolver (the resolution client, src/client).
 *
 * @example
 * ```ts
 * const o: LocalResolveOptions = { delegatedTo: (key) => (key.startsWith('urn:example:a:b:') ? { authority: 'urn:example:a:b', resolver: 'https://b.example' } : undefined) };
 * o.delegatedTo?.('urn:example:a:b:doc')?.resolver; // 'https://b.example'
 * ```
 */
export interface LocalResolveOptions extends SubjectSources {
  /** Resolves `urn` at `resolver`, a delegated child's or the one an authority was handed over to (its answer is the page's). */
  askDelegate?: (urn: string, resolver: string) => Promise<ResolveResult>;
}

/**
 * Resolves a URN against the store as the HTTP service would, through the
 * same subject (subject.ts: the key's case rule, the locations' health)
 * and the same answer table (moves to a URN followed up to 10 times,
 * 1995 draft §4; a name of a delegated child asked at the child's
 * resolver, as a client follows the service's redirect, RFC 2169 §2), in
 * the client's result shape.
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
export async function localResolveUrn(store: Store, urn: string, opts: LocalResolveOptions = {}): Promise<ResolveResult> {
  const via: string[] = [];
  let current = urn;
  for (let hop = 0; hop < 10; hop++) {
    via.push(current);
    let nk: NameKey;
    try {
      nk = nameKey(current);
    } catch (e) {
      if (e instanceof UriError) return { status: 400, locations: [], metadata: { code: e.code, offset: e.offset, detail: e.message }, via };
      throw e;
    }
    const s = await readSubject(store, nk, opts);
    // 1995 draft §4: a move to another URN is followed, as a client follows the redirect.
    if (s.state === 'moved-urn') {
      current = s.record!.movedTo!;
      continue;
    }
    if (s.state === 'delegated' || s.state === 'handed-over') return opts.askDelegate === undefined ? elsewhereAnswer(s, via) : askElsewhere(opts.askDelegate, s, via);
    return answerOf(s, via);
  }
  return { status: 508, locations: [], metadata: { detail: 'too many moves' }, via };
}

/** The page's answer for a subject: the status the service gives for the list of locations (answer-table.ts), a move or a rule as the redirect it is. */
function answerOf(s: Subject, via: string[]): ResolveResult {
  if (s.state === 'rule') return { status: ANSWERS.rule.locate.status, locations: [{ url: s.rule!.target + s.urn.slice(s.rule!.prefix.length) }], metadata: { prefixRule: s.rule }, via };
  if (s.record === undefined) return { status: ANSWERS[s.state].list.status, locations: [], via };
  const r = s.record;
  if (s.state === 'moved-url') return { status: r.permanent ? 301 : 302, locations: [{ url: r.movedTo! }], metadata: recordJson(r), via };
  const locations = s.state === 'active' ? preferredOrder(r.locations).map((l) => ({ ...l })) : [];
  return { status: ANSWERS[s.state].list.status, locations, metadata: recordJson(r), via };
}

/** The other resolver that answers a delegated or handed-over name, and the authority it answers for. */
function elsewhere(s: Subject): { authority: string; resolver: string } {
  return s.delegation ?? { authority: s.handover!.authority, resolver: s.handover!.to };
}

/** Without a way to ask the other resolver: the redirect the service gives, that resolver as the one location. */
function elsewhereAnswer(s: Subject, via: string[]): ResolveResult {
  const d = elsewhere(s);
  return { status: ANSWERS[s.state].list.status, locations: [{ url: d.resolver }], metadata: { detail: `${s.urn} is under ${d.authority}, resolved at ${d.resolver}` }, via };
}

/** The other resolver's answer, with the URNs asked here before it; a failure there is a 502 saying which resolver failed and why. */
async function askElsewhere(ask: NonNullable<LocalResolveOptions['askDelegate']>, s: Subject, via: string[]): Promise<ResolveResult> {
  const d = elsewhere(s);
  try {
    const r = await ask(s.urn, d.resolver);
    return { ...r, via: [...via.slice(0, -1), ...r.via] };
  } catch (e) {
    return { status: 502, locations: [], metadata: { detail: `the resolver of ${d.authority} (${d.resolver}) failed: ${e instanceof Error ? e.message : String(e)}` }, via };
  }
}
