/**
 * Whether any connection may have committed to a WAL-mode SQLite file
 * since the last look, from the wal-index header alone: one read of 96
 * bytes, no lock. `PRAGMA data_version`, which says exactly whether
 * another connection committed, takes and drops the WAL read lock (two
 * `fcntl` calls) and costs more than the rest of a cached resolution;
 * asking it only when the header moved keeps its answer and drops its
 * cost from the turns in which nobody wrote.
 *
 * SQLite "WAL-mode File Format" §2.1 (sqlite.org/walformat.html): the
 * wal-index (the `-shm` file of the unix and windows VFSes) begins with
 * two copies of a 48-byte header whose `iChange` field is incremented by
 * every transaction that commits, and every commit writes both copies
 * before it returns. So a commit acknowledged before the read always
 * shows as changed bytes; a commit in progress during the read may show
 * (a torn read of the two copies), which only costs one exact check.
 */
import { closeSync, openSync, readSync } from 'node:fs';

/** The two copies of the wal-index header (walformat.html §2.1: 2 × 48 bytes at offset 0). */
const HEADER_BYTES = 96;

/**
 * The watch on one database's wal-index.
 *
 * @example
 * ```ts
 * import { mkdtempSync } from 'node:fs';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import { openSqliteFile } from './sqlite-driver.js';
 * const file = join(mkdtempSync(join(tmpdir(), 'wal-')), 'a.sqlite');
 * const a = openSqliteFile(file);
 * a.exec('pragma journal_mode = WAL; create table t (x)');
 * const watch = WalIndexWatch.open(file);
 * watch.moved(); // true (the first look)
 * watch.moved(); // false
 * const b = openSqliteFile(file);
 * b.exec('insert into t values (1)');
 * watch.moved(); // true
 * watch.close(); b.close(); a.close();
 * ```
 */
export class WalIndexWatch {
  readonly #fd: number | undefined;
  #seen: Buffer | undefined;
  readonly #now = Buffer.alloc(HEADER_BYTES);

  private constructor(fd: number | undefined) {
    this.#fd = fd;
  }

  /**
   * Watches `file`'s wal-index (`<file>-shm`), which a connection in WAL
   * mode has created. Where it cannot be read (no such file: another VFS,
   * `:memory:`), every look says "moved", and the caller asks SQLite.
   */
  static open(file: string): WalIndexWatch {
    try {
      return new WalIndexWatch(openSync(`${file}-shm`, 'r'));
    } catch {
      return new WalIndexWatch(undefined);
    }
  }

  /** True if the header is not what it was at the last look (and at the first look). */
  moved(): boolean {
    if (this.#fd === undefined) return true;
    let read: number;
    try {
      read = readSync(this.#fd, this.#now, 0, HEADER_BYTES, 0);
    } catch {
      return true;
    }
    if (read === HEADER_BYTES && this.#seen !== undefined && this.#seen.equals(this.#now)) return false;
    this.#seen = Buffer.from(this.#now);
    return true;
  }

  close(): void {
    if (this.#fd !== undefined) closeSync(this.#fd);
  }
}
