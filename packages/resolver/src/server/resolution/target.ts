/**
 * Reading a resolution request's target: which of the request forms it is
 * and what URN, service and options it carries.
 *
 * ```text
 *   /<ElementID>                 1995 draft §3.3 (the first three fields stripped)
 *   /urn:<nid>:<nss>[?s=I2L]     the whole URN; 2012 draft §2.3 directives, RFC 8141 ?= / ?+
 *   /uri-res/<service>?<urn>     RFC 2169 §2; I=I takes "<urn>=<urn>"
 * ```
 */
import { getDirective, parseDirectives } from 'urikit';

/**
 * The RFC 2483 services the resolver answers; N2x requests are the same as
 * I2x (RFC 2169 §2 uses the N2 names).
 *
 * @example
 * ```ts
 * const s: Service | undefined = serviceOf('n2ls');
 * s // 'I2Ls' (N2x is I2x, RFC 2169 §2; the name is read without case)
 * readTarget('/urn:isbn:0451450523?s=I2C')?.service // 'I2C'
 * ```
 */
export type Service = 'I2L' | 'I2Ls' | 'I2C' | 'I2Cs' | 'I2N' | 'I2Ns' | 'I=I';

const SERVICES: ReadonlyMap<string, Service> = new Map([
  ['i2l', 'I2L'], ['i2ls', 'I2Ls'], ['i2c', 'I2C'], ['i2cs', 'I2Cs'],
  ['i2n', 'I2N'], ['i2ns', 'I2Ns'], ['i=i', 'I=I'],
  ['n2l', 'I2L'], ['n2ls', 'I2Ls'], ['n2c', 'I2C'], ['n2cs', 'I2Cs'],
  ['n2n', 'I2N'], ['n2ns', 'I2Ns'], ['n=n', 'I=I'],
]);

/**
 * True for a service RFC 2483 §4 or RFC 2169 §2 defines that this
 * resolver does not give (it answers 501 Not Implemented): the resource
 * itself (I2R, I2Rs, N2R, N2Rs: urikit holds names, not resources) and
 * every service that starts from a URL (L2L, L2Ls, L2N, L2Ns, L2R, L2Rs,
 * L2C, L2Cs, L=L).
 *
 * @example
 * ```ts
 * isUnimplementedService('N2R'); // true
 * isUnimplementedService('l2c'); // true
 * isUnimplementedService('I2L'); // false
 * isUnimplementedService('X2Y'); // false (not a service at all: the default applies)
 * ```
 */
export function isUnimplementedService(name: string): boolean {
  if (name.length < 3 || name.length > 4) return false;
  const n = name.toLowerCase();
  if (n === 'l=l') return true;
  if (n.length === 4 && n[3] !== 's') return false;
  const from = n[0];
  const to = n[2];
  if (n[1] !== '2') return false;
  if (from === 'l') return to === 'l' || to === 'n' || to === 'r' || to === 'c';
  return (from === 'i' || from === 'n') && to === 'r';
}

/**
 * The service an RFC 2483 name designates, or undefined when it is not one
 * this resolver knows (the caller falls back to the namespace default,
 * 2012 draft §2.3.1).
 *
 * @example
 * ```ts
 * serviceOf('N2L') // 'I2L'
 * ```
 */
export function serviceOf(name: string): Service | undefined {
  return name.length <= 8 ? SERVICES.get(name.toLowerCase()) : undefined;
}

/**
 * A request target, read.
 *
 * @example
 * ```ts
 * const t: RequestTarget | undefined = readTarget('/urn:isbn:0451450523?info');
 * t // { form: 'urn', urn: 'urn:isbn:0451450523', query: 'info', info: true, list: false }
 * readTarget('/aj17-mcc') // { form: 'element', urn: 'aj17-mcc', info: false, list: false }
 * readTarget('/uri-res/I2R?urn:isbn:0451450523')?.unimplemented // 'I2R'
 * readTarget('/') // undefined
 * ```
 */
export interface RequestTarget {
  /** `element`: /<ElementID>; `urn`: /urn:...; `uri-res`: RFC 2169. */
  form: 'element' | 'urn' | 'uri-res';
  /** The URN (for `element`: the ElementID alone). */
  urn: string;
  /** A second URN, for I=I. */
  other?: string;
  /** The service asked for, when the request names one the resolver knows. */
  service?: Service;
  /** The service name as written, when it names one the resolver does not know. */
  unknownService?: string;
  /** The service name as written, when it is one of RFC 2483 that this resolver does not give (501). */
  unimplemented?: string;
  /** The query as sent (after "?"), kept for a redirect in the same form. */
  query?: string;
  /** `?info`: the record without following it. */
  info: boolean;
  /** `?history`: every version of the record (what changed and when). */
  history?: boolean;
  /** `?list`: for urn+a, the list itself rather than the pointer to it. */
  list: boolean;
}

/** Decodes a URN that a client percent-encoded whole (`urn%3Aisbn%3A...`); leaves any other text as is. */
function decodeWholeUrn(s: string): string {
  if (s.length > 6 && s.slice(0, 6).toLowerCase() === 'urn%3a') {
    try { return decodeURIComponent(s); } catch { return s; }
  }
  return s;
}

/**
 * Reads the query of a `/urn:` request: `info`, `history`, `list`, 2012 draft §2.3
 * directives (`s=I2L&c=...`), or RFC 8141 §2.3 `+r` / `=q` components whose
 * q-component holds directives. Throws the `UriError` of a malformed
 * directive list.
 */
function readQuery(query: string, t: RequestTarget): void {
  if (query === '' ) return;
  let q = query;
  if (q.startsWith('+')) {
    // RFC 8141 r-component: for the resolver alone; this one has no r-parameters.
    const qc = q.indexOf('?=');
    if (qc < 0) return;
    q = q.slice(qc + 2);
  } else if (q.startsWith('=')) {
    q = q.slice(1);
  }
  const words = q.split('&');
  const rest: string[] = [];
  for (const w of words) {
    if (w === 'info') t.info = true;
    else if (w === 'history') t.history = true;
    else if (w === 'list') t.list = true;
    else if (w !== '') rest.push(w);
  }
  if (rest.length === 0) return;
  const s = getDirective(parseDirectives(rest.join('&')), 's');
  if (s !== undefined) {
    const svc = serviceOf(s);
    if (svc) t.service = svc;
    else if (isUnimplementedService(s)) t.unimplemented = s;
    else t.unknownService = s;
  }
}

/**
 * Reads a request target (path and query, as sent) into its form, URN and
 * service; `undefined` for a path that is not a resolution request (`/`).
 * Throws the `UriError` of a malformed directive list.
 *
 * @example
 * ```ts
 * readTarget('/uri-res/N2L?urn:isbn:0451450523')
 * // { form: 'uri-res', urn: 'urn:isbn:0451450523', service: 'I2L', info: false, list: false, query: 'urn:isbn:0451450523' }
 * ```
 */
export function readTarget(target: string): RequestTarget | undefined {
  const qmark = target.indexOf('?');
  const path = qmark < 0 ? target : target.slice(0, qmark);
  const query = qmark < 0 ? '' : target.slice(qmark + 1);
  if (path.length <= 1) return undefined;
  const t: RequestTarget = { form: 'element', urn: '', info: false, list: false };
  if (qmark >= 0) t.query = query;
  if (path.startsWith('/uri-res/')) {
    // RFC 2169 §2: GET /uri-res/<service>?<URI>
    t.form = 'uri-res';
    const name = path.slice(9);
    const svc = serviceOf(name);
    if (svc) t.service = svc;
    else if (isUnimplementedService(name)) t.unimplemented = name;
    else t.unknownService = name;
    let urn = decodeWholeUrn(query);
    if (svc === 'I=I') {
      // RFC 2169 §2: the two URIs separated by "="; the second begins "urn:".
      const lower = urn.toLowerCase();
      const sep = lower.indexOf('=urn:', 4);
      if (sep > 0) { t.other = urn.slice(sep + 1); urn = urn.slice(0, sep); }
    }
    t.urn = urn;
    return t;
  }
  const first = path.slice(1, 5).toLowerCase();
  if (first === 'urn:' || first === 'urn%') {
    t.form = 'urn';
    t.urn = decodeWholeUrn(path.slice(1));
  } else {
    // 1995 draft §3.3: the ElementID alone, for the configured naming authority.
    t.urn = path.slice(1);
  }
  readQuery(query, t);
  return t;
}
