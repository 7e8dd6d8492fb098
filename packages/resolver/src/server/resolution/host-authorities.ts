/**
 * Which naming authority a request in the 1995 draft's bare form
 * (`GET /<ElementID>`, §3.3) is for, when one server answers for several:
 * under the "dns" SchemeID the AuthorityID is the host that resolves it
 * (§2.2.1), so the `Host` a client sent (the §2.2.1 rule sends the
 * AuthorityID there) names the authority, if it is one this server
 * holds; else the configured default. ElementIDs of those authorities
 * match without regard to case (§2.3.1: "current practice dictates that
 * they should not be case-sensitive") unless an authority is configured
 * case-sensitive.
 */
import type { Store } from '../../store/store.js';
import type { Authority } from '../../store/types.js';

/** How long a read of the authority registry serves before it is read again (other processes may change it). */
const REFRESH_MS = 10_000;

/**
 * The options of {@link HostAuthorities}.
 *
 * @example
 * ```ts
 * const o: HostAuthoritiesOptions = { fallback: 'urn:dns:library.bigstate.edu', held: ['urn:dns:urn.example.org'], caseSensitive: ['urn:dns:urn.example.org'] };
 * const store = await openStore(':memory:');
 * const held = new HostAuthorities(store, o);
 * held.forHost('urn.example.org'); // 'urn:dns:urn.example.org'
 * held.caseInsensitive('urn:dns:urn.example.org'); // false
 * await store.close();
 * ```
 */
export interface HostAuthoritiesOptions {
  /** The authority of a bare ElementID when the `Host` names none held here (canonical), if any. */
  fallback?: string | undefined;
  /** `urn:dns:<host>` authorities held besides those of the registry (canonical). */
  held?: readonly string[];
  /** Authorities whose ElementIDs are case-sensitive (canonical). */
  caseSensitive?: readonly string[];
}

/**
 * The host part of a Host header value (RFC 9110 §7.2: uri-host [":" port]),
 * lower case, without the port or a trailing dot; undefined when it is
 * not a host name (an address names no authority, and nothing else is
 * taken apart).
 */
function hostOf(host: string): string | undefined {
  const m = /^([A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9.])?)(?::[0-9]{1,5})?$/.exec(host.trim());
  if (!m) return undefined;
  const h = m[1]!.toLowerCase();
  return h.endsWith('.') ? h.slice(0, -1) : h;
}

/**
 * The authorities a server holds by host name: its configured ones and
 * the `urn:dns:` entries of the registry (re-read every few seconds,
 * without making a request wait for it).
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * await loadDemoData(store);
 * const held = new HostAuthorities(store, { fallback: 'urn:dns:library.bigstate.edu' });
 * await held.refresh();
 * held.forHost('URN.FlixCo.com:4500'); // 'urn:dns:urn.flixco.com'
 * held.forHost('127.0.0.1:4500'); // 'urn:dns:library.bigstate.edu'
 * held.caseInsensitive('urn:dns:urn.flixco.com'); // true
 * await store.close();
 * ```
 */
export class HostAuthorities {
  #byHost = new Map<string, string>();
  #readAt = 0;
  #reading: Promise<void> | undefined;
  readonly #caseSensitive: ReadonlySet<string>;

  constructor(readonly store: Store, readonly opts: HostAuthoritiesOptions = {}) {
    this.#caseSensitive = new Set(opts.caseSensitive ?? []);
    this.#set([]);
  }

  /** The delegated child authorities of the registry: child to resolver base URL. */
  #delegations = new Map<string, string>();

  #set(fromRegistry: readonly string[], delegations = new Map<string, string>()): void {
    this.#delegations = delegations;
    const m = new Map<string, string>();
    for (const a of [...fromRegistry, ...(this.opts.held ?? []), ...(this.opts.fallback !== undefined ? [this.opts.fallback] : [])]) {
      if (a.startsWith('urn:dns:')) m.set(a.slice(8), a);
    }
    this.#byHost = m;
  }

  /** Reads the registry again now. */
  async refresh(): Promise<void> {
    this.#reading ??= this.store.authorities.list()
      .then((list) => { this.#set(list.map((a) => a.name), delegationsOf(list)); this.#readAt = Date.now(); })
      .catch(() => { this.#readAt = Date.now(); })
      .finally(() => { this.#reading = undefined; });
    return this.#reading;
  }

  /** The authority for a request's `Host` header: a held `urn:dns:<host>`, else the fallback. */
  forHost(host: string | undefined): string | undefined {
    if (Date.now() - this.#readAt > REFRESH_MS) void this.refresh();
    const h = host !== undefined && host.length <= 261 ? hostOf(host) : undefined;
    const a = h !== undefined ? this.#byHost.get(h) : undefined;
    if (a !== undefined) return a;
    return this.opts.fallback;
  }

  /**
   * The child authority a name belongs to when that child is delegated to
   * another resolver (1995 draft §3.5.3: an authority's children are named
   * by urn+c; §6A: resolution handed over to other hosts), with that
   * resolver's base URL; the longest matching child wins.
   */
  delegatedTo(key: string): { authority: string; resolver: string } | undefined {
    if (Date.now() - this.#readAt > REFRESH_MS) void this.refresh();
    if (this.#delegations.size === 0) return undefined;
    // The key and each of its ":"-prefixes, longest first: one map lookup a segment (inAuthority's rule).
    for (let end = key.length; end > 4; end = key.lastIndexOf(':', end - 1)) {
      const authority = key.slice(0, end);
      const resolver = this.#delegations.get(authority);
      if (resolver !== undefined) return { authority, resolver };
    }
    return undefined;
  }

  /** True when the ElementIDs of `authority` match without regard to case (1995 draft §2.3.1): every `urn:dns:` one not configured otherwise. */
  caseInsensitive(authority: string): boolean {
    return authority.startsWith('urn:dns:') && !this.#caseSensitive.has(authority);
  }
}

/** The children of the registry's authorities that another resolver holds, each with its resolver. */
function delegationsOf(list: readonly Authority[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const a of list) {
    for (const c of a.children) {
      const r = a.resolvers !== undefined && Object.hasOwn(a.resolvers, c) ? a.resolvers[c] : undefined;
      if (r !== undefined) out.set(c, r);
    }
  }
  return out;
}

/**
 * An ElementID with its ASCII letters in lower case, its `%hh` triplets
 * left as they are (RFC 8141 §3.1 keeps them upper case): the second key
 * a case-insensitive authority is looked up under.
 *
 * @example
 * ```ts
 * lowerElementId('AJ17-MCC%2C1'); // 'aj17-mcc%2C1'
 * ```
 */
export function lowerElementId(elementId: string): string {
  let out = '';
  for (let i = 0; i < elementId.length; i++) {
    const c = elementId.charCodeAt(i);
    if (c === 0x25) { out += elementId.slice(i, i + 3); i += 2; continue; }
    out += c >= 0x41 && c <= 0x5a ? String.fromCharCode(c + 0x20) : elementId[i];
  }
  return out;
}
