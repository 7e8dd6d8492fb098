/**
 * Resolution: from a request target to an answer (1995 draft §3.3–§3.4,
 * RFC 2169 §2, RFC 2483 services, 2012 draft §2.3 `s=`), for every request
 * form: reads what is asked and the state of the name, then answers from
 * the table of server/resolution/answer-table.ts (respond.ts).
 */
import { UriError } from 'urikit';
import { MEDIA_TYPES, negotiate } from '../../formats/negotiate.js';
import { nameKey, type NameKey } from '../../store/keys.js';
import type { Store } from '../../store/store.js';
import { messageAnswer, problemAnswer, staleAnswer, type Answer } from '../render/answer.js';
import type { Asked } from './answer-table.js';
import { answerReserved, type ReservedContext } from './reserved.js';
import { respond, type ResolutionConfig } from './respond.js';
import { KeptAnswers } from './kept-answers.js';
import { peekSubject, readSubject, subjectSources, type Subject, type SubjectSources } from './subject.js';

export type { ResolutionConfig } from './respond.js';
import type { RequestTarget } from './target.js';
import { invalid, readQuery, SIMPLE_ACCEPT } from './query.js';
import { publicHistory } from '../render/history-body.js';
import type { LinkHealthLookup } from '../../links/view.js';
import type { StatsCounter } from '../../stats/counter.js';

/**
 * One resolution request, as any front (HTTP/1.x or HTTP/0.9) reads it.
 *
 * @example
 * ```ts
 * const req: ResolutionRequest = { target: '/uri-res/I2L?urn:isbn:0451450523', httpVersion: '1.1' };
 * const store = await openStore(':memory:');
 * await loadDemoData(store);
 * const service = new UrnResolutionService(store, { cacheControl: 'no-cache', seeOther: false, urnLength: 4096, urc0LineLength: 76, about: { contact: 'mailto:a@example.org', meta: 'urikit' } });
 * (await service.answer(req)).headers.location; // 'https://openlibrary.org/isbn/0451450523'
 * await store.close();
 * ```
 */
export interface ResolutionRequest {
  target: string;
  /** '0.9' for a Simple-Request (1995 draft §3.3). */
  httpVersion: string;
  accept?: string | undefined;
  ifNoneMatch?: string | undefined;
  ifModifiedSince?: string | undefined;
  /** The `Host` header (which naming authority a bare ElementID is for, 1995 draft §2.2.1). */
  host?: string | undefined;
  /** Absolute URL of this resolver, from its configuration (never from the request): absolute `Location`s, urn+a, record pointers. */
  base?: string;
  /** The client's User-Agent: statistics count robots apart (and keep nothing else of it). */
  userAgent?: string | undefined;
}

/**
 * What a resolution service consults besides the store: the health of
 * locations (to order them) and the statistics counter (told of every
 * answer about a name the store holds).
 *
 * @example
 * ```ts
 * const rows: StatsRow[] = [];
 * const extras: ResolutionExtras = { stats: new StatsCounter({ add: async (r) => { rows.push(...r); } }, { flushIntervalMs: 0 }) };
 * const store = await openStore(':memory:');
 * await loadDemoData(store);
 * const service = new UrnResolutionService(store, { cacheControl: 'no-cache', seeOther: false, urnLength: 4096, urc0LineLength: 76, about: { contact: 'mailto:a@example.org', meta: 'urikit' } }, extras);
 * await service.answer({ target: '/urn:isbn:0451450523', httpVersion: '1.1', userAgent: 'Googlebot/2.1' });
 * await extras.stats!.close();
 * rows.map((r) => [r.key, r.service, r.human, r.robot]); // [['urn:isbn:0451450523', 'I2L', 0, 1]]
 * await store.close();
 * ```
 */
export interface ResolutionExtras {
  health?: LinkHealthLookup;
  stats?: StatsCounter;
}

/** The RFC 2483 service a request counts under in the statistics, when it names none. */
const SERVICE_OF_ASKED: Readonly<Record<Asked, string>> = { locate: 'I2L', list: 'I2Ls', describe: 'I2C', name: 'I2N', names: 'I2Ns', history: 'history' };

/**
 * The URN resolution service proper: answers the resolution requests of
 * the 1995 draft §3.3, RFC 2169 §2 and the 2012 draft §2.3 from a store,
 * whatever front (HTTP/1.x or HTTP/0.9) read them.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * await loadDemoData(store);
 * const service = new UrnResolutionService(store, { cacheControl: 'max-age=60', seeOther: false, urnLength: 4096,
 *   urc0LineLength: 76, about: { contact: 'mailto:admin@example.org', meta: 'urikit' } });
 * const a = await service.answer({ target: '/urn:isbn:0451450523', httpVersion: '1.1' });
 * a.status // 302
 * a.headers.location // 'https://openlibrary.org/isbn/0451450523'
 * await store.close();
 * ```
 */
export class UrnResolutionService {
  readonly #sources: SubjectSources;
  readonly #kept = new KeptAnswers();

  constructor(readonly store: Store, readonly config: ResolutionConfig, readonly extras: ResolutionExtras = {}) {
    this.#sources = subjectSources(config.authorities, extras.health);
  }

  /**
   * The answer to `req` if it can be given without waiting: the answer
   * kept for a request of its shape (kept-answers.ts), while the subject,
   * read at once, is the same; else undefined (then {@link answer}).
   */
  answerNow(req: ResolutionRequest): Answer | undefined {
    const kept = this.#kept.find(req);
    if (kept === undefined || kept.base !== req.base || kept.authority !== this.#authorityOf(kept.target, req.host)) return undefined;
    const subject = peekSubject(this.store, kept.nk, this.#sources);
    if (subject === undefined || !this.#kept.given(kept, subject)) return undefined;
    this.#count(subject, kept.target, kept.asked, req);
    return kept.answer;
  }

  /** The answer to one request (never throws for bad input: 4xx instead). */
  async answer(req: ResolutionRequest): Promise<Answer> {
    const kept = this.#kept.find(req);
    if (kept !== undefined && kept.base === req.base && kept.authority === this.#authorityOf(kept.target, req.host)) {
      const subject = await readSubject(this.store, kept.nk, this.#sources);
      if (this.#kept.given(kept, subject)) {
        this.#count(subject, kept.target, kept.asked, req);
        return kept.answer;
      }
    }
    const q = readQuery(req, this.config);
    if ('status' in q) return q;
    if (q.asks === 'reserved') return answerReserved(this.#reservedContext(req), q.authority, q.request, q.target.list);
    if (q.asks === 'same') return this.#same(req, q.target, q.nk, q.accept);
    const { target: t, asked, accept } = q;
    const subject = await readSubject(this.store, q.nk, this.#sources);
    if (asked === 'history' && subject.record !== undefined) subject.history = publicHistory(await this.store.history.versions(subject.key));
    this.#count(subject, t, asked, req);
    const base = req.base ?? '';
    const a = respond({ config: this.config, httpVersion: req.httpVersion, accept, ifNoneMatch: req.ifNoneMatch, ifModifiedSince: req.ifModifiedSince, base, target: t, requested: req.target }, subject, asked);
    if (subject.staleMs !== undefined) return staleAnswer(a, subject.staleMs);
    this.#kept.keep(req, { answer: a, subject, target: t, nk: q.nk, asked, base: req.base, authority: this.#authorityOf(t, req.host) });
    return a;
  }

  /** The naming authority a bare ElementID is of, as readQuery finds it (1995 draft §2.2.1): the one the `Host` names, else the configured one. */
  #authorityOf(t: RequestTarget, host: string | undefined): string | undefined {
    return t.form === 'element' ? this.config.authorities?.forHost(host) ?? this.config.authority : undefined;
  }

  /** Counts a resolution of a name the store holds, under the RFC 2483 service asked (statistics). */
  #count(subject: Subject, t: RequestTarget, asked: Asked, req: ResolutionRequest): void {
    if (subject.record !== undefined) this.extras.stats?.count(subject.key, t.service ?? SERVICE_OF_ASKED[asked], req.userAgent);
  }

  #reservedContext(req: ResolutionRequest): ReservedContext {
    return { store: this.store, accept: req.httpVersion === '0.9' ? SIMPLE_ACCEPT : req.accept, about: this.config.about, urc0LineLength: this.config.urc0LineLength, ...(req.base !== undefined ? { base: req.base } : {}) };
  }

  /** RFC 2483 I=I: are two URNs the same name (lexical equivalence, RFC 8141 §3)? */
  #same(req: ResolutionRequest, t: RequestTarget, nk: NameKey, accept: string | undefined): Answer {
    if (t.other === undefined) return problemAnswer(400, 'Invalid I=I request', { detail: 'I=I takes two URNs: /uri-res/I=I?<urn>=<urn>', code: 'bad-urn', offset: t.urn.length });
    let other: NameKey;
    try {
      other = nameKey(t.other);
    } catch (e) {
      if (e instanceof UriError) return invalid(e, t.other);
      throw e;
    }
    const same = nk.key === other.key;
    const format = negotiate(accept, ['plain', 'json']) ?? (req.httpVersion === '0.9' ? 'plain' : undefined);
    if (!format) return messageAnswer(406, 'Not Acceptable', 'I=I answers text/plain or application/json', undefined, 'resolve');
    const body = format === 'json' ? `${JSON.stringify({ same, a: nk.key, b: other.key })}\n` : `${same ? 'TRUE' : 'FALSE'}\r\n`;
    return { status: 200, headers: { 'content-type': MEDIA_TYPES[format], 'cache-control': this.config.cacheControl, vary: 'Accept' }, body, kind: 'resolve' };
  }
}
