/**
 * The subject of a resolution: the name a request is about, read once
 * from the store by its key (store/keys.ts holds the 1995 draft §2.3.1
 * case rule), with its state as the answer table reads it
 * (answer-table.ts), the partial-redirect rule it falls under when the
 * store does not hold it, the health of its locations (their order, and
 * what the answer's validators depend on), and whether the name cache
 * answered while the database was away. One reading for the HTTP service
 * (resolve.ts) and the web page's answers from the store (local.ts).
 */
import type { LinkHealthLookup } from '../../links/view.js';
import type { NameKey } from '../../store/keys.js';
import type { Store } from '../../store/store.js';
import type { NameRecord, PrefixRule } from '../../store/types.js';
import type { PublicChange } from '../render/history-body.js';
import { withHealth } from '../render/location-health.js';
import type { AnswerState } from './answer-table.js';

/**
 * What a request is about: the name's key and URN, its state and its
 * record, or the rule it falls under.
 *
 * @example
 * ```ts
 * import { ANSWERS } from './answer-table.js';
 * const s: Subject = { key: 'urn:ex:a', urn: 'urn:ex:a', state: 'unknown' };
 * ANSWERS[s.state].locate.status; // 404
 * ```
 */
export interface Subject {
  key: string;
  urn: string;
  state: AnswerState;
  record?: NameRecord;
  rule?: PrefixRule;
  /** The child authority that holds the name, and its resolver (state `delegated`). */
  delegation?: Delegation;
  /** The authority the name is under and the resolver its resolution was handed over to (state `handed-over`). */
  handover?: Handover;
  /** Every version of the record, for `?history` (history-body.ts). */
  history?: PublicChange[];
  /** When the locations' health shows in the answer: what it depends on (for the tag) and when it last changed. */
  health?: { digest: string; changed: number };
  /** Read from the name cache while the database was away: as the database last confirmed it, this many ms ago. */
  staleMs?: number;
}

/**
 * A child authority another resolver holds, and that resolver's base URL
 * (1995 draft §3.5.3, §6A).
 *
 * @example
 * ```ts
 * const d: Delegation = { authority: 'urn:example:a:b', resolver: 'https://b.example' };
 * `${d.resolver}/uri-res/I2L?${d.authority}:doc`; // 'https://b.example/uri-res/I2L?urn:example:a:b:doc'
 * ```
 */
export interface Delegation {
  authority: string;
  resolver: string;
}

/**
 * An authority whose resolution was handed over to another resolver, and
 * that resolver's base URL (1995 draft §6A).
 *
 * @example
 * ```ts
 * const h: Handover = { authority: 'urn:nbn:de:101-', to: 'https://b.example' };
 * `${h.to}/${h.authority}2020071401`; // 'https://b.example/urn:nbn:de:101-2020071401'
 * ```
 */
export interface Handover {
  authority: string;
  to: string;
}

/**
 * What a subject is read from besides the store: the health of the
 * locations, the children delegated to other resolvers, the authorities
 * handed over (host-authorities.ts reads both from the registry).
 *
 * @example
 * ```ts
 * const from: SubjectSources = { handedOver: (key) => (key.startsWith('urn:nbn:de:101-') ? { authority: 'urn:nbn:de:101-', to: 'https://b.example' } : undefined) };
 * from.handedOver?.('urn:nbn:de:101-1')?.to; // 'https://b.example'
 * ```
 */
export interface SubjectSources {
  health?: LinkHealthLookup | undefined;
  delegatedTo?: ((key: string) => Delegation | undefined) | undefined;
  handedOver?: ((key: string) => Handover | undefined) | undefined;
}

/** What a subject needs of the authority registry as a server holds it (host-authorities.ts). */
interface RegistryView {
  delegatedTo(key: string): Delegation | undefined;
  handedOver(key: string): (Handover & { redirect: boolean }) | undefined;
}

/**
 * The sources of a server: the registry's delegations and the handovers
 * that redirect (a handover not yet redirecting answers nothing here:
 * the names are still answered as they are), and the locations' health.
 *
 * @example
 * ```ts
 * subjectSources(undefined).handedOver; // undefined
 * ```
 */
export function subjectSources(authorities: RegistryView | undefined, health?: LinkHealthLookup): SubjectSources {
  if (authorities === undefined) return { health };
  return {
    health,
    delegatedTo: (key) => authorities.delegatedTo(key),
    handedOver: (key) => {
      const h = authorities.handedOver(key);
      return h?.redirect === true ? { authority: h.authority, to: h.to } : undefined;
    },
  };
}

/**
 * The state of a stored name, as the answer table reads it: a move to a
 * URN and a move to a URL answer differently (1995 draft §4).
 *
 * @example
 * ```ts
 * stateOf({ key: 'urn:ex:a', urn: 'urn:ex:a', status: 'moved', movedTo: 'urn:ex:b', locations: [], version: 2, created: 0, updated: 0 }); // 'moved-urn'
 * ```
 */
export function stateOf(r: NameRecord): AnswerState {
  if (r.status !== 'moved') return r.status;
  if (r.movedTo === undefined) return 'active';
  return r.movedTo.slice(0, 4).toLowerCase() === 'urn:' ? 'moved-urn' : 'moved-url';
}

/** The subject of a name the store holds. */
function recordSubject(record: NameRecord, health: LinkHealthLookup | undefined, staleMs?: number): Subject {
  // The answer depends on the health of the locations too: its validators change when the health does.
  const shown = withHealth(record, health);
  return {
    key: record.key, urn: record.urn, state: stateOf(record), record: shown.record,
    ...(shown.digest !== '' ? { health: { digest: shown.digest, changed: shown.changed } } : {}),
    ...(staleMs !== undefined ? { staleMs } : {}),
  };
}

/**
 * {@link readSubject} without waiting, when the store can say at once
 * (an authority handed over, a record its reader can {@link NameReader.peek}),
 * else undefined.
 *
 * @example
 * ```ts
 * import { nameKey } from '../../store/keys.js';
 * const store = await openStore(':memory:');
 * await loadDemoData(store);
 * peekSubject(store, nameKey('urn:dns:library.bigstate.edu:aj17-mcc')); // undefined (a `:memory:` store reads through kysely: no record at hand)
 * await store.close();
 * ```
 */
export function peekSubject(store: Store, nk: Pick<NameKey, 'key' | 'spelling'>, from: SubjectSources = {}): Subject | undefined {
  const handover = from.handedOver?.(nk.key);
  if (handover !== undefined) return { key: nk.key, urn: nk.spelling, state: 'handed-over', handover };
  const record = store.names.peek?.(nk.key);
  return record !== undefined ? recordSubject(record, from.health) : undefined;
}

/**
 * Reads the subject of a request for the name `nk` (one read, by the key):
 * an authority handed over answers for every name under it, read or not;
 * else the record, else the partial-redirect rule it falls under, else
 * the delegated child authority it is under (a name held here is answered
 * here even under a delegated child), else unknown.
 *
 * @example
 * ```ts
 * import { nameKey } from '../../store/keys.js';
 * const store = await openStore(':memory:');
 * await loadDemoData(store);
 * (await readSubject(store, nameKey('urn:dns:library.bigstate.edu:OLD-PRICE-LIST'))).state; // 'moved-urn'
 * (await readSubject(store, nameKey('urn:example:nothing'))).state; // 'unknown'
 * await store.close();
 * ```
 */
export async function readSubject(store: Store, nk: Pick<NameKey, 'key' | 'spelling'>, from: SubjectSources = {}): Promise<Subject> {
  const handover = from.handedOver?.(nk.key);
  if (handover !== undefined) return { key: nk.key, urn: nk.spelling, state: 'handed-over', handover };
  const health = from.health;
  const found = await store.names.lookup(nk.key);
  if (found.record) return recordSubject(found.record, health, found.staleMs);
  const rule = await store.prefixRules.match(nk.key);
  // A name the store does not hold keeps the spelling it was asked in (a rule's target takes its rest as asked).
  if (rule) return { key: nk.key, urn: nk.spelling, state: 'rule', rule };
  const delegation = from.delegatedTo?.(nk.key);
  if (delegation !== undefined) return { key: nk.key, urn: nk.spelling, state: 'delegated', delegation };
  return { key: nk.key, urn: nk.spelling, state: 'unknown' };
}
