/**
 * The name cache: current rows of the names table kept in memory outside
 * the JavaScript heap, so that a resolution in a store of a million names
 * costs what it costs in a store of a thousand (the server benchmark,
 * bench/RESULTS-server.md, compares the two sizes). A SQLite lookup descends a B-tree through
 * cold pages; a Map of a million row objects makes every garbage
 * collection trace them. Here a lookup is one probe of an open-addressing
 * index (typed arrays) and one read of the entry's bytes, and the
 * collector sees a few large buffers.
 *
 * Entries live in an append-only arena of 16 MiB chunks:
 * `[key length u16][value length u32][key, latin1][row, utf8]`, the row as
 * `packRow` writes it. A deleted entry leaves its bytes behind; when the
 * arena is full and half of it is garbage, the cache empties itself.
 */
import type { NamesTable } from './schema.js';
import { nameSlot } from './slots.js';

const CHUNK_BYTES = 16 * 1024 * 1024;
const ENTRY_HEADER = 6;
const EMPTY = 0;
const DELETED = 0xffffffff;

/**
 * A names row (less its key) as one string, fields separated by NUL: no
 * URN, status word, number or JSON text holds a raw NUL. The URN as
 * registered is left out when it is the key itself (most names: a
 * million names take 22 MB less).
 *
 * @example
 * ```ts
 * const row = { key: 'urn:ex:a', urn: 'urn:ex:a', status: 'active', data: '{"locations":[]}', version: 2, created: 1, updated: 5 };
 * unpackRow('urn:ex:a', packRow(row)); // matches { urn: 'urn:ex:a', version: 2, updated: 5 }
 * ```
 */
export function packRow(r: NamesTable): string {
  return `${r.version}\0${r.created}\0${r.updated}\0${r.status}\0${r.urn === r.key ? '' : r.urn}\0${r.data}`;
}

/**
 * The row {@link packRow} packed, with its key.
 *
 * @example
 * ```ts
 * unpackRow('urn:ex:a', '1\u00002\u00003\u0000active\u0000urn:ex:a\u0000{}').updated; // 3
 * ```
 */
export function unpackRow(key: string, packed: string): NamesTable {
  const a = packed.indexOf('\0');
  const b = packed.indexOf('\0', a + 1);
  const c = packed.indexOf('\0', b + 1);
  const d = packed.indexOf('\0', c + 1);
  const e = packed.indexOf('\0', d + 1);
  // The columns' order of a row read from SQLite: one object shape for rowToRecord, wherever the row came from.
  return {
    key,
    urn: e === d + 1 ? key : packed.slice(d + 1, e),
    status: packed.slice(c + 1, d),
    data: packed.slice(e + 1),
    version: Number(packed.slice(0, a)),
    created: Number(packed.slice(a + 1, b)),
    updated: Number(packed.slice(b + 1, c)),
  };
}

/** Keys are US-ASCII URNs; anything else stays out of the latin1 key bytes. */
function isLatin1(key: string): boolean {
  for (let i = 0; i < key.length; i++) if (key.charCodeAt(i) > 0xff) return false;
  return true;
}

/**
 * Current names rows by key, in at most `maxBytes` of memory outside the
 * JavaScript heap. It knows nothing of the database: the store decides
 * what goes in and what must come out.
 *
 * @example
 * ```ts
 * const cache = new NameCache(1 << 20);
 * cache.set({ key: 'urn:ex:a', urn: 'urn:ex:a', status: 'active', data: '{"locations":[]}', version: 1, created: 1, updated: 1 });
 * cache.get('urn:ex:a')?.status; // 'active'
 * cache.delete('urn:ex:a');
 * cache.get('urn:ex:a'); // undefined
 * ```
 */
export class NameCache {
  readonly #maxBytes: number;
  /** 16 MiB, or the whole cache if it is smaller. */
  readonly #chunkBytes: number;
  #chunks: Buffer[] = [];
  /** Bytes used in the last chunk. */
  #used = Infinity;
  #garbageBytes = 0;
  #liveBytes = 0;
  #count = 0;
  #deleted = 0;
  #full = false;
  /**
   * The index, four words a position (one cache line holds four positions,
   * so a probe touches one page, not three): the slot's high 32 bits, its
   * low 20 bits, the entry's offset in its chunk + 1 (or EMPTY / DELETED),
   * its chunk's number (so the arena may outgrow 4 GiB: 50 million names).
   */
  #index = new Uint32Array(1024 * 4);
  #capacity = 1024;

  constructor(maxBytes: number) {
    this.#maxBytes = Math.max(0, maxBytes);
    this.#chunkBytes = Math.max(1024, Math.min(CHUNK_BYTES, this.#maxBytes));
  }

  /** How many names are cached. */
  get size(): number {
    return this.#count;
  }

  /** True once a name was refused for want of room. */
  get full(): boolean {
    return this.#full;
  }

  /** True if `key` is cached. */
  has(key: string): boolean {
    return this.#find(key, nameSlot(key)) >= 0;
  }

  /** The row of `key`, if cached. */
  get(key: string): NamesTable | undefined {
    const at = this.#find(key, nameSlot(key));
    if (at < 0) return undefined;
    const chunk = this.#chunks[this.#index[at * 4 + 3]!]!;
    const pos = this.#index[at * 4 + 2]! - 1;
    const start = pos + ENTRY_HEADER + chunk.readUInt16LE(pos);
    return unpackRow(key, chunk.toString('utf8', start, start + chunk.readUInt32LE(pos + 2)));
  }

  /** Caches `row` in place of any row of its key; false if the cache is full. */
  set(row: NamesTable): boolean {
    const slot = nameSlot(row.key);
    this.#deleteAt(this.#find(row.key, slot));
    // Full, and not worth starting again yet: refuse before packing anything.
    if (this.#full && this.#garbageBytes < this.#liveBytes) return false;
    const value = packRow(row);
    const size = ENTRY_HEADER + row.key.length + Buffer.byteLength(value);
    if (row.key.length > 0xffff || size > this.#chunkBytes || !isLatin1(row.key)) return false;
    if (this.#used + size > this.#chunkBytes) {
      if ((this.#chunks.length + 1) * this.#chunkBytes > this.#maxBytes) {
        // Full: start again if most of it is garbage (names rewritten since), else keep what is here.
        if (this.#garbageBytes < this.#liveBytes) {
          this.#full = true;
          return false;
        }
        this.clear();
        if (this.#chunkBytes > this.#maxBytes) return false;
      }
      this.#chunks.push(Buffer.allocUnsafeSlow(this.#chunkBytes));
      this.#used = 0;
    }
    const chunk = this.#chunks[this.#chunks.length - 1]!;
    const pos = this.#used;
    chunk.writeUInt16LE(row.key.length, pos);
    chunk.writeUInt32LE(size - ENTRY_HEADER - row.key.length, pos + 2);
    chunk.write(row.key, pos + ENTRY_HEADER, 'latin1');
    chunk.write(value, pos + ENTRY_HEADER + row.key.length, 'utf8');
    this.#used += size;
    this.#liveBytes += size;
    if ((this.#count + this.#deleted + 1) * 2 > this.#capacity) this.#resize();
    const at = this.#freePosition(Math.floor(slot / 1048576)) * 4;
    if (this.#index[at + 2] === DELETED) this.#deleted--;
    this.#index[at] = Math.floor(slot / 1048576);
    this.#index[at + 1] = slot % 1048576;
    this.#index[at + 2] = pos + 1;
    this.#index[at + 3] = this.#chunks.length - 1;
    this.#count++;
    return true;
  }

  /** Forgets `key`. */
  delete(key: string): void {
    this.#deleteAt(this.#find(key, nameSlot(key)));
  }

  /** Marks index position `at` deleted (nothing if it is -1). */
  #deleteAt(at: number): void {
    if (at < 0) return;
    const size = this.#entrySize(this.#index[at * 4 + 3]!, this.#index[at * 4 + 2]! - 1);
    this.#garbageBytes += size;
    this.#liveBytes -= size;
    this.#index[at * 4 + 2] = DELETED;
    this.#count--;
    this.#deleted++;
  }

  /** Forgets everything and gives the memory back. */
  clear(): void {
    this.#chunks = [];
    this.#used = Infinity;
    this.#garbageBytes = 0;
    this.#liveBytes = 0;
    this.#count = 0;
    this.#deleted = 0;
    this.#full = false;
    this.#index = new Uint32Array(1024 * 4);
    this.#capacity = 1024;
  }

  /** The index position of `key`, or -1: linear probing from the slot's high bits. */
  #find(key: string, slot: number): number {
    const index = this.#index;
    const mask = this.#capacity - 1;
    const high = Math.floor(slot / 1048576);
    const low = slot % 1048576;
    for (let at = high & mask; ; at = (at + 1) & mask) {
      const offset = index[at * 4 + 2]!;
      if (offset === EMPTY) return -1;
      if (offset !== DELETED && index[at * 4] === high && index[at * 4 + 1] === low && this.#keyAt(index[at * 4 + 3]!, offset - 1, key)) return at;
    }
  }

  #freePosition(high: number): number {
    const mask = this.#capacity - 1;
    let at = high & mask;
    for (let offset = this.#index[at * 4 + 2]; offset !== EMPTY && offset !== DELETED; offset = this.#index[at * 4 + 2]) at = (at + 1) & mask;
    return at;
  }

  #keyAt(chunkNumber: number, pos: number, key: string): boolean {
    const chunk = this.#chunks[chunkNumber]!;
    if (chunk.readUInt16LE(pos) !== key.length) return false;
    const start = pos + ENTRY_HEADER;
    for (let i = 0; i < key.length; i++) if (chunk[start + i] !== key.charCodeAt(i)) return false;
    return true;
  }

  #entrySize(chunkNumber: number, pos: number): number {
    const chunk = this.#chunks[chunkNumber]!;
    return ENTRY_HEADER + chunk.readUInt16LE(pos) + chunk.readUInt32LE(pos + 2);
  }

  /** Doubles the index when it is half full (deleted positions count), or rebuilds it at its size to drop them. */
  #resize(): void {
    const old = this.#index;
    const oldCapacity = this.#capacity;
    this.#capacity = this.#count * 4 > oldCapacity ? oldCapacity * 2 : oldCapacity;
    this.#index = new Uint32Array(this.#capacity * 4);
    this.#deleted = 0;
    for (let i = 0; i < oldCapacity; i++) {
      const offset = old[i * 4 + 2]!;
      if (offset === EMPTY || offset === DELETED) continue;
      const at = this.#freePosition(old[i * 4]!) * 4;
      this.#index[at] = old[i * 4]!;
      this.#index[at + 1] = old[i * 4 + 1]!;
      this.#index[at + 2] = offset;
      this.#index[at + 3] = old[i * 4 + 3]!;
    }
  }
}
