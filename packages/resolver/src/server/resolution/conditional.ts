/**
 * Validators and conditional requests (1995 draft §5: caching "should only
 * be performed using the If-Modified-Since mechanism"; RFC 9110 §8.8,
 * §13.1 for ETag and If-None-Match).
 */
import { httpDate } from '../render/http-date.js';

/** FNV-1a, 32 bits: a short, stable tag of a representation's identity. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * A strong entity tag for one representation: the record's version and a
 * hash of what selects the representation (name, service, format).
 *
 * @example
 * ```ts
 * entityTag(3, 'urn:ex:a|I2L|plain'); // '"3-f0cnhr"'
 * entityTag(4, 'urn:ex:a|I2L|plain'); // '"4-f0cnhr"' (a new version, a new tag)
 * ```
 */
export function entityTag(version: number, selector: string): string {
  return `"${version}-${fnv1a(selector).toString(36)}"`;
}

/**
 * The `Last-Modified` of a record changed at `updated` (ms), as sent at
 * `now`, or undefined when none may be sent yet. HTTP dates have whole
 * seconds (RFC 9110 §5.6.7): the date sent is the first second after the
 * change, so that `If-Modified-Since` of that date means "I have every
 * change before it", and it is sent only once no change can share that
 * second any more (a second of margin for the clocks of the processes
 * that write). Until then only the `ETag`, exact to the version, validates.
 *
 * @example
 * ```ts
 * lastModified(784111777250, 784111779000); // 'Sun, 06 Nov 1994 08:49:38 GMT'
 * lastModified(784111777250, 784111778100); // undefined (a change may still come in that second)
 * ```
 */
export function lastModified(updated: number, now: number): string | undefined {
  const after = (Math.floor(updated / 1000) + 1) * 1000;
  return now >= after + SKEW_MS ? httpDate(after) : undefined;
}

/** The margin for the clocks of the processes that write (PostgreSQL: several servers). */
const SKEW_MS = 1000;

/**
 * True if a conditional GET may answer 304 Not Modified: `If-None-Match`
 * lists the tag (or `*`), or, without `If-None-Match`, the resource has
 * not changed since `If-Modified-Since` (RFC 9110 §13.2.2 precedence).
 * The change must lie wholly before that date: HTTP dates have whole
 * seconds, and a change within the second the date names is never taken
 * as seen (1995 draft §5: caching by If-Modified-Since must not keep a
 * rapidly changing answer).
 *
 * @example
 * ```ts
 * notModified({ 'if-none-match': '"3-abc"' }, '"3-abc"', Date.now()) // true
 * notModified({ 'if-modified-since': 'Sun, 06 Nov 1994 08:49:38 GMT' }, '"3-abc"', 784111777250) // true
 * notModified({ 'if-modified-since': 'Sun, 06 Nov 1994 08:49:37 GMT' }, '"3-abc"', 784111777250) // false (changed within that second)
 * notModified({ 'if-modified-since': 'Fri, 31 Dec 9999 23:59:59 GMT' }, '"3-abc"', 784111777250) // false (a date in the future)
 * ```
 */
export function notModified(headers: { 'if-none-match'?: string | undefined; 'if-modified-since'?: string | undefined }, etag: string, updated: number, now = Date.now()): boolean {
  const inm = headers['if-none-match'];
  if (inm !== undefined) {
    if (inm.length > 4096) return false;
    if (inm.trim() === '*') return true;
    for (const t of inm.split(',')) {
      const tag = t.trim();
      if (tag === etag || tag === `W/${etag}`) return true;
    }
    return false;
  }
  const ims = headers['if-modified-since'];
  if (ims !== undefined && ims.length < 64) {
    const since = Date.parse(ims);
    // A date later than the server's clock says nothing of what the client holds (RFC 9110 §13.1.3): ignored.
    if (Number.isFinite(since) && since <= now && updated < since) return true;
  }
  return false;
}

/**
 * The entity tag of a name in the admin API: strong, exact to the
 * record's version (every change of what the record says is a new
 * version, writer.ts), sent as `ETag` by `GET /admin/names/<urn>` and
 * by every write, and compared by `If-Match`.
 *
 * @example
 * ```ts
 * nameEntityTag(3); // '"3"'
 * ```
 */
export function nameEntityTag(version: number): string {
  return `"${version}"`;
}

/**
 * True if `If-Match` (RFC 9110 §13.1.1) holds for a resource whose
 * current entity tag is `etag` (undefined: it has no current
 * representation): `*` when there is one, else a listed tag equal to it
 * by the strong comparison (§8.8.3.2: a weak tag never matches).
 *
 * @example
 * ```ts
 * ifMatchHolds('"3"', '"3"'); // true
 * ifMatchHolds('"2", "3"', '"3"'); // true
 * ifMatchHolds('W/"3"', '"3"'); // false (weak)
 * ifMatchHolds('*', '"3"'); // true
 * ifMatchHolds('*', undefined); // false (no such name)
 * ```
 */
export function ifMatchHolds(header: string, etag: string | undefined): boolean {
  if (etag === undefined || header.length > 4096) return false;
  if (header.trim() === '*') return true;
  for (const t of header.split(',')) if (t.trim() === etag) return true;
  return false;
}

/**
 * True if `If-None-Match` (RFC 9110 §13.1.2) holds for a write over a
 * resource whose current entity tag is `etag` (undefined: none): `*`
 * when there is none (create only), else no listed tag equal to it by
 * the weak comparison.
 *
 * @example
 * ```ts
 * ifNoneMatchHolds('*', undefined); // true (a new name)
 * ifNoneMatchHolds('*', '"1"'); // false (it exists)
 * ifNoneMatchHolds('W/"1"', '"1"'); // false
 * ifNoneMatchHolds('"2"', '"1"'); // true
 * ```
 */
export function ifNoneMatchHolds(header: string, etag: string | undefined): boolean {
  if (header.trim() === '*') return etag === undefined;
  if (etag === undefined) return true;
  if (header.length > 4096) return false;
  for (const t of header.split(',')) {
    const tag = t.trim();
    if (tag === etag || tag === `W/${etag}`) return false;
  }
  return true;
}
