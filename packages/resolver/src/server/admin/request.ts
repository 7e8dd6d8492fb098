/**
 * What the admin routes share in reading a request and answering a
 * refusal: the URN of a path, a JSON body, the fields checked by hand,
 * the precondition of `If-Match` / `If-None-Match` (RFC 9110 §13.1) and
 * the answers to a refused input (400), a stale precondition (412) and a
 * transition the lifecycle refuses (409, store/lifecycle.ts).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { parse, UriError } from 'urikit';
import { nameKey } from '../../store/keys.js';
import { LifecycleError } from '../../store/lifecycle.js';
import { PreconditionFailed, type Precondition } from '../../store/precondition.js';
import type { NameRecord } from '../../store/types.js';
import { checkScheme, InputError } from '../../store/validate.js';
import { recordJson } from '../render/render.js';
import { ifMatchHolds, ifNoneMatchHolds, nameEntityTag } from '../resolution/conditional.js';
import { inputProblem, problem } from './scope.js';

export const STATUSES: ReadonlySet<string> = new Set(['active', 'moved', 'withdrawn', 'reserved']);

/** The URN that follows `prefix` in the raw request path (not decoded: percent-encoding is part of a URN). */
export function urnFromPath(request: FastifyRequest, prefix: string): string {
  const url = request.raw.url ?? '';
  const q = url.indexOf('?');
  return (q < 0 ? url : url.slice(0, q)).slice(prefix.length);
}

/**
 * The body of a JSON request as a plain object: `{}` when there is none,
 * undefined when it is anything else (an array, a string, or an NDJSON or
 * CSV stream sent to a route that takes JSON).
 */
export function jsonObject(body: unknown): Record<string, unknown> | undefined {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body) || Object.getPrototypeOf(body) !== Object.prototype) return undefined;
  return body as Record<string, unknown>;
}

/** An absolute URI (RFC 3986 §4.3) whose scheme is one of `schemes`. */
export function uriField(v: unknown, field: string, schemes: ReadonlySet<string>): string {
  if (typeof v !== 'string' || v.length === 0 || v.length > 4096) throw new InputError(`"${field}" must be a URI`);
  try { parse(v, 'uri'); } catch (e) { if (e instanceof UriError) throw new InputError(`"${field}": ${e.message}`, e.code, e.offset); throw e; }
  checkScheme(v, field, schemes);
  return v;
}

export function optText(v: unknown, field: string, max = 1000): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' || v.length > max) throw new InputError(`"${field}" must be a string of at most ${max} characters`);
  return v;
}

/** The patch format of `PATCH /admin/names/<urn>` (RFC 7396 §4). */
export const MERGE_PATCH = 'application/merge-patch+json';

/** The media type of a request's body, lower case, without parameters. */
export function mediaType(request: FastifyRequest): string {
  return (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Counts and caps the bytes of an import body (413 beyond `max`). */
export async function* capped(body: AsyncIterable<Uint8Array>, max: number): AsyncGenerator<Uint8Array> {
  let n = 0;
  for await (const chunk of body) {
    n += chunk.length;
    if (n > max) throw new InputError(`the body is larger than ${max} bytes`, 'too-large');
    yield chunk;
  }
}

/** The store key of a URN from a request path, or undefined after answering 400 (its code and offset). */
export function keyOr400(reply: FastifyReply, urn: string): string | undefined {
  try {
    return nameKey(urn).key;
  } catch (e) {
    if (e instanceof UriError) { problem(reply, 400, 'Invalid URN', { code: e.code, offset: e.offset, detail: e.message }); return undefined; }
    throw e;
  }
}

/** 400 (413 for a body too large) for an input the validator refused; anything else is thrown on. */
export function inputError(reply: FastifyReply, e: unknown): FastifyReply {
  if (e instanceof InputError) return problem(reply, e.code === 'too-large' ? 413 : 400, 'Invalid record', inputProblem(e));
  throw e;
}

/**
 * A write refused inside its transaction, nothing changed: the
 * lifecycle's 409 (lifecycle.ts), a stale `If-Match` 412 (RFC 9110
 * §13.1.1, with the name's current `ETag`), a patch that makes an
 * invalid record 400.
 */
export function refused(request: FastifyRequest, reply: FastifyReply, e: unknown): FastifyReply {
  if (e instanceof PreconditionFailed) {
    if (e.current) reply.header('etag', nameEntityTag(e.current.version));
    return problem(reply, 412, 'Precondition Failed', {
      code: 'precondition-failed',
      detail: e.current ? `${e.key} is at version ${e.current.version}, not the one the request expected: read it again` : `${e.key} is not in the store`,
      ...(e.current ? { version: e.current.version } : {}),
    });
  }
  if (e instanceof InputError) return inputError(reply, e);
  if (!(e instanceof LifecycleError)) throw e;
  request.log.info({ key: e.key, code: e.code, from: e.from, to: e.to }, 'lifecycle refused a write');
  // A record that did not state the status: the field to state (RFC 6901).
  return problem(reply, 409, 'Conflict', { code: e.code, detail: e.message, from: e.from, to: e.to, ...(e.code === 'status-not-stated' ? { pointer: '/status' } : {}) });
}

/**
 * The write's precondition from `If-Match` (RFC 9110 §13.1.1) and
 * `If-None-Match` (§13.1.2: `*` creates only), checked in the write
 * transaction.
 */
export function ifMatch(request: FastifyRequest): Precondition | undefined {
  const match = request.headers['if-match'];
  const noneMatch = request.headers['if-none-match'];
  if (match === undefined && noneMatch === undefined) return undefined;
  return (current) => {
    const tag = current ? nameEntityTag(current.version) : undefined;
    return (match === undefined || ifMatchHolds(match, tag)) && (noneMatch === undefined || ifNoneMatchHolds(noneMatch, tag));
  };
}

/** A name's record as written or read, with its entity tag. */
export function withTag(reply: FastifyReply, r: NameRecord): Record<string, unknown> {
  reply.header('etag', nameEntityTag(r.version));
  return recordJson(r);
}
