/**
 * The admin routes over many names: the listing by prefix (with link
 * health), the NDJSON export, the change feed and the bulk import
 * (NDJSON or CSV, one transaction, all or nothing).
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { dateTimeError, fullDateError } from '../../formats/rfc3339.js';
import { importNames } from '../../store/import.js';
import { inAuthority } from '../../store/keys.js';
import { NAME_LINK_HEALTH, type NameLinkHealth } from '../../store/name-health.js';
import type { Store } from '../../store/store.js';
import type { NameStatus } from '../../store/types.js';
import type { Metrics } from '../metrics.js';
import { recordJson } from '../render/render.js';
import { ADMIN_ROUTE_DOCS as D } from './docs.js';
import { capped, inputError, mediaType, STATUSES } from './request.js';
import { isKeyText, problem, scopedPrefix } from './scope.js';

/** What the bulk routes need besides the store. */
interface BulkOptions { store: Store; schemes: ReadonlySet<string>; metrics: Metrics; importBytes: number }

/** Registers the routes over many names on the admin scope. */
export async function bulkRoutes(admin: FastifyInstance, { store, schemes, metrics, importBytes }: BulkOptions): Promise<void> {
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
      // RFC 3339 §5.6: a date-time, or a full-date (its first instant, UTC); Date.parse alone would move 2026-02-30 to 2 March
      const e = since.length === 10 ? fullDateError(since) : dateTimeError(since);
      if (e !== undefined) return problem(reply, 400, 'Invalid since', { code: e.code, parameter: 'since', offset: e.offset, detail: `"since" is a change number or an RFC 3339 date or date-time: ${e.message}` });
      opts.sinceTime = Date.parse(since.length === 10 ? `${since}T00:00:00Z` : since);
    }
    const auth = request.adminToken!.authority;
    const page = await store.history.changes(opts);
    const items = page.items.filter((e) => inAuthority(e.key, auth)).map((e) => ({ seq: e.seq, key: e.key, version: e.version, op: e.op, at: new Date(e.at).toISOString(), record: recordJson(e.record) }));
    return { items, next: page.next };
  });

  admin.post('/import', { schema: D.import }, async (request, reply) => {
    const q = request.query as Record<string, unknown>;
    const ct = mediaType(request);
    const format = q.format === 'csv' || ct === 'text/csv' ? 'csv' : q.format === 'ndjson' || ct.includes('json') ? 'ndjson' : undefined;
    if (!format) return problem(reply, 415, 'Unsupported Media Type', { detail: 'send application/x-ndjson or text/csv' });
    const body = request.body;
    if (!body || typeof (body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator] !== 'function') return problem(reply, 415, 'Unsupported Media Type', { detail: 'send application/x-ndjson or text/csv' });
    let report;
    try {
      report = await importNames(store, capped(body as AsyncIterable<Uint8Array>, importBytes), { format, authority: request.adminToken!.authority, actor: request.adminToken!.id, schemes });
    } catch (e) { return inputError(reply, e); }
    if (report.ok) metrics.importedRecords += report.created + report.updated;
    else metrics.failedImports++;
    return reply.code(report.ok ? 200 : 422).send(report);
  });
}
