/**
 * JSON Merge Patch (RFC 7396): the partial edits of `PATCH
 * /admin/names/<urn>` (`application/merge-patch+json`). A member set to
 * null is removed, an object merges member by member, anything else
 * (an array included) replaces what was there.
 */

/** A JSON object with no prototype to reach through a member's name. */
function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * `patch` applied to `target` (RFC 7396 §2, the MergePatch function);
 * neither is changed. Members are defined as own data properties, so a
 * member named `__proto__` is a member like any other.
 *
 * @example
 * ```ts
 * applyMergePatch({ a: 'b', c: { d: 'e', f: 'g' } }, { a: 'z', c: { f: null } }); // { a: 'z', c: { d: 'e' } }
 * applyMergePatch({ locations: [{ url: 'http://a/' }] }, { locations: [] }); // { locations: [] } (arrays are replaced)
 * applyMergePatch({ a: 1 }, null); // null
 * ```
 */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  // RFC 7396 §2: "If Patch is an Object: If Target is not an Object: Target = {} ... else return Patch".
  if (!isObject(patch)) return patch;
  const out: Record<string, unknown> = {};
  if (isObject(target)) for (const [k, v] of Object.entries(target)) define(out, k, v);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else define(out, k, applyMergePatch(out[k], v));
  }
  return out;
}

function define(o: Record<string, unknown>, k: string, value: unknown): void {
  Object.defineProperty(o, k, { value, enumerable: true, writable: true, configurable: true });
}
