/**
 * Runs jobs keyed by host, round-robin over the hosts (as EZID checks its
 * owners' links in turn), within the politeness limits: so many in flight
 * per host, a least delay between two starts on one host, a global start
 * rate and a global number in flight. A host with ten thousand links does
 * not hold up a host with one.
 */
import type { Politeness } from './schedule.js';

interface HostLane<T> {
  host: string;
  queue: T[];
  active: number;
  /** The earliest time the next request to this host may start. */
  readyAt: number;
}

/**
 * Runs `run(job)` for every job, grouped by `hostOf(job)`, within
 * `limits`; resolves when all have finished. `run` must not throw (a probe
 * turns every failure into a result).
 *
 * @example
 * ```ts
 * const order: string[] = [];
 * await dispatchByHost(['a1', 'a2', 'b1'], (j) => j[0]!, async (j) => { order.push(j); },
 *   { perHostConcurrency: 1, perHostDelayMs: 0, globalRate: 0, concurrency: 1 });
 * order; // ['a1', 'b1', 'a2']
 * ```
 */
export async function dispatchByHost<T>(
  jobs: Iterable<T>,
  hostOf: (job: T) => string,
  run: (job: T) => Promise<void>,
  limits: Politeness,
  now: () => number = Date.now,
): Promise<void> {
  const lanes = new Map<string, HostLane<T>>();
  for (const job of jobs) {
    const host = hostOf(job);
    let lane = lanes.get(host);
    if (lane === undefined) lanes.set(host, (lane = { host, queue: [], active: 0, readyAt: 0 }));
    lane.queue.push(job);
  }
  const order = [...lanes.values()];
  const perSecond = limits.globalRate > 0 ? 1000 / limits.globalRate : 0;
  let globalReadyAt = 0;
  let inFlight = 0;
  let cursor = 0;
  let pending = order.reduce((n, l) => n + l.queue.length, 0);
  let wake: (() => void) | undefined;
  const signal = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };

  while (pending > 0 || inFlight > 0) {
    let started = false;
    let soonest = Infinity;
    // one pass round the hosts, starting after the last host served
    for (let k = 0; k < order.length && inFlight < limits.concurrency; k++) {
      const lane = order[(cursor + k) % order.length]!;
      if (lane.queue.length === 0 || lane.active >= limits.perHostConcurrency) continue;
      const t = now();
      const at = Math.max(lane.readyAt, globalReadyAt);
      if (at > t) {
        soonest = Math.min(soonest, at);
        continue;
      }
      const job = lane.queue.shift()!;
      pending--;
      inFlight++;
      lane.active++;
      lane.readyAt = t + limits.perHostDelayMs;
      globalReadyAt = t + perSecond;
      cursor = (cursor + k + 1) % order.length;
      started = true;
      void run(job).finally(() => {
        inFlight--;
        lane.active--;
        signal();
      });
      break;
    }
    if (started) continue;
    if (pending === 0 && inFlight === 0) break;
    // nothing can start now: wait for a job to finish or the soonest host to be ready
    await new Promise<void>((resolve) => {
      wake = resolve;
      if (soonest !== Infinity) setTimeout(signal, Math.max(0, soonest - now()));
    });
  }
}
