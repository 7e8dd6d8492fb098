// @ts-check
/**
 * The cataloguers' page: what an edit changed, as a JSON Merge Patch
 * (RFC 7396) of the record it started from, so that a Save sends only
 * the fields the cataloguer changed and never erases one it did not
 * touch (a successor, a move, a reason), whatever else the record holds.
 */

/**
 * @param {unknown} v
 * @returns {v is Record<string, unknown>}
 */
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * True if two JSON values are equal (objects whatever their member order).
 * @param {unknown} a
 * @param {unknown} b
 * @returns {boolean}
 */
export function sameJson(a, b) {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => sameJson(a[k], b[k]));
  }
  return false;
}

/**
 * The merge patch that turns `before` into `after` (RFC 7396 §2 applied
 * backwards): a member gone (or undefined) is null, an object that
 * changed is the patch of its members, anything else that changed is
 * its new value; `{}` when nothing changed. A null inside `after` cannot
 * be said by a merge patch (RFC 7396 §1): it is the caller's to refuse.
 * @param {Record<string, unknown>} before
 * @param {Record<string, unknown>} after
 * @returns {Record<string, unknown>}
 */
export function mergePatchBetween(before, after) {
  /** @type {Record<string, unknown>} */
  const patch = {};
  for (const k of Object.keys(before)) if (before[k] !== undefined && after[k] === undefined) patch[k] = null;
  for (const [k, v] of Object.entries(after)) {
    if (v === undefined || sameJson(before[k], v)) continue;
    const was = before[k];
    patch[k] = isObject(was) && isObject(v) ? mergePatchBetween(was, v) : v;
  }
  return patch;
}

/**
 * True if an object member within `v` is null (what a merge patch cannot set: RFC 7396 §1).
 * @param {unknown} v
 * @returns {boolean}
 */
export function holdsNull(v) {
  // An array is sent whole (RFC 7396 §2: replaced, not merged): only an object's member can be lost.
  return isObject(v) && Object.values(v).some((x) => x === null || holdsNull(x));
}
