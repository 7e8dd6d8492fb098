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
 */
import type pg from 'pg';
import type { ReadRouting } from './postgres-reader.js';

/** How often the lag is measured. */
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

async function lsnOf(pool: pg.Pool, sql: string): Promise<number> {
  const res = await pool.query<{ lsn: string | null }>(sql);
  const lsn = res.rows[0]?.lsn;
  if (lsn === null || lsn === undefined) throw new Error('the replica database is not a standby in recovery (pg_last_wal_replay_lsn() is null): --db-replica names a streaming replica');
  return lsnNumber(lsn);
}

const PRIMARY_LSN = 'select pg_current_wal_lsn()::text as lsn';
const REPLAY_LSN = 'select pg_last_wal_replay_lsn()::text as lsn';

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

/** The replica's lag, and the reads it must not answer yet. */
export class ReplicaMonitor implements ReadRouting {
  readonly #primary: pg.Pool;
  readonly #replica: pg.Pool;
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

  constructor(primary: pg.Pool, replica: pg.Pool) {
    this.#primary = primary;
    this.#replica = replica;
  }

  /** Checks that the replica is one, takes the first sample, and samples every second from now on. */
  async start(): Promise<void> {
    await this.sample();
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

  /** Measures the lag once: the primary's LSN now, then the replica until it has replayed it. */
  async sample(): Promise<void> {
    const start = performance.now();
    const target = await lsnOf(this.#primary, PRIMARY_LSN);
    let replayed = await lsnOf(this.#replica, REPLAY_LSN);
    this.lag.bytes = Math.max(0, target - replayed);
    while (replayed < target && !this.#closed) {
      this.#replayed(replayed);
      // The time so far is the lag at least: /metrics shows it growing while the replica stays behind.
      this.lag.seconds = Math.max(this.#measured, (performance.now() - start) / 1000);
      await new Promise((r) => setTimeout(r, POLL_MS));
      replayed = await lsnOf(this.#replica, REPLAY_LSN);
    }
    this.#replayed(replayed);
    this.#sampled = performance.now();
    this.#measured = (this.#sampled - start) / 1000;
    this.lag.seconds = this.#measured;
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
        if (w?.write === write) w.at = at;
      }
    }, () => undefined);
  }

  onPrimary(key: string): boolean {
    return this.#written.has(key);
  }

  /** Answers a trivial query on the replica: it is up. */
  async ping(): Promise<void> {
    await this.#replica.query('select 1');
  }

  /** Stops sampling. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    await this.#sampling;
  }
}
