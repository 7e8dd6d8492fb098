/**
 * `POST /admin/mint`: the next free name under a prefix of the token's
 * authority, from the prefix's counter or at random, with the NBN check
 * digit where the country defines one, reserved (or registered with the
 * record sent) in the transaction that moves the counter (store/minter.ts).
 */
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { UriError } from 'urikit';
import { nameKey, prefixInAuthority } from '../../store/keys.js';
import { LifecycleError } from '../../store/lifecycle.js';
import { MintError, type MintRequest } from '../../store/minter.js';
import type { Store } from '../../store/store.js';
import { InputError, validateNameInput } from '../../store/validate.js';
import { inputProblem, problem, requireAdminToken, untaggedIfMatch, type AdminAuthOptions } from './scope.js';
import { NAME_BODY_SCHEMA, useStrictSchemas } from './schemas.js';
import { recordJson } from '../render/render.js';
import { PROBLEM_RESPONSE as PROBLEM, RECORD_SCHEMA } from './docs.js';

interface MintBody {
  prefix: string;
  mode?: 'counter' | 'random';
  width?: number;
  start?: number;
  length?: number;
  alphabet?: string;
  record?: Record<string, unknown>;
}

/**
 * Registers `POST /admin/mint`, behind the admin token, on a fastify app.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * const store = await openStore(':memory:');
 * const app = Fastify();
 * registerAdminMint(app, store);
 * const { token } = await createToken(store, { authority: 'urn:nbn:de' });
 * const mint = () => app.inject({ method: 'POST', url: '/admin/mint', headers: { authorization: `Bearer ${token}` }, payload: { prefix: 'urn:nbn:de:101-', start: 202007140 } });
 * (await mint()).json().record.urn; // 'urn:nbn:de:101-2020071401'
 * (await mint()).json().record; // matches { urn: 'urn:nbn:de:101-2020071413', status: 'reserved' }
 * await app.close();
 * await store.close();
 * ```
 */
export function registerAdminMint(app: FastifyInstance, store: Store, opts: { auth?: AdminAuthOptions; schemes?: ReadonlySet<string>; guard?: preHandlerAsyncHookHandler } = {}): void {
  app.register(async (admin) => {
    useStrictSchemas(admin);
    requireAdminToken(admin, store, opts.auth);
    admin.addHook('preHandler', untaggedIfMatch);
    if (opts.guard !== undefined) admin.addHook('preHandler', opts.guard);
    admin.post('/mint', {
      schema: {
        summary: 'Mint the next free name under a prefix (counter or random; the NBN check digit appended where the country defines one) and reserve or register it in the same transaction',
        tags: ['names'],
        security: [{ bearer: [] }],
        body: {
          type: 'object',
          required: ['prefix'],
          additionalProperties: false,
          properties: {
            prefix: { type: 'string', minLength: 5, maxLength: 512, description: 'everything before the local part, e.g. urn:nbn:de:101- ; inside the token\'s authority' },
            mode: { type: 'string', enum: ['counter', 'random'], description: 'default: counter' },
            width: { type: 'integer', minimum: 0, maximum: 40, description: 'counter: zero-pad to this many digits' },
            start: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'counter: the first value, for a prefix that has no counter yet (default 1)' },
            length: { type: 'integer', minimum: 1, maximum: 64, description: 'random: how many characters (default 8)' },
            alphabet: { type: 'string', minLength: 1, maxLength: 256, description: 'random: the characters to draw from (default the digits)' },
            record: { ...NAME_BODY_SCHEMA, description: 'what to register under the new name (status, locations, metadata...), as the body of PUT /admin/names; default: reserved' },
          },
        },
        response: {
          201: { description: 'the name minted and its record', content: { 'application/json': { schema: { type: 'object', additionalProperties: true, properties: { op: { type: 'string' }, record: RECORD_SCHEMA }, required: ['op', 'record'] } } } },
          // the refusals of the mint itself, and any other a request can meet (415, 413, 429: the body's type, its size, the token's rate)
          400: PROBLEM, 401: PROBLEM, 403: PROBLEM, 409: PROBLEM, '4xx': PROBLEM,
        },
      },
    }, async (request, reply) => {
      const body = request.body as MintBody;
      let prefix: string;
      let record: MintRequest['record'];
      try {
        // The prefix as keys spell it (NID case, %hh case), checked through a name under it.
        prefix = nameKey(`${body.prefix}0`).key.slice(0, -1);
        if (body.record !== undefined) {
          const { urn: _urn, ...input } = validateNameInput({ ...body.record, urn: `${body.prefix}0` }, opts.schemes !== undefined ? { schemes: opts.schemes } : {}).input;
          record = input;
        }
      } catch (e) {
        if (e instanceof UriError || e instanceof InputError) return problem(reply, 400, 'Invalid mint request', inputProblem(e));
        throw e;
      }
      const auth = request.adminToken!.authority;
      if (!prefixInAuthority(prefix, auth)) return problem(reply, 403, 'Forbidden', { detail: `names under "${prefix}" are outside this token's authority "${auth}"` });
      const req: MintRequest = { prefix, mode: body.mode ?? 'counter' };
      if (body.width !== undefined) req.width = body.width;
      if (body.start !== undefined) req.start = body.start;
      if (body.length !== undefined) req.length = body.length;
      if (body.alphabet !== undefined) req.alphabet = body.alphabet;
      if (record !== undefined) req.record = record;
      try {
        const res = await store.minter.mint(req, request.adminToken!.id);
        return reply.code(201).header('location', `/${res.record.key}`).send({ op: res.op, record: recordJson(res.record) });
      } catch (e) {
        if (e instanceof MintError) return problem(reply, 400, 'Cannot mint', { detail: e.message, code: e.code, ...(e.offset !== undefined ? { offset: e.offset } : {}) });
        if (e instanceof LifecycleError) return problem(reply, 409, 'Conflict', { code: e.code, detail: e.message });
        throw e;
      }
    });
  }, { prefix: '/admin' });
}
