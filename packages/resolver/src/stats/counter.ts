/**
 * Resolution counts per name, per day (UTC) and per service, robots apart,
 * gathered in memory and written in bulk. The request path pays one Map
 * update; the store sees one write per flush. Nothing about the client is
 * kept but whether its User-Agent is a robot's: no address, no agent string.
 */
import { RobotDetector } from './robots.js';

/**
 * One counted row: a name on a day through a service.
 *
 * @example
 * ```ts
 * const row: StatsRow = { day: '2026-11-24', key: 'urn:isbn:0451450523', service: 'I2L', human: 3, robot: 1 };
 * row.human + row.robot; // 4
 * ```
 */
export interface StatsRow {
  /** The UTC day, `YYYY-MM-DD`. */
  day: string;
  /** The name's normalized URN (the store's key). */
  key: string;
  /** I2L, I2C, I2Ls, N2L... or `urn+m` and the other reserved requests. */
  service: string;
  human: number;
  robot: number;
}

/**
 * Where flushed counts go: added to what is there (the store's rows are sums).
 *
 * @example
 * ```ts
 * const sink: StatsSink = { add: async (rows) => { void rows; }, idle: async () => {} };
 * await sink.add([]); // undefined
 * ```
 */
export interface StatsSink {
  add(rows: readonly StatsRow[]): Promise<void>;
  /** Called when a whole flush interval passed without a resolution: the time for work the sink put off (the store folds its pending rows). */
  idle?(): Promise<void>;
}

/**
 * How the counter batches.
 *
 * @example
 * ```ts
 * const o: StatsCounterOptions = { flushIntervalMs: 10_000, maxPending: 50_000, robotPatterns: ['harvester'] };
 * new RobotDetector(o.robotPatterns).isRobot('OAI Harvester'); // true
 * ```
 */
export interface StatsCounterOptions {
  /** Flush at least this often (default 5 s); 0 = only when asked or full. */
  flushIntervalMs?: number;
  /** Flush when this many distinct (day, service, name) cells are pending (default 100,000). */
  maxPending?: number;
  /** Extra robot patterns, added to the defaults. */
  robotPatterns?: readonly string[];
  now?: () => number;
}

const DAY_MS = 86_400_000;

type Pending = Map<number, Map<string, Map<string, [number, number]>>>;

/** Adds to one cell; true if the cell is new. */
function add(pending: Pending, day: number, service: string, key: string, human: number, robot: number): boolean {
  let services = pending.get(day);
  if (services === undefined) pending.set(day, (services = new Map()));
  let keys = services.get(service);
  if (keys === undefined) services.set(service, (keys = new Map()));
  const c = keys.get(key);
  if (c !== undefined) {
    c[0] += human;
    c[1] += robot;
    return false;
  }
  keys.set(key, [human, robot]);
  return true;
}

/** `YYYY-MM-DD` of a UTC day number (days since 1970-01-01). */
function dayString(dayNumber: number): string {
  return new Date(dayNumber * DAY_MS).toISOString().slice(0, 10);
}

/**
 * Counts resolutions in memory and flushes them to a sink in bulk.
 *
 * @example
 * ```ts
 * const rows: StatsRow[] = [];
 * const stats = new StatsCounter({ add: async (r) => { rows.push(...r); } }, { flushIntervalMs: 0, now: () => Date.UTC(2026, 10, 24, 12) });
 * stats.count('urn:ex:a', 'I2L', 'Mozilla/5.0');
 * stats.count('urn:ex:a', 'I2L', 'Googlebot/2.1');
 * await stats.flush();
 * rows; // [{ day: '2026-11-24', key: 'urn:ex:a', service: 'I2L', human: 1, robot: 1 }]
 * ```
 */
export class StatsCounter {
  readonly robots: RobotDetector;
  #sink: StatsSink;
  #now: () => number;
  #maxPending: number;
  /** day number -> service -> key -> [human, robot]; nested, so that the key strings (hashed once) are not concatenated per request */
  #pending: Pending = new Map();
  #size = 0;
  #timer: ReturnType<typeof setInterval> | undefined;
  #flushing: Promise<void> = Promise.resolve();
  #failed = 0;
  /** Whether anything was counted since the timer's last tick. */
  #counted = false;

  constructor(sink: StatsSink, opts: StatsCounterOptions = {}) {
    this.#sink = sink;
    this.#now = opts.now ?? Date.now;
    this.#maxPending = opts.maxPending ?? 100_000;
    this.robots = new RobotDetector(opts.robotPatterns ?? []);
    const every = opts.flushIntervalMs ?? 5000;
    if (every > 0) {
      this.#timer = setInterval(() => this.#tick(), every);
      this.#timer.unref?.();
    }
  }

  /** Counts one resolution of `key` through `service`. Never throws, never waits. */
  count(key: string, service: string, userAgent: string | undefined): void {
    this.#counted = true;
    const robot = this.robots.isRobot(userAgent) ? 1 : 0;
    if (add(this.#pending, Math.floor(this.#now() / DAY_MS), service, key, 1 - robot, robot) && ++this.#size === this.#maxPending) void this.flush();
  }

  /** Distinct cells waiting for the next flush. */
  get pending(): number {
    return this.#size;
  }

  /** Flushes that failed (their counts were put back and go with the next flush). */
  get failedFlushes(): number {
    return this.#failed;
  }

  /** The timer: a flush, or, after an interval without a resolution, the sink's idle work. */
  #tick(): void {
    const counted = this.#counted;
    this.#counted = false;
    if (counted || this.#size > 0) void this.flush();
    else if (this.#sink.idle !== undefined) {
      const sink = this.#sink;
      // In line with the flushes; a failure only puts the work off to the next idle interval.
      this.#flushing = this.#flushing.then(() => sink.idle!()).catch(() => undefined);
    }
  }

  /** Writes what is pending to the sink, one batch; flushes run one after another. */
  flush(): Promise<void> {
    this.#flushing = this.#flushing.then(() => this.#flushOnce());
    return this.#flushing;
  }

  async #flushOnce(): Promise<void> {
    if (this.#size === 0) return;
    const batch = this.#pending;
    this.#pending = new Map();
    this.#size = 0;
    const rows: StatsRow[] = [];
    for (const [day, services] of batch) {
      const d = dayString(day);
      for (const [service, keys] of services) for (const [key, [human, robot]] of keys) rows.push({ day: d, key, service, human, robot });
    }
    try {
      await this.#sink.add(rows);
    } catch {
      // the counts are not lost: they go back, to be written with the next flush
      this.#failed++;
      for (const [day, services] of batch) {
        for (const [service, keys] of services) {
          for (const [key, [human, robot]] of keys) if (add(this.#pending, day, service, key, human, robot)) this.#size++;
        }
      }
    }
  }

  /** Stops the timer and writes what is pending. */
  async close(): Promise<void> {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.flush();
  }
}
