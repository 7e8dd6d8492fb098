/**
 * The answer the resolver gives to one request, independent of how it is
 * written to the wire (`wire.ts`). Headers every answer carries (CORS,
 * security) are added once by the pipeline, not here.
 */
import { MEDIA_TYPES, negotiate, type ResultFormat } from '../../formats/negotiate.js';
import { PROBLEM_JSON, problemDocument } from './problem.js';
import { renderMessage } from './render.js';
import type { Answer } from './wire.js';

export type { Answer } from './wire.js';

/**
 * `a`, answered from a record the database last confirmed `staleMs` ago
 * (the name cache, while the database is away): marked so that a client
 * and every cache on the way can tell. `Warning: 110` (RFC 7234 §5.5.1,
 * "Response is Stale"; RFC 9111 retired the field, and clients still
 * read it), `Cache-Status` (RFC 9211 §2: a hit whose negative `ttl` says
 * how long it has been stale), and `Cache-Control: no-cache`, so that no
 * shared cache keeps it as fresh.
 *
 * @example
 * ```ts
 * const a = staleAnswer({ status: 302, headers: { location: 'https://a.example/', 'cache-control': 'public, max-age=300' }, body: '', kind: 'resolve' }, 12_400);
 * a.headers.warning; // '110 - "Response is Stale"'
 * a.headers['cache-status']; // 'urikit; hit; ttl=-12; detail="store-unavailable"'
 * a.headers['cache-control']; // 'no-cache'
 * a.staleMs; // 12400
 * ```
 */
export function staleAnswer(a: Answer, staleMs: number): Answer {
  a.headers.warning = '110 - "Response is Stale"';
  a.headers['cache-status'] = `urikit; hit; ttl=-${Math.floor(staleMs / 1000)}; detail="store-unavailable"`;
  a.headers['cache-control'] = 'no-cache';
  a.staleMs = staleMs;
  return a;
}

/**
 * An answer with a short message in the format `accept` prefers among
 * the five (plain text by default; see `renderMessage`).
 *
 * @example
 * ```ts
 * // The format is the one Accept prefers; the reason phrase and extra headers are passed through.
 * const a = messageAnswer(501, 'Not Implemented', 'I2R is not given here', 'application/json', 'resolve', 'Not Implemented', { allow: 'GET' });
 * a.headers // { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-cache', allow: 'GET' }
 * a.body // '{"title":"Not Implemented","detail":"I2R is not given here"}\n'
 * a.reason // 'Not Implemented'
 * messageAnswer(404, 'Not Found', 'urn:ex:a is not known here', undefined, 'resolve').body // 'Not Found: urn:ex:a is not known here\n'
 * ```
 */
export function messageAnswer(status: number, title: string, detail: string, accept: string | undefined, kind: string, reason?: string, extra: Record<string, string> = {}): Answer {
  const format: ResultFormat = negotiate(accept, ['plain', 'html', 'json', 'urc-0', 'uri-list']) ?? 'plain';
  const r = renderMessage(title, detail, format);
  return {
    status,
    ...(reason !== undefined ? { reason } : {}),
    headers: { 'content-type': MEDIA_TYPES[r.format], 'cache-control': 'no-cache', ...extra },
    body: r.body,
    kind,
  };
}

/**
 * A 4xx answer in `application/problem+json` (RFC 9457), with the error's
 * code and offset for an invalid URN.
 *
 * @example
 * ```ts
 * const a = problemAnswer(400, 'Invalid URN', { code: 'bad-nid', offset: 4, urn: 'urn:a:x' });
 * a.headers['content-type'] // 'application/problem+json'
 * JSON.parse(a.body as string) // { type: 'about:blank', title: 'Invalid URN', status: 400, code: 'bad-nid', offset: 4, urn: 'urn:a:x' }
 * a.kind // 'error'
 * ```
 */
export function problemAnswer(status: number, title: string, extra: Record<string, unknown>, kind = 'error'): Answer {
  return {
    status,
    headers: { 'content-type': PROBLEM_JSON, 'cache-control': 'no-cache' },
    body: problemDocument(status, title, extra),
    kind,
  };
}
