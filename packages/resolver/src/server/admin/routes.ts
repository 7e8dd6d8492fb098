/**
 * The admin API under `/admin/` (DESIGN.md, "The resolver service"):
 * create, update, move, withdraw and reinstate names (a change the
 * lifecycle refuses is 409, store/lifecycle.ts); bulk import (NDJSON, CSV)
 * and export; listing by prefix; history; the change feed;
 * partial-redirect rules and the authority registry. Every request needs `Authorization: Bearer <token>` and may
 * only touch names under the token's authority prefix.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parse, UriError } from 'urikit';
import { recordJson } from '../render/render.js';
import { importNames } from '../../store/import.js';
import { authorityPrefix, inAuthority, nameKey, prefixInAuthority } from '../../store/keys.js';
import { NAME_LINK_HEALTH, type NameLinkHealth } from '../../store/name-health.js';
import type { Store } from '../../store/store.js';
import { LifecycleError } from '../../store/lifecycle.js';
import type { Authority, NameStatus } from '../../store/types.js';
import type { WriteResult } from '../../store/writer.js';
import { checkScheme, DEFAULT_LOCATION_SCHEMES, InputError, validateNameInput } from '../../store/validate.js';
import { urc0Charset } from '../../formats/charset.js';
import { AUTHORITY_BODY_SCHEMA, MOVE_BODY_SCHEMA, NAME_BODY_SCHEMA, PREFIX_RULE_BODY_SCHEMA, REASON_BODY_SCHEMA, useStrictSchemas } from './schemas.js';
import type { Metrics } from '../metrics.js';
import type { RateLimiter } from '../http/ratelimit.js';
import { adminAuth, inScope, isKeyText, problem, scopedPrefix } from './scope.js';
import { ADMIN_ROUTE_DOCS as D } from './docs.js';
import { delegations, RESOLVER_SCHEMES } from './delegations.js';


const STATUSES: ReadonlySet<string> = new Set(['active', 'moved', 'withdrawn', 'reserved']);

/** The URN that follows `prefix` in the raw request path (not decoded: percent-encoding is part of a URN). */
function urnFromPath(request: FastifyRequest, prefix: string): string {
  const url = request.raw.url ?? '';
  const q = url.indexOf('?');
  return (q < 0 ? url : url.slice(0, q)).slice(prefix.length);
}

/**
 * The body of a JSON request as a plain object: `{}` when there is none,
 * undefined when it is anything else (an array, a string, or an NDJSON or
 * CSV stream sent to a route that takes JSON).
 */
function jsonObject(body: unknown): Record<string, unknown> | undefined {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body) || Object.getPrototypeOf(body) !== Object.prototype) return undefined;
  return body as Record<string, unknown>;
}

/** An absolute URI (RFC 3986 §4.3) whose scheme is one of `schemes`. */
function uriField(v: unknown, field: string, schemes: ReadonlySet<string>): string {
  if (typeof v !== 'string' || v.length === 0 || v.length > 4096) throw new InputError(`"${field}" must be a URI`);
  try { parse(v, 'uri'); } catch (e) { if (e instanceof UriError) throw new InputError(`"${field}": ${e.message}`, e.code, e.offset); throw e; }
  checkScheme(v, field, schemes);
  return v;
}

function optText(v: unknown, field: string, max = 1000): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' || v.length > max) throw new InputError(`"${field}" must be a string of at most ${max} characters`);
  return v;
}

/** Counts and caps the bytes of an import body (413 beyond `max`). */
async function* capped(body: AsyncIterable<Uint8Array>, max: number): AsyncGenerator<Uint8Array> {
  let n = 0;
  for await (const chunk of body) {
    n += chunk.length;
    if (n > max) throw new InputError(`the body is larger than ${max} bytes`, 'too-large');
    yield chunk;
  }
}

/**
 * What the admin API is allowed: the largest import body, the schemes a
 * location may have (default `DEFAULT_LOCATION_SCHEMES`), and a rate limit
 * per token (none when absent).
 *
 * @example
 * ```ts
 * import { RateLimiter } from '../http/ratelimit.js';
 * import Fastify from 'fastify';
 * import { Metrics } from '../metrics.js';
 * const opts: AdminOptions = { importBytes: 1 << 30, schemes: new Set(['https']), limiter: new RateLimiter(50, 100) };
 * const store = await openStore(':memory:');
 * const { token } = await createToken(store, { authority: 'urn:isbn' });
 * const app = Fastify();
 * registerAdmin(app, store, new Metrics(), opts);
 * const put = (url: string) => app.inject({ method: 'PUT', url: '/admin/names/urn:isbn:0451450523',
 *   headers: { authorization: `Bearer ${token}` }, payload: { locations: [url] } });
 * (await put('http://a.example/')).statusCode; // 400 (only https here)
 * (await put('https://a.example/')).statusCode; // 201
 * await app.close();
 * await store.close();
 * ```
 */
export interface AdminOptions {
  importBytes: number;
  schemes?: ReadonlySet<string>;
  limiter?: RateLimiter | undefined;
}

/**
 * Registers the admin routes on a fastify app.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * import { Metrics } from '../metrics.js';
 * const app = Fastify();
 * const store = await openStore(':memory:');
 * registerAdmin(app, store, new Metrics(), { importBytes: 1 << 20 });
 * (await app.inject({ method: 'GET', url: '/admin/names' })).statusCode; // 401 (no token)
 * const { token } = await createToken(store, { authority: 'urn:isbn' });
 * const put = await app.inject({ method: 'PUT', url: '/admin/names/urn:isbn:0451450523',
 *   headers: { authorization: `Bearer ${token}` }, payload: { locations: ['https://openlibrary.org/isbn/0451450523'] } });
 * put.statusCode; // 201
 * await app.close();
 * await store.close();
 * ```
 */
export function registerAdmin(app: FastifyInstance, store: Store, metrics: Metrics, limits: AdminOptions): void {
  const schemes = limits.schemes ?? new Set(DEFAULT_LOCATION_SCHEMES);
  // A contact is where a person writes to (1995 draft §3.5.1: "likely ... a mailto URL").
  const contactSchemes = new Set([...schemes, 'mailto']);
  for (const type of ['application/x-ndjson', 'application/ndjson', 'application/jsonl', 'text/csv']) {
    app.addContentTypeParser(type, (_req, payload, done) => done(null, payload));
  }

  app.register(async (admin) => {
    useStrictSchemas(admin);
    admin.addHook('onRequest', adminAuth(store, { limiter: limits.limiter, metrics }));
    const scoped = inScope;

    const keyOr400 = (reply: FastifyReply, urn: string): string | undefined => {
      try {
        return nameKey(urn).key;
      } catch (e) {
        if (e instanceof UriError) { problem(reply, 400, 'Invalid URN', { code: e.code, offset: e.offset, detail: e.message }); return undefined; }
        throw e;
      }
    };

    const inputError = (reply: FastifyReply, e: unknown): FastifyReply => {
      if (e instanceof InputError) return problem(reply, e.code === 'too-large' ? 413 : 400, 'Invalid record', { detail: e.message, ...(e.code !== undefined ? { code: e.code } : {}), ...(e.offset !== undefined ? { offset: e.offset } : {}) });
      throw e;
    };

    /** A write the lifecycle refused: 409, nothing changed (lifecycle.ts). */
    const conflict = (request: FastifyRequest, reply: FastifyReply, e: unknown): FastifyReply => {
      if (!(e instanceof LifecycleError)) throw e;
      request.log.info({ key: e.key, code: e.code, from: e.from, to: e.to }, 'lifecycle refused a write');
      return problem(reply, 409, 'Conflict', { code: e.code, detail: e.message, from: e.from, to: e.to });
    };

    // Create or replace a name: PUT /admin/names/<urn> with the record as JSON.
    admin.put('/names/*', { schema: { ...D.putName, body: NAME_BODY_SCHEMA } }, async (request, reply) => {
      const urn = urnFromPath(request, '/admin/names/');
      const body = request.body === undefined || request.body === null ? undefined : jsonObject(request.body);
      if (!body) return problem(reply, 400, 'Invalid record', { detail: 'the body must be a JSON object' });
      let checked;
      try { checked = validateNameInput({ ...body, urn }, { schemes }); } catch (e) { return inputError(reply, e); }
      if (!scoped(request, reply, checked.key)) return reply;
      let res: WriteResult;
      try { res = await store.writer.put(checked.key, checked.input, request.adminToken!.id); } catch (e) { return conflict(request, reply, e); }
      if (res.op === 'create') reply.code(201).header('location', `/${checked.key}`);
      return { op: res.op, record: recordJson(res.record) };
    });

    admin.get('/names/*', { schema: D.getName }, async (request, reply) => {
      const key = keyOr400(reply, urnFromPath(request, '/admin/names/'));
      if (key === undefined) return reply;
      if (!scoped(request, reply, key)) return reply;
      const r = await store.names.get(key);
      return r ? recordJson(r) : problem(reply, 404, 'Not Found', { detail: `${key} is not in the store` });
    });

    /** POST /admin/<op>/<urn>: move, withdraw or reinstate an existing name. */
    const change = (op: 'move' | 'withdraw' | 'reinstate') => async (request: FastifyRequest, reply: FastifyReply) => {
      const key = keyOr400(reply, urnFromPath(request, `/admin/${op}/`));
      if (key === undefined) return reply;
      if (!scoped(request, reply, key)) return reply;
      const body = jsonObject(request.body);
      if (!body) return problem(reply, 400, 'Invalid request', { detail: 'the body must be a JSON object' });
      const actor = request.adminToken!.id;
      let write: () => Promise<WriteResult | undefined>;
      try {
        const reason = optText(body.reason, 'reason');
        const why = reason !== undefined ? { reason } : {};
        if (op === 'move') {
          if (body.permanent !== undefined && typeof body.permanent !== 'boolean') throw new InputError('"permanent" must be true or false');
          const move = { to: uriField(body.to, 'to', schemes), permanent: body.permanent === true, ...why };
          write = () => store.writer.move(key, move, actor);
        } else {
          write = () => store.writer[op](key, why, actor);
        }
      } catch (e) { return inputError(reply, e); }
      let res: WriteResult | undefined;
      try { res = await write(); } catch (e) { return conflict(request, reply, e); }
      if (!res) return problem(reply, 404, 'Not Found', { detail: `${key} is not in the store` });
      // A reinstatement gives a withdrawn name back its record: logged as well as kept in the history.
      if (op === 'reinstate') request.log.warn({ key, actor, version: res.record.version }, 'name reinstated');
      return { op: res.op, record: recordJson(res.record) };
    };
    admin.post('/move/*', { schema: { ...D.move, body: MOVE_BODY_SCHEMA } }, change('move'));
    admin.post('/withdraw/*', { schema: { ...D.withdraw, body: REASON_BODY_SCHEMA } }, change('withdraw'));
    admin.post('/reinstate/*', { schema: { ...D.reinstate, body: REASON_BODY_SCHEMA } }, change('reinstate'));

    admin.get('/history/*', { schema: D.history }, async (request, reply) => {
      const key = keyOr400(reply, urnFromPath(request, '/admin/history/'));
      if (key === undefined) return reply;
      if (!scoped(request, reply, key)) return reply;
      const h = await store.history.versions(key);
      if (h.length === 0) return problem(reply, 404, 'Not Found', { detail: `${key} has no history` });
      return { key, history: h.map((e) => ({ seq: e.seq, version: e.version, op: e.op, at: new Date(e.at).toISOString(), actor: e.actor, record: recordJson(e.record) })) };
    });

    /** The prefix a listing may read: the requested one when it lies inside the token's authority. */
    const listPrefix = (request: FastifyRequest, reply: FastifyReply): string | undefined => {
      const q = request.query as Record<string, unknown>;
      return scopedPrefix(request, reply, typeof q.prefix === 'string' ? q.prefix : undefined);
    };

    admin.get('/names', { schema: D.list }, async (request, reply) => {
      const prefix = listPrefix(request, reply);
      if (prefix === undefined) return reply;
      const q = request.query as Record<string, unknown>;
      const limit = q.limit === undefined ? 100 : Number(q.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) return problem(reply, 400, 'Invalid limit', { detail: 'limit is an integer from 1 to 10000' });
      if (typeof q.after === 'string' && (q.after.length > 4096 || !isKeyText(q.after))) return problem(reply, 400, 'Invalid cursor', { detail: '"after" is the "next" of the page before' });
      if (q.status !== undefined && !(typeof q.status === 'string' && STATUSES.has(q.status))) return problem(reply, 400, 'Invalid status', { detail: 'status is active, moved, withdrawn or reserved' });
      if (q.links !== undefined && !NAME_LINK_HEALTH.includes(q.links as NameLinkHealth)) return problem(reply, 400, 'Invalid link health', { detail: 'links is healthy, failing or unchecked' });
      const opts = { prefix, limit, ...(typeof q.after === 'string' ? { after: q.after } : {}), ...(typeof q.status === 'string' ? { status: q.status as NameStatus } : {}) };
      const page = q.links !== undefined ? await store.nameHealth.list({ ...opts, links: q.links as NameLinkHealth }) : await store.listing.list(opts);
      const links = await store.nameHealth.of(page.items);
      const items = page.items.map((r) => { const h = links.get(r.key); return h === undefined ? recordJson(r) : { ...recordJson(r), links: h }; });
      return { prefix, items, ...(page.next !== undefined ? { next: page.next } : {}) };
    });

    admin.get('/export', { schema: D.export }, async (request, reply) => {
      const prefix = listPrefix(request, reply);
      if (prefix === undefined) return reply;
      reply.type('application/x-ndjson');
      return reply.send(Readable.from((async function* () {
        for await (const r of store.listing.exportAll(prefix)) yield `${JSON.stringify(recordJson(r))}\n`;
      })()));
    });

    admin.get('/changes', { schema: D.changes }, async (request, reply) => {
      const q = request.query as Record<string, unknown>;
      const since = typeof q.since === 'string' ? q.since : '0';
      const limit = q.limit === undefined ? 1000 : Number(q.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) return problem(reply, 400, 'Invalid limit', { detail: 'limit is an integer from 1 to 10000' });
      const opts: { since?: number; sinceTime?: number; limit: number } = { limit };
      if (/^\d{1,15}$/.test(since)) opts.since = Number(since);
      else {
        const t = since.length <= 40 ? Date.parse(since) : NaN;
        if (!Number.isFinite(t)) return problem(reply, 400, 'Invalid since', { detail: 'since is a change number or an ISO 8601 time' });
        opts.sinceTime = t;
      }
      const auth = request.adminToken!.authority;
      const page = await store.history.changes(opts);
      const items = page.items.filter((e) => inAuthority(e.key, auth)).map((e) => ({ seq: e.seq, key: e.key, version: e.version, op: e.op, at: new Date(e.at).toISOString(), record: recordJson(e.record) }));
      return { items, next: page.next };
    });

    admin.post('/import', { schema: D.import }, async (request, reply) => {
      const q = request.query as Record<string, unknown>;
      const ct = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      const format = q.format === 'csv' || ct === 'text/csv' ? 'csv' : q.format === 'ndjson' || ct.includes('json') ? 'ndjson' : undefined;
      if (!format) return problem(reply, 415, 'Unsupported Media Type', { detail: 'send application/x-ndjson or text/csv' });
      const body = request.body;
      if (!body || typeof (body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator] !== 'function') return problem(reply, 415, 'Unsupported Media Type', { detail: 'send application/x-ndjson or text/csv' });
      let report;
      try {
        report = await importNames(store, capped(body as AsyncIterable<Uint8Array>, limits.importBytes), { format, authority: request.adminToken!.authority, actor: request.adminToken!.id, schemes });
      } catch (e) { return inputError(reply, e); }
      if (report.ok) metrics.importedRecords += report.created + report.updated;
      else metrics.failedImports++;
      return reply.code(report.ok ? 200 : 422).send(report);
    });

    /** A rule's prefix in canonical form (NID case, %hh case, dns AuthorityID case), as the keys it matches are. */
    const rulePrefix = (raw: string): string => nameKey(`${raw}x`).key.slice(0, -1);
    /** A rule may only match names of the token's authority: every key it can match must be in it. */
    const ruleScoped = (request: FastifyRequest, reply: FastifyReply, prefix: string): boolean => {
      if (prefixInAuthority(prefix, request.adminToken!.authority)) return true;
      problem(reply, 403, 'Forbidden', { detail: `a rule for "${prefix}" would match names outside this token's authority "${request.adminToken!.authority}"` });
      return false;
    };

    admin.put('/prefix-rules', { schema: { ...D.putRule, body: PREFIX_RULE_BODY_SCHEMA } }, async (request, reply) => {
      const body = jsonObject(request.body);
      if (!body) return problem(reply, 400, 'Invalid rule', { detail: 'the body must be a JSON object' });
      let prefix: string;
      let target: string;
      try {
        if (typeof body.prefix !== 'string' || body.prefix.length > 1024) throw new InputError('"prefix" must be a URN prefix');
        prefix = rulePrefix(body.prefix);
        target = uriField(body.target, 'target', schemes);
      } catch (e) {
        if (e instanceof UriError) return problem(reply, 400, 'Invalid prefix', { code: e.code, offset: e.offset, detail: e.message });
        return inputError(reply, e);
      }
      if (!ruleScoped(request, reply, prefix)) return reply;
      return store.prefixRules.put(prefix, target);
    });
    admin.get('/prefix-rules', { schema: D.listRules }, async (request) => {
      const auth = request.adminToken!.authority;
      return (await store.prefixRules.list(auth)).filter((r) => prefixInAuthority(r.prefix, auth));
    });
    admin.delete('/prefix-rules/*', { schema: D.deleteRule }, async (request, reply) => {
      let prefix: string;
      try {
        prefix = rulePrefix(urnFromPath(request, '/admin/prefix-rules/'));
      } catch (e) {
        if (e instanceof UriError) return problem(reply, 400, 'Invalid prefix', { code: e.code, offset: e.offset, detail: e.message });
        throw e;
      }
      if (!ruleScoped(request, reply, prefix)) return reply;
      return (await store.prefixRules.delete(prefix)) ? { deleted: prefix } : problem(reply, 404, 'Not Found', { detail: 'no such rule' });
    });

    admin.put('/authorities', { schema: { ...D.putAuthority, body: AUTHORITY_BODY_SCHEMA } }, async (request, reply) => {
      const b = jsonObject(request.body);
      if (!b) return problem(reply, 400, 'Invalid authority', { detail: 'the body must be a JSON object' });
      let a: Authority;
      try {
        if (typeof b.name !== 'string') throw new InputError('"name" is required');
        const name = authorityPrefix(b.name);
        const names = (v: unknown, f: string): string[] => {
          if (v === undefined) return [];
          if (!Array.isArray(v) || v.length > 1000 || !v.every((x) => typeof x === 'string' && x.length < 1024)) throw new InputError(`"${f}" must be a list of names`);
          return (v as string[]).map(authorityPrefix);
        };
        a = { name, children: names(b.children, 'children'), parents: names(b.parents, 'parents') };
        if (b.contact !== undefined) a.contact = uriField(b.contact, 'contact', contactSchemes);
        if (b.allUrl !== undefined) a.allUrl = uriField(b.allUrl, 'allUrl', schemes);
        if (b.resolvers !== undefined) a.resolvers = delegations(b.resolvers, [...a.children, ...a.parents], (v, f) => uriField(v, f, RESOLVER_SCHEMES));
        const meta = optText(b.meta, 'meta', 8192); if (meta !== undefined) a.meta = meta;
        const allMeta = optText(b.allMeta, 'allMeta', 8192); if (allMeta !== undefined) a.allMeta = allMeta;
        const language = optText(b.language, 'language', 64); if (language !== undefined) a.language = language;
        if (b.charset !== undefined) {
          const cs = typeof b.charset === 'string' ? urc0Charset(b.charset) : undefined;
          if (!cs) throw new InputError('"charset" must be US-ASCII or ISO-8859-1..9');
          a.charset = cs;
        }
      } catch (e) {
        if (e instanceof UriError) return problem(reply, 400, 'Invalid authority', { code: e.code, offset: e.offset, detail: e.message });
        return inputError(reply, e);
      }
      if (!scoped(request, reply, a.name)) return reply;
      await store.authorities.put(a);
      return a;
    });
    admin.get('/authorities', { schema: D.listAuthorities }, async () => store.authorities.list());
  }, { prefix: '/admin' });
}
