/**
 * Which parts of a store answer now, as this process last found them:
 * the primary (the PostgreSQL server that takes writes, or the SQLite
 * file), the streaming replica resolution reads from (if any), and
 * whether writes go through (a full disk or a read-only file refuses them
 * while reads go on). Every statement's outcome updates it (postgres-pool.ts,
 * db.ts), so `/healthz` and `/metrics` say what failed without asking the
 * database themselves, and the read path knows when to stop waiting for a
 * server that is away.
 */
import type { StoreFault, StoreFaultCode, StorePart } from './store-fault.js';

/**
 * The state of one part: since when (ms since the epoch), how many
 * outages it had, and their total length so far (the current one
 * included).
 *
 * @example
 * ```ts
 * const p: PartAvailability = { up: false, since: 1_700_000_000_000, outages: 1, downMs: 1200, fault: 'store-unavailable' };
 * p.up; // false
 * ```
 */
export interface PartAvailability {
  up: boolean;
  since: number;
  outages: number;
  downMs: number;
  /** The fault that took it down, while it is down. */
  fault?: StoreFaultCode;
}

/**
 * What `/healthz` and `/metrics` read.
 *
 * @example
 * ```ts
 * const a = new StoreAvailability(['primary']);
 * a.snapshot().primary?.up; // true
 * a.snapshot().writes; // 'ok'
 * ```
 */
export interface AvailabilitySnapshot {
  primary: PartAvailability;
  replica?: PartAvailability;
  /** `ok`, or the fault of the last write when it failed for the store's sake (a full disk, a read-only file). */
  writes: 'ok' | StoreFaultCode;
}

/**
 * The availability of a store's parts, kept by the outcomes of its
 * statements.
 *
 * @example
 * ```ts
 * const a = new StoreAvailability(['primary', 'replica'], () => 1000);
 * a.down('replica', new StoreFault('store-unavailable', 'replica'));
 * a.isDown('replica'); // true
 * a.up('replica');
 * a.snapshot().replica; // { up: true, since: 1000, outages: 1, downMs: 0 }
 * ```
 */
export class StoreAvailability {
  readonly #parts = new Map<StorePart, PartAvailability>();
  readonly #now: () => number;
  #writes: 'ok' | StoreFaultCode = 'ok';
  readonly #listeners: Array<(part: StorePart, up: boolean) => void> = [];

  constructor(parts: readonly StorePart[], now: () => number = Date.now) {
    this.#now = now;
    for (const p of parts) this.#parts.set(p, { up: true, since: now(), outages: 0, downMs: 0 });
  }

  /** A statement on `part` succeeded. Costs one property read while it is up. */
  up(part: StorePart): void {
    const p = this.#parts.get(part);
    if (p === undefined || p.up) return;
    const now = this.#now();
    p.downMs += now - p.since;
    p.up = true;
    p.since = now;
    delete p.fault;
    for (const l of this.#listeners) l(part, true);
  }

  /** A statement on `part` failed because of `fault`. */
  down(part: StorePart, fault: StoreFault): void {
    const p = this.#parts.get(part);
    if (p === undefined) return;
    p.fault = fault.code;
    if (!p.up) return;
    p.up = false;
    p.since = this.#now();
    p.outages++;
    for (const l of this.#listeners) l(part, false);
  }

  /** True while the last statement on `part` failed for the store's sake. */
  isDown(part: StorePart): boolean {
    return this.#parts.get(part)?.up === false;
  }

  /** The outcome of a write: `ok`, or the fault that refused it. */
  wrote(result: 'ok' | StoreFault): void {
    this.#writes = result === 'ok' ? 'ok' : result.code;
  }

  /** Called when a part goes down or comes back. */
  onChange(listener: (part: StorePart, up: boolean) => void): void {
    this.#listeners.push(listener);
  }

  /** The state of every part now (the current outage counted in `downMs`). */
  snapshot(): AvailabilitySnapshot {
    const now = this.#now();
    const of = (p: PartAvailability): PartAvailability => ({ ...p, downMs: p.downMs + (p.up ? 0 : now - p.since) });
    const replica = this.#parts.get('replica');
    return { primary: of(this.#parts.get('primary')!), ...(replica !== undefined ? { replica: of(replica) } : {}), writes: this.#writes };
  }
}
