/**
 * The admin routes of a handover of an authority from one resolver to
 * another (1995 draft §6A: publishers "hand over the resolution to one or
 * more hosts"; docs/resolver.md, "Handing over an authority"):
 * `PUT /admin/handover` at the old resolver (first `redirect: false`, no
 * more writes; then `redirect: true`, every name a 301 to the new one),
 * `POST /admin/mirror/promote` at the new one (its mirror of the
 * authority takes a last harvest and stops: it takes writes).
 */
import type { FastifyInstance } from 'fastify';
import { authorityPrefix, prefixInAuthority } from '../../store/keys.js';
import type { Store } from '../../store/store.js';
import type { Mirrors } from '../mirror.js';
import type { HostAuthorities } from '../resolution/host-authorities.js';
import { PROBLEM_RESPONSE } from './docs.js';
import { problem, requireAdminToken, type AdminAuthOptions } from './scope.js';
import { useStrictSchemas } from './schemas.js';

/** An authority as the body names it, canonical, or undefined if it is no URN prefix. */
function canonicalAuthority(v: unknown): string | undefined {
  if (typeof v !== 'string' || v.length > 512) return undefined;
  try {
    const a = authorityPrefix(v);
    return a === '' ? undefined : a;
  } catch {
    return undefined;
  }
}

const ERRORS = { '4xx': { description: 'a bad request, no or a bad token, an authority outside the token\'s', content: PROBLEM_RESPONSE.content } } as const;

/**
 * Registers the handover routes behind the admin token.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * const store = await openStore(':memory:');
 * const app = Fastify();
 * registerAdminHandover(app, store, { mirrors: () => undefined });
 * const { token } = await createToken(store, { authority: 'urn:isbn' });
 * const put = await app.inject({ method: 'PUT', url: '/admin/handover', headers: { authorization: `Bearer ${token}` }, payload: { authority: 'urn:isbn', to: 'https://b.example', redirect: false } });
 * put.json().handover; // matches { to: 'https://b.example', redirect: false }
 * (await store.authorities.get('urn:isbn'))?.handover?.to; // 'https://b.example'
 * await app.close();
 * await store.close();
 * ```
 */
export function registerAdminHandover(app: FastifyInstance, store: Store, opts: { auth?: AdminAuthOptions; mirrors: () => Mirrors | undefined; authorities?: HostAuthorities }): void {
  app.register(async (admin) => {
    // an unknown field is refused, not dropped (the admin API's rule)
    useStrictSchemas(admin);
    requireAdminToken(admin, store, opts.auth);
    const allowed = (auth: string, authority: string) => auth === '' || authority === auth || prefixInAuthority(authority, auth);

    admin.put('/handover', {
      schema: {
        summary: 'Hand the resolution of an authority over to another resolver: redirect false stops the writes here (the new resolver takes its last harvest), redirect true answers every name under it with 301 to the same request there; to null takes the handover back',
        tags: ['registry'],
        security: [{ bearer: [] }],
        body: {
          type: 'object', additionalProperties: false, required: ['authority', 'to'],
          properties: { authority: { type: 'string', maxLength: 512 }, to: { type: ['string', 'null'], maxLength: 2048 }, redirect: { type: 'boolean' } },
        },
        response: { 200: { description: 'the authority\'s entry', content: { 'application/json': { schema: { type: 'object', additionalProperties: true } } } }, ...ERRORS },
      },
    }, async (request, reply) => {
      const body = request.body as { authority: string; to: string | null; redirect?: boolean };
      const authority = canonicalAuthority(body.authority);
      if (authority === undefined) return problem(reply, 400, 'Invalid authority', { detail: '"authority" is a URN prefix: urn:<nid>[:...]' });
      if (!allowed(request.adminToken!.authority, authority)) return problem(reply, 403, 'Forbidden', { detail: `${authority} is outside this token's authority "${request.adminToken!.authority}"` });
      if (body.to !== null && !/^https?:\/\/[^\s?#]+$/i.test(body.to)) return problem(reply, 400, 'Invalid resolver URL', { detail: '"to" is the base URL of the new resolver (http or https, no query)' });
      const a = (await store.authorities.get(authority)) ?? { name: authority, children: [], parents: [] };
      if (body.to === null) delete a.handover;
      else a.handover = { to: body.to.replace(/\/+$/, ''), redirect: body.redirect === true, since: a.handover?.to === body.to ? a.handover.since : Date.now() };
      await store.authorities.put(a);
      await opts.authorities?.refresh();
      return { authority, ...(a.handover !== undefined ? { handover: { ...a.handover, since: new Date(a.handover.since).toISOString() } } : {}) };
    });

    admin.post('/mirror/promote', {
      schema: {
        summary: 'End the mirroring of an authority (the last step of a handover): one last harvest of the source, then the names take writes here',
        tags: ['harvesting'],
        security: [{ bearer: [] }],
        body: { type: 'object', additionalProperties: false, required: ['authority'], properties: { authority: { type: 'string', maxLength: 512 } } },
        response: { 200: { description: 'the last harvest', content: { 'application/json': { schema: { type: 'object', additionalProperties: true } } } }, ...ERRORS },
      },
    }, async (request, reply) => {
      const authority = canonicalAuthority((request.body as { authority: string }).authority);
      if (authority === undefined) return problem(reply, 400, 'Invalid authority', { detail: '"authority" is a URN prefix: urn:<nid>[:...]' });
      if (!allowed(request.adminToken!.authority, authority)) return problem(reply, 403, 'Forbidden', { detail: `${authority} is outside this token's authority "${request.adminToken!.authority}"` });
      const report = await opts.mirrors()?.promote(authority);
      if (report === undefined) return problem(reply, 404, 'Not mirrored', { detail: `this resolver does not mirror ${authority}` });
      // a handover run again: the promotion is done already
      if (report === 'already') return { authority, promoted: true, already: true };
      if (report.status !== 'ok') return problem(reply, 502, 'Last harvest failed', { detail: `the last harvest of ${authority} failed: the mirror goes on; try again`, harvest: report });
      return { authority, promoted: true, harvest: report };
    });
  }, { prefix: '/admin' });
}
