/**
 * The reserved requests of 1995 draft §3.5: ElementIDs beginning "urn+"
 * ask about the resolver and its naming authority rather than a name.
 *
 * ```text
 *   urn+m  meta-information about the resolver (required)      §3.5.1
 *   urn+a  a pointer to the list of all ElementIDs (optional)   §3.5.2
 *          (?list: that list, one ElementID and CRLF a line)
 *   urn+c  the child naming authorities (required)              §3.5.3
 *          (for the whole resolver: every authority it holds)
 *   urn+p  the parent naming authorities (required)             §3.5.4
 * ```
 *
 * A child or parent held by another resolver carries that resolver's
 * base URL (the authority's `resolvers`): a delegation a crawler follows.
 */
import { MEDIA_TYPES, negotiate, type ResultFormat } from '../../formats/negotiate.js';
import { RESERVED_ANSWERS } from './answer-table.js';
import { renderLocations, renderNames } from '../render/render.js';
import type { Store } from '../../store/store.js';
import type { Authority, NameLocation } from '../../store/types.js';
import { messageAnswer, type Answer } from '../render/answer.js';
import { underAuthority } from './host-authorities.js';
import type { ResolverAbout } from './respond.js';

/**
 * What a reserved request needs: the store (with the authority registry),
 * the client's Accept, the resolver's own description and its base URL.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * await loadDemoData(store);
 * const ctx: ReservedContext = { store, accept: 'text/plain', about: { contact: 'mailto:admin@example.org', meta: 'urikit' } };
 * (await answerReserved(ctx, 'urn:dns:urn.flixco.com', 'urn+c', false)).body; // 'urn:dns:classics.flixco.com\r\n'
 * await store.close();
 * ```
 */
export interface ReservedContext {
  store: Store;
  accept: string | undefined;
  about: ResolverAbout;
  /** Absolute URL of this resolver (for the urn+a pointer). */
  base?: string;
  /** Longest text/urc-0 line before a URL is written as `<URL:...>` (1995 draft §3.4.2; default 76). */
  urc0LineLength?: number;
}

function answer(r: { format: ResultFormat; body: string | Uint8Array }, request: keyof typeof RESERVED_ANSWERS): Answer {
  return { status: RESERVED_ANSWERS[request].status, headers: { 'content-type': MEDIA_TYPES[r.format], 'cache-control': 'no-cache', vary: 'Accept' }, body: r.body, kind: 'reserved' };
}

function part(a: Authority | undefined, url: string, meta: string | undefined): NameLocation {
  const l: NameLocation = { url, charset: a?.charset ?? 'US-ASCII', language: a?.language ?? 'en' };
  if (meta !== undefined) l.meta = meta;
  return l;
}

/**
 * urn+m's parts on mirrors (1995 draft §6A: "mirror sites can be
 * specified"): the source of each authority this resolver mirrors (all of
 * them for the whole resolver, else the one asked about or those under
 * it), each resolver that mirrors this one, and the resolver an authority
 * was handed over to.
 */
function mirrorParts(about: ResolverAbout, a: Authority | undefined, authority: string): NameLocation[] {
  const out: NameLocation[] = [];
  for (const m of about.mirrorOf ?? []) {
    if (authority !== '' && !underAuthority(authority, m.authority) && !underAuthority(m.authority, authority) && m.authority !== authority) continue;
    out.push(part(a, m.source, `This resolver is a mirror of ${m.authority}: its names are harvested from the resolver at ${m.source}, which alone takes changes to them.`));
  }
  for (const url of about.mirrors ?? []) out.push(part(a, url, `A mirror of this resolver: it answers the same names the same way.`));
  if (a?.handover !== undefined) out.push(part(a, a.handover.to, `The resolution of ${a.name} is handed over to the resolver at ${a.handover.to}${a.handover.redirect ? ', where every name under it is redirected' : ''}.`));
  return out;
}

/** Streams the names under `authority` that resolve here (withdrawn ones do not), one per CRLF line (§3.5.2). */
async function* allElementIds(store: Store, authority: string): AsyncGenerator<string> {
  const prefix = authority === '' ? '' : `${authority}:`;
  let lines = '';
  for await (const r of store.listing.exportAll(prefix, 2000)) {
    if (r.status === 'withdrawn') continue;
    lines += `${r.key.slice(prefix.length)}\r\n`;
    if (lines.length > 16384) { yield lines; lines = ''; }
  }
  if (lines) yield lines;
}

/**
 * Answers a reserved request for `authority` (canonical; '' for the whole
 * resolver): `elementId` is `urn+m`, `urn+a`, `urn+c` or `urn+p`; any
 * other `urn+` is reserved but not defined, 501.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * await loadDemoData(store);
 * const a = await answerReserved({ store, accept: 'text/urc-0', about: { contact: 'mailto:admin@example.org', meta: 'urikit' } },
 *   'urn:dns:urn.flixco.com', 'urn+m', false);
 * a.headers['content-type']; // 'text/urc-0'
 * new TextDecoder().decode(a.body as Uint8Array).split('\r\n').slice(0, 2); // ['=====US-ASCII/en', 'mailto:url-admin@flixco.com']
 * await store.close();
 * ```
 */
export async function answerReserved(ctx: ReservedContext, authority: string, elementId: string, list: boolean): Promise<Answer> {
  const which = elementId.slice(4);
  if (which !== 'm' && which !== 'a' && which !== 'c' && which !== 'p') {
    const other = RESERVED_ANSWERS.other;
    return messageAnswer(other.status, other.reason, `"${elementId.slice(0, 64)}" is a reserved request (1995 draft §2.3) this resolver does not define`, ctx.accept, 'reserved');
  }
  const request = `urn+${which}` as const;
  const a = authority === '' ? undefined : await ctx.store.authorities.get(authority);
  const title = authority === '' ? 'this resolver' : authority;
  if (which === 'a' && list) {
    return { status: RESERVED_ANSWERS['urn+a?list'].status, headers: { 'content-type': 'text/plain; charset=us-ascii', 'cache-control': 'no-cache' }, body: allElementIds(ctx.store, authority), kind: 'reserved' };
  }
  const format = negotiate(ctx.accept, RESERVED_ANSWERS[request].formats);
  if (!format) return messageAnswer(406, 'Not Acceptable', `${request} answers ${RESERVED_ANSWERS[request].formats.map((f) => MEDIA_TYPES[f].split(';')[0]).join(', ')}`, undefined, 'reserved');
  switch (which) {
    case 'm': {
      // §3.5.1: "likely ... a mailto URL of an administrative contact for the host system"
      const loc = part(a, a?.contact ?? ctx.about.contact, a?.meta ?? ctx.about.meta);
      return answer(renderLocations(`${title}:urn+m`, [loc, ...mirrorParts(ctx.about, a, authority)], format, { authority }, ctx.urc0LineLength), request);
    }
    case 'a': {
      // The count of the names the list gives: those that resolve here (withdrawn ones do not).
      const n = a?.allUrl === undefined ? await ctx.store.listing.count(authority === '' ? '' : `${authority}:`, { resolvable: true }) : undefined;
      const self = `${ctx.base ?? ''}/${authority === '' ? '' : `${authority}:`}urn+a?list`;
      const meta = a?.allUrl !== undefined ? a.allMeta : `This file is a list of the ${n} names of ${title} known to this resolver, one ElementID per line.`;
      return answer(renderLocations(`${title}:urn+a`, [part(a, a?.allUrl ?? self, meta)], format, { authority }, ctx.urc0LineLength), request);
    }
    case 'c': {
      // §3.5.3 for the whole resolver: the authorities it holds (its registry), the roots of its part of the web.
      const children = authority === '' ? (await ctx.store.authorities.list()).map((x) => x.name) : a?.children ?? [];
      return answer(renderNames(`naming authorities authorized by ${title}`, children, format, (n) => `/${n}:urn+c`, ctx.urc0LineLength, a?.resolvers), request);
    }
    case 'p':
      return answer(renderNames(`naming authorities that authorized ${title}`, a?.parents ?? [], format, (n) => `/${n}:urn+p`, ctx.urc0LineLength, a?.resolvers), request);
  }
}
