/**
 * Resolution: from a request target to an answer (1995 draft §3.3–§3.4,
 * RFC 2169 §2, RFC 2483 services, 2012 draft §2.3 `s=`), for every request
 * form: reads what is asked and the state of the name, then answers from
 * the table of server/resolution/answer-table.ts (respond.ts).
 */
import { UriError } from 'urikit';
import { MEDIA_TYPES, negotiate, parseAccept, type ResultFormat } from '../../formats/negotiate.js';
import { nameKey, type NameKey } from '../../store/keys.js';
import type { Store } from '../../store/store.js';
import { messageAnswer, problemAnswer, staleAnswer, type Answer } from '../render/answer.js';
import type { Asked } from './answer-table.js';
import { answerReserved, type ReservedContext } from './reserved.js';
import { respond, type ResolutionConfig } from './respond.js';
import { readSubject } from './subject.js';

export type { ResolutionConfig } from './respond.js';
import { readTarget, type RequestTarget, type Service } from './target.js';
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

/**
 * What a request asks for when it names no service: the format `Accept`
 * prefers among all five decides (html or none: be redirected, as
 * browsers expect; a format the 1995 draft defines for results, or
 * text/uri-list: the list; JSON: the record).
 */
const CHOOSER: ResultFormat[] = ['html', 'urc-0', 'json', 'uri-list', 'plain'];
const ASKED_BY_FORMAT: Readonly<Record<ResultFormat, Asked>> = { html: 'locate', 'urc-0': 'list', 'uri-list': 'list', plain: 'list', json: 'describe' };
const ASKED_BY_SERVICE: Readonly<Record<Exclude<Service, 'I=I'>, Asked>> = { I2L: 'locate', I2Ls: 'list', I2C: 'describe', I2Cs: 'describe', I2N: 'name', I2Ns: 'names' };

/** The RFC 2483 service a request counts under in the statistics, when it names none. */
const SERVICE_OF_ASKED: Readonly<Record<Asked, string>> = { locate: 'I2L', list: 'I2Ls', describe: 'I2C', name: 'I2N', names: 'I2Ns', history: 'history' };

/** An HTTP/0.9 client takes text/urc-0 (1995 draft §3.3), and anything when urc-0 cannot carry the answer. */
const SIMPLE_ACCEPT = 'text/urc-0, */*;q=0.1';

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
  constructor(readonly store: Store, readonly config: ResolutionConfig, readonly extras: ResolutionExtras = {}) {}

  /** The answer to one request (never throws for bad input: 4xx instead). */
  async answer(req: ResolutionRequest): Promise<Answer> {
    let t: RequestTarget | undefined;
    try {
      t = readTarget(req.target);
    } catch (e) {
      if (e instanceof UriError) return invalid(e, req.target);
      throw e;
    }
    const accept = req.httpVersion === '0.9' ? SIMPLE_ACCEPT : req.accept;
    if (!t) return messageAnswer(404, 'Not Found', 'not a resolution request', accept, 'other');
    if (t.urn.length > this.config.urnLength) {
      return problemAnswer(414, 'URN Too Long', { detail: `a URN in a request is at most ${this.config.urnLength} characters`, code: 'urn-too-long', offset: this.config.urnLength }, 'resolve');
    }
    // RFC 2483 §4 / RFC 2169 §2: a service this resolver does not give, whatever the name.
    if (t.unimplemented !== undefined) {
      return messageAnswer(501, 'Not Implemented', `${t.unimplemented.slice(0, 8)} is an RFC 2483 service this resolver does not give: it answers I2L, I2Ls, I2C, I2Cs, I2N, I2Ns and I=I`, accept, 'resolve');
    }
    if (t.urn.length === 0) return problemAnswer(400, 'Invalid URN', { detail: 'the request names no URN', code: 'empty', offset: 0 }, 'resolve');
    // 1995 draft §3.3: the ElementID alone, for the naming authority the Host names (§2.2.1) or the configured one.
    let urn = t.urn;
    let authority: string | undefined;
    if (t.form === 'element') {
      authority = this.config.authorities?.forHost(req.host) ?? this.config.authority;
      if (t.urn.startsWith('urn+')) return answerReserved(this.#reservedContext(req), authority ?? '', t.urn, t.list);
      if (authority === undefined) {
        return messageAnswer(404, 'Not Found', 'this resolver serves no naming authority by ElementID; ask for the whole URN: /urn:<nid>:<nss>', accept, 'resolve');
      }
      urn = `${authority}:${t.urn}`;
    }
    let nk: NameKey;
    try {
      nk = nameKey(urn);
    } catch (e) {
      if (e instanceof UriError) return invalid(e, urn, authority !== undefined ? authority.length + 1 : 0);
      throw e;
    }
    // 1995 draft §2.3, §3.5: ElementIDs beginning "urn+" are reserved requests, of the
    // authority before them (a registry's authority may be deeper than the NID: urn:example:a:b).
    const last = nk.key.lastIndexOf(':');
    if (nk.key.startsWith('urn+', last + 1) && last >= nk.authority.length) return answerReserved(this.#reservedContext(req), nk.key.slice(0, last), nk.key.slice(last + 1), t.list);
    if (t.service === 'I=I') return this.#same(req, t, nk, accept);
    const asked = this.#asked(req, t, accept);
    const subject = await readSubject(this.store, nk, this.extras.health);
    if (subject.state === 'unknown') {
      const d = this.config.authorities?.delegatedTo(subject.key);
      if (d !== undefined) return delegation(d, urn, t.service, accept);
    }
    if (asked === 'history' && subject.record !== undefined) subject.history = publicHistory(await this.store.history.versions(subject.key));
    if (subject.record !== undefined) this.extras.stats?.count(subject.key, t.service ?? SERVICE_OF_ASKED[asked], req.userAgent);
    const base = req.base ?? '';
    const a = respond({ config: this.config, httpVersion: req.httpVersion, accept, ifNoneMatch: req.ifNoneMatch, ifModifiedSince: req.ifModifiedSince, base, target: t }, subject, asked);
    return subject.staleMs !== undefined ? staleAnswer(a, subject.staleMs) : a;
  }

  #reservedContext(req: ResolutionRequest): ReservedContext {
    return { store: this.store, accept: req.httpVersion === '0.9' ? SIMPLE_ACCEPT : req.accept, about: this.config.about, urc0LineLength: this.config.urc0LineLength, ...(req.base !== undefined ? { base: req.base } : {}) };
  }

  /**
   * What is asked: the service named (an unknown one falls back to the
   * namespace default, I2L: 2012 draft §2.3.1); `?history`, every
   * version of the record; `?info`, the record;
   * HTTP/0.9, the list (1995 draft §3.3); else what `Accept` prefers
   * (when it accepts none of the five: `locate`, whose answer is then a
   * 406, or the error the name's state calls for).
   */
  #asked(req: ResolutionRequest, t: RequestTarget, accept: string | undefined): Asked {
    if (t.history === true) return 'history';
    if (t.info) return 'describe';
    if (t.service !== undefined && t.service !== 'I=I') return ASKED_BY_SERVICE[t.service];
    if (t.unknownService !== undefined) return 'locate';
    if (req.httpVersion === '0.9') return 'list';
    if (accept === undefined) return 'locate';
    const ranges = parseAccept(accept);
    if (ranges.length === 0) return 'locate';
    const f = negotiate(ranges, CHOOSER);
    return f === undefined ? 'locate' : ASKED_BY_FORMAT[f];
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

/**
 * A name of a child authority another resolver holds: 302 to that
 * resolver's RFC 2169 request for the same URN (RFC 2169 §2), which a
 * client reads as a delegation and asks there (1995 draft §4 follows
 * redirects; §3.5.3 names the child).
 */
function delegation(d: { authority: string; resolver: string }, urn: string, service: Service | undefined, accept: string | undefined): Answer {
  const location = `${d.resolver.replace(/\/+$/, '')}/uri-res/${service !== undefined && service !== 'I=I' ? service : 'I2L'}?${urn}`;
  // §3.4.1: a relevant Reason-Phrase for a 302.
  return messageAnswer(302, 'Found', `${urn} belongs to ${d.authority}, resolved at ${d.resolver}`, accept, 'resolve', `Found at the resolver of ${d.authority}`, { location });
}

/** 400 with the parser's code and offset, in application/problem+json (RFC 9457; STYLE §15). */
function invalid(e: UriError, input: string, shift = 0): Answer {
  return problemAnswer(400, 'Invalid URN', { code: e.code, offset: Math.max(0, e.offset - shift), detail: e.message, input: input.length > 256 ? `${input.slice(0, 256)}...` : input }, 'resolve');
}
