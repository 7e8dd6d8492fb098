/**
 * Harvesting as a job of `urikit serve`, as the national URN services are
 * fed (each repository's records over OAI-PMH, on a schedule): every
 * repository of the list in turn, one harvest at a time in this process,
 * then the list again after `everyMs`. Each harvest starts where the last
 * one of that repository left off (harvest/harvester.ts); a stop ends the
 * one under way after the page it is writing (a page is one transaction,
 * so the next harvest resumes there, losing and doubling nothing), and cuts
 * short any wait (the pause between pages, a repository's Retry-After).
 */
import { harvestRepository, type HarvestOptions, type HarvestReport, type HarvestSource } from '../harvest/harvester.js';
import type { Store } from '../store/store.js';
import { DEFAULT_HARVEST_EVERY_MS } from '../defaults/index.js';

/**
 * What `serve` harvests, and how often.
 *
 * @example
 * ```ts
 * const job: HarvestJob = { sources: [{ baseUrl: 'https://repo.example/oai', metadataPrefix: 'epicur', authority: 'urn:nbn:de:101-' }], everyMs: 86_400_000 };
 * job.sources.length; // 1
 * ```
 */
export interface HarvestJob {
  sources: readonly HarvestSource[];
  /** Time from the end of one round over the list to the start of the next (default a day). */
  everyMs?: number;
  /** How each harvest runs (the network rules, bounds, pacing). */
  harvest?: HarvestOptions;
}

/** The worker's own stop, thrown through a harvest to end it between two pages. */
class Stopped extends Error {}

/**
 * The harvest job of a running server.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * const reports: string[] = [];
 * const worker = new HarvestWorker(store, { sources: [{ baseUrl: 'http://127.0.0.1:1/oai', metadataPrefix: 'epicur', authority: 'urn:nbn:de:101-' }] },
 *   { onReport: (r) => { reports.push(r.status); }, onError: () => {} });
 * worker.start();
 * // The first round over the list:
 * await worker.round;
 * reports; // ['failed'] (a loopback address, not allowed)
 * await worker.close();
 * await store.close();
 * ```
 */
export class HarvestWorker {
  #stopping = false;
  #wake: (() => void) | undefined;
  #loop: Promise<void> | undefined;
  #roundDone: (() => void) | undefined;
  /** Resolves when the round under way (the first, after `start`) is over. */
  round: Promise<void> = Promise.resolve();

  constructor(
    readonly store: Store,
    readonly job: HarvestJob,
    readonly log: { onReport: (report: HarvestReport) => void; onError: (e: unknown, source: HarvestSource) => void },
  ) {}

  /** Starts the rounds; the first begins at once. */
  start(): void {
    this.#loop ??= this.#rounds();
  }

  async #rounds(): Promise<void> {
    while (!this.#stopping) {
      this.round = new Promise((resolve) => { this.#roundDone = resolve; });
      for (const source of this.job.sources) {
        if (this.#stopping) break;
        await this.#harvest(source);
      }
      this.#roundDone?.();
      try {
        await this.#sleep(this.job.everyMs ?? DEFAULT_HARVEST_EVERY_MS);
      } catch {
        break;
      }
    }
    this.#roundDone?.();
  }

  async #harvest(source: HarvestSource): Promise<void> {
    const opts = this.job.harvest ?? {};
    try {
      const report = await harvestRepository(this.store, source, {
        ...opts,
        sleep: (ms) => this.#sleep(ms),
        onPage: async (pages) => {
          await opts.onPage?.(pages);
          if (this.#stopping) throw new Stopped();
        },
      });
      this.log.onReport(report);
    } catch (e) {
      if (!(e instanceof Stopped)) this.log.onError(e, source);
    }
  }

  /** Waits `ms`; rejects with {@link Stopped} at once when the worker stops. */
  #sleep(ms: number): Promise<void> {
    if (this.#stopping) return Promise.reject(new Stopped());
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => { this.#wake = undefined; resolve(); }, ms);
      timer.unref?.();
      this.#wake = () => { clearTimeout(timer); this.#wake = undefined; reject(new Stopped()); };
    });
  }

  /** Stops: the harvest under way ends after its page, a wait at once; resolves when nothing runs. */
  async close(): Promise<void> {
    this.#stopping = true;
    this.#wake?.();
    await this.#loop;
  }
}
