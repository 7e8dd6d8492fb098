/**
 * The keys a bulk import has read so far, each with the line it was first
 * on, to refuse a name that appears twice: for tens of millions of names.
 * A JavaScript Map stops at 2^24 entries and would hold every key string
 * (gigabytes at 50 million names); this table keeps a 96-bit fingerprint
 * and the line of each key in typed arrays, 16 bytes an entry.
 *
 * Two different keys share a fingerprint with a probability of about
 * n² / 2^97 (3·10^-14 for 50 million names): the import would then be
 * refused as having a duplicate, with both lines named, never write
 * anything wrong.
 */

/** Entries per slot of the table before it doubles: open addressing stays short below three quarters full. */
const MAX_LOAD = 0.75;

/**
 * A set of keys with the line each was first seen on.
 *
 * @example
 * ```ts
 * const seen = new SeenKeys();
 * seen.firstLine('urn:ex:a', 1); // undefined
 * seen.firstLine('urn:ex:b', 2); // undefined
 * seen.firstLine('urn:ex:a', 3); // 1
 * seen.size; // 2
 * ```
 */
export class SeenKeys {
  #mask: number;
  #hashes: Uint32Array;
  /** The line of each entry; 0 marks an empty slot (lines count from 1). */
  #lines: Uint32Array;
  #size = 0;

  constructor(capacity = 1 << 16) {
    this.#mask = capacity - 1;
    this.#hashes = new Uint32Array(capacity * 3);
    this.#lines = new Uint32Array(capacity);
  }

  /** How many keys are held. */
  get size(): number {
    return this.#size;
  }

  /**
   * The line `key` was first seen on; if it was not seen yet, records it
   * on `line` (from 1) and returns undefined.
   */
  firstLine(key: string, line: number): number | undefined {
    // Three independent 32-bit hashes of the UTF-16 code units: FNV-1a,
    // a Murmur-style multiply-xorshift and a 31-multiplier (Java's) one.
    let a = 0x811c9dc5;
    let b = 0x9747b28c;
    let c = key.length;
    for (let i = 0; i < key.length; i++) {
      const u = key.charCodeAt(i);
      a = Math.imul(a ^ u, 0x01000193);
      b = Math.imul(b ^ u, 0x5bd1e995);
      b ^= b >>> 15;
      c = (Math.imul(c, 31) + u) | 0;
    }
    a >>>= 0; b >>>= 0; c >>>= 0;
    const found = this.#find(a, b, c);
    if (this.#lines[found] !== 0) return this.#lines[found];
    this.#put(found, a, b, c, line);
    if (++this.#size > this.#lines.length * MAX_LOAD) this.#grow();
    return undefined;
  }

  /** The slot holding the fingerprint, or the empty slot where it goes. */
  #find(a: number, b: number, c: number): number {
    const h = this.#hashes;
    // The slot from the hash not used for the comparison's first word.
    for (let i = (b ^ c) & this.#mask; ; i = (i + 1) & this.#mask) {
      if (this.#lines[i] === 0) return i;
      if (h[i * 3] === a && h[i * 3 + 1] === b && h[i * 3 + 2] === c) return i;
    }
  }

  #put(i: number, a: number, b: number, c: number, line: number): void {
    this.#hashes[i * 3] = a;
    this.#hashes[i * 3 + 1] = b;
    this.#hashes[i * 3 + 2] = c;
    this.#lines[i] = line;
  }

  #grow(): void {
    const hashes = this.#hashes;
    const lines = this.#lines;
    this.#mask = lines.length * 2 - 1;
    this.#hashes = new Uint32Array(lines.length * 2 * 3);
    this.#lines = new Uint32Array(lines.length * 2);
    for (let i = 0; i < lines.length; i++) {
      if (lines[i] === 0) continue;
      const a = hashes[i * 3]!, b = hashes[i * 3 + 1]!, c = hashes[i * 3 + 2]!;
      this.#put(this.#find(a, b, c), a, b, c, lines[i]!);
    }
  }
}
