/**
 * The cache of resolution answers (1995 draft §5: "Caching should only
 * be performed using the If-Modified-Since mechanism in HTTP"), with the
 * later HTTP validators and freshness: `ETag` / `If-None-Match` and
 * `Cache-Control: max-age` (RFC 9111 §4.2, §4.3). Two stores: memory and disk.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * One stored answer: what is needed to revalidate it and to answer from it.
 *
 * @example
 * ```ts
 * // Stored at time 0 with a max-age of 60 seconds: fresh for a minute, then revalidated.
 * const e: CacheEntry = { status: 200, headers: { 'cache-control': 'max-age=60', etag: '"1"' }, body: Buffer.from('http://a.test/\r\n').toString('base64'), storedAt: 0 };
 * isFresh(e, 59_000) // true
 * isFresh(e, 60_000) // false
 * Buffer.from(e.body, 'base64').toString() // 'http://a.test/\r\n'
 * ```
 */
export interface CacheEntry {
  status: number;
  /** The Reason-Phrase (it may name the URN of a 301/302, 1995 draft §4). */
  statusText?: string;
  /** The answer's headers, names in lower case. */
  headers: Record<string, string>;
  /** The body, base64 (answers may be ISO-8859-x, 1995 draft §3.4.2). */
  body: string;
  /** When the answer was received or last revalidated (ms since the epoch). */
  storedAt: number;
}

/**
 * Where {@link resolveUrn} keeps answers, keyed by request URL and `Accept`.
 *
 * @example
 * ```ts
 * const cache: Cache = new MemoryCache();
 * await cache.set('http://r.test/uri-res/I2L?urn:x:y text/urc-0', { status: 200, headers: { etag: '"7"' }, body: '', storedAt: 0 });
 * (await cache.get('http://r.test/uri-res/I2L?urn:x:y text/urc-0'))?.headers // { etag: '"7"' }
 * await cache.delete('http://r.test/uri-res/I2L?urn:x:y text/urc-0');
 * await cache.get('http://r.test/uri-res/I2L?urn:x:y text/urc-0') // undefined
 * ```
 */
export interface Cache {
  get(key: string): Promise<CacheEntry | undefined>;
  set(key: string, entry: CacheEntry): Promise<void>;
  delete(key: string): Promise<void>;
}

/**
 * A cache in memory, dropping the least recently used entry beyond `limit`.
 *
 * @example
 * ```ts
 * const cache = new MemoryCache({ limit: 1000 });
 * await cache.set('http://r.test/uri-res/I2L?urn:x:y', { status: 200, headers: {}, body: '', storedAt: 0 });
 * (await cache.get('http://r.test/uri-res/I2L?urn:x:y'))?.status // 200
 * ```
 */
export class MemoryCache implements Cache {
  readonly #entries = new Map<string, CacheEntry>();
  readonly #limit: number;

  constructor(opts: { limit?: number } = {}) {
    this.#limit = opts.limit ?? 10_000;
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    const e = this.#entries.get(key);
    if (e) {
      // Map order is insertion order: re-insert to mark it recently used.
      this.#entries.delete(key);
      this.#entries.set(key, e);
    }
    return e;
  }

  async set(key: string, entry: CacheEntry): Promise<void> {
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    while (this.#entries.size > this.#limit) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
  }

  async delete(key: string): Promise<void> {
    this.#entries.delete(key);
  }

  /** How many answers are held. */
  get size(): number {
    return this.#entries.size;
  }
}

/**
 * A cache on disk: one JSON file per key, named by the SHA-256 of the key,
 * written to a temporary file and renamed so a reader never sees half a file.
 *
 * @example
 * ```ts
 * // A directory of the working directory (created on the first write).
 * const cache = new DiskCache('urikit-cache');
 * await cache.set('http://r.test/uri-res/I2L?urn:x:y', { status: 200, headers: { etag: '"1"' }, body: '', storedAt: 0 });
 * // Another process (another DiskCache on the same directory) reads the same answer.
 * (await new DiskCache('urikit-cache').get('http://r.test/uri-res/I2L?urn:x:y'))?.headers.etag // '"1"'
 * await cache.get('http://r.test/uri-res/I2L?urn:x:z') // undefined
 * ```
 */
export class DiskCache implements Cache {
  readonly #dir: string;
  #ready: Promise<unknown> | undefined;

  constructor(dir: string) {
    this.#dir = dir;
  }

  #file(key: string): string {
    return join(this.#dir, `${createHash('sha256').update(key).digest('hex')}.json`);
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    let text: string;
    try {
      text = await readFile(this.#file(key), 'utf8');
    } catch {
      return undefined;
    }
    try {
      const stored = JSON.parse(text) as { key: string; entry: CacheEntry };
      // A hash collision or a foreign file is a miss, never a wrong answer.
      return stored.key === key ? stored.entry : undefined;
    } catch {
      return undefined;
    }
  }

  async set(key: string, entry: CacheEntry): Promise<void> {
    this.#ready ??= mkdir(this.#dir, { recursive: true });
    await this.#ready;
    const file = this.#file(key);
    const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    await writeFile(tmp, JSON.stringify({ key, entry }));
    await rename(tmp, file);
  }

  async delete(key: string): Promise<void> {
    await rm(this.#file(key), { force: true });
  }
}

/**
 * The `max-age` of a `Cache-Control` header in seconds, `0` for
 * `no-cache`, `undefined` when absent (RFC 9111 §5.2.2); read in one pass.
 *
 * @example
 * ```ts
 * maxAge('public, max-age=60') // 60
 * ```
 */
export function maxAge(cacheControl: string | undefined): number | undefined {
  if (cacheControl === undefined) return undefined;
  let result: number | undefined;
  for (const part of cacheControl.split(',')) {
    const directive = part.trim().toLowerCase();
    if (directive === 'no-cache' || directive === 'no-store') return 0;
    if (directive.startsWith('max-age=')) {
      // delta-seconds = 1*DIGIT (RFC 9111 §1.2.2); the quoted form is tolerated (§5.2)
      let digits = directive.slice(8);
      if (digits.length >= 2 && digits.startsWith('"') && digits.endsWith('"')) digits = digits.slice(1, -1);
      if (digits !== '' && /^[0-9]+$/.test(digits)) result = Math.min(Number(digits), 2 ** 31);
    }
  }
  return result;
}

/**
 * True when an answer may be stored at all: it carries a validator
 * (1995 draft §5: only with If-Modified-Since; `ETag` is its successor)
 * and is not `no-store` (RFC 9111 §5.2.2.5).
 *
 * @example
 * ```ts
 * isStorable({ 'last-modified': 'Tue, 21 Mar 1995 08:32:49 GMT' }) // true
 * ```
 */
export function isStorable(headers: Record<string, string>): boolean {
  const cc = (headers['cache-control'] ?? '').toLowerCase();
  if (cc.includes('no-store')) return false;
  return headers['last-modified'] !== undefined || headers['etag'] !== undefined;
}

/**
 * True when a stored answer can be used without asking the resolver:
 * its `max-age` has not run out (RFC 9111 §4.2).
 *
 * @example
 * ```ts
 * isFresh({ status: 200, headers: { 'cache-control': 'max-age=60' }, body: '', storedAt: 0 }, 1000) // true
 * ```
 */
export function isFresh(entry: CacheEntry, now: number): boolean {
  const age = maxAge(entry.headers['cache-control']);
  return age !== undefined && age > 0 && now - entry.storedAt < age * 1000;
}
