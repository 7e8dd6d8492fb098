/**
 * Reading from a PostgreSQL streaming replica (`--db-replica`): how far
 * behind the primary it is, and which names this process must still read
 * from the primary.
 *
 * A replica replays the primary's write-ahead log (WAL) in order, so a
 * position in the log (an LSN) says what it holds: a write committed at
 * LSN x is visible on the replica once `pg_last_wal_replay_lsn()` >= x
 * (PostgreSQL manual, "Hot Standby" and "Recovery Control Functions").
 *
 * - The lag: once a second the monitor reads the primary's current LSN,
 *   then asks the replica until it has replayed that far; the time that
 *   took is how long a write made through any server takes to show on
 *   this one (`urikit_replica_lag_seconds` in /metrics), and the bytes
 *   between the two positions when it asked the replica first are
 *   `urikit_replica_lag_bytes`.
 * - A client's own writes: a name this process writes is read from the
 *   primary from the moment the write ends until the replica has
 *   replayed past the primary's LSN taken after the commit, so a client
 *   that writes through a server and reads back through the same one
 *   sees its write at once.
 * - A replica that is away: resolution reads go to the primary from the
 *   batch after the one that found it away, and back to the replica once
 *   a sample finds it answering and caught up (postgres-pool.ts keeps the
 *   process alive through the replica's restarts).
 */
import type { StoreAvailability } from './availability.js';
import type { PgEndpoint } from './postgres-pool.js';
import type { ReadRouting } from './postgres-reader.js';

/** How often the lag is measured (and a replica that was away is asked whether it is back). */
const SAMPLE_MS = 1000;
/** While the replica catches up with a sample: how often it is asked. */
const POLL_MS = 5;

/**
 * A log position (`'16/B374D848'`) as a number: exact below 2^53 bytes of
 * WAL (8 PiB), far beyond any server's lifetime of writes.
 *
 * @example
 * ```ts
 * lsnNumber('16/B374D848'); // 0x16_B374D848
 * lsnNumber('0/0'); // 0
 * ```
 */
export function lsnNumber(lsn: string): number {
  const slash = lsn.indexOf('/');
  return Number.parseInt(lsn.slice(0, slash), 16) * 2 ** 32 + Number.parseInt(lsn.slice(slash + 1), 16);
}

/** The position a statement returns; null when the server has none (`pg_last_wal_replay_lsn()` on a server not in recovery). */
async function lsnOf(at: PgEndpoint, sql: string): Promise<number | null> {
  const lsn = (await at.read<{ lsn: string | null }>({ text: sql })).rows[0]?.lsn;
  return lsn === null || lsn === undefined ? null : lsnNumber(lsn);
}

const PRIMARY_LSN = 'select pg_current_wal_lsn()::text as lsn';
/** A standby's replay position; null on a server out of recovery (a primary, or a standby since promoted, whose last replayed position stays put). */
const REPLAY_LSN = 'select case when pg_is_in_recovery() then pg_last_wal_replay_lsn()::text end as lsn';
/** The cluster's identity, the same on a primary and every copy made of it by base backup (PostgreSQL manual, pg_control_system). */
const SYSTEM_ID = 'select system_identifier::text as id from pg_control_system()';

/**
 * At start: the replica must be a copy of the primary's cluster (the same
 * system identifier); one that is not a standby is read as it is, with a
 * warning (after a failover the replica named in the configuration is the
 * primary now: refusing to start would take the fleet down when it is
 * needed most).
 */
async function checkCopy(primary: PgEndpoint, replica: PgEndpoint, warn: (message: string) => void): Promise<void> {
  let ids: [string | undefined, string | undefined];
  try {
    ids = [(await primary.read<{ id: string }>({ text: SYSTEM_ID })).rows[0]?.id, (await replica.read<{ id: string }>({ text: SYSTEM_ID })).rows[0]?.id];
  } catch {
    // pg_control_system() is for superusers by default: without the right, the copy cannot be checked.
    warn('cannot read pg_control_system() (a superuser\'s right by default): whether --db-replica is a copy of --db is not checked');
    return;
  }
  if (ids[0] !== ids[1]) throw new Error(`--db-replica is not a copy of --db: its system identifier is ${ids[1]}, the primary's ${ids[0]} (a streaming replica is made from the primary by pg_basebackup)`);
}
/**
 * The lag of a replica behind its primary, measured, and the names this
 * process wrote that the replica has not replayed yet.
 *
 * @example
 * ```ts
 * const m: ReplicaLag = { seconds: 0.002, bytes: 0, replayed: 0x16_B374D848 };
 * m.seconds < 1; // true
 * ```
 */
export interface ReplicaLag {
  /** The time the last sample took to show on the replica, in seconds. */
  seconds: number;
  /** The primary's LSN minus the replica's when the last sample was taken. */
  bytes: number;
  /** The replica's replay position, as last seen. */
  replayed: number;
}

/**
 * The replica's lag, the reads it must not answer yet, and whether it
 * answers at all. While it is away (stopped, restarting, unreachable),
 * resolution reads go to the primary; they return to it once it answers
 * again and has replayed what the primary had when it was asked (or at
 * once if the primary is away too: the replica then holds all there is to
 * read). A replica promoted to primary (a failover) is read as it is.
 */
export class ReplicaMonitor implements ReadRouting {
  readonly #primary: PgEndpoint;
  readonly #replica: PgEndpoint;
  /** Names written by this process: the primary LSN after their last commit (Infinity until it is known), and which write that was. */
  readonly #written = new Map<string, { at: number; write: number }>();
  #writes = 0;
  /** The lag of the last complete sample. */
  #measured = 0;
  readonly lag: ReplicaLag = { seconds: 0, bytes: 0, replayed: 0 };
  #timer: NodeJS.Timeout | undefined;
  #sampling: Promise<void> | undefined;
  #closed = false;
  /** When the last sample ended. */
  #sampled = performance.now();
  /** Whether resolution reads go to the replica (else to the primary). */
  #reading = true;

  constructor(primary: PgEndpoint, replica: PgEndpoint, availability: StoreAvailability) {
    this.#primary = primary;
    this.#replica = replica;
    // A read or a sample that found the replica away sends the reads to the primary from the next batch on.
    availability.onChange((part, up) => { if (part === 'replica' && !up) this.#reading = false; });
  }

  /** The server resolution reads go to now. */
  readEndpoint(): PgEndpoint {
    return this.#reading ? this.#replica : this.#primary;
  }

  /** True while resolution reads go to the replica. */
  get readingReplica(): boolean {
    return this.#reading;
  }

  /** Checks that the replica is a copy of the primary, takes the first sample, and samples every second from now on. */
  async start(warn: (message: string) => void = () => undefined): Promise<void> {
    await checkCopy(this.#primary, this.#replica, warn);
    if (await lsnOf(this.#replica, REPLAY_LSN) === null) warn('--db-replica is not a standby in recovery (promoted after a failover?): resolutions read from it as it is');
    await this.sample(true);
    this.#timer = setInterval(() => {
      // A sample that fails (the replica or the primary unreachable) says
      // nothing of the lag but that it is at least the time since the last
      // one that ended.
      this.#sampling ??= this.sample()
        .catch(() => { this.lag.seconds = Math.max(this.lag.seconds, (performance.now() - this.#sampled) / 1000); })
        .finally(() => { this.#sampling = undefined; });
    }, SAMPLE_MS);
    this.#timer.unref();
  }

  /**
   * Measures the lag once: the primary's LSN now, then the replica until
   * it has replayed it; then reads go to the replica. `starting`: both
   * servers must answer.
   */
  async sample(starting = false): Promise<void> {
    const start = performance.now();
    let target: number | null = null;
    try {
      target = await lsnOf(this.#primary, PRIMARY_LSN);
    } catch (e) {
      if (starting) throw e;
    }
    let replayed = await lsnOf(this.#replica, REPLAY_LSN);
    if (replayed === null) {
      // Out of recovery (promoted after a failover): it takes writes of its own, and holds all it replayed.
      this.lag.bytes = 0;
      this.#caughtUp(start, this.lag.replayed);
      return;
    }
    if (target === null) {
      // The primary is away: the replica holds all there is to read.
      this.#reading = true;
      this.lag.seconds = Math.max(this.#measured, (performance.now() - this.#sampled) / 1000);
      return;
    }
    this.lag.bytes = Math.max(0, target - replayed);
    while (replayed !== null && replayed < target && !this.#closed) {
      this.#replayed(replayed);
      // The time so far is the lag at least: /metrics shows it growing while the replica stays behind.
      this.lag.seconds = Math.max(this.#measured, (performance.now() - start) / 1000);
      await new Promise((r) => setTimeout(r, POLL_MS));
      replayed = await lsnOf(this.#replica, REPLAY_LSN);
    }
    this.#caughtUp(start, replayed ?? target);
  }

  /** The replica has replayed what the primary had when the sample started: reads may go there. */
  #caughtUp(start: number, replayed: number): void {
    this.#replayed(replayed);
    this.#sampled = performance.now();
    this.#measured = (this.#sampled - start) / 1000;
    this.lag.seconds = this.#measured;
    this.#reading = true;
  }

  #replayed(lsn: number): void {
    this.lag.replayed = lsn;
    for (const [key, w] of this.#written) if (w.at <= lsn) this.#written.delete(key);
  }

  /** After a write of this process: its names are read from the primary until the replica has replayed it. */
  wrote(keys: readonly string[]): void {
    if (keys.length === 0) return;
    const write = ++this.#writes;
    for (const key of keys) this.#written.set(key, { at: Infinity, write });
    // Taken after the commit, so at or past its commit record. Until it is
    // known (and for good if it cannot be had) the names stay on the primary;
    // a later write of a name waits for its own position.
    lsnOf(this.#primary, PRIMARY_LSN).then((at) => {
      for (const key of keys) {
        const w = this.#written.get(key);
        if (w?.write === write) w.at = at ?? Infinity;
      }
    }, () => undefined);
  }

  onPrimary(key: string): boolean {
    return this.#written.has(key);
  }

  /** Answers a trivial query on the replica: it is up. */
  async ping(): Promise<void> {
    await this.#replica.read({ text: 'select 1' });
  }

  /** Stops sampling. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    await this.#sampling;
  }
}
