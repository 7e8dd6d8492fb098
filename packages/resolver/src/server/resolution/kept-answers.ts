/**
 * The answers given last, kept for the next request of the same shape: a
 * resolver is asked the same names again and again, and an answer is a
 * function of the request (target, HTTP version, `Accept`, `Host`), the
 * server's configuration and base URL, the naming authority the `Host`
 * names, and the subject (record, rule, delegation, handover, link
 * health). A kept answer is given again only when the subject read for
 * this request is that same subject (the store's records are shared and
 * frozen, so the same record is the same object: store/cached-reader.ts);
 * the read itself, and the statistics, happen for every request.
 *
 * Never kept: conditional requests (their 304 depends on the validators
 * sent), `?history`, answers read from a stale cache, answers whose
 * `Last-Modified` is still to come (lastModified in conditional.ts: it is
 * sent once no change can share the record's second any more), and long
 * bodies.
 */
import type { NameKey } from '../../store/keys.js';
import type { Answer } from '../render/answer.js';
import type { RequestTarget } from './target.js';
import type { Asked } from './answer-table.js';
import type { Subject } from './subject.js';

/** How many answers are kept (all dropped when full), and the longest body and target kept: at most about 50 MB in all. */
const KEPT_COUNT = 4096;
const KEPT_BODY = 4096;
const KEPT_TARGET = 1024;

/**
 * One kept answer and what it was given for.
 *
 * @example
 * ```ts
 * const k: KeptAnswer = { answer: { status: 404, headers: {}, body: '', kind: 'resolve' }, subject: { key: 'urn:ex:a', urn: 'urn:ex:a', state: 'unknown' },
 *   target: { form: 'urn', urn: 'urn:ex:a', info: false, list: false }, nk: { key: 'urn:ex:a', nid: 'ex', authority: 'urn:ex', elementId: 'a', spelling: 'urn:ex:a' },
 *   asked: 'locate', base: undefined, authority: undefined };
 * k.subject.state; // 'unknown'
 * ```
 */
export interface KeptAnswer {
  answer: Answer;
  /** The request it answered (its target is the key it is kept under). */
  shape?: Shape;
  subject: Subject;
  target: RequestTarget;
  nk: NameKey;
  asked: Asked;
  base: string | undefined;
  /** The naming authority of a bare ElementID, as the `Host` named it then. */
  authority: string | undefined;
}

/** The request fields an answer depends on. */
interface Shape { target: string; httpVersion: string; accept?: string | undefined; host?: string | undefined; ifNoneMatch?: string | undefined; ifModifiedSince?: string | undefined }

/** True if two subjects give the same answer: the same record object, rule, delegation, handover and link health. */
function sameSubject(a: Subject, b: Subject): boolean {
  return a.state === b.state && a.key === b.key && a.urn === b.urn && a.record === b.record
    && a.rule?.prefix === b.rule?.prefix && a.rule?.target === b.rule?.target && a.rule?.updated === b.rule?.updated
    && a.delegation?.authority === b.delegation?.authority && a.delegation?.resolver === b.delegation?.resolver
    && a.handover?.authority === b.handover?.authority && a.handover?.to === b.handover?.to
    && a.health?.digest === b.health?.digest && a.health?.changed === b.health?.changed
    && a.staleMs === undefined;
}

/**
 * The kept answers of one resolution service.
 *
 * @example
 * ```ts
 * import type { Answer } from '../render/answer.js';
 * import type { Subject } from './subject.js';
 * import type { RequestTarget } from './target.js';
 * const kept = new KeptAnswers();
 * const subject: Subject = { key: 'urn:ex:a', urn: 'urn:ex:a', state: 'unknown' };
 * const answer: Answer = { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Not Found\n', kind: 'resolve' };
 * const target: RequestTarget = { form: 'urn', urn: 'urn:ex:a', info: false, list: false };
 * const nk = { key: 'urn:ex:a', nid: 'ex', authority: 'urn:ex', elementId: 'a', spelling: 'urn:ex:a' };
 * const req = { target: '/urn:ex:a', httpVersion: '1.1' };
 * kept.keep(req, { answer, subject, target, nk, asked: 'locate', base: undefined, authority: undefined });
 * kept.find(req)?.asked; // 'locate'
 * kept.given(kept.find(req)!, { ...subject }); // true (the same subject, read again)
 * kept.given(kept.find(req)!, { ...subject, state: 'rule' }); // false
 * kept.find({ ...req, ifNoneMatch: '"1-x"' }); // undefined (a conditional request is answered afresh)
 * ```
 */
export class KeptAnswers {
  /** By target, the answer to the last request for it that could be kept (one shape a target: a name is asked by a few kinds of clients). */
  readonly #kept = new Map<string, KeptAnswer>();

  /** The answer kept for a request of this shape, if any (then to be checked with {@link given}). */
  find(req: Shape): KeptAnswer | undefined {
    if (req.ifNoneMatch !== undefined || req.ifModifiedSince !== undefined) return undefined;
    const kept = this.#kept.get(req.target);
    const shape = kept?.shape;
    return shape !== undefined && shape.httpVersion === req.httpVersion && shape.accept === req.accept && shape.host === req.host ? kept : undefined;
  }

  /** True if `kept` answers a request whose subject, read now, is `subject`. */
  given(kept: KeptAnswer, subject: Subject): boolean {
    return sameSubject(subject, kept.subject);
  }

  /** Keeps `kept` for requests of the shape of `req`, when it may be kept (see the module). */
  keep(req: Shape, kept: KeptAnswer): void {
    const a = kept.answer;
    if (req.ifNoneMatch !== undefined || req.ifModifiedSince !== undefined || kept.asked === 'history' || kept.subject.staleMs !== undefined) return;
    if (typeof a.body !== 'string' || a.body.length > KEPT_BODY || req.target.length > KEPT_TARGET || a.staleMs !== undefined) return;
    if (a.headers.etag !== undefined && a.headers['last-modified'] === undefined) return;
    if (this.#kept.size >= KEPT_COUNT) this.#kept.clear();
    Object.freeze(a.headers);
    Object.freeze(a);
    this.#kept.set(req.target, { ...kept, shape: { target: req.target, httpVersion: req.httpVersion, accept: req.accept, host: req.host } });
  }

  /** Drops every kept answer. */
  clear(): void {
    this.#kept.clear();
  }
}
