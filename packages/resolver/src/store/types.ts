/**
 * The records of the resolution service: a name, its ordered locations and
 * metadata, its status and its history (1995 draft §3.4; DESIGN.md, "The
 * resolver service").
 */
import type { Urc0Charset } from '../formats/charset.js';

/**
 * One place a named resource can be fetched from, with the
 * metainformation of a text/urc-0 part (1995 draft §3.4.2).
 *
 * @example
 * ```ts
 * const loc: NameLocation = { url: 'ftp://elm.wnln.edu/pub/mirrors/phone-list.txt', charset: 'US-ASCII' };
 * const copy: NameLocation = { url: 'https://archive.example/phone-list.txt', preservation: true };
 * preferredOrder([copy, loc]).map((l) => l.url); // ['ftp://elm.wnln.edu/pub/mirrors/phone-list.txt', 'https://archive.example/phone-list.txt']
 * ```
 */
export interface NameLocation {
  /** The URL (RFC 3986 absolute URI). */
  url: string;
  /** The media type of what the URL returns, when known. */
  mediaType?: string;
  /** The charset of `meta` (1995 draft §3.4.2: US-ASCII or ISO-8859-1..9). */
  charset?: Urc0Charset;
  /** The language of `meta` (RFC 1766 tag). */
  language?: string;
  /** Free-text metainformation; no line may begin with "=====" (1995 draft §3.4.2). */
  meta?: string;
  /** Higher is preferred; equal preferences keep their order. Default 0. */
  preference?: number;
  /**
   * A preservation copy (an archive's, a national library's): answered
   * after every healthy regular location, the fallback when they all fail.
   */
  preservation?: boolean;
}

/**
 * Where a name stands: `active` resolves, `moved` redirects to another URN
 * or URL (1995 draft §3.4.1, §4), `withdrawn` answers 410 with its
 * tombstone, `reserved` is held but not yet resolvable.
 *
 * @example
 * ```ts
 * const s: NameStatus = 'withdrawn';
 * LIFECYCLE[s].active; // 'withdrawn-name'
 * ```
 */
export type NameStatus = 'active' | 'moved' | 'withdrawn' | 'reserved';

/**
 * A name as the store holds it: keyed by its normalized URN.
 *
 * @example
 * ```ts
 * const r: NameRecord = { key: 'urn:isbn:0451450523', urn: 'URN:ISBN:0451450523', status: 'active',
 *   locations: [{ url: 'https://openlibrary.org/isbn/0451450523' }], version: 1, created: 0, updated: 0 };
 * recordJson(r).status; // 'active'
 * ```
 */
export interface NameRecord {
  /** The normalized URN (RFC 8141 §3 lexical equivalence): the store's key. */
  key: string;
  /** The URN as it was registered. */
  urn: string;
  status: NameStatus;
  /** Ordered locations; the first after sorting by preference is the preferred one. */
  locations: NameLocation[];
  /** Descriptive metadata (title, creator, ...), served by I2C and `?info`. */
  metadata?: Record<string, unknown>;
  /** For `moved`: the URN or URL the name moved to. */
  movedTo?: string;
  /** For `moved`: 301 (true) or 302 (false, default). */
  permanent?: boolean;
  /** A name that replaces this one (a successor link, `Link: rel="successor-version"`). */
  successor?: string;
  /** Why it moved or was withdrawn (the tombstone's text). */
  reason?: string;
  /**
   * The names of the store that moved to this one, kept by the writer
   * (they name the same resource: RFC 2483 I2Ns; and earlier versions,
   * `Link: rel="predecessor-version"`, RFC 5829 §3.4).
   */
  movedFrom?: string[];
  /** The names of the store that name this one their `successor`, kept by the writer (RFC 5829 §3.4). */
  predecessors?: string[];
  /** 1 on creation, +1 on every change. */
  version: number;
  /** Milliseconds since the epoch. */
  created: number;
  updated: number;
}

/**
 * What a client sends to create or replace a name (the admin API and bulk
 * import).
 *
 * @example
 * ```ts
 * const input: NameInput = { urn: 'urn:isbn:0451450523', locations: [{ url: 'https://example.org/' }] };
 * validateNameInput(input).key; // 'urn:isbn:0451450523'
 * ```
 */
export interface NameInput {
  urn: string;
  status?: NameStatus;
  locations?: NameLocation[];
  metadata?: Record<string, unknown>;
  movedTo?: string;
  permanent?: boolean;
  successor?: string;
  reason?: string;
}

/**
 * The kinds of change the history records, one per transition of the
 * lifecycle (lifecycle.ts).
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * const op: ChangeOp | 'unchanged' = (await store.writer.put('urn:ex:a', { urn: 'urn:ex:a' })).op;
 * op; // 'create'
 * await store.close();
 * ```
 */
export type ChangeOp = 'create' | 'update' | 'move' | 'withdraw' | 'reinstate';

/**
 * One entry of a name's history: the whole record after the change.
 * Nothing is ever erased (DESIGN.md: a withdrawn name is never given to
 * another resource).
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * await store.writer.put('urn:ex:a', { urn: 'urn:ex:a', locations: [{ url: 'http://a/' }] });
 * await store.writer.put('urn:ex:a', { urn: 'urn:ex:a', status: 'withdrawn', reason: 'retracted' });
 * const history: HistoryEntry[] = await store.history.versions('urn:ex:a');
 * history.map((h) => `${h.version} ${h.op} ${h.record.status}`); // ['1 create active', '2 withdraw withdrawn']
 * await store.close();
 * ```
 */
export interface HistoryEntry {
  /** Position in the change feed, increasing. */
  seq: number;
  key: string;
  version: number;
  op: ChangeOp;
  /** Milliseconds since the epoch. */
  at: number;
  /** The token id that made the change, if any. */
  actor?: string;
  record: NameRecord;
}

/**
 * A partial redirect: every name under `prefix` that the store does not
 * hold redirects to `target` with the rest of the name appended (as
 * purl.org and w3id.org do).
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * await store.prefixRules.put('urn:nbn:de:', 'https://nbn-resolving.org/urn:nbn:de:');
 * await store.prefixRules.put('urn:nbn:de:101-', 'https://d-nb.info/urn/urn:nbn:de:101-');
 * // The longest prefix wins; the rest of the name is appended to its target.
 * const rule: PrefixRule | undefined = await store.prefixRules.match('urn:nbn:de:101-2020071401');
 * rule // matches { prefix: 'urn:nbn:de:101-', target: 'https://d-nb.info/urn/urn:nbn:de:101-' }
 * rule!.target + 'urn:nbn:de:101-2020071401'.slice(rule!.prefix.length) // 'https://d-nb.info/urn/urn:nbn:de:101-2020071401'
 * await store.close();
 * ```
 */
export interface PrefixRule {
  /** A normalized URN prefix. */
  prefix: string;
  /** A URL; the part of the requested name after `prefix` is appended. */
  target: string;
  created: number;
  updated: number;
}

/**
 * A naming authority this resolver answers the reserved requests of
 * 1995 draft §3.5 for: `urn+m` (about), `urn+a` (all names), `urn+c`
 * (children), `urn+p` (parents).
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * const a: Authority = { name: 'urn:dns:urn.flixco.com', contact: 'mailto:url-admin@flixco.com', children: ['urn:dns:classics.flixco.com'], parents: ['urn:dns:flixco.com'] };
 * await store.authorities.put(a);
 * // What urn+p (parents) and urn+c (children) of the 1995 draft §3.5 answer with.
 * (await store.authorities.get('urn:dns:urn.flixco.com'))?.parents; // ['urn:dns:flixco.com']
 * (await store.authorities.get('urn:dns:urn.flixco.com'))?.children; // ['urn:dns:classics.flixco.com']
 * await store.close();
 * ```
 */
export interface Authority {
  /** The authority as a URN prefix without the trailing ":" (`urn:dns:<host>` or `urn:<nid>`), normalized. */
  name: string;
  /** urn+m: the contact URL (mailto: usually). */
  contact?: string;
  /** urn+m: the metainformation text. */
  meta?: string;
  /** Charset and language of `meta` and `allMeta` (1995 draft §3.4.2). */
  charset?: Urc0Charset;
  language?: string;
  /** urn+a: a URL of the list of all ElementIDs, when it is kept elsewhere; default: this resolver's own list. */
  allUrl?: string;
  /** urn+a: metainformation about that list. */
  allMeta?: string;
  /** urn+c: the naming authorities this one authorized. */
  children: string[];
  /** urn+p: the naming authorities that authorized this one. */
  parents: string[];
  /**
   * Where a child or parent authority is resolved when it is not here: its
   * name (one of `children` or `parents`) to the base URL of the resolver
   * that holds it, a delegation (1995 draft §3.5.3: urn+c lets a client
   * traverse "the web of URN resolvers"). Names under a delegated child
   * are redirected there.
   */
  resolvers?: Record<string, string>;
  /**
   * Resolution of the authority handed over to another resolver (1995
   * draft §6A: "hand over the resolution to one or more hosts"): `to` is
   * its base URL; while `redirect` is false the names are still answered
   * here but no longer written (the new resolver takes its last harvest),
   * then every name under the authority is redirected there with 301, in
   * the same request form (docs/resolver.md, "Handing over an authority").
   */
  handover?: { to: string; redirect: boolean; since: number };
}

/**
 * A page of a listing: the items and, when there are more, the cursor to
 * pass as `after` for the next page.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * await loadDemoData(store);
 * // Pages in key order: "next" is the cursor of the page after, absent on the last.
 * const p: Page<NameRecord> = await store.listing.list({ prefix: 'urn:isbn:', limit: 1 });
 * p.items.map((r) => r.key) // ['urn:isbn:0395363411']
 * p.next; // 'urn:isbn:0395363411'
 * (await store.listing.list({ prefix: 'urn:isbn:', limit: 1, after: p.next })).items.map((r) => r.key) // ['urn:isbn:0451450523']
 * await store.close();
 * ```
 */
export interface Page<T> {
  items: T[];
  next?: string;
}
