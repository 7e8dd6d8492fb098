/**
 * The link checker: which locations are due, probing them politely, and
 * keeping their health. A run is a function over a list of targets, so the
 * same engine serves the background worker of `serve --check-links` and a
 * one-off `urikit links check` over a store or a list.
 */
import { dispatchByHost } from './dispatch.js';
import { applyProbe, initialHealth, type LinkHealth, type ProbeResult } from './health.js';
import { DEFAULT_PROBE, probeLocation, type ProbeOptions } from './probe.js';
import { DEFAULT_POLITENESS, DEFAULT_SCHEDULE, type LinkSchedule, type Politeness } from './schedule.js';

/**
 * A location to check, and the authority of the name it belongs to (for
 * the per-authority pause and the report).
 *
 * @example
 * ```ts
 * const t: LinkTarget = { url: 'https://repo.example/item/1', authority: 'urn:nbn:de:101' };
 * new URL(t.url).host; // 'repo.example'
 * ```
 */
export interface LinkTarget {
  url: string;
  authority?: string;
}

/**
 * Where health records are kept: one per URL.
 *
 * @example
 * ```ts
 * const store: LinkHealthStore = new MemoryLinkHealthStore();
 * await store.get('https://a.example/'); // undefined
 * ```
 */
export interface LinkHealthStore {
  get(url: string): Promise<LinkHealth | undefined>;
  put(health: LinkHealth): Promise<void>;
}

/**
 * Health records in memory (a one-off run over a list, and tests).
 *
 * @example
 * ```ts
 * const s = new MemoryLinkHealthStore();
 * await s.put(initialHealth('https://a.example/'));
 * (await s.get('https://a.example/'))?.state; // 'unchecked'
 * ```
 */
export class MemoryLinkHealthStore implements LinkHealthStore {
  readonly records = new Map<string, LinkHealth>();
  async get(url: string): Promise<LinkHealth | undefined> {
    return this.records.get(url);
  }
  async put(health: LinkHealth): Promise<void> {
    this.records.set(health.url, health);
  }
}

/**
 * What a run may do.
 *
 * @example
 * ```ts
 * const o: LinkCheckOptions = { excludeHosts: ['intranet.example'], pausedAuthorities: ['urn:nbn:de:101'] };
 * isExcludedHost('wiki.intranet.example', o.excludeHosts!); // true
 * ```
 */
export interface LinkCheckOptions {
  schedule?: LinkSchedule;
  politeness?: Partial<Politeness>;
  probe?: Partial<ProbeOptions>;
  /** Hosts never probed: a name matches itself and its subdomains. */
  excludeHosts?: readonly string[];
  /** Authorities whose locations are not checked for now. */
  pausedAuthorities?: readonly string[];
  /** Check every target now, whatever its schedule says. */
  force?: boolean;
  now?: () => number;
  /** Called after each probe, e.g. for metrics or a progress line. */
  onResult?: (result: ProbeResult, health: LinkHealth) => void;
}

/**
 * What a run did.
 *
 * @example
 * ```ts
 * const s: LinkCheckSummary = { checked: 1, ok: 1, broken: 0, retry: 0, blocked: 0, notDue: 0, excluded: 0, paused: 0 };
 * s.checked === s.ok + s.broken + s.retry + s.blocked; // true
 * ```
 */
export interface LinkCheckSummary {
  checked: number;
  ok: number;
  broken: number;
  retry: number;
  blocked: number;
  /** Targets whose next check lies in the future. */
  notDue: number;
  /** Targets on an excluded host (or not a URL with a host). */
  excluded: number;
  /** Targets of a paused authority. */
  paused: number;
}

/**
 * The host (and port: politeness is per server) and the host name of a URL,
 * or undefined if it has no host.
 */
function hostOf(url: string): { server: string; name: string } | undefined {
  try {
    const u = new URL(url);
    return u.hostname === '' ? undefined : { server: u.host.toLowerCase(), name: u.hostname.toLowerCase() };
  } catch {
    return undefined;
  }
}

/**
 * True if `host` is one of `excluded` or a subdomain of one.
 *
 * @example
 * ```ts
 * isExcludedHost('a.intranet.example', ['intranet.example']); // true
 * isExcludedHost('notintranet.example', ['intranet.example']); // false
 * ```
 */
export function isExcludedHost(host: string, excluded: readonly string[]): boolean {
  for (const e of excluded) {
    const x = e.toLowerCase().replace(/^\.+/, '');
    if (host === x || host.endsWith(`.${x}`)) return true;
  }
  return false;
}

/**
 * Checks the targets that are due, within the politeness limits, and keeps
 * each one's new health in `store`. The same URL under several names is
 * probed once.
 *
 * @example
 * ```ts
 * const store = new MemoryLinkHealthStore();
 * const s = await checkLinks([{ url: 'http://127.0.0.1:1/' }], store);
 * [s.checked, s.blocked]; // [1, 1]
 * (await store.get('http://127.0.0.1:1/'))?.state; // 'blocked'
 * ```
 */
export async function checkLinks(targets: Iterable<LinkTarget>, store: LinkHealthStore, opts: LinkCheckOptions = {}): Promise<LinkCheckSummary> {
  const now = opts.now ?? Date.now;
  const schedule = opts.schedule ?? DEFAULT_SCHEDULE;
  const politeness = { ...DEFAULT_POLITENESS, ...opts.politeness };
  const probeOpts = { ...DEFAULT_PROBE, ...opts.probe };
  const paused = new Set(opts.pausedAuthorities ?? []);
  const summary: LinkCheckSummary = { checked: 0, ok: 0, broken: 0, retry: 0, blocked: 0, notDue: 0, excluded: 0, paused: 0 };
  const due: Array<{ url: string; server: string; health: LinkHealth }> = [];
  const seen = new Set<string>();
  for (const t of targets) {
    if (seen.has(t.url)) continue;
    seen.add(t.url);
    if (t.authority !== undefined && paused.has(t.authority)) {
      summary.paused++;
      continue;
    }
    const host = hostOf(t.url);
    if (host === undefined || isExcludedHost(host.name, opts.excludeHosts ?? [])) {
      summary.excluded++;
      continue;
    }
    const health = (await store.get(t.url)) ?? initialHealth(t.url);
    if (!opts.force && health.nextCheck > now()) {
      summary.notDue++;
      continue;
    }
    due.push({ url: t.url, server: host.server, health });
  }
  await dispatchByHost(due, (d) => d.server, async (d) => {
    const result = await probeLocation(d.url, probeOpts);
    const health = applyProbe(d.health, result, now(), schedule);
    await store.put(health);
    summary.checked++;
    summary[result.outcome]++;
    opts.onResult?.(result, health);
  }, politeness, now);
  return summary;
}
