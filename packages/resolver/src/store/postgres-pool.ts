/**
 * One PostgreSQL server of a store (the primary, or the streaming replica
 * resolution reads from) as a pool of connections that no fault of the
 * server can bring the process down with, and that says when the server
 * is away (availability.ts).
 *
 * - pg's pool emits `'error'` when an idle connection is ended by the
 *   server (57P01 admin_shutdown: a restart, a failover,
 *   `pg_terminate_backend`); with no listener, Node ends the process. The
 *   listener here counts it; the pool has already dropped the connection,
 *   and the next statement opens a new one.
 * - A read whose connection died under it (the server restarted, the
 *   backend was terminated) is sent once more on a fresh connection: a
 *   read has no effect to double. A write is never sent again: inside a
 *   transaction the connection is the transaction, and the write's outcome
 *   is reported instead (db.ts).
 * - Connecting gives up after {@link CONNECT_TIMEOUT_MS}, and a read of
 *   the resolution path after {@link READ_TIMEOUT_MS}, so that a server
 *   that stopped answering (a partition, a host gone) is found away instead
 *   of holding every request.
 */
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import pg from 'pg';
import type { StoreAvailability } from './availability.js';
import { pgFault, type StoreFault, type StorePart } from './store-fault.js';

/**
 * How long opening a connection may take before the server counts as away.
 *
 * @example
 * ```ts
 * CONNECT_TIMEOUT_MS; // 5000
 * ```
 */
export const CONNECT_TIMEOUT_MS = 5000;

/**
 * How long a read of the resolution path waits for its rows.
 *
 * @example
 * ```ts
 * READ_TIMEOUT_MS; // 5000
 * ```
 */
export const READ_TIMEOUT_MS = 5000;

/** PostgreSQL int8 (OID 20) as a JS number: our ids and milliseconds stay below 2^53. */
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20 && format !== 'binary') return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

/** pg's client with {@link CONNECT_TIMEOUT_MS} on its connect. */
class BoundedConnectClient extends pg.Client {
  constructor(config?: pg.ClientConfig) {
    super({ ...config, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  }
}

/**
 * Faults after which a fresh connection is worth one more try: the
 * connection died under the statement, the server itself may be up. A
 * refused or timed-out connect (the server is away) is not tried again at
 * once: the next request will.
 */
function diedUnder(e: unknown): boolean {
  const { code, message } = e as { code?: unknown; message?: unknown };
  if (code === '57P01' || code === '57P02' || code === 'ECONNRESET' || code === 'EPIPE') return true;
  if (typeof code === 'string' && code.startsWith('08')) return true;
  return typeof message === 'string' && /^(Connection terminated|Client has encountered a connection error|Connection ended unexpectedly)/.test(message);
}

/** A statement that only reads: it may be sent again. (The store's reads all begin with `select`; a `select ... for update` runs in a write's transaction, never retried.) */
function onlyReads(text: string): boolean {
  return /^\s*select\s/i.test(text);
}

/** The first word of a statement, lower case: `begin`, `commit`, ... */
function verb(text: string): string {
  const m = /^\s*([a-z]+)/i.exec(text);
  return m ? m[1]!.toLowerCase() : '';
}

/**
 * How a pool is made: its server's URL (without urikit's own parameters),
 * the most connections, the part of the store it is, the `options` sent at
 * connect (`-c name=value`), and where its availability is kept.
 *
 * @example
 * ```ts
 * const o: PgEndpointOptions = { url: new URL('postgres://user@replica.example/names'), max: 3, part: 'replica', options: '', availability: new StoreAvailability(['primary', 'replica']) };
 * o.part; // 'replica'
 * ```
 */
export interface PgEndpointOptions {
  url: URL;
  max: number;
  part: StorePart;
  options: string;
  availability: StoreAvailability;
}

/**
 * One PostgreSQL server of a store: its pool, its reads (retried once on
 * a fresh connection when the connection died), and the pool kysely uses.
 *
 * @example
 * ```ts
 * const availability = new StoreAvailability(['primary']);
 * const primary = new PgEndpoint({ url: new URL('postgres://user@db.example/names'), max: 10, part: 'primary', options: '', availability });
 * primary.lostConnections; // 0
 * await primary.end(); // undefined (never connected: nothing to close)
 * ```
 */
export class PgEndpoint {
  readonly pool: pg.Pool;
  readonly part: StorePart;
  readonly #availability: StoreAvailability;
  /** Idle connections the server ended (the pool replaced them on demand). */
  lostConnections = 0;
  /** Reads sent once more after their connection died. */
  retriedReads = 0;

  constructor(opts: PgEndpointOptions) {
    this.part = opts.part;
    this.#availability = opts.availability;
    this.pool = new pg.Pool({
      connectionString: opts.url.toString(),
      max: opts.max,
      types: pgTypes,
      options: opts.options,
      // The bound is on opening a connection (the client's), not on waiting for a free one in the
      // pool (the pool's own connectionTimeoutMillis): under load, writers queue for the store's
      // write lock for longer than a server takes to answer a connect.
      Client: BoundedConnectClient,
      // A server that vanished without a word (a host gone) is found by the socket too.
      keepAlive: true,
    });
    // Without a listener an idle connection's error ends the process.
    this.pool.on('error', () => { this.lostConnections++; });
  }

  /** `e` as the fault of this server, noted as an outage; undefined if it is not one. */
  fault(e: unknown): StoreFault | undefined {
    const f = pgFault(e, this.part);
    if (f !== undefined) this.#availability.down(this.part, f);
    return f;
  }

  /** A statement of this server succeeded (or failed for its own sake: the server answered). */
  answered(): void {
    this.#availability.up(this.part);
  }

  /**
   * Runs a read: on a connection that died under it, once more on a fresh
   * one. A fault throws a {@link StoreFault}; any other error as it came.
   */
  async read<R extends pg.QueryResultRow>(config: pg.QueryConfig, timeoutMs = READ_TIMEOUT_MS): Promise<pg.QueryResult<R>> {
    const query = timeoutMs > 0 ? { ...config, query_timeout: timeoutMs } : config;
    for (let attempt = 0; ; attempt++) {
      try {
        const r = await this.pool.query<R>(query);
        this.answered();
        return r;
      } catch (e) {
        const f = pgFault(e, this.part);
        if (f === undefined) { this.answered(); throw e; }
        if (attempt === 0 && diedUnder(e)) { this.retriedReads++; continue; }
        this.#availability.down(this.part, f);
        throw f;
      }
    }
  }

  /** The pool kysely's dialect uses: the same retry for a read outside a transaction. */
  kyselyPool(): PostgresPool {
    return {
      connect: async () => {
        try {
          // kysely sends SQL text and parameters only (the dialect is given no cursor).
          return new RetryingClient(this, await this.pool.connect()) as unknown as PostgresPoolClient;
        } catch (e) {
          throw this.fault(e) ?? e;
        }
      },
      end: () => this.end(),
    };
  }

  /** Closes every connection. */
  async end(): Promise<void> {
    if (!this.pool.ended) await this.pool.end();
  }
}

/**
 * A connection as kysely holds it: follows whether a transaction is open
 * (kysely's `begin` ... `commit` / `rollback` on the one connection), and
 * outside one sends a read again on a fresh connection when its own died.
 */
class RetryingClient {
  readonly #endpoint: PgEndpoint;
  #client: pg.PoolClient;
  #inTransaction = false;
  /** Released already: its connection died and no new one could be had. */
  #released = false;

  constructor(endpoint: PgEndpoint, client: pg.PoolClient) {
    this.#endpoint = endpoint;
    this.#client = client;
    this.#hold(client);
  }

  /**
   * While kysely holds a connection, pg's pool listens for none of its
   * errors (it does while the connection is idle in the pool): one that
   * dies between two statements of a transaction would end the process.
   */
  #hold(client: pg.PoolClient): void {
    client.on('error', this.#lost);
  }

  readonly #lost = (): void => { this.#endpoint.lostConnections++; };

  async query<R>(sql: string, parameters: readonly unknown[]): Promise<PostgresQueryResult<R>> {
    const v = verb(sql);
    if (v === 'begin' || v === 'start') this.#inTransaction = true;
    else if (v === 'commit' || v === 'rollback') this.#inTransaction = false;
    for (let attempt = 0; ; attempt++) {
      try {
        const r = await this.#client.query<R & pg.QueryResultRow>(sql, parameters as unknown[]);
        this.#endpoint.answered();
        return r as unknown as PostgresQueryResult<R>;
      } catch (e) {
        const retry = attempt === 0 && !this.#inTransaction && onlyReads(sql) && diedUnder(e);
        if (!retry) {
          const f = this.#endpoint.fault(e);
          if (f === undefined) this.#endpoint.answered();
          throw f ?? e;
        }
        this.#endpoint.retriedReads++;
        // The dead connection leaves the pool (released with its error); the read goes out on a new one.
        this.#client.off('error', this.#lost);
        this.#client.release(e as Error);
        try {
          this.#client = await this.#endpoint.pool.connect();
          this.#hold(this.#client);
        } catch (connectError) {
          this.#released = true;
          throw this.#endpoint.fault(connectError) ?? connectError;
        }
      }
    }
  }

  release(): void {
    if (!this.#released) {
      this.#client.off('error', this.#lost);
      this.#client.release();
    }
    this.#released = true;
  }
}
