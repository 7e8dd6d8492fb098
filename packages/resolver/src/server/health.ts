/**
 * `/healthz`: what a load balancer needs to decide whether to send this
 * server requests, and what an operator needs to see which part failed.
 *
 * | state | HTTP | when |
 * |---|---|---|
 * | `ok` | 200 | every part answers |
 * | `degraded` | 200 | resolutions are answered, but a part is away: the replica (reads go to the primary), the primary (reads go to the replica, or to the name cache, marked stale, within the stale bound), or writes (a full disk, a read-only file) |
 * | `unavailable` | 503 | no resolution can be answered: the database is away and no cache may stand in |
 * | `draining` | 503 | the server is stopping: the balancer takes it out while it finishes what it has (server.ts) |
 */
import type { Store, StoreCheck } from '../store/store.js';

/** How long /healthz waits for a fresh check of the store before it answers with the last one. */
const HEALTH_WAIT_MS = 250;

/**
 * The body of `/healthz`.
 *
 * @example
 * ```ts
 * const h: HealthReport = { status: 'degraded', engine: 'postgres', primary: 'down', reads: 'cache', writes: 'store-unavailable', down: { part: 'primary', seconds: 3 } };
 * h.down?.part; // 'primary'
 * ```
 */
export interface HealthReport {
  status: 'ok' | 'degraded' | 'unavailable' | 'draining';
  engine: 'sqlite' | 'postgres';
  primary: 'up' | 'down';
  replica?: 'up' | 'down';
  /** Where resolutions are answered from: the replica, the primary, the name cache (stale), or nowhere. */
  reads: 'replica' | 'primary' | 'cache' | 'none';
  /** `ok`, or why writes are refused now. */
  writes: string;
  /** The longest outage under way: which part, and for how long. */
  down?: { part: 'primary' | 'replica'; seconds: number };
}

/**
 * What `/healthz` answers, from a check of the store: the report and its
 * HTTP status (200 while resolutions are answered, 503 otherwise).
 *
 * @example
 * ```ts
 * const check: StoreCheck = { primary: { up: false, since: 1000, outages: 1, downMs: 4000 }, writes: 'ok', reads: 'cache' };
 * const h = healthReport(check, { engine: 'postgres', draining: false, nameCache: true, staleIfErrorMs: 300_000, now: 5000 });
 * [h.status, h.body.status, h.body.reads, h.body.writes]; // [200, 'degraded', 'cache', 'store-unavailable']
 * healthReport(check, { engine: 'postgres', draining: false, nameCache: false, staleIfErrorMs: 300_000, now: 5000 }).status; // 503
 * ```
 */
export function healthReport(check: StoreCheck, opts: { engine: 'sqlite' | 'postgres'; draining: boolean; nameCache: boolean; staleIfErrorMs: number; now?: number }): { status: number; body: HealthReport } {
  const now = opts.now ?? Date.now();
  const primary = check.primary.up ? 'up' : 'down';
  const replica = check.replica === undefined ? undefined : check.replica.up ? 'up' : 'down';
  let reads: HealthReport['reads'] = check.reads;
  // The cache stands in only within the stale bound of the outage.
  if (reads === 'cache' && (!opts.nameCache || now - check.primary.since > opts.staleIfErrorMs)) reads = 'none';
  const writes = check.primary.up ? check.writes : check.primary.fault ?? 'store-unavailable';
  const outages = [['primary', check.primary], ...(check.replica !== undefined ? [['replica', check.replica] as const] : [])] as const;
  let down: HealthReport['down'];
  for (const [part, p] of outages) {
    if (!p.up && (down === undefined || now - p.since > down.seconds * 1000)) down = { part, seconds: Math.round((now - p.since) / 1000) };
  }
  let status: HealthReport['status'] = primary === 'up' && replica !== 'down' && writes === 'ok' ? 'ok' : 'degraded';
  if (reads === 'none') status = 'unavailable';
  if (opts.draining) status = 'draining';
  const body: HealthReport = { status, engine: opts.engine, primary, ...(replica !== undefined ? { replica } : {}), reads, writes, ...(down !== undefined ? { down } : {}) };
  return { status: status === 'ok' || status === 'degraded' ? 200 : 503, body };
}

/**
 * `/healthz` of one server: its store checked at each call, answered at
 * once even when the database hangs (a balancer's check must not time
 * out on a slow database): the fresh check if it comes within 250 ms,
 * else the last one finished, while the fresh one goes on and is kept.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * const health = new HealthCheck(store, 300_000, { draining: false });
 * (await health.report()).body.status; // 'ok'
 * await store.close();
 * ```
 */
export class HealthCheck {
  #last: StoreCheck | undefined;
  #checking: Promise<StoreCheck> | undefined;

  constructor(readonly store: Store, readonly staleIfErrorMs: number, readonly lifecycle: { readonly draining: boolean }) {}

  async report(): Promise<{ status: number; body: HealthReport }> {
    const fresh = (this.#checking ??= this.store.check().then((c) => { this.#last = c; return c; }).finally(() => { this.#checking = undefined; }));
    const last = this.#last;
    const check = last === undefined ? await fresh : await Promise.race([fresh, new Promise<StoreCheck>((r) => setTimeout(() => r(last), HEALTH_WAIT_MS).unref())]);
    return healthReport(check, { engine: this.store.engine, draining: this.lifecycle.draining, nameCache: this.store.nameCache !== undefined, staleIfErrorMs: this.staleIfErrorMs });
  }
}
