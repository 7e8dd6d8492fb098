/**
 * Which naming authority a request in the 1995 draft's bare form
 * (`GET /<ElementID>`, §3.3) is for, when one server answers for several:
 * under the "dns" SchemeID the AuthorityID is the host that resolves it
 * (§2.2.1), so the `Host` a client sent (the §2.2.1 rule sends the
 * AuthorityID there) names the authority, if it is one this server
 * holds; else the configured default. (The case of ElementIDs is the
 * store key's business: store/keys.ts.)
 */
import { inAuthority } from '../../store/keys.js';
import type { Store } from '../../store/store.js';
import type { Authority } from '../../store/types.js';

/** How long a read of the authority registry serves before it is read again (other processes may change it). */
const REFRESH_MS = 10_000;

/**
 * The options of {@link HostAuthorities}.
 *
 * @example
 * ```ts
 * const o: HostAuthoritiesOptions = { fallback: 'urn:dns:library.bigstate.edu', held: ['urn:dns:urn.example.org'] };
 * const store = await openStore(':memory:');
 * const held = new HostAuthorities(store, o);
 * held.forHost('urn.example.org'); // 'urn:dns:urn.example.org'
 * await store.close();
 * ```
 */
export interface HostAuthoritiesOptions {
  /** The authority of a bare ElementID when the `Host` names none held here (canonical), if any. */
  fallback?: string | undefined;
  /** `urn:dns:<host>` authorities held besides those of the registry (canonical). */
  held?: readonly string[];
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
 * held.held('127.0.0.1:4500'); // undefined (the fallback is no host's)
 * await store.close();
 * ```
 */
export class HostAuthorities {
  #byHost = new Map<string, string>();
  #readAt = 0;
  #reading: Promise<void> | undefined;

  constructor(readonly store: Store, readonly opts: HostAuthoritiesOptions = {}) {
    this.#set([]);
  }

  /** The delegated child authorities of the registry: child to resolver base URL. */
  #delegations = new Map<string, string>();

  /** The authorities handed over to another resolver (Authority `handover`). */
  #handovers = new Map<string, { to: string; redirect: boolean; since: number }>();

  #set(fromRegistry: readonly string[], delegations = new Map<string, string>(), handovers = new Map<string, { to: string; redirect: boolean; since: number }>()): void {
    this.#delegations = delegations;
    this.#handovers = handovers;
    const m = new Map<string, string>();
    for (const a of [...fromRegistry, ...(this.opts.held ?? []), ...(this.opts.fallback !== undefined ? [this.opts.fallback] : [])]) {
      if (a.startsWith('urn:dns:')) m.set(a.slice(8), a);
    }
    this.#byHost = m;
  }

  /** Reads the registry again now. */
  async refresh(): Promise<void> {
    this.#reading ??= this.store.authorities.list()
      .then((list) => { this.#set(list.map((a) => a.name), delegationsOf(list), handoversOf(list)); this.#readAt = Date.now(); })
      .catch(() => { this.#readAt = Date.now(); })
      .finally(() => { this.#reading = undefined; });
    return this.#reading;
  }

  /** The authority for a request's `Host` header: a held `urn:dns:<host>`, else the fallback. */
  forHost(host: string | undefined): string | undefined {
    return this.held(host) ?? this.opts.fallback;
  }

  /**
   * The `urn:dns:<host>` authority this server holds for a `Host` value,
   * without the fallback: a host whose names it resolves (§2.2.1: "A
   * conforming resolution service must made available at the IP address
   * returned by resolving the FQDN").
   */
  held(host: string | undefined): string | undefined {
    if (Date.now() - this.#readAt > REFRESH_MS) void this.refresh();
    const h = host !== undefined && host.length <= 261 ? hostOf(host) : undefined;
    return h !== undefined ? this.#byHost.get(h) : undefined;
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

  /**
   * The handover of the authority a name is under, if its resolution is
   * handed over to another resolver (1995 draft §6A), with the authority;
   * the longest matching authority wins.
   */
  handedOver(key: string): { authority: string; to: string; redirect: boolean; since: number } | undefined {
    if (Date.now() - this.#readAt > REFRESH_MS) void this.refresh();
    if (this.#handovers.size === 0) return undefined;
    let best: { authority: string; to: string; redirect: boolean; since: number } | undefined;
    for (const [authority, h] of this.#handovers) {
      if (underAuthority(key, authority) && (best === undefined || authority.length > best.authority.length)) best = { authority, ...h };
    }
    return best;
  }

  /**
   * The handover of an authority that overlaps `prefix` (a token's
   * authority an import writes under), if any.
   */
  handoverOverlapping(prefix: string): { authority: string; to: string; redirect: boolean; since: number } | undefined {
    for (const [authority, h] of this.#handovers) {
      if (prefix === '' || authority === prefix || underAuthority(authority, prefix) || underAuthority(prefix, authority)) return { authority, ...h };
    }
    return undefined;
  }

  /** True when `host` (lower case, no port) is the host of a `urn:dns:` authority held here (the fallback included). */
  holds(host: string): boolean {
    return this.#byHost.has(host);
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


function handoversOf(list: readonly Authority[]): Map<string, { to: string; redirect: boolean; since: number }> {
  return new Map(list.filter((a) => a.handover !== undefined).map((a) => [a.name, a.handover!]));
}

/**
 * True if `key` is under `authority`: keys.ts `inAuthority`, or, for a
 * prefix that ends in "-" (a National Bibliography Number's, RFC 8458
 * §4.2: `urn:nbn:de:101-`), every key that begins with it.
 *
 * @example
 * ```ts
 * underAuthority('urn:nbn:de:101-2020071401', 'urn:nbn:de:101-'); // true
 * underAuthority('urn:isbn:0451450523', 'urn:isbn'); // true
 * underAuthority('urn:isbnx:1', 'urn:isbn'); // false
 * ```
 */
export function underAuthority(key: string, authority: string): boolean {
  return inAuthority(key, authority) || (authority.endsWith('-') && key.startsWith(authority) && key.length > authority.length);
}
