/**
 * Mirrors and handovers (1995 draft §6A: "if a site gets too busy, mirror
 * sites can be specified", and publishers "hand over the resolution to one
 * or more hosts in the future").
 *
 * A mirror harvests the `urn_locations` records of a source urikit
 * resolver's `/oai` every few seconds and takes each whole (apply.ts,
 * writer.ts `mirrorIn`), so that it answers every name of the authority as
 * the source does; it refuses the admin API's writes under that authority
 * (409: they belong at the source). Promoting it (the last step of a
 * handover) runs a last harvest, stops the mirroring and lets it take
 * writes. The source of a handover keeps the authority's entry in the
 * registry with `handover` (store/types.ts `Authority`): first no writes,
 * then a 301 of every name to the new resolver (the `handed-over` state of
 * resolution/answer-table.ts, read with the subject).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { authorityPrefix, nameKey } from '../store/keys.js';
import { setOfKey } from '../oai/store-repository.js';
import { harvestKey, harvestRepository, type HarvestOptions, type HarvestReport, type HarvestSource } from '../harvest/harvester.js';
import type { Store } from '../store/store.js';
import { HarvestWorker } from './harvest-worker.js';
import { problem } from './admin/scope.js';
import { underAuthority, type HostAuthorities } from './resolution/host-authorities.js';

/**
 * One mirrored authority: the source resolver's base URL (its `/oai` is
 * harvested), the authority, and the time between two harvests.
 *
 * @example
 * ```ts
 * const m: MirrorSource = { source: 'https://a.example', authority: 'urn:nbn:de:101-', everyMs: 1000 };
 * mirrorHarvestSource(m).baseUrl; // 'https://a.example/oai'
 * ```
 */
export interface MirrorSource {
  source: string;
  authority: string;
  /** Time from the end of one harvest to the start of the next (default 60 s). */
  everyMs?: number;
}

/** Time between two harvests of a mirror when none is given. */
const DEFAULT_MIRROR_EVERY_MS = 60_000;

/**
 * The harvest a mirror runs: the source's `/oai` in `urn_locations`, the
 * set of the authority's names, every record taken whole.
 *
 * @example
 * ```ts
 * mirrorHarvestSource({ source: 'https://a.example/', authority: 'urn:isbn' });
 * // { baseUrl: 'https://a.example/oai', metadataPrefix: 'urn_locations', set: 'urn:isbn', authority: 'urn:isbn', mirror: true }
 * mirrorHarvestSource({ source: 'https://a.example', authority: 'urn:nbn:de:101-' }).set; // 'urn:nbn:de'
 * ```
 */
export function mirrorHarvestSource(m: MirrorSource): HarvestSource {
  const set = setOf(m.authority);
  return { baseUrl: `${m.source.replace(/\/+$/, '')}/oai`, metadataPrefix: 'urn_locations', ...(set !== undefined ? { set } : {}), authority: m.authority, mirror: true };
}

/** The OAI set (store-repository.ts `setOfKey`: a naming authority) that holds every name under `authority`, so that a mirror reads no other. */
function setOf(authority: string): string | undefined {
  try {
    return setOfKey(authority.endsWith('-') ? `${authority}0` : `${authority}:0`);
  } catch {
    return undefined;
  }
}

/**
 * The mirrors of a running server: one harvest job each, the write guard,
 * and promotion.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * const mirrors = new Mirrors(store, [{ source: 'https://a.example', authority: 'URN:ISBN:', everyMs: 1000 }], {}, { onReport: () => {}, onError: () => {} });
 * mirrors.mirrorOf; // [{ authority: 'urn:isbn', source: 'https://a.example' }]
 * mirrors.mirroring('urn:isbn:0451450523')?.source; // 'https://a.example'
 * mirrors.mirroring('urn:issn:0167-6423'); // undefined
 * await mirrors.close();
 * await store.close();
 * ```
 */
export class Mirrors {
  readonly #workers = new Map<string, { m: MirrorSource; worker: HarvestWorker }>();
  /** The authorities whose mirror was promoted (a handover's end): a promotion asked again is done already. */
  readonly #promoted = new Set<string>();
  /** Workers stopped from inside their own round (a promotion seen in the store), awaited by {@link close}. */
  readonly #stopping: Array<Promise<void>> = [];

  constructor(
    readonly store: Store,
    sources: readonly MirrorSource[],
    readonly harvest: HarvestOptions,
    readonly log: { onReport: (report: HarvestReport) => void; onError: (e: unknown, source: HarvestSource) => void },
  ) {
    for (const given of sources) {
      // canonical (keys.ts `authorityPrefix`), as the keys it is compared with and the harvest's own
      const m = { ...given, authority: authorityPrefix(given.authority) };
      this.#workers.set(m.authority, { m, worker: this.#worker(m) });
    }
  }

  /**
   * A mirror's harvest job; after each harvest it looks whether another
   * process of the store promoted the mirror (a handover's last step
   * reaches one process): then it stops, and the names take writes here
   * too, within one harvest interval.
   */
  #worker(m: MirrorSource): HarvestWorker {
    const job = { sources: [mirrorHarvestSource(m)], everyMs: m.everyMs ?? DEFAULT_MIRROR_EVERY_MS, harvest: this.harvest };
    return new HarvestWorker(this.store, job, {
      onReport: (r) => { this.log.onReport(r); void this.#promotedElsewhere(m).catch((e: unknown) => this.log.onError(e, job.sources[0]!)); },
      onError: this.log.onError,
    });
  }

  /** Drops the mirror of `m` if the store says it was promoted (by another process). */
  async #promotedElsewhere(m: MirrorSource): Promise<void> {
    const entry = this.#workers.get(m.authority);
    if (entry === undefined || (await this.store.harvestLog.get(harvestKey(mirrorHarvestSource(m))))?.promoted === undefined) return;
    this.#workers.delete(m.authority);
    this.#promoted.add(m.authority);
    // not awaited: this runs inside the worker's own round, which ends when it sees the stop
    this.#stopping.push(entry.worker.close());
  }

  /**
   * Drops the mirrors promoted before (a handover's end, kept in the
   * store): their names take writes here, whatever the command line still
   * says; the authorities dropped.
   */
  async load(): Promise<string[]> {
    const dropped: string[] = [];
    for (const [authority, { m }] of this.#workers) {
      if ((await this.store.harvestLog.get(harvestKey(mirrorHarvestSource(m))))?.promoted === undefined) continue;
      this.#workers.delete(authority);
      this.#promoted.add(authority);
      dropped.push(authority);
    }
    return dropped;
  }

  /** Starts every mirror's harvests. */
  start(): void {
    for (const { worker } of this.#workers.values()) worker.start();
  }

  /** What urn+m says: the authorities mirrored here and their sources. */
  get mirrorOf(): Array<{ authority: string; source: string }> {
    return [...this.#workers.values()].map(({ m }) => ({ authority: m.authority, source: m.source }));
  }

  /** The mirror a name is under, if any. */
  mirroring(key: string): MirrorSource | undefined {
    for (const { m } of this.#workers.values()) if (underAuthority(key, m.authority)) return m;
    return undefined;
  }

  /** The mirror whose authority overlaps `prefix` (a token's, a mint prefix), if any. */
  overlapping(prefix: string): MirrorSource | undefined {
    for (const { m } of this.#workers.values()) {
      if (prefix === '' || underAuthority(m.authority, prefix) || m.authority === prefix || underAuthority(prefix, m.authority) || prefix.startsWith(m.authority)) return m;
    }
    return undefined;
  }

  /**
   * Promotes the mirror of `authority` (the end of a handover): the harvest
   * under way ends, one last harvest brings what the source wrote since,
   * and the mirroring stops: the names take writes here from now on.
   * `'already'` if it was promoted before (a handover run again);
   * undefined if the authority is not mirrored here.
   */
  async promote(authority: string): Promise<HarvestReport | 'already' | undefined> {
    const entry = this.#workers.get(authority);
    if (entry === undefined) return this.#promoted.has(authority) ? 'already' : undefined;
    await entry.worker.close();
    let report = await harvestRepository(this.store, mirrorHarvestSource(entry.m), { ...this.harvest, pageDelayMs: 0 });
    // another process of the store harvests the source now (its lease): the last harvest waits for it, a minute at most
    for (const until = Date.now() + 60_000; report.status === 'busy' && Date.now() < until;) {
      await new Promise((r) => setTimeout(r, 100));
      report = await harvestRepository(this.store, mirrorHarvestSource(entry.m), { ...this.harvest, pageDelayMs: 0 });
    }
    if (report.status === 'ok') {
      this.#workers.delete(authority);
      this.#promoted.add(authority);
      const key = harvestKey(mirrorHarvestSource(entry.m));
      // read before the write transaction: on SQLite a read outside it waits for its connection
      const state = await this.store.harvestLog.get(key);
      if (state !== undefined) await this.store.writer.transaction((w) => this.store.harvestLog.saveIn(w, { ...state, promoted: Date.now() }));
    } else entry.worker = this.#worker(entry.m);
    if (report.status !== 'ok') entry.worker.start();
    this.log.onReport(report);
    return report;
  }

  /** Stops every mirror's harvests. */
  async close(): Promise<void> {
    await Promise.all([...[...this.#workers.values()].map(({ worker }) => worker.close()), ...this.#stopping]);
  }
}

/** The admin routes that write one name: the path after their prefix is the URN. */
const NAME_WRITE_ROUTES = ['/admin/names/', '/admin/move/', '/admin/withdraw/', '/admin/reinstate/'];

/** The key a write of the admin API names, the prefix it mints under or the token's authority it imports into (undefined: it names no name). */
function writtenPrefix(request: FastifyRequest): { key: string } | { prefix: string } | undefined {
  const url = request.raw.url ?? '';
  const path = url.split('?')[0]!;
  for (const r of NAME_WRITE_ROUTES) {
    if (!path.startsWith(r)) continue;
    try { return { key: nameKey(decodeURIComponent(path.slice(r.length))).key }; } catch { return undefined; }
  }
  if (path === '/admin/mint') {
    const prefix = (request.body as { prefix?: unknown } | undefined)?.prefix;
    return typeof prefix === 'string' ? { prefix: prefix.toLowerCase() } : undefined;
  }
  if (path === '/admin/import') return { prefix: request.adminToken?.authority ?? '' };
  return undefined;
}

/**
 * The admin API's guard of mirrored and handed-over authorities: a write
 * of a name under an authority this resolver mirrors, or has handed over
 * to another resolver, is refused with 409 and a problem saying where
 * the names are written (RFC 9457 §3.1; docs/resolver.md, "Mirrors").
 * A preHandler, after the token check.
 *
 * @example
 * ```ts
 * const guard = writeGuard(() => undefined, undefined);
 * typeof guard; // 'function'
 * ```
 */
export function writeGuard(mirrors: () => Mirrors | undefined, authorities: HostAuthorities | undefined) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return;
    const w = writtenPrefix(request);
    if (w === undefined) return;
    const m = mirrors();
    const mirror = 'key' in w ? m?.mirroring(w.key) : m?.overlapping(w.prefix);
    if (mirror !== undefined) {
      problem(reply, 409, 'Mirrored authority', { detail: `this resolver is a mirror of ${mirror.authority} from ${mirror.source}: its names are written there`, authority: mirror.authority, mirrorOf: mirror.source });
      return reply;
    }
    const h = 'key' in w ? authorities?.handedOver(w.key) : authorities?.handoverOverlapping(w.prefix);
    if (h !== undefined) {
      problem(reply, 409, 'Authority handed over', { detail: `the resolution of ${h.authority} is handed over to ${h.to}: its names are written there`, authority: h.authority, handedOverTo: h.to });
      return reply;
    }
  };
}
