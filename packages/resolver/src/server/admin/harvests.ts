/**
 * `GET /admin/harvests`: per harvested repository, the last harvest (when,
 * outcome, `from`, pages, records applied, unchanged and refused), a
 * harvest under way, the totals, and the newest refusals with their
 * reasons; behind the admin token, each token seeing the repositories
 * whose authority lies within its own.
 */
import type { FastifyInstance } from 'fastify';
import { requireAdminToken, type AdminAuthOptions } from './scope.js';
import { PROBLEM_RESPONSE } from './docs.js';
import type { HarvestRefusal, HarvestState } from '../../store/harvest-log.js';
import { prefixInAuthority } from '../../store/keys.js';
import type { Store } from '../../store/store.js';

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

const countsSchema = { pages: { type: 'integer' }, applied: { type: 'integer' }, unchanged: { type: 'integer' }, refused: { type: 'integer' } } as const;
const refusalSchema = {
  type: 'object',
  additionalProperties: true,
  properties: { at: { type: 'string', format: 'date-time' }, identifier: { type: 'string' }, urn: { type: 'string' }, code: { type: 'string' }, reason: { type: 'string' } },
  required: ['at', 'code', 'reason'],
} as const;
const repositorySchema = {
  type: 'object',
  additionalProperties: true,
  properties: {
    repository: { type: 'string', description: 'base URL, metadata prefix and set' },
    baseUrl: { type: 'string' },
    metadataPrefix: { type: 'string' },
    set: { type: 'string' },
    authority: { type: 'string', description: 'the prefix this repository may write names under' },
    granularity: { type: 'string', enum: ['day', 'second'] },
    nextFrom: { type: 'string', description: 'where the next harvest starts (OAI-PMH from)' },
    running: { type: 'object', additionalProperties: true, properties: { from: { type: 'string' }, began: { type: 'string', format: 'date-time' }, ...countsSchema }, description: 'a harvest under way or interrupted: the next one resumes it' },
    lastHarvest: {
      type: 'object',
      additionalProperties: true,
      properties: { finished: { type: 'string', format: 'date-time' }, status: { type: 'string', enum: ['ok', 'failed'] }, from: { type: 'string' }, ...countsSchema, error: { type: 'object', additionalProperties: true, properties: { code: { type: 'string' }, message: { type: 'string' } } } },
    },
    totals: { type: 'object', additionalProperties: true, properties: { harvests: { type: 'integer' }, applied: { type: 'integer' }, refused: { type: 'integer' } } },
    refusals: { type: 'array', items: refusalSchema, description: 'the newest refusals, newest first' },
  },
  required: ['repository', 'baseUrl', 'metadataPrefix', 'authority', 'totals', 'refusals'],
} as const;

function repositoryJson(s: HarvestState, refusals: HarvestRefusal[]): Record<string, unknown> {
  return {
    repository: s.repo, baseUrl: s.baseUrl, metadataPrefix: s.metadataPrefix, ...(s.set !== undefined ? { set: s.set } : {}), authority: s.authority,
    ...(s.granularity !== undefined ? { granularity: s.granularity } : {}),
    ...(s.nextFrom !== undefined ? { nextFrom: s.nextFrom } : {}),
    ...(s.run !== undefined ? { running: { ...(s.run.from !== undefined ? { from: s.run.from } : {}), began: iso(s.run.began), pages: s.run.pages, applied: s.run.applied, unchanged: s.run.unchanged, refused: s.run.refused } } : {}),
    ...(s.last !== undefined ? { lastHarvest: { ...s.last, finished: iso(s.last.finished) } } : {}),
    totals: s.totals,
    refusals: refusals.map((r) => ({ ...r, at: iso(r.at) })),
  };
}

/**
 * Registers `GET /admin/harvests` behind the admin token.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * const store = await openStore(':memory:');
 * await store.harvestLog.save({ repo: 'https://repo.example/oai epicur', baseUrl: 'https://repo.example/oai', metadataPrefix: 'epicur', authority: 'urn:nbn:de:101', totals: { harvests: 0, applied: 0, refused: 0 } });
 * const app = Fastify();
 * registerAdminHarvests(app, store);
 * const { token } = await createToken(store, { authority: 'urn:nbn:de' });
 * (await app.inject({ url: '/admin/harvests', headers: { authorization: `Bearer ${token}` } })).json().repositories[0].authority; // 'urn:nbn:de:101'
 * await app.close();
 * await store.close();
 * ```
 */
export function registerAdminHarvests(app: FastifyInstance, store: Store, opts: { auth?: AdminAuthOptions; refusals?: number } = {}): void {
  app.register(async (admin) => {
    requireAdminToken(admin, store, opts.auth);
    admin.get('/harvests', {
      schema: {
        summary: 'The OAI-PMH repositories harvested into this resolver: last harvest, records applied, refused and why',
        tags: ['reports'],
        security: [{ bearer: [] }],
        response: {
          200: { description: 'one entry per repository whose authority lies within the token\'s', content: { 'application/json': { schema: { type: 'object', additionalProperties: true, properties: { repositories: { type: 'array', items: repositorySchema } }, required: ['repositories'] } } } },
          '4xx': { description: 'no or a bad token', content: PROBLEM_RESPONSE.content },
        },
      },
    }, async (request) => {
      const auth = request.adminToken!.authority;
      const visible = (await store.harvestLog.all()).filter((s) => auth === '' || s.authority === auth || prefixInAuthority(s.authority, auth));
      const repositories = [];
      for (const s of visible) repositories.push(repositoryJson(s, await store.harvestLog.refusals(s.repo, opts.refusals ?? 20)));
      return { repositories };
    });
  }, { prefix: '/admin' });
}
