// @ts-check
/**
 * The cataloguers' page: the admin API of this origin, with the token of
 * this tab. The token lives in session storage (this tab only, gone when
 * it closes), goes out only in the Authorization header, and never in a
 * URL, a cookie or the page.
 */

const KEY = 'urikit-admin-token';

/** @returns {string | null} */
export function getToken() {
  return sessionStorage.getItem(KEY);
}

/** @param {string} token */
export function setToken(token) {
  sessionStorage.setItem(KEY, token);
}

export function clearToken() {
  sessionStorage.removeItem(KEY);
}

/** A request the API refused: its status and its problem details (RFC 9457). */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {any} problem
   */
  constructor(status, problem) {
    super(typeof problem === 'object' && problem !== null && typeof problem.title === 'string' ? problem.title : `HTTP ${status}`);
    this.status = status;
    this.problem = typeof problem === 'object' && problem !== null ? problem : { title: `HTTP ${status}`, detail: String(problem).slice(0, 200) };
  }
}

/**
 * One request to the admin API. A JSON body is sent as JSON (`type`: its
 * media type, e.g. `application/merge-patch+json`); a string or a file
 * with the media type given. `ifMatch`: the ETag the write expects the
 * name to have (RFC 9110 §13.1.1: 412 when someone changed it since).
 * Statuses in `accept` (beside 2xx) are answers, not errors (an import's
 * 422 is its report). The answer's `etag` is the name's version.
 * @param {string} method
 * @param {string} path
 * @param {{ json?: unknown, body?: string | Blob, type?: string, accept?: number[], ifMatch?: string, ifNoneMatch?: string }} [opts]
 * @returns {Promise<{ status: number, data: any, etag: string | null }>}
 */
export async function api(method, path, opts = {}) {
  /** @type {Record<string, string>} */
  const headers = { authorization: `Bearer ${getToken() ?? ''}`, accept: 'application/json, application/problem+json' };
  if (opts.ifMatch !== undefined) headers['if-match'] = opts.ifMatch;
  if (opts.ifNoneMatch !== undefined) headers['if-none-match'] = opts.ifNoneMatch;
  /** @type {string | Blob | undefined} */
  let body;
  if (opts.json !== undefined) {
    body = JSON.stringify(opts.json);
    headers['content-type'] = opts.type ?? 'application/json';
  } else if (opts.body !== undefined) {
    body = opts.body;
    headers['content-type'] = opts.type ?? 'application/octet-stream';
  }
  const r = await fetch(path, { method, headers, ...(body !== undefined ? { body } : {}), cache: 'no-store', credentials: 'omit', redirect: 'error' });
  const type = r.headers.get('content-type') ?? '';
  const data = type.includes('json') ? await r.json() : await r.text();
  if (r.status === 401) window.dispatchEvent(new CustomEvent('urikit-signed-out'));
  if (!r.ok && !(opts.accept ?? []).includes(r.status)) throw new ApiError(r.status, data);
  return { status: r.status, data, etag: r.headers.get('etag') };
}

/**
 * The path of a name under an admin route: the URN as it is (the API
 * reads the raw path; percent-encoding is part of a URN).
 * @param {string} route
 * @param {string} urn
 */
export function namePath(route, urn) {
  return `/admin/${route}/${urn}`;
}
