/**
 * What resolution knows of link health: the locations that are not
 * healthy (failing, retry later, blocked) and those that recovered
 * lately, held in memory and refreshed from the store now and then, so
 * that ordering locations by health costs a resolution one Map lookup per
 * location, and nothing at all while every link is healthy.
 */
import type { LinkHealth } from './health.js';

/**
 * A health record with the time its state last changed (ms since the epoch).
 *
 * @example
 * ```ts
 * const h: ChangedLinkHealth = { ...initialHealth('https://a.example/'), state: 'failing', consecutiveFailures: 1, changed: 5 };
 * h.changed; // 5
 * ```
 */
export type ChangedLinkHealth = LinkHealth & { changed: number };

/**
 * Where the view reads from: every location not healthy, and every one
 * whose state changed after `since` (the store's `linkHealth`).
 *
 * @example
 * ```ts
 * const source: UnhealthyLinkSource = { changedSince: async () => [] };
 * await new LinkHealthView(source).refresh(); // 0
 * ```
 */
export interface UnhealthyLinkSource {
  changedSince(since: number): Promise<ChangedLinkHealth[]>;
}

/**
 * The health lookup resolution uses.
 *
 * @example
 * ```ts
 * const lookup: LinkHealthLookup = { size: 0, get: () => undefined };
 * lookup.get('https://a.example/'); // undefined
 * ```
 */
export interface LinkHealthLookup {
  /** How many locations the lookup holds; 0 lets resolution skip it. */
  readonly size: number;
  get(url: string): ChangedLinkHealth | undefined;
}

/** A recovered location is remembered this long (the default recheck interval of a healthy link). */
const RECOVERED_MS = 30 * 24 * 3600_000;

/**
 * The in-memory view of link health that resolution orders locations by.
 *
 * @example
 * ```ts
 * const view = new LinkHealthView({ changedSince: async () => [{ ...initialHealth('https://a.example/'), state: 'failing', consecutiveFailures: 2, changed: 7 }] });
 * await view.refresh(); // 1
 * view.get('https://a.example/')?.state; // 'failing'
 * view.note({ ...initialHealth('https://a.example/'), state: 'ok', lastCheck: 9 });
 * view.get('https://a.example/')?.changed; // 9
 * view.close();
 * ```
 */
export class LinkHealthView implements LinkHealthLookup {
  #map = new Map<string, ChangedLinkHealth>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #refreshing: Promise<number> | undefined;

  constructor(readonly source: UnhealthyLinkSource, readonly now: () => number = Date.now) {}

  get size(): number {
    return this.#map.size;
  }

  get(url: string): ChangedLinkHealth | undefined {
    return this.#map.get(url);
  }

  /** Reloads from the source; resolves with the number of locations held. */
  refresh(): Promise<number> {
    return (this.#refreshing ??= (async () => {
      try {
        const rows = await this.source.changedSince(this.now() - RECOVERED_MS);
        const next = new Map<string, ChangedLinkHealth>();
        for (const h of rows) next.set(h.url, h);
        this.#map = next;
        return next.size;
      } finally {
        this.#refreshing = undefined;
      }
    })());
  }

  /** Takes a probe's result at once (the checker of this process), without waiting for the next refresh. */
  note(h: LinkHealth): void {
    const before = this.#map.get(h.url);
    if (before === undefined && h.state === 'ok') return;
    const changed = before === undefined || before.state !== h.state ? h.lastCheck : before.changed;
    this.#map.set(h.url, { ...h, changed });
  }

  /** Refreshes every `intervalMs` (other processes' checkers write to the store) until {@link close}. */
  start(intervalMs: number, onError: (e: unknown) => void): void {
    this.close();
    this.#timer = setInterval(() => { this.refresh().catch(onError); }, intervalMs);
    this.#timer.unref?.();
  }

  close(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
