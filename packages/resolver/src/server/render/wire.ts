/**
 * Writing an {@link Answer} to the wire (the last step of a request's
 * path: nothing here reads the request, the store or the answer table): the status, the Reason-Phrase
 * (1995 draft §3.4.1), the headers and the body on node's response, the
 * whole header block within {@link HEADER_BUDGET}. An HTTP/0.9
 * Simple-Request gets the body alone (see `simple.ts`).
 */
import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline, Readable } from 'node:stream';

/**
 * Status, reason phrase, headers and body of one answer.
 *
 * @example
 * ```ts
 * const a: Answer = { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Not Found\n', kind: 'resolve' };
 * a.status // 404
 * ```
 */
export interface Answer {
  status: number;
  /** The Reason-Phrase (1995 draft §3.4.1: relevant ones, above all for 301 and 302). */
  reason?: string;
  headers: Record<string, string>;
  /** A body, or lines streamed one by one (the urn+a list). */
  body: string | Uint8Array | AsyncIterable<string>;
  /** What kind of request it was, for /metrics. */
  kind: string;
  /** Set when the record was read from the name cache while the database was away (see {@link staleAnswer}): how old it is, in ms. */
  staleMs?: number;
  /** Where every link of the `Link` field is (the record, `?s=I2C`), for when the field cannot carry them all (wire.ts). */
  allLinks?: string;
}

/**
 * The most bytes the header block of an answer takes, status line and
 * the empty line included. RFC 9110 §5.4 leaves the limit to each
 * recipient; 8 KiB is what the smallest common buffers hold (a reverse
 * proxy's buffer for an upstream's headers, e.g. nginx's
 * `proxy_buffer_size` of 4 or 8 KiB; Node's 16 KiB, HAProxy's
 * `tune.bufsize` of 16 KiB for the whole block).
 *
 * @example
 * ```ts
 * HEADER_BUDGET; // 8192
 * ```
 */
export const HEADER_BUDGET = 8192;

/** What node writes after the fields given to it: `Date` (37), `Connection` (24), `Keep-Alive` (27), `Content-Length` or `Transfer-Encoding` (30). */
const WRITTEN_BY_NODE = 128;
/** Below this many bytes in an answer's own fields and reason, nothing needs counting (the pipeline's fields take well under 1 KiB). */
const CERTAINLY_WITHIN = HEADER_BUDGET - 2048;

/**
 * The fields an answer can do without, dropped in this order while its
 * header block is still over budget (after `Link` was cut and the
 * Reason-Phrase shortened): validators first (the answer is then only
 * cached for its `Cache-Control`), then what only a page or a script in
 * a browser reads. `Location`, `Content-Type`, `Cache-Control`, `Vary`,
 * `Allow`, `Retry-After` and the CORS origin are never dropped.
 */
const DROPPABLE = ['link', 'last-modified', 'etag', 'content-security-policy', 'access-control-expose-headers'] as const;

/** Bytes of one field line, `name: value` CRLF (latin1, as node writes it). */
function fieldBytes(name: string, value: string): number {
  return name.length + value.length + 4;
}

/** Bytes of the header block: status line, fields, empty line (what node adds counted in {@link WRITTEN_BY_NODE}). */
function blockBytes(reason: string, fields: Readonly<Record<string, string>>): number {
  let n = 'HTTP/1.1 000 \r\n'.length + reason.length + 2 + WRITTEN_BY_NODE;
  for (const name in fields) n += fieldBytes(name, fields[name]!);
  return n;
}

/**
 * The link-values of a `Link` field (RFC 8288 §3), each whole: a
 * URI-Reference cannot hold "<" (RFC 3986 §2), so `, <` only ever
 * separates two values.
 */
function linkValues(field: string): string[] {
  return field.split(', <').map((v, i) => (i === 0 ? v : `<${v}`));
}

/**
 * The status, Reason-Phrase and fields of an answer cut to fit `budget`
 * bytes of header block, in this order, until they fit:
 *
 * 1. `Link` keeps as many of its values as fit, in order, whole, and
 *    then `<…>; rel="describedby"; type="application/json"` for
 *    `answer.allLinks`, the record that lists every one (RFC 8288 §3;
 *    "describedby" is in the IANA link relation registry);
 * 2. the Reason-Phrase becomes the status code's own (a move's target
 *    is in `Location` and the body: 1995 draft §3.4.1 asks for a
 *    relevant phrase, not a long one);
 * 3. {@link DROPPABLE} fields go, one by one.
 *
 * `Location` is never cut: a URL that leaves no room even then (one over
 * about 7,700 octets, which RFC 9110 §4.1 still asks every recipient to
 * take) goes out as it is, with the least beside it. `fields` holds every
 * field of the answer (the pipeline's too); `budget` leaves room for
 * what node writes itself.
 *
 * @example
 * ```ts
 * const links = Array.from({ length: 1000 }, (_, i) => `<urn:example:old-${i}>; rel="predecessor-version"`).join(', ');
 * const fit = fitHeaderBudget(200, 'OK', { 'content-type': 'text/plain', link: links }, 'http://r.example/urn:example:new?s=I2C');
 * fit.fields.link!.length < 8192; // true
 * fit.fields.link!.endsWith('<http://r.example/urn:example:new?s=I2C>; rel="describedby"; type="application/json"'); // true
 * fitHeaderBudget(200, 'OK', { 'content-type': 'text/plain' }).fields; // { 'content-type': 'text/plain' } (within the budget: as it was)
 * ```
 */
export function fitHeaderBudget(status: number, reason: string, fields: Record<string, string>, allLinks?: string, budget = HEADER_BUDGET): { reason: string; fields: Record<string, string> } {
  let size = blockBytes(reason, fields);
  if (size <= budget) return { reason, fields };
  const out = { ...fields };
  const link = out.link;
  if (link !== undefined) {
    delete out.link;
    size -= fieldBytes('link', link);
    const rest = allLinks !== undefined ? `<${allLinks}>; rel="describedby"; type="application/json"` : undefined;
    // Each value kept takes its length and a ", "; the last one none unless the pointer to the rest follows.
    let room = budget - size - fieldBytes('link', '') - (rest !== undefined ? rest.length : -2);
    const kept: string[] = [];
    for (const v of linkValues(link)) {
      if (v.length + 2 > room) break;
      kept.push(v);
      room -= v.length + 2;
    }
    if (rest !== undefined && room >= 0) kept.push(rest);
    if (kept.length > 0 && room >= 0) {
      out.link = kept.join(', ');
      size += fieldBytes('link', out.link);
    }
  }
  let shortReason = reason;
  if (size > budget) {
    shortReason = http.STATUS_CODES[status] ?? '';
    size -= reason.length - shortReason.length;
  }
  for (const name of DROPPABLE) {
    if (size <= budget) break;
    const v = out[name];
    if (v === undefined) continue;
    delete out[name];
    size -= fieldBytes(name, v);
  }
  return { reason: shortReason, fields: out };
}

/**
 * Writes an answer on node's response, with `fields` (the headers every
 * answer of the server carries: CORS, security) before its own: HEAD and
 * 304 and 204 get the header block only (with the `Content-Length` the
 * body would have, RFC 9110 §8.6), a streamed body goes out chunked, and
 * the whole block stays within {@link HEADER_BUDGET}
 * ({@link fitHeaderBudget}). The one writer of every resolution answer,
 * whichever way the request came in (server/route.ts).
 *
 * @example
 * ```ts
 * import http from 'node:http';
 * const server = http.createServer((req, res) => writeAnswer(req, res,
 *   { status: 302, reason: 'Found', headers: { location: 'http://a/' }, body: 'Found: http://a/\n', kind: 'resolve' }, { 'x-content-type-options': 'nosniff' }));
 * await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
 * const r = await fetch(`http://127.0.0.1:${(server.address() as { port: number }).port}/`, { redirect: 'manual' });
 * [r.status, r.headers.get('location'), r.headers.get('x-content-type-options'), r.headers.get('content-length')]; // [302, 'http://a/', 'nosniff', '17']
 * await r.text();
 * server.closeAllConnections();
 * server.close();
 * ```
 */
export function writeAnswer(req: IncomingMessage, res: ServerResponse, a: Answer, fields: Readonly<Record<string, string>>): void {
  const body = a.body;
  const head = headOf(a, fields);
  res.writeHead(a.status, head.reason, head.block);
  if (a.status === 304 || a.status === 204 || req.method === 'HEAD') { res.end(); return; }
  if (typeof body === 'string' || body instanceof Uint8Array) { res.end(body); return; }
  // A stream that fails half-way ends the connection: the client sees a cut body, never a whole one that is wrong.
  pipeline(Readable.from(body), res, () => undefined);
}

/** The status line's reason and the header block of an answer (with `fields` before its own), as node's writeHead takes them. */
interface Head { reason: string; block: string[]; fields: Readonly<Record<string, string>> }

/** The head last written of each answer written more than once (a kept answer: resolution/kept-answers.ts), for the same `fields`. */
const HEADS = new WeakMap<Answer, Head>();

/** The head of `a` with `fields`, within {@link HEADER_BUDGET}: made once per answer and set of fields. */
function headOf(a: Answer, fields: Readonly<Record<string, string>>): Head {
  const known = HEADS.get(a);
  if (known !== undefined && known.fields === fields) return known;
  let reason = a.reason ?? http.STATUS_CODES[a.status] ?? '';
  let own: Readonly<Record<string, string>> = a.headers;
  let common = fields;
  let bytes = reason.length;
  for (const name in own) bytes += fieldBytes(name, own[name]!);
  if (bytes > CERTAINLY_WITHIN) {
    const fit = fitHeaderBudget(a.status, reason, { ...fields, ...own }, a.allLinks);
    reason = fit.reason;
    own = fit.fields;
    common = {};
  }
  // One flat list: node writes it as it is when no field was set before (ServerResponse.writeHead), and leaves it unchanged.
  const block: string[] = [];
  for (const name in common) if (!(name in own)) block.push(name, common[name]!);
  for (const name in own) block.push(name, own[name]!);
  const body = a.body;
  // RFC 9110 §8.6: HEAD's is the length GET's body would have; 304 and 204 have none.
  if (a.status !== 304 && a.status !== 204 && (typeof body === 'string' || body instanceof Uint8Array)) {
    block.push('content-length', String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength));
  }
  const head = { reason, block, fields };
  // Only a frozen answer (kept for later requests) can be written again unchanged.
  if (Object.isFrozen(a.headers)) HEADS.set(a, head);
  return head;
}
