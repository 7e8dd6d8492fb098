/**
 * Validators and conditional requests (1995 draft §5: caching "should only
 * be performed using the If-Modified-Since mechanism"; RFC 9110 §8.8,
 * §13.1 for ETag and If-None-Match).
 */

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
 * True if a conditional GET may answer 304 Not Modified: `If-None-Match`
 * lists the tag (or `*`), or, without `If-None-Match`, the resource has
 * not changed since `If-Modified-Since` (RFC 9110 §13.2.2 precedence;
 * HTTP dates have whole seconds).
 *
 * @example
 * ```ts
 * notModified({ 'if-none-match': '"3-abc"' }, '"3-abc"', Date.now()) // true
 * ```
 */
export function notModified(headers: { 'if-none-match'?: string | undefined; 'if-modified-since'?: string | undefined }, etag: string, lastModified: number): boolean {
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
    if (Number.isFinite(since) && Math.floor(lastModified / 1000) * 1000 <= since) return true;
  }
  return false;
}
