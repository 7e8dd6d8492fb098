/**
 * Link checking over a store: every location of every active name, in
 * batches (each batch's health read in one query, politeness kept per
 * batch by the checker), its results written to the store's link health
 * and, for resolution in this process, to the in-memory view at once. One
 * pass is `urikit links check --db`; `serve --check-links` runs passes in
 * the background until the server closes.
 */
import { checkLinks, type LinkCheckOptions, type LinkCheckSummary, type LinkHealthStore } from '../links/checker.js';
import type { LinkHealth } from '../links/health.js';
import type { LinkHealthView } from '../links/view.js';
import { inAuthority } from '../store/keys.js';
import type { Store } from '../store/store.js';

/**
 * Options of a pass over a store: the checker's, plus the authorities
 * (canonical prefixes, see `authorityPrefix`) whose names are skipped for
 * now, and how many names are checked per batch.
 *
 * @example
 * ```ts
 * const o: StoreLinkCheckOptions = { pausedPrefixes: ['urn:nbn:de:101'], batchNames: 1000, force: true };
 * o.batchNames; // 1000
 * ```
 */
export interface StoreLinkCheckOptions extends Omit<LinkCheckOptions, 'pausedAuthorities'> {
  /** Names under these authority prefixes are not checked (their locations counted as paused). */
  pausedPrefixes?: readonly string[];
  /** Only the names under this prefix (default: all). */
  prefix?: string;
  /** Names per batch (default 2000). */
  batchNames?: number;
  /** The view resolution reads, told of each result at once. */
  view?: LinkHealthView;
  /** Asked before each batch: true stops the pass. */
  stopped?: () => boolean;
}

/** The checker's store for one batch: the batch's health read at once, each result written through. */
class BatchHealth implements LinkHealthStore {
  constructor(readonly known: Map<string, LinkHealth>, readonly store: Store, readonly view: LinkHealthView | undefined) {}
  async get(url: string): Promise<LinkHealth | undefined> {
    return this.known.get(url);
  }
  async put(health: LinkHealth): Promise<void> {
    // resolution in this process knows it first: a report that reads the store never runs ahead of it
    this.view?.note(health);
    await this.store.linkHealth.put(health);
  }
}

function addSummary(into: LinkCheckSummary, s: LinkCheckSummary): void {
  for (const k of Object.keys(into) as Array<keyof LinkCheckSummary>) into[k] += s[k];
}

/**
 * One pass over the active names of a store (under `prefix`): checks the
 * locations that are due and keeps their health.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * await store.writer.put('urn:ex:a', { urn: 'urn:ex:a', locations: [{ url: 'http://127.0.0.1:1/a' }] });
 * const s = await checkStoreLinks(store, { politeness: { perHostDelayMs: 0 } });
 * [s.checked, s.blocked]; // [1, 1]
 * (await store.linkHealth.get('http://127.0.0.1:1/a'))?.error; // 'blocked-address (loopback)'
 * await store.close();
 * ```
 */
export async function checkStoreLinks(store: Store, opts: StoreLinkCheckOptions = {}): Promise<LinkCheckSummary> {
  const total: LinkCheckSummary = { checked: 0, ok: 0, broken: 0, retry: 0, blocked: 0, notDue: 0, excluded: 0, paused: 0 };
  const paused = opts.pausedPrefixes ?? [];
  const batch = Math.max(1, opts.batchNames ?? 2000);
  let after: string | undefined;
  for (;;) {
    if (opts.stopped?.()) break;
    const page = await store.listing.list({ prefix: opts.prefix ?? '', limit: batch, ...(after !== undefined ? { after } : {}) });
    const targets: Array<{ url: string }> = [];
    for (const r of page.items) {
      if (r.status !== 'active') continue;
      if (paused.some((p) => inAuthority(r.key, p))) { total.paused += r.locations.length; continue; }
      for (const l of r.locations) targets.push({ url: l.url });
    }
    if (targets.length > 0) {
      const known = await store.linkHealth.getMany(targets.map((t) => t.url));
      const { pausedPrefixes: _p, prefix: _x, batchNames: _b, view: _v, stopped: _s, ...checkOpts } = opts;
      addSummary(total, await checkLinks(targets, new BatchHealth(known, store, opts.view), checkOpts));
    }
    if (page.next === undefined) break;
    after = page.next;
  }
  return total;
}

/**
 * The background worker of `serve --check-links`: a pass, then a pause,
 * again and again, until {@link LinkWorker.close}.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * const passes: LinkCheckSummary[] = [];
 * const worker = new LinkWorker(store, { onPass: (s) => passes.push(s) }, 60_000);
 * worker.start();
 * await worker.close();
 * passes.length; // 1
 * await store.close();
 * ```
 */
export class LinkWorker {
  #stopped = false;
  #running: Promise<void> | undefined;
  #wake: (() => void) | undefined;

  constructor(readonly store: Store, readonly opts: StoreLinkCheckOptions & { onPass?: (s: LinkCheckSummary) => void; onError?: (e: unknown) => void }, readonly pauseMs: number) {}

  start(): void {
    this.#running ??= this.#loop();
  }

  async #loop(): Promise<void> {
    while (!this.#stopped) {
      try {
        const s = await checkStoreLinks(this.store, { ...this.opts, stopped: () => this.#stopped });
        this.opts.onPass?.(s);
      } catch (e) {
        this.opts.onError?.(e);
      }
      if (this.#stopped) break;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, this.pauseMs);
        this.#wake = () => { clearTimeout(t); resolve(); };
      });
    }
  }

  /** Stops after the batch in flight (its probes end within their timeout). */
  async close(): Promise<void> {
    this.#stopped = true;
    this.#wake?.();
    await this.#running;
  }
}
