/**
 * Resolution: from a request target to an answer (1995 draft §3.3–§3.4,
 * RFC 2169 §2, RFC 2483 services, 2012 draft §2.3 `s=`), for every request
 * form, with moves, tombstones, reserved names, partial redirects and
 * conditional requests.
 */
import { UriError } from 'urikit';
import { MEDIA_TYPES, namesFormat, negotiate, parseAccept, type ResultFormat } from '../formats/negotiate.js';
import { preferredLocation, preferredOrder, renderLocations, renderNames, renderRecord, type Rendered } from './render.js';
import { nameKey, type NameKey } from '../store/keys.js';
import type { Store } from '../store/store.js';
import type { NameRecord, PrefixRule } from '../store/types.js';
import { messageAnswer, problemAnswer, type Answer } from './answer.js';
import { entityTag, notModified } from './conditional.js';
import { httpDate } from './http-date.js';
import { answerReserved, type ReservedContext } from './reserved.js';
import { readTarget, type RequestTarget, type Service } from './target.js';

/**
 * One resolution request, as any front (HTTP/1.x or HTTP/0.9) reads it.
 *
 * @example
 * ```ts
 * const req: ResolutionRequest = { target: '/uri-res/I2L?urn:isbn:0451450523', httpVersion: '1.1' };
 * ```
 */
export interface ResolutionRequest {
  target: string;
  /** '0.9' for a Simple-Request (1995 draft §3.3). */
  httpVersion: string;
  accept?: string | undefined;
  ifNoneMatch?: string | undefined;
  ifModifiedSince?: string | undefined;
  /** Absolute URL of this resolver as the client reached it (for the urn+a pointer). */
  base?: string;
}

/**
 * The configuration of an {@link UrnResolutionService}: the naming
 * authority of `GET /<ElementID>` (1995 draft §3.3), caching (§5), the
 * redirect code (RFC 2169 §2) and the urc-0 line length (§3.4.2).
 *
 * @example
 * ```ts
 * const config: ResolutionConfig = { authority: 'urn:dns:library.bigstate.edu', cacheControl: 'max-age=60',
 *   seeOther: false, urnLength: 4096, urc0LineLength: 76, about: { contact: 'mailto:admin@example.org', meta: 'urikit' } };
 * const store = await openStore(':memory:');
 * await loadDemoData(store);
 * (await new UrnResolutionService(store, config).answer({ target: '/aj17-mcc', httpVersion: '1.1' })).status // 302
 * await store.close();
 * ```
 */
export interface ResolutionConfig {
  /** Canonical naming authority for `GET /<ElementID>`, if any. */
  authority?: string;
  cacheControl: string;
  seeOther: boolean;
  urnLength: number;
  about: { contact: string; meta: string };
  /** Longest text/urc-0 line before a URL is wrapped as <URL:...> (1995 draft §3.4.2). */
  urc0LineLength: number;
}

const OFFER_LIST_1995: ResultFormat[] = ['urc-0', 'plain', 'html', 'json', 'uri-list'];
const OFFER_LIST_2169: ResultFormat[] = ['uri-list', 'urc-0', 'plain', 'html', 'json'];
const OFFER_RECORD: ResultFormat[] = ['json', 'html', 'plain', 'urc-0'];
const OFFER_NAMES: ResultFormat[] = ['plain', 'uri-list', 'json', 'html', 'urc-0'];
const OFFER_TOMBSTONE: ResultFormat[] = ['plain', 'html', 'json'];

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
  constructor(readonly store: Store, readonly config: ResolutionConfig) {}

  /** The answer to one request (never throws for bad input: 4xx instead). */
  async answer(req: ResolutionRequest): Promise<Answer> {
    let t: RequestTarget | undefined;
    try {
      t = readTarget(req.target);
    } catch (e) {
      if (e instanceof UriError) return invalid(e, req.target);
      throw e;
    }
    if (!t) return messageAnswer(404, 'Not Found', 'not a resolution request', req.accept, 'other');
    if (t.urn.length > this.config.urnLength) {
      return problemAnswer(414, 'URN Too Long', { detail: `a URN in a request is at most ${this.config.urnLength} characters`, code: 'urn-too-long', offset: this.config.urnLength }, 'resolve');
    }
    if (t.urn.length === 0) return problemAnswer(400, 'Invalid URN', { detail: 'the request names no URN', code: 'empty', offset: 0 }, 'resolve');
    // 1995 draft §3.3: the ElementID alone, for the naming authority this resolver serves.
    let urn = t.urn;
    if (t.form === 'element') {
      if (t.urn.startsWith('urn+')) return answerReserved(this.#reservedContext(req), this.config.authority ?? '', t.urn, t.list);
      if (this.config.authority === undefined) {
        return messageAnswer(404, 'Not Found', 'this resolver serves no naming authority by ElementID; ask for the whole URN: /urn:<nid>:<nss>', req.accept, 'resolve');
      }
      urn = `${this.config.authority}:${t.urn}`;
    }
    let nk: NameKey;
    try {
      nk = nameKey(urn);
    } catch (e) {
      if (e instanceof UriError) return invalid(e, urn, t.form === 'element' ? this.config.authority!.length + 1 : 0);
      throw e;
    }
    // 1995 draft §2.3, §3.5: ElementIDs beginning "urn+" are reserved requests.
    if (nk.elementId.startsWith('urn+')) return answerReserved(this.#reservedContext(req), nk.authority, nk.elementId, t.list);
    if (t.service === 'I=I') return this.#same(req, t, nk);
    const service = this.#service(req, t);
    const record = await this.store.names.get(nk.key);
    if (!record) {
      const rule = await this.store.prefixRules.match(nk.key);
      if (rule) return this.#partial(req, t, nk, rule, service);
      return messageAnswer(404, 'Not Found', `${urn} is not known to this resolver`, req.accept, 'resolve');
    }
    return this.#fromRecord(req, t, record, service);
  }

  #reservedContext(req: ResolutionRequest): ReservedContext {
    return { store: this.store, accept: req.httpVersion === '0.9' ? 'text/urc-0' : req.accept, about: this.config.about, urc0LineLength: this.config.urc0LineLength, ...(req.base !== undefined ? { base: req.base } : {}) };
  }

  /**
   * The service to answer: the one asked for; an unknown one falls back to
   * the namespace default, I2L (2012 draft §2.3.1); without one, the 1995
   * forms answer `?info` and `Accept: application/json` with the record,
   * a client that names text/urc-0 (or speaks HTTP/0.9) with the 1995
   * result list, and anyone else with a redirect, as today's resolvers do.
   */
  #service(req: ResolutionRequest, t: RequestTarget): Service {
    if (t.info) return 'I2C';
    if (t.service) return t.service;
    if (t.unknownService !== undefined) return 'I2L';
    if (req.httpVersion === '0.9') return 'I2Ls';
    if (req.accept === undefined) return 'I2L';
    // One parse of Accept for the three questions (a browser sends a long one on every request).
    const ranges = parseAccept(req.accept);
    if (namesFormat(ranges, 'urc-0')) return 'I2Ls';
    if (namesFormat(ranges, 'json') && negotiate(ranges, ['json', 'html']) === 'json') return 'I2C';
    return 'I2L';
  }

  #headers(record: { version: number; updated: number }, selector: string, vary: boolean): Record<string, string> {
    const h: Record<string, string> = {
      etag: entityTag(record.version, selector),
      'last-modified': httpDate(record.updated),
      'cache-control': this.config.cacheControl,
    };
    if (vary) h.vary = 'Accept';
    return h;
  }

  #notModified(req: ResolutionRequest, headers: Record<string, string>, updated: number): Answer | undefined {
    if (req.ifNoneMatch === undefined && req.ifModifiedSince === undefined) return undefined;
    if (!notModified({ 'if-none-match': req.ifNoneMatch, 'if-modified-since': req.ifModifiedSince }, headers.etag!, updated)) return undefined;
    return { status: 304, headers, body: '', kind: 'resolve' };
  }

  #rendered(status: number, r: Rendered, headers: Record<string, string>, reason?: string): Answer {
    return { status, ...(reason !== undefined ? { reason } : {}), headers: { ...headers, 'content-type': MEDIA_TYPES[r.format] }, body: r.body, kind: 'resolve' };
  }

  /** A redirect to one location: 302 to HTTP/1.0 clients, 302 (or 303 with `seeOther`) to HTTP/1.1 ones (RFC 2169 §2). */
  #redirect(req: ResolutionRequest, location: string, headers: Record<string, string>, status?: number, reason?: string): Answer {
    const code = status ?? (this.config.seeOther && req.httpVersion === '1.1' ? 303 : 302);
    const phrase = reason ?? (code === 303 ? 'See Other' : code === 301 ? 'Moved Permanently' : 'Found');
    headers.location = location;
    headers['content-type'] = 'text/plain; charset=utf-8';
    return { status: code, reason: phrase, headers, body: `${phrase}: ${location}\n`, kind: 'resolve' };
  }

  async #fromRecord(req: ResolutionRequest, t: RequestTarget, r: NameRecord, service: Service): Promise<Answer> {
    const redirects = (service === 'I2L' || service === 'I2R') && r.status !== 'withdrawn';
    const offered = this.#offered(t, r, service);
    const format = redirects && r.status === 'active' ? undefined : negotiate(req.httpVersion === '0.9' ? 'text/urc-0' : req.accept, offered);
    const headers = this.#headers(r, `${r.key}|${service}|${redirects ? '' : format}|${t.form}`, t.form !== 'uri-res' || !redirects);
    if (r.successor !== undefined) headers.link = `<${r.successor}>; rel="successor-version"`;
    const nm = this.#notModified(req, headers, r.updated);
    if (r.status === 'withdrawn') {
      // DESIGN.md, "The resolver service": nothing is erased; a withdrawn name answers 410 with its tombstone.
      if (nm) return nm;
      const f = negotiate(req.accept, OFFER_TOMBSTONE) ?? 'plain';
      return this.#rendered(410, renderRecord(r, f, this.config.urc0LineLength), headers, 'Gone');
    }
    if (!format && !redirects) return messageAnswer(406, 'Not Acceptable', `this answer is available as ${offered.map((f) => MEDIA_TYPES[f].split(';')[0]).join(', ')}`, undefined, 'resolve');
    if (nm) return nm;
    if (service === 'I2C' || service === 'I2Cs') return this.#rendered(200, renderRecord(r, format!, this.config.urc0LineLength), headers);
    if (r.status === 'reserved') return messageAnswer(404, 'Not Found', `${r.urn} is reserved: held, but not yet resolvable`, req.accept, 'resolve', 'Not Found (reserved)', headers);
    if (r.status === 'moved' && r.movedTo !== undefined) return this.#moved(req, t, r, service, headers);
    if (service === 'I2N' || service === 'I2Ns') {
      const names = service === 'I2N' ? [r.successor ?? r.key] : [...new Set([r.key, r.urn, ...(r.successor !== undefined ? [r.successor] : [])])];
      return this.#rendered(200, renderNames(`names of ${r.urn}`, names, format!, undefined, this.config.urc0LineLength), headers);
    }
    if (redirects) {
      const preferred = preferredLocation(r.locations);
      if (!preferred) return messageAnswer(404, 'Not Found', `${r.urn} has no location`, req.accept, 'resolve', 'Not Found (no location)', headers);
      return this.#redirect(req, preferred.url, headers);
    }
    const locations = r.locations.length > 1 ? preferredOrder(r.locations) : r.locations;
    return this.#rendered(200, renderLocations(r.urn, locations, format!, { status: r.status }, this.config.urc0LineLength), headers);
  }

  #offered(t: RequestTarget, r: NameRecord, service: Service): ResultFormat[] {
    if (service === 'I2C' || service === 'I2Cs') return OFFER_RECORD;
    if (service === 'I2N' || service === 'I2Ns') return OFFER_NAMES;
    if (r.status === 'moved' || r.status === 'reserved') return OFFER_TOMBSTONE;
    return t.form === 'uri-res' ? OFFER_LIST_2169 : OFFER_LIST_1995;
  }

  /**
   * A moved name: 301 or 302 with the new URN or URL in the Reason-Phrase
   * (1995 draft §3.4.1, §4: a client substitutes the new URN); a URN is
   * sent on as a request to this resolver in the same form.
   */
  #moved(req: ResolutionRequest, t: RequestTarget, r: NameRecord, service: Service, headers: Record<string, string>): Answer {
    const to = r.movedTo!;
    const status = r.permanent ? 301 : 302;
    const reason = `${r.permanent ? 'Moved Permanently' : 'Moved Temporarily'} to ${to}`;
    let location = to;
    if (to.slice(0, 4).toLowerCase() === 'urn:') location = t.form === 'uri-res' ? `/uri-res/${service === 'I2L' ? 'N2L' : service.replace('I2', 'N2')}?${to}` : `/${to}`;
    headers.link = `<${to}>; rel="successor-version"`;
    return this.#redirect(req, location, headers, status, reason);
  }

  /** A name not held but under a partial-redirect rule: the rule's target with the rest of the name appended. */
  #partial(req: ResolutionRequest, t: RequestTarget, nk: NameKey, rule: PrefixRule, service: Service): Answer {
    const url = rule.target + nk.key.slice(rule.prefix.length);
    const headers = this.#headers({ version: 0, updated: rule.updated }, `${nk.key}|${service}|${rule.target}|${req.accept ?? ''}`, true);
    const nm = this.#notModified(req, headers, rule.updated);
    if (nm) return nm;
    if (service === 'I2L' || service === 'I2R') return this.#redirect(req, url, headers);
    const format = negotiate(req.httpVersion === '0.9' ? 'text/urc-0' : req.accept, service === 'I2C' ? OFFER_RECORD : t.form === 'uri-res' ? OFFER_LIST_2169 : OFFER_LIST_1995);
    if (!format) return messageAnswer(406, 'Not Acceptable', 'no acceptable format', undefined, 'resolve');
    return this.#rendered(200, renderLocations(nk.key, [{ url }], format, { prefixRule: { prefix: rule.prefix, target: rule.target } }, this.config.urc0LineLength), headers);
  }

  /** RFC 2483 I=I: are two URNs the same name (lexical equivalence, RFC 8141 §3)? */
  #same(req: ResolutionRequest, t: RequestTarget, nk: NameKey): Answer {
    if (t.other === undefined) return problemAnswer(400, 'Invalid I=I request', { detail: 'I=I takes two URNs: /uri-res/I=I?<urn>=<urn>', code: 'bad-urn', offset: t.urn.length });
    let other: NameKey;
    try {
      other = nameKey(t.other);
    } catch (e) {
      if (e instanceof UriError) return invalid(e, t.other);
      throw e;
    }
    const same = nk.key === other.key;
    const format = negotiate(req.accept, ['plain', 'json']);
    if (!format) return messageAnswer(406, 'Not Acceptable', 'I=I answers text/plain or application/json', undefined, 'resolve');
    const body = format === 'json' ? `${JSON.stringify({ same, a: nk.key, b: other.key })}\n` : `${same ? 'TRUE' : 'FALSE'}\r\n`;
    return { status: 200, headers: { 'content-type': MEDIA_TYPES[format], 'cache-control': this.config.cacheControl, vary: 'Accept' }, body, kind: 'resolve' };
  }
}

/** 400 with the parser's code and offset, in application/problem+json (RFC 9457; STYLE §15). */
function invalid(e: UriError, input: string, shift = 0): Answer {
  return problemAnswer(400, 'Invalid URN', { code: e.code, offset: Math.max(0, e.offset - shift), detail: e.message, input: input.length > 256 ? `${input.slice(0, 256)}...` : input }, 'resolve');
}
