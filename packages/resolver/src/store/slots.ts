/**
 * Where a name lives in SQLite's `names` table: the row id is a 52-bit
 * hash of the key (its slot), so a resolution is one descent of the
 * integer-keyed table B-tree. Integer keys pack several hundred to an
 * interior page where text keys pack about a hundred, and the cells
 * compare without reading key bytes, so a lookup in a million names reads
 * fewer cold cache lines (the I2L benchmark of bench/RESULTS-server.md
 * compares 1,000 and 1,000,000 names).
 *
 * The slot is part of the file format: changing this function orphans the
 * rows of every existing store. A key whose slot is taken (two keys with
 * the same 52-bit hash: a store of a million names holds such a pair
 * about once in 9,000, n²/2^53) is stored
 * under another id; a lookup that finds a different key in the slot
 * falls back to the `key` index, so collisions cost time, never answers.
 * Rows of `names` are never deleted (nothing is erased: DESIGN.md), so
 * an empty slot means the name is not held.
 */

/** Slots are below 2^52, so SQLite's own next id (the largest + 1) stays an exact JavaScript number. */
const SLOT_LOW_BITS = 2 ** 20;

/**
 * The slot of a key: FNV-1a (32 bits) of its UTF-16 code units above the
 * low 20 bits of a second, Murmur-style multiply-xorshift hash of the same
 * units.
 *
 * @example
 * ```ts
 * nameSlot('urn:isbn:0451450523'); // 1536382062627820
 * nameSlot('urn:isbn:0451450523') === nameSlot('urn:isbn:0451450524'); // false
 * ```
 */
export function nameSlot(key: string): number {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return (a >>> 0) * SLOT_LOW_BITS + ((b >>> 0) % SLOT_LOW_BITS);
}
