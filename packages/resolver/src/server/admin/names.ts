/**
 * The admin routes of one name: create or replace it (PUT), edit it
 * (PATCH, JSON Merge Patch, RFC 7396), read it, move, withdraw or
 * reinstate it, and read its history. Every write may be conditional on
 * the name's entity tag (If-Match, 412 when stale) and is checked by the
 * lifecycle (409, store/lifecycle.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { applyMergePatch } from '../../formats/merge-patch.js';
import { recordToInput } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import { InputError, validateNameInput } from '../../store/validate.js';
import type { WriteResult } from '../../store/writer.js';
import { recordJson } from '../render/render.js';
import { ADMIN_ROUTE_DOCS as D } from './docs.js';
import { ifMatch, inputError, jsonObject, keyOr400, MERGE_PATCH, mediaType, optText, refused, uriField, urnFromPath, withTag } from './request.js';
import { MOVE_BODY_SCHEMA, NAME_BODY_SCHEMA, NAME_PATCH_SCHEMA, REASON_BODY_SCHEMA } from './schemas.js';
import { inScope as scoped, NAME_WRITE, problem } from './scope.js';

/** Registers the routes of one name on the admin scope (its token check and schemas set by the scope). */
export async function nameRoutes(admin: FastifyInstance, { store, schemes }: { store: Store; schemes: ReadonlySet<string> }): Promise<void> {
  // Create or replace a name: PUT /admin/names/<urn> with the record as JSON.
  admin.put('/names/*', { schema: { ...D.putName, body: NAME_BODY_SCHEMA }, config: NAME_WRITE }, async (request, reply) => {
    const urn = urnFromPath(request, '/admin/names/');
    const body = request.body === undefined || request.body === null ? undefined : jsonObject(request.body);
    if (!body) return problem(reply, 400, 'Invalid record', { detail: 'the body must be a JSON object' });
    let checked;
    try { checked = validateNameInput({ ...body, urn }, { schemes }); } catch (e) { return inputError(reply, e); }
    if (!scoped(request, reply, checked.key)) return reply;
    let res: WriteResult;
    try { res = await store.writer.put(checked.key, checked.input, request.adminToken!.id, ifMatch(request)); } catch (e) { return refused(request, reply, e); }
    // RFC 9110 §9.3.4: a PUT that made the name is 201, whatever state it was made in (a moved or withdrawn one too).
    if (res.op !== 'unchanged' && res.record.version === 1) reply.code(201).header('location', `/${checked.key}`);
    return { op: res.op, record: withTag(reply, res.record) };
  });

  // Change some fields of a name: PATCH /admin/names/<urn> with a JSON Merge Patch (RFC 7396).
  admin.patch('/names/*', { schema: { ...D.patchName, body: NAME_PATCH_SCHEMA }, config: NAME_WRITE }, async (request, reply) => {
    const key = keyOr400(reply, urnFromPath(request, '/admin/names/'));
    if (key === undefined) return reply;
    if (!scoped(request, reply, key)) return reply;
    // RFC 5789 §2.2: a patch document of a media type the server does not apply is 415, with the one it does.
    if (mediaType(request) !== MERGE_PATCH) return problem(reply.header('accept-patch', MERGE_PATCH), 415, 'Unsupported Media Type', { detail: `send the patch as ${MERGE_PATCH} (RFC 7396)` });
    const body = request.body === undefined || request.body === null ? undefined : jsonObject(request.body);
    if (!body) return problem(reply, 400, 'Invalid patch', { detail: 'the patch must be a JSON object' });
    // "url" is the shorthand of one location: in a patch it replaces the locations.
    const { url, ...rest } = body;
    const patch = url !== undefined && url !== null ? { ...rest, locations: [url] } : rest;
    let res: WriteResult | undefined;
    try {
      res = await store.writer.change(key, (current) => {
        const merged = applyMergePatch(recordToInput(current), patch) as Record<string, unknown>;
        return validateNameInput({ ...merged, urn: current.urn }, { schemes }).input;
      }, request.adminToken!.id, ifMatch(request));
    } catch (e) { return refused(request, reply, e); }
    if (!res) return problem(reply, 404, 'Not Found', { detail: `${key} is not in the store` });
    return { op: res.op, record: withTag(reply, res.record) };
  });

  admin.get('/names/*', { schema: D.getName }, async (request, reply) => {
    const key = keyOr400(reply, urnFromPath(request, '/admin/names/'));
    if (key === undefined) return reply;
    if (!scoped(request, reply, key)) return reply;
    const r = await store.names.get(key);
    // RFC 5789 §3.1: the patch formats the resource takes.
    return r ? withTag(reply.header('accept-patch', MERGE_PATCH), r) : problem(reply, 404, 'Not Found', { detail: `${key} is not in the store` });
  });

  /** POST /admin/<op>/<urn>: move, withdraw or reinstate an existing name. */
  const change = (op: 'move' | 'withdraw' | 'reinstate') => async (request: FastifyRequest, reply: FastifyReply) => {
    const key = keyOr400(reply, urnFromPath(request, `/admin/${op}/`));
    if (key === undefined) return reply;
    if (!scoped(request, reply, key)) return reply;
    const body = jsonObject(request.body);
    if (!body) return problem(reply, 400, 'Invalid request', { detail: 'the body must be a JSON object' });
    const actor = request.adminToken!.id;
    const precondition = ifMatch(request);
    let write: () => Promise<WriteResult | undefined>;
    try {
      const reason = optText(body.reason, 'reason');
      const why = reason !== undefined ? { reason } : {};
      if (op === 'move') {
        if (body.permanent !== undefined && typeof body.permanent !== 'boolean') throw new InputError('"permanent" must be true or false');
        const move = { to: uriField(body.to, 'to', schemes), permanent: body.permanent === true, ...why };
        write = () => store.writer.move(key, move, actor, precondition);
      } else {
        write = () => store.writer[op](key, why, actor, precondition);
      }
    } catch (e) { return inputError(reply, e); }
    let res: WriteResult | undefined;
    try { res = await write(); } catch (e) { return refused(request, reply, e); }
    if (!res) return problem(reply, 404, 'Not Found', { detail: `${key} is not in the store` });
    // A reinstatement gives a withdrawn name back its record: logged as well as kept in the history.
    if (op === 'reinstate') request.log.warn({ key, actor, version: res.record.version }, 'name reinstated');
    return { op: res.op, record: withTag(reply, res.record) };
  };
  admin.post('/move/*', { schema: { ...D.move, body: MOVE_BODY_SCHEMA }, config: NAME_WRITE }, change('move'));
  admin.post('/withdraw/*', { schema: { ...D.withdraw, body: REASON_BODY_SCHEMA }, config: NAME_WRITE }, change('withdraw'));
  admin.post('/reinstate/*', { schema: { ...D.reinstate, body: REASON_BODY_SCHEMA }, config: NAME_WRITE }, change('reinstate'));

  admin.get('/history/*', { schema: D.history }, async (request, reply) => {
    const key = keyOr400(reply, urnFromPath(request, '/admin/history/'));
    if (key === undefined) return reply;
    if (!scoped(request, reply, key)) return reply;
    const h = await store.history.versions(key);
    if (h.length === 0) return problem(reply, 404, 'Not Found', { detail: `${key} has no history` });
    return { key, history: h.map((e) => ({ seq: e.seq, version: e.version, op: e.op, at: new Date(e.at).toISOString(), actor: e.actor, record: recordJson(e.record) })) };
  });
}
