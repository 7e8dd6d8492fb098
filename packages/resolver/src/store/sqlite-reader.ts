/**
 * The resolution read on SQLite: the name's slot looked up synchronously
 * on the read connection (sqlite.ts), the reads of one turn of the event
 * loop inside one read transaction.
 */
import type { NameLookup, NameReader } from './reader.js';
import { rowToRecord } from './records.js';
import type { NamesTable } from './schema.js';
import type { SqliteRows } from './sqlite.js';
import type { NameRecord } from './types.js';

/** {@link NameReader} on SQLite. */
export class SqliteNameReader implements NameReader {
  readonly rows: SqliteRows;
  #inTurn = false;

  constructor(rows: SqliteRows) {
    this.rows = rows;
  }

  /**
   * Starts a turn of the event loop, if none is started; true if it
   * started one. The turn's reads share one read transaction (begun by
   * the first of them, {@link SqliteNameReader.begin}): one snapshot for
   * the turn halves the cost of a lookup (the WAL read lock is taken once,
   * not per statement), and a turn whose names all come from the name
   * cache runs no statement. It ends before the next turn, and at once
   * when this process commits a write (endTurn), so a client reads its own
   * writes; another process's write shows from the next turn.
   */
  openTurn(): boolean {
    if (this.#inTurn) return false;
    this.#inTurn = true;
    setImmediate(this.#endTurn);
    return true;
  }

  /**
   * Begins the turn's read transaction before a read, if it is not begun
   * (a deferred BEGIN takes its snapshot at the first read: beginning it
   * here rather than when the turn starts changes no snapshot).
   */
  begin(): void {
    this.openTurn();
    this.rows.begin();
  }

  readonly #endTurn = (): void => { this.endTurn(); };

  /** Ends this turn's read transaction. */
  endTurn(): void {
    if (!this.#inTurn) return;
    this.#inTurn = false;
    this.rows.end();
  }

  /** The current row of `key`, in this turn's snapshot. */
  row(key: string): NamesTable | undefined {
    this.begin();
    return this.rows.get(key);
  }

  async get(key: string): Promise<NameRecord | undefined> {
    const row = this.row(key);
    return row ? rowToRecord(row) : undefined;
  }

  async lookup(key: string): Promise<NameLookup> {
    const row = this.row(key);
    return { record: row ? rowToRecord(row) : undefined };
  }
}
