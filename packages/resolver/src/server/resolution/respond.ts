/**
 * The answer for one state of a name and one thing asked, by the table
 * of answer-table.ts: the status and Reason-Phrase, `Location`, the `Link`
 * fields of RFC 5829 and RFC 6249, validators (1995 draft §5) and the
 * body in the negotiated format.
 */
import { MEDIA_TYPES, negotiate, type ResultFormat } from '../../formats/negotiate.js';
import type { NameLocation } from '../../store/types.js';
import type { Answer } from '../render/answer.js';
import { ANSWERS, DELEGATED_SERVICE, FORMAT_ORDER, type AnswerRow, type Asked } from './answer-table.js';
import { renderMoved, renderReserved, renderTombstone } from '../render/bodies.js';
import { renderHistory } from '../render/history-body.js';
import { entityTag, lastModified, notModified } from './conditional.js';
import { preferredLocation, preferredOrder, renderLocations, renderMessage, renderNames, renderRecord, type Rendered } from '../render/render.js';
import type { HostAuthorities } from './host-authorities.js';
import type { Subject } from './subject.js';
import type { RequestTarget } from './target.js';

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
  /** Canonical naming authority for `GET /<ElementID>` when the `Host` names none the server holds, if any. */
  authority?: string;
  /** The authorities held, by host (1995 draft §2.2.1); without it, `authority` alone. */
  authorities?: HostAuthorities;
  cacheControl: string;
  seeOther: boolean;
  urnLength: number;
  about: ResolverAbout;
  /** Longest text/urc-0 line before a URL is wrapped as <URL:...> (1995 draft §3.4.2). */
  urc0LineLength: number;
}

/**
 * What urn+m says of the resolver (1995 draft §3.5.1): its contact and
 * text, and its place among mirrors (§6A: "mirror sites"): the resolvers
 * whose authorities it mirrors, and the resolvers that mirror it.
 *
 * @example
 * ```ts
 * const about: ResolverAbout = { contact: 'mailto:a@example.org', meta: 'urikit', mirrorOf: [{ authority: 'urn:nbn:de:101-', source: 'https://a.example' }] };
 * about.mirrorOf?.[0]?.source; // 'https://a.example'
 * ```
 */
export interface ResolverAbout {
  contact: string;
  meta: string;
  /** The authorities this resolver mirrors, each with the base URL of its source resolver. */
  mirrorOf?: ReadonlyArray<{ authority: string; source: string }>;
  /** The base URLs of the resolvers that mirror this one. */
  mirrors?: readonly string[];
}

/**
 * What the answer depends on besides the subject: the configuration and
 * the request.
 *
 * @example
 * ```ts
 * const c: RespondContext = { config: { cacheControl: 'no-cache', seeOther: false, urnLength: 4096, urc0LineLength: 76,
 *   about: { contact: 'mailto:a@example.org', meta: '' } }, httpVersion: '1.1', accept: undefined,
 *   ifNoneMatch: undefined, ifModifiedSince: undefined, base: 'http://r.example', target: { form: 'urn', urn: 'urn:ex:a', info: false, list: false } };
 * respond(c, { key: 'urn:ex:a', urn: 'urn:ex:a', state: 'unknown' }, 'locate').status; // 404
 * ```
 */
export interface RespondContext {
  config: ResolutionConfig;
  httpVersion: string;
  accept: string | undefined;
  ifNoneMatch: string | undefined;
  ifModifiedSince: string | undefined;
  base: string;
  target: RequestTarget;
  /** The request target as asked (path and query), for a redirect that repeats it elsewhere. */
  requested?: string;
}

/** The order formats are offered in, for this row and request. */
function offered(asked: Asked, row: AnswerRow, t: RequestTarget): readonly ResultFormat[] {
  if (row.status >= 400) return FORMAT_ORDER.error;
  if (row.body === 'moved' || row.body === 'delegated' || row.body === 'handed-over') return FORMAT_ORDER.locate;
  if (asked === 'list') return t.form === 'uri-res' ? FORMAT_ORDER.listUriRes : FORMAT_ORDER.list;
  return FORMAT_ORDER[asked];
}

/** The locations of the subject, best first (a rule's: its target with the rest of the name, as asked: the key's case may be folded, keys.ts). */
function locationsOf(s: Subject): NameLocation[] {
  if (s.rule) return [{ url: s.rule.target + s.urn.slice(s.rule.prefix.length) }];
  const locs = s.record?.locations ?? [];
  return locs.length > 1 ? preferredOrder(locs) : locs;
}

/**
 * This resolver's URL for another URN in the request's own form (1995
 * draft §4: the client substitutes it), absolute for an HTTP/1.0 client
 * (RFC 1945 §10.11: Location = absoluteURI).
 */
function urlFor(c: RespondContext, asked: Asked, to: string): string {
  const t = c.target;
  let path: string;
  if (t.form === 'uri-res') path = `/uri-res/${asked === 'list' ? 'N2Ls' : 'N2L'}?${to}`;
  else path = `/${to}${t.form === 'urn' && t.query !== undefined ? `?${t.query}` : ''}`;
  return c.httpVersion === '1.1' ? path : `${c.base}${path}`;
}

/**
 * The child's resolver's RFC 2169 request for the same URN (RFC 2169 §2),
 * with the service the request named, else the one for what it asks.
 */
function delegateUrl(c: RespondContext, asked: Asked, s: Subject): string {
  const service = c.target.service !== undefined && c.target.service !== 'I=I' ? c.target.service : DELEGATED_SERVICE[asked];
  return `${s.delegation!.resolver.replace(/\/+$/, '')}/uri-res/${service}?${s.urn}`;
}

/**
 * The same request at the resolver an authority was handed over to (1995
 * draft §6A): the request form kept, a bare ElementID written as the
 * whole URN (the new resolver's Host names no authority of its own).
 */
function handoverUrl(c: RespondContext, s: Subject): string {
  const t = c.target;
  const path = t.form === 'element' || c.requested === undefined ? `/${s.urn}${t.query !== undefined ? `?${t.query}` : ''}` : c.requested;
  return `${s.handover!.to.replace(/\/+$/, '')}${path}`;
}

/** This resolver's URL for the record of the subject (RFC 2483 I2C): every location and link of the name. */
function recordUrl(c: RespondContext, s: Subject): string {
  return `${c.base}/${s.key}?s=I2C`;
}

/** `Link` field values (RFC 8288 §3) for the subject. */
function links(s: Subject, row: AnswerRow, locations: readonly NameLocation[], preferred: NameLocation | undefined): string | undefined {
  const out: string[] = [];
  const r = s.record;
  // RFC 5829 §3.3, §3.4: the next version, and every earlier one the store knows of.
  const successor = r?.status === 'moved' && r.movedTo !== undefined ? r.movedTo : r?.successor;
  if (successor !== undefined) out.push(`<${successor}>; rel="successor-version"`);
  if (r?.movedFrom !== undefined || r?.predecessors !== undefined) {
    for (const p of new Set([...(r.movedFrom ?? []), ...(r.predecessors ?? [])])) out.push(`<${p}>; rel="predecessor-version"`);
  }
  // RFC 6249 §3: the other places the same resource is, beside the one redirected to.
  if (row.location === 'preferred' && locations.length > 1) for (const l of locations) if (l !== preferred) out.push(`<${l.url}>; rel="duplicate"`);
  return out.length > 0 ? out.join(', ') : undefined;
}

/** The body of one row in one format. */
function body(c: RespondContext, s: Subject, asked: Asked, row: AnswerRow, format: ResultFormat, locations: readonly NameLocation[]): Rendered {
  const r = s.record;
  const lineLength = c.config.urc0LineLength;
  const record = recordUrl(c, s);
  switch (row.body) {
    case 'locations':
      return renderLocations(s.urn, locations, format, s.rule ? { prefixRule: { prefix: s.rule.prefix, target: s.rule.target } } : { status: r?.status ?? 'active' }, lineLength);
    case 'record':
      return renderRecord(r!, format, lineLength);
    case 'names':
      return renderNames(`${asked === 'name' ? 'a name' : 'the names'} of ${s.urn}`, namesOf(s, asked), format, undefined, lineLength);
    case 'moved':
      return renderMoved(r!, format);
    case 'tombstone':
      return renderTombstone(r!, format, record);
    case 'history':
      return renderHistory(s.urn, s.history ?? [], format, `${c.base}/${s.key}?history`);
    case 'reserved':
      return renderReserved(r!, format, record);
    case 'unknown':
      return renderMessage('Not Found', `${s.urn} is not known to this resolver`, format);
    case 'delegated': {
      const d = s.delegation!;
      const meta = `${s.urn} belongs to ${d.authority}, resolved at ${d.resolver}`;
      return renderLocations(s.urn, [{ url: delegateUrl(c, asked, s), meta }], format, { delegation: d }, lineLength);
    }
    case 'handed-over': {
      const h = s.handover!;
      const meta = `the resolution of ${h.authority} is handed over to ${h.to}: ${s.urn} is resolved there`;
      return renderLocations(s.urn, [{ url: handoverUrl(c, s), meta }], format, { handover: h }, lineLength);
    }
  }
}

/**
 * RFC 2483 I2N, I2Ns: URNs of the same resource. I2N gives one (the URN
 * a moved name now has, else its own); I2Ns every one the store knows:
 * the name as registered, the URN it moved to, the names that moved to
 * it. A successor names another version, not the same resource: it is a
 * `Link` (RFC 5829), not a synonym.
 */
function namesOf(s: Subject, asked: Asked): string[] {
  const r = s.record;
  const movedTo = r?.status === 'moved' && r.movedTo !== undefined && r.movedTo.slice(0, 4).toLowerCase() === 'urn:' ? r.movedTo : undefined;
  if (asked === 'name') return [movedTo ?? s.urn];
  return [...new Set([s.urn, ...(movedTo !== undefined ? [movedTo] : []), ...(r?.movedFrom ?? [])])];
}

/**
 * The answer for `subject` when `asked`: the row of the table, the body in
 * the format `Accept` prefers among the five (406 when it accepts none
 * and the row is not an error: an error keeps its status, in the server's
 * first format), validators and `Link`s.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * await loadDemoData(store);
 * const record = (await store.names.get('urn:dns:library.bigstate.edu:old-price-list'))!;
 * const c: RespondContext = { config: { cacheControl: 'no-cache', seeOther: false, urnLength: 4096, urc0LineLength: 76,
 *   about: { contact: 'mailto:a@example.org', meta: '' } }, httpVersion: '1.1', accept: 'text/urc-0',
 *   ifNoneMatch: undefined, ifModifiedSince: undefined, base: 'http://r.example', target: { form: 'element', urn: 'old-price-list', info: false, list: false } };
 * const a = respond(c, { key: record.key, urn: record.urn, state: 'moved-urn', record }, 'list');
 * a.status; // 301
 * a.reason; // 'Moved Permanently to urn:dns:library.bigstate.edu:current-version-of-price-list'
 * a.headers['content-type']; // 'text/urc-0'
 * await store.close();
 * ```
 */
export function respond(c: RespondContext, s: Subject, asked: Asked): Answer {
  const row = ANSWERS[s.state][asked];
  const r = s.record;
  const locations = row.body === 'locations' || row.location === 'preferred' ? locationsOf(s) : [];
  const preferred = row.location === 'preferred' ? (s.rule ? locations[0] : preferredLocation(r?.locations ?? [])) : undefined;
  // An active name without a location has nowhere to send a client.
  const effective: AnswerRow = row.location === 'preferred' && preferred === undefined ? { status: 404, reason: 'Not Found (no location)', body: 'locations' } : row;
  const order = offered(asked, effective, c.target);
  let format = negotiate(c.accept, order);
  if (format === undefined) {
    if (effective.status < 400) return notAcceptable(order);
    format = order[0]!;
  }
  const version = r?.version ?? 0;
  const updated = r !== undefined ? Math.max(r.updated, s.health?.changed ?? 0) : s.rule?.updated;
  const headers: Record<string, string> = { 'cache-control': effective.status < 400 ? c.config.cacheControl : 'no-cache', vary: 'Accept' };
  if (updated !== undefined) {
    headers.etag = entityTag(version, `${s.key}|${asked}|${format}|${c.target.form}|${s.rule?.target ?? ''}${s.health?.digest ?? ''}`);
    const lm = lastModified(updated, Date.now());
    if (lm !== undefined) headers['last-modified'] = lm;
    // A redirect is cached and revalidated as any answer is (the client keeps 301/302, 1995 draft §5).
    if ((c.ifNoneMatch !== undefined || c.ifModifiedSince !== undefined) && effective.status < 400
      && notModified({ 'if-none-match': c.ifNoneMatch, 'if-modified-since': c.ifModifiedSince }, headers.etag, updated)) {
      return { status: 304, headers, body: '', kind: 'resolve' };
    }
  }
  const link = links(s, effective, locations, preferred);
  if (link !== undefined) headers.link = link;
  let status = effective.status;
  let reason = effective.reason;
  if (effective.location === 'preferred') {
    status = c.config.seeOther && c.httpVersion === '1.1' ? 303 : 302;
    reason = status === 303 ? 'See Other' : 'Found';
    headers.location = preferred!.url;
  } else if (effective.location === 'target') {
    const to = r!.movedTo!;
    status = r!.permanent ? 301 : 302;
    // 1995 draft §3.4.1: relevant Reason-Phrases, above all for 301 and 302 ("Moved temporarily", §4).
    reason = `${r!.permanent ? 'Moved Permanently' : 'Moved Temporarily'} to ${to}`;
    headers.location = to.slice(0, 4).toLowerCase() === 'urn:' ? urlFor(c, asked, to) : to;
  } else if (effective.location === 'delegate') {
    reason = reason.replace('{authority}', s.delegation!.authority);
    headers.location = delegateUrl(c, asked, s);
  } else if (effective.location === 'handover') {
    reason = reason.replace('{to}', s.handover!.to);
    headers.location = handoverUrl(c, s);
  }
  const rendered = effective.location === 'preferred' && format === 'plain' && locations.length === 1
    // The one-location redirect of every I2L: the short body it always had.
    ? { format, body: `${reason}: ${preferred!.url}\n` }
    : body(c, s, asked, effective, format, locations);
  headers['content-type'] = MEDIA_TYPES[rendered.format];
  return { status, reason, headers, body: rendered.body, kind: 'resolve', ...(link !== undefined ? { allLinks: recordUrl(c, s) } : {}) };
}

/** 406 with the formats the answer is available in (RFC 9110 §15.5.7). */
function notAcceptable(order: readonly ResultFormat[]): Answer {
  const r = renderMessage('Not Acceptable', `this answer is available as ${order.map((f) => MEDIA_TYPES[f].split(';')[0]).join(', ')}`, 'plain');
  return { status: 406, headers: { 'content-type': MEDIA_TYPES.plain, 'cache-control': 'no-cache', vary: 'Accept' }, body: r.body, kind: 'resolve' };
}
