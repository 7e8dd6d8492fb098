/**
 * What fails underneath a store, named: the database went away (a
 * PostgreSQL restart, failover, a terminated backend, a refused
 * connection), the disk is full, the file became read-only, another
 * process holds the write lock. Each engine's errors are classified here
 * and nowhere else, so that every caller (the write transaction, the
 * resolution read, the HTTP error handler) makes the same decision: a
 * fault of the store is a 503 (507 for a full disk) with `Retry-After`,
 * never a 500, and never reported as a success.
 *
 * PostgreSQL's codes are SQLSTATEs (PostgreSQL manual, Appendix A "Error
 * Codes"); SQLite's are result codes, the primary code in the low byte of
 * an extended one (sqlite.org/rescode.html).
 */

/**
 * The stable codes of a {@link StoreFault}, with the HTTP status each is
 * answered with.
 *
 * @example
 * ```ts
 * STORE_FAULT_STATUS['store-full']; // 507
 * STORE_FAULT_STATUS['store-unavailable']; // 503
 * ```
 */
export const STORE_FAULT_STATUS = {
  /** The database cannot be reached, or the connection died (PostgreSQL), or the file cannot be read or written (SQLite I/O). */
  'store-unavailable': 503,
  /** The disk (or the database's quota) is full: writes are refused until there is room; reads go on (RFC 4918 §11.5). */
  'store-full': 507,
  /** The store can be read but not written: a read-only file or file system, or a PostgreSQL server in recovery (a standby). */
  'store-read-only': 503,
  /** Another process held the write lock for longer than a write waits (a bulk import). */
  'store-busy': 503,
} as const;

/**
 * The code of a {@link StoreFault}.
 *
 * @example
 * ```ts
 * const code: StoreFaultCode = 'store-read-only';
 * STORE_FAULT_STATUS[code]; // 503
 * ```
 */
export type StoreFaultCode = keyof typeof STORE_FAULT_STATUS;

/**
 * Which part of a deployment failed: the PostgreSQL primary (or the one
 * SQLite file), or the streaming replica resolution reads from.
 *
 * @example
 * ```ts
 * const part: StorePart = 'replica';
 * new StoreFault('store-unavailable', part).message; // 'the database cannot be reached (replica)'
 * ```
 */
export type StorePart = 'primary' | 'replica';

/**
 * What became of a write that failed: `not-committed` (nothing changed),
 * or `unknown` (the connection died while the commit was under way: it
 * may have been made; read the name to know).
 *
 * @example
 * ```ts
 * const o: WriteOutcome = 'unknown';
 * new StoreFault('store-unavailable', 'primary', { outcome: o }).outcome; // 'unknown'
 * ```
 */
export type WriteOutcome = 'not-committed' | 'unknown';

/** Seconds a client is asked to wait, per code. */
const RETRY_AFTER: Readonly<Record<StoreFaultCode, number>> = {
  'store-unavailable': 5,
  'store-full': 60,
  'store-read-only': 30,
  'store-busy': 5,
};

const DETAIL: Readonly<Record<StoreFaultCode, string>> = {
  'store-unavailable': 'the database cannot be reached',
  'store-full': 'the disk of the store is full: nothing can be written until there is room',
  'store-read-only': 'the store can be read but not written',
  'store-busy': 'another process held the store\'s write lock throughout',
};

/**
 * A fault of the store, not of the request: answered with
 * `STORE_FAULT_STATUS[code]` and `Retry-After`. The engine's own message
 * (host, user, file path) is kept in `cause` for the log, never shown to
 * a client.
 *
 * @example
 * ```ts
 * const e = new StoreFault('store-unavailable', 'primary', { outcome: 'not-committed' });
 * [e.statusCode, e.retryAfter, e.code]; // [503, 5, 'store-unavailable']
 * e.message; // 'the database cannot be reached (primary); the write was not made'
 * ```
 */
export class StoreFault extends Error {
  override readonly name = 'StoreFault';
  readonly code: StoreFaultCode;
  readonly part: StorePart;
  readonly statusCode: number;
  /** Seconds before trying again is worth it. */
  readonly retryAfter: number;
  /** For a write: whether it was made. */
  readonly outcome: WriteOutcome | undefined;
  /** What failed, without the part and the outcome. */
  readonly detail: string;

  constructor(code: StoreFaultCode, part: StorePart, opts: { outcome?: WriteOutcome | undefined; cause?: unknown; detail?: string } = {}) {
    const detail = opts.detail ?? DETAIL[code];
    const outcome = opts.outcome === undefined ? '' : opts.outcome === 'unknown'
      ? '; the connection was lost while the write was being committed: it may or may not have been made (read the name to know)'
      : '; the write was not made';
    super(`${detail} (${part})${outcome}`, opts.cause !== undefined ? { cause: opts.cause } : undefined);
    this.code = code;
    this.part = part;
    this.statusCode = STORE_FAULT_STATUS[code];
    this.retryAfter = RETRY_AFTER[code];
    this.outcome = opts.outcome;
    this.detail = detail;
  }

  /**
   * The same fault, saying what became of the write it failed.
   *
   * @example
   * ```ts
   * new StoreFault('store-unavailable', 'primary').withOutcome('unknown').outcome; // 'unknown'
   * ```
   */
  withOutcome(outcome: WriteOutcome | undefined): StoreFault {
    if (outcome === undefined || outcome === this.outcome) return this;
    return new StoreFault(this.code, this.part, { outcome, cause: this.cause, detail: this.detail });
  }
}

/**
 * A write's fault on PostgreSQL: a server that answered the commit with an
 * error (a full disk, a read-only server) did not commit; a connection
 * lost during the commit leaves the outcome unknown (the commit record may
 * have been written before the connection went).
 *
 * @example
 * ```ts
 * pgWriteFault({ code: '57P01', message: 'terminating connection' }, true)?.outcome; // 'unknown'
 * pgWriteFault({ code: '53100', message: 'could not extend file' }, true)?.outcome; // 'not-committed'
 * pgWriteFault({ code: '57P01', message: 'terminating connection' }, false)?.outcome; // 'not-committed'
 * ```
 */
export function pgWriteFault(e: unknown, duringCommit: boolean): StoreFault | undefined {
  const f = pgFault(e, 'primary');
  if (f === undefined) return undefined;
  return f.withOutcome(duringCommit && f.code === 'store-unavailable' ? 'unknown' : 'not-committed');
}

/**
 * SQLSTATE classes and codes that mean the connection or the server is
 * gone, not that the statement was wrong: class 08 (connection
 * exception), 57P01 admin_shutdown (a restart, `pg_terminate_backend`),
 * 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up, shutting
 * down), 57P05 idle_session_timeout, 53300 too_many_connections, 58030
 * io_error.
 */
const PG_GONE = new Set(['57P01', '57P02', '57P03', '57P05', '53300', '58030']);
/** Errors of Node's sockets that mean the server is unreachable or went away. */
const SOCKET_GONE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED']);
/** pg's own errors for a connection that ended or never came (they carry no code). */
const PG_CLIENT_GONE = /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Query read timeout|Client was closed and is not queryable|Connection ended unexpectedly)/;

/**
 * The fault a PostgreSQL error means, if it is one: the connection or
 * server gone, the disk full (53100 disk_full), or a server that cannot
 * write (25006 read_only_sql_transaction: after a failover the address
 * may lead to a standby for a while). Any other error (a constraint, a
 * statement the store got wrong) is not a fault of the store.
 *
 * @example
 * ```ts
 * pgFault({ code: '57P01', message: 'terminating connection due to administrator command' }, 'primary')?.code; // 'store-unavailable'
 * pgFault({ code: '25006', message: 'cannot execute UPDATE in a read-only transaction' }, 'primary')?.code; // 'store-read-only'
 * pgFault(new Error('Connection terminated unexpectedly'), 'replica')?.part; // 'replica'
 * pgFault({ code: '23505', message: 'duplicate key' }, 'primary'); // undefined
 * ```
 */
export function pgFault(e: unknown, part: StorePart, outcome?: WriteOutcome): StoreFault | undefined {
  if (e instanceof StoreFault) return e.withOutcome(outcome);
  if (typeof e !== 'object' || e === null) return undefined;
  const { code, message } = e as { code?: unknown; message?: unknown };
  const opts = { cause: e, ...(outcome !== undefined ? { outcome } : {}) };
  if (typeof code === 'string') {
    if (code === '53100') return new StoreFault('store-full', part, opts);
    if (code === '25006') return new StoreFault('store-read-only', part, opts);
    if (code.startsWith('08') || PG_GONE.has(code) || SOCKET_GONE.has(code)) return new StoreFault('store-unavailable', part, opts);
    return undefined;
  }
  if (typeof message === 'string' && PG_CLIENT_GONE.test(message)) return new StoreFault('store-unavailable', part, opts);
  return undefined;
}

/** SQLite's primary result codes (sqlite.org/rescode.html). */
const SQLITE_READONLY = 8;
const SQLITE_IOERR = 10;
const SQLITE_CORRUPT = 11;
const SQLITE_FULL = 13;
const SQLITE_CANTOPEN = 14;

/**
 * The fault a SQLite error means, if it is one: SQLITE_FULL (the disk
 * or file system is full: "database or disk is full"), SQLITE_READONLY,
 * SQLITE_IOERR and SQLITE_CANTOPEN (the file cannot be written or
 * opened), SQLITE_CORRUPT (reported as unavailable: never a 500, and the
 * log keeps SQLite's message).
 *
 * @example
 * ```ts
 * sqliteFault({ errcode: 13, message: 'database or disk is full' })?.statusCode; // 507
 * sqliteFault({ errcode: 1544, message: 'attempt to write a readonly database' })?.code; // 'store-read-only'
 * sqliteFault({ errcode: 19, message: 'UNIQUE constraint failed' }); // undefined
 * ```
 */
export function sqliteFault(e: unknown, outcome?: WriteOutcome): StoreFault | undefined {
  if (e instanceof StoreFault) return e.withOutcome(outcome);
  if (typeof e !== 'object' || e === null) return undefined;
  const errcode = (e as { errcode?: unknown }).errcode;
  if (typeof errcode !== 'number') return undefined;
  const opts = { cause: e, ...(outcome !== undefined ? { outcome } : {}) };
  switch (errcode & 0xff) {
    case SQLITE_FULL: return new StoreFault('store-full', 'primary', opts);
    case SQLITE_READONLY: return new StoreFault('store-read-only', 'primary', opts);
    case SQLITE_IOERR:
    case SQLITE_CANTOPEN:
    case SQLITE_CORRUPT: return new StoreFault('store-unavailable', 'primary', opts);
    default: return undefined;
  }
}

/**
 * A write's fault on SQLite: never of unknown outcome. SQLite's commit is
 * atomic and in this process: when it returns an error, the transaction
 * was not committed (sqlite.org/atomiccommit.html).
 *
 * @example
 * ```ts
 * sqliteWriteFault({ errcode: 13, message: 'database or disk is full' })?.outcome; // 'not-committed'
 * ```
 */
export function sqliteWriteFault(e: unknown): StoreFault | undefined {
  return sqliteFault(e, 'not-committed');
}

/**
 * The fault any error of a store means, whatever the engine: what the
 * HTTP error handler asks of an error no route expected.
 *
 * @example
 * ```ts
 * storeFault({ errcode: 13, message: 'database or disk is full' })?.code; // 'store-full'
 * storeFault({ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' })?.code; // 'store-unavailable'
 * storeFault(new TypeError('x')); // undefined
 * ```
 */
export function storeFault(e: unknown): StoreFault | undefined {
  return sqliteFault(e) ?? pgFault(e, 'primary');
}
