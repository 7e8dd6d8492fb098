/**
 * Content negotiation on `Accept` with q-values (RFC 9110 §12.5.1, the
 * mechanism the 1995 draft §3.1.1 and §3.3 rely on to choose a result
 * format).
 */

/**
 * The result formats the resolver serves (1995 draft §3.4; RFC 2169 for
 * text/uri-list).
 *
 * @example
 * ```ts
 * const offered: ResultFormat[] = ['urc-0', 'html', 'json'];
 * const f: ResultFormat | undefined = negotiate('text/html, application/json;q=0.9', offered);
 * f // 'html'
 * MEDIA_TYPES[f!] // 'text/html; charset=utf-8'
 * negotiate(undefined, offered) // 'urc-0' (no Accept: the server's first choice)
 * ```
 */
export type ResultFormat = 'urc-0' | 'plain' | 'html' | 'json' | 'uri-list';

/**
 * The media type of each format, as sent in `Content-Type`.
 *
 * @example
 * ```ts
 * MEDIA_TYPES['urc-0'] // 'text/urc-0'
 * ```
 */
export const MEDIA_TYPES: Readonly<Record<ResultFormat, string>> = {
  'urc-0': 'text/urc-0',
  plain: 'text/plain; charset=utf-8',
  html: 'text/html; charset=utf-8',
  json: 'application/json; charset=utf-8',
  'uri-list': 'text/uri-list; charset=utf-8',
};

const TYPE_OF: Readonly<Record<ResultFormat, [string, string]>> = {
  'urc-0': ['text', 'urc-0'],
  plain: ['text', 'plain'],
  html: ['text', 'html'],
  json: ['application', 'json'],
  'uri-list': ['text', 'uri-list'],
};

/**
 * One media range of an `Accept` header and its q (RFC 9110 §12.5.1), lower case.
 *
 * @example
 * ```ts
 * const r: MediaRange = { type: 'text', subtype: 'urc-0', q: 1 };
 * negotiate([r], ['html', 'urc-0']) // 'urc-0'
 * ```
 */
export interface MediaRange { type: string; subtype: string; q: number }

/** At most this many media ranges are read from one `Accept` header. */
const MAX_RANGES = 64;

/**
 * RFC 9110 §12.4.2: qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] ).
 * Anything else (`q=2`, `q=0.0001`, `q=.5`) is not a qvalue: -1, and the
 * media range it belongs to is disregarded (RFC 9110 §12.5.1 lets a
 * server disregard what it cannot read rather than guess a weight).
 */
function qvalue(s: string): number {
  if (s.length === 0 || s.length > 5) return -1;
  const first = s.charCodeAt(0);
  if (first !== 0x30 && first !== 0x31) return -1;
  if (s.length === 1) return first - 0x30;
  if (s.charCodeAt(1) !== 0x2e) return -1;
  for (let i = 2; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x30 || c > 0x39 || (first === 0x31 && c !== 0x30)) return -1;
  }
  return Number(s);
}

/**
 * Parses an `Accept` header (RFC 9110 §12.5.1) into its media ranges (at
 * most 64), in one pass per range; a range whose q is not a qvalue
 * (§12.4.2) is left out.
 *
 * @example
 * ```ts
 * parseAccept('text/urc-0, text/*;q=0.5') // [{ type: 'text', subtype: 'urc-0', q: 1 }, { type: 'text', subtype: '*', q: 0.5 }]
 * parseAccept('text/html;q=2, text/plain;q=0.0001, text/urc-0;q=0.001') // [{ type: 'text', subtype: 'urc-0', q: 0.001 }]
 * ```
 */
export function parseAccept(accept: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  let start = 0;
  while (start <= accept.length && ranges.length < MAX_RANGES) {
    let end = accept.indexOf(',', start);
    if (end < 0) end = accept.length;
    const item = accept.slice(start, end);
    start = end + 1;
    const semi = item.indexOf(';');
    const mediaRange = (semi < 0 ? item : item.slice(0, semi)).trim().toLowerCase();
    const slash = mediaRange.indexOf('/');
    if (slash <= 0 || slash === mediaRange.length - 1) continue;
    let q = 1;
    if (semi >= 0) {
      for (const p of item.slice(semi + 1).split(';')) {
        const eq = p.indexOf('=');
        if (eq > 0 && p.slice(0, eq).trim().toLowerCase() === 'q') q = qvalue(p.slice(eq + 1).trim());
      }
    }
    if (q < 0) continue;
    ranges.push({ type: mediaRange.slice(0, slash), subtype: mediaRange.slice(slash + 1), q });
  }
  return ranges;
}

/** The q of `format` under `ranges`: that of the most specific range matching it, 0 if none. */
function qualityOf(format: ResultFormat, ranges: readonly MediaRange[]): { q: number; specificity: number } {
  const [type, subtype] = TYPE_OF[format];
  let best = { q: 0, specificity: -1 };
  for (const r of ranges) {
    let specificity = -1;
    if (r.type === type && r.subtype === subtype) specificity = 2;
    else if (r.type === type && r.subtype === '*') specificity = 1;
    else if (r.type === '*' && r.subtype === '*') specificity = 0;
    if (specificity > best.specificity) best = { q: r.q, specificity };
  }
  return best;
}

/**
 * Chooses the format to answer with: the offered format of highest q
 * under `accept`, ties going to the earlier in `offered` (the server's
 * preference); the first offered when there is no `Accept` (1995 draft
 * §3.3: no Accept means no preference); `undefined` when nothing offered
 * is acceptable (406).
 *
 * @example
 * ```ts
 * negotiate('text/html;q=0.5, text/urc-0', ['html', 'urc-0']) // 'urc-0'
 * negotiate('image/png', ['html'])                             // undefined
 * ```
 */
export function negotiate(accept: string | readonly MediaRange[] | undefined, offered: readonly ResultFormat[]): ResultFormat | undefined {
  if (accept === undefined) return offered[0];
  const ranges = typeof accept === 'string' ? parseAccept(accept) : accept;
  if (ranges.length === 0) return offered[0];
  let best: ResultFormat | undefined;
  let bestQ = 0;
  for (const f of offered) {
    const { q } = qualityOf(f, ranges);
    if (q > bestQ) { best = f; bestQ = q; }
  }
  return best;
}

/**
 * True if `accept` names `format` itself (not through a wildcard) with q
 * above 0: a client that asks for text/urc-0 by name gets the 1995
 * draft's result list rather than a redirect.
 *
 * @example
 * ```ts
 * namesFormat('text/urc-0', 'urc-0') // true
 * namesFormat('*\/*', 'urc-0')        // false
 * ```
 */
export function namesFormat(accept: string | readonly MediaRange[] | undefined, format: ResultFormat): boolean {
  if (accept === undefined) return false;
  const { q, specificity } = qualityOf(format, typeof accept === 'string' ? parseAccept(accept) : accept);
  return specificity === 2 && q > 0;
}
