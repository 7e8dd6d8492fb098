/**
 * The query: what one resolution request asks, read once from the request
 * (its target in any request form, `Host`, `Accept`, the HTTP version)
 * into one value, before the store is read: the URN and its key (the
 * 1995 draft §2.3.1 case rule is in the key, store/keys.ts), the
 * ElementID's naming authority (§2.2.1), what is asked and in which format
 * (§3.3, §3.4; RFC 2483 services; RFC 9110 §12.5.1 Accept). A request that
 * asks nothing the service can read is answered here (404, 414, 501, 400).
 */
import { UriError } from 'urikit';
import { negotiate, parseAccept, type ResultFormat } from '../../formats/negotiate.js';
import { nameKey, type NameKey } from '../../store/keys.js';
import { messageAnswer, problemAnswer } from '../render/answer.js';
import type { Answer } from '../render/wire.js';
import type { Asked } from './answer-table.js';
import type { HostAuthorities } from './host-authorities.js';
import { readTarget, type RequestTarget, type Service } from './target.js';

/**
 * A query the service answers: a name (`asked` of it), two names compared
 * (RFC 2483 I=I), or a reserved request of an authority (1995 draft §3.5).
 *
 * @example
 * ```ts
 * const q = readQuery({ target: '/uri-res/I2Ls?urn:isbn:0451450523', httpVersion: '1.1' }, { urnLength: 4096 });
 * 'asks' in q && q.asks === 'name' ? [q.nk.key, q.asked] : undefined; // ['urn:isbn:0451450523', 'list']
 * ```
 */
export type Query =
  | { asks: 'name'; target: RequestTarget; urn: string; nk: NameKey; asked: Asked; accept: string | undefined }
  | { asks: 'same'; target: RequestTarget; nk: NameKey; accept: string | undefined }
  | { asks: 'reserved'; target: RequestTarget; authority: string; request: string; accept: string | undefined };

/** What a query is read from. */
export interface QueryRequest {
  target: string;
  /** '0.9' for a Simple-Request (1995 draft §3.3). */
  httpVersion: string;
  accept?: string | undefined;
  /** The `Host` header (which naming authority a bare ElementID is for, 1995 draft §2.2.1). */
  host?: string | undefined;
}

/** What of the configuration a query is read with. */
export interface QueryConfig {
  urnLength: number;
  authority?: string | undefined;
  authorities?: HostAuthorities | undefined;
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

/** An HTTP/0.9 client takes text/urc-0 (1995 draft §3.3), and anything when urc-0 cannot carry the answer. */
export const SIMPLE_ACCEPT = 'text/urc-0, */*;q=0.1';

/**
 * Reads the query of a request, or the answer to a request that asks
 * nothing the service can read.
 *
 * @example
 * ```ts
 * (readQuery({ target: '/uri-res/I2R?urn:isbn:1', httpVersion: '1.1' }, { urnLength: 4096 }) as { status: number }).status; // 501
 * (readQuery({ target: '/urn+m', httpVersion: '1.1' }, { urnLength: 4096, authority: 'urn:dns:a.example' }) as { asks: string }).asks; // 'reserved'
 * ```
 */
export function readQuery(req: QueryRequest, config: QueryConfig): Query | Answer {
  let t: RequestTarget | undefined;
  try {
    t = readTarget(req.target);
  } catch (e) {
    if (e instanceof UriError) return invalid(e, req.target);
    throw e;
  }
  const accept = req.httpVersion === '0.9' ? SIMPLE_ACCEPT : req.accept;
  if (!t) return messageAnswer(404, 'Not Found', 'not a resolution request', accept, 'other');
  if (t.urn.length > config.urnLength) {
    return problemAnswer(414, 'URN Too Long', { detail: `a URN in a request is at most ${config.urnLength} characters`, code: 'urn-too-long', offset: config.urnLength }, 'resolve');
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
    authority = config.authorities?.forHost(req.host) ?? config.authority;
    if (t.urn.startsWith('urn+')) return { asks: 'reserved', target: t, authority: authority ?? '', request: t.urn, accept };
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
  if (nk.key.startsWith('urn+', last + 1) && last >= nk.authority.length) return { asks: 'reserved', target: t, authority: nk.key.slice(0, last), request: nk.key.slice(last + 1), accept };
  if (t.service === 'I=I') return { asks: 'same', target: t, nk, accept };
  return { asks: 'name', target: t, urn, nk, asked: askedOf(req.httpVersion, t, accept), accept };
}

/**
 * What is asked: the service named (an unknown one falls back to the
 * namespace default, I2L: 2012 draft §2.3.1); `?history`, every version
 * of the record; `?info`, the record; HTTP/0.9, the list (1995 draft
 * §3.3); else what `Accept` prefers (when it accepts none of the five:
 * `locate`, whose answer is then a 406, or the error the name's state
 * calls for).
 */
function askedOf(httpVersion: string, t: RequestTarget, accept: string | undefined): Asked {
  if (t.history === true) return 'history';
  if (t.info) return 'describe';
  if (t.service !== undefined && t.service !== 'I=I') return ASKED_BY_SERVICE[t.service];
  if (t.unknownService !== undefined) return 'locate';
  if (httpVersion === '0.9') return 'list';
  if (accept === undefined) return 'locate';
  const ranges = parseAccept(accept);
  if (ranges.length === 0) return 'locate';
  const f = negotiate(ranges, CHOOSER);
  return f === undefined ? 'locate' : ASKED_BY_FORMAT[f];
}

/**
 * 400 with the parser's code and offset, in application/problem+json (RFC 9457; STYLE §15).
 *
 * @example
 * ```ts
 * invalid(new UriError('bad-nid', 4, 'urn:a:b'), 'urn:a:b').status; // 400
 * ```
 */
export function invalid(e: UriError, input: string, shift = 0): Answer {
  return problemAnswer(400, 'Invalid URN', { code: e.code, offset: Math.max(0, e.offset - shift), detail: e.message, input: input.length > 256 ? `${input.slice(0, 256)}...` : input }, 'resolve');
}
