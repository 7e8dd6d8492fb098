/**
 * The reports of the admin API, within the token's authority:
 * `GET /admin/links` (the health of the locations of the active names,
 * as found by the link checker) and `GET /admin/stats` (resolution counts
 * by name, day or service over a date range), each in JSON or CSV
 * (RFC 4180). Their route schemas are what fastify validates with and
 * what the OpenAPI document is generated from.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { UriError } from 'urikit';
import { isBroken, type LinkState } from '../../links/health.js';
import { DEFAULT_SCHEDULE, type LinkSchedule } from '../../links/schedule.js';
import { fullDateError } from '../../formats/rfc3339.js';
import { toCsv } from '../../reports/csv.js';
import type { StatsCounter } from '../../stats/counter.js';
import { statsReportCsv, type StatsGrouping } from '../../stats/report.js';
import { nameKey } from '../../store/keys.js';
import type { LinkReportLine } from '../../store/link-health.js';
import type { Store } from '../../store/store.js';
import { inScope, isKeyText, problem, requireAdminToken, scopedPrefix, type AdminAuthOptions } from './scope.js';
import { PROBLEM_RESPONSE } from './docs.js';

/**
 * What the report routes need besides the store.
 *
 * @example
 * ```ts
 * const o: AdminReportOptions = { schedule: DEFAULT_SCHEDULE };
 * o.schedule?.reportAfterFailures; // 7
 * ```
 */
export interface AdminReportOptions {
  /** The counter of this process: flushed before a statistics report, so that the report counts every answer given so far. */
  stats?: StatsCounter | undefined;
  /** The link checker's schedule: a location failing `reportAfterFailures` times in a row is `broken`. */
  schedule?: LinkSchedule;
  /** The admin API's rate limits (see {@link requireAdminToken}). */
  auth?: AdminAuthOptions;
}

const STATES = ['unchecked', 'ok', 'failing', 'retry', 'blocked', 'broken'] as const;
const DAY = '^\\d{4}-\\d{2}-\\d{2}$';
const DAY_FORM = 'A calendar date YYYY-MM-DD (RFC 3339 full-date): a month 01 to 12 and a day of that month (29 February in leap years only). '
  + 'Anything else is answered 400 with `parameter`, `code` (bad-date, bad-month, bad-day) and the `offset` of the part at fault.';

/**
 * A `preValidation` hook: the first of `from` and `until` that is not a
 * calendar date is answered 400, naming the parameter and the offset of
 * the part at fault (the schema's pattern alone would say neither).
 */
async function checkDays(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  const q = request.query as Record<string, unknown>;
  for (const parameter of ['from', 'until'] as const) {
    const text = q[parameter];
    const e = typeof text === 'string' ? fullDateError(text) : undefined;
    // fastify: a hook that answers returns the reply, and the route's handler is not run
    if (e !== undefined) return problem(reply, 400, 'Invalid date', { code: e.code, parameter, offset: e.offset, detail: `"${parameter}": ${e.message}` });
  }
  return undefined;
}

const problemSchema = PROBLEM_RESPONSE.content['application/problem+json'].schema;

const linkLineSchema = {
  type: 'object',
  additionalProperties: true,
  properties: {
    urn: { type: 'string', description: 'the name (its canonical key)' },
    url: { type: 'string' },
    state: { type: 'string', enum: ['unchecked', 'ok', 'failing', 'retry', 'blocked'] },
    broken: { type: 'boolean', description: 'failing so many times in a row that the owner should be told' },
    lastCheck: { type: 'string', format: 'date-time' },
    nextCheck: { type: 'string', format: 'date-time' },
    status: { type: 'integer' },
    finalUrl: { type: 'string' },
    elapsedMs: { type: 'integer' },
    failures: { type: 'integer' },
    failingSince: { type: 'string', format: 'date-time' },
    error: { type: 'string' },
  },
  required: ['urn', 'url', 'state', 'broken', 'failures'],
} as const;

const statsGroupSchema = { type: 'object', additionalProperties: true, properties: { group: { type: 'string' }, human: { type: 'integer' }, robot: { type: 'integer' } }, required: ['group', 'human', 'robot'] } as const;

function iso(ms: number): string | undefined {
  return ms > 0 ? new Date(ms).toISOString() : undefined;
}

function lineJson(l: LinkReportLine, schedule: LinkSchedule): Record<string, unknown> {
  const h = l.health;
  const o: Record<string, unknown> = { urn: l.key, url: l.url, state: h.state, broken: isBroken(h, schedule), failures: h.consecutiveFailures };
  const put = (k: string, v: unknown) => { if (v !== undefined) o[k] = v; };
  put('lastCheck', iso(h.lastCheck));
  put('nextCheck', iso(h.nextCheck));
  put('status', h.status);
  put('finalUrl', h.finalUrl);
  put('elapsedMs', h.elapsedMs);
  put('failingSince', h.failingSince !== undefined ? iso(h.failingSince) : undefined);
  put('error', h.error);
  return o;
}

const LINK_COLUMNS = ['urn', 'url', 'state', 'broken', 'failures', 'status', 'error', 'lastCheck', 'nextCheck', 'failingSince', 'finalUrl', 'elapsedMs'];

/** CSV asked for by `format=csv` or an Accept that names text/csv before JSON. */
function wantsCsv(request: FastifyRequest, format: string | undefined): boolean {
  if (format !== undefined) return format === 'csv';
  const accept = request.headers.accept ?? '';
  const csv = accept.indexOf('text/csv');
  const json = accept.indexOf('application/json');
  return csv >= 0 && (json < 0 || csv < json);
}

/**
 * Registers `GET /admin/links` and `GET /admin/stats`, behind the admin
 * token, on a fastify app.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * const store = await openStore(':memory:');
 * await store.writer.put('urn:isbn:0451450523', { urn: 'urn:isbn:0451450523', locations: [{ url: 'https://a.example/' }] });
 * await store.stats.add([{ day: '2026-11-24', key: 'urn:isbn:0451450523', service: 'I2L', human: 3, robot: 1 }]);
 * const app = Fastify();
 * registerAdminReports(app, store);
 * const { token } = await createToken(store, { authority: 'urn:isbn' });
 * const auth = { authorization: `Bearer ${token}` };
 * (await app.inject({ url: '/admin/links', headers: auth })).json().lines[0].state; // 'unchecked'
 * (await app.inject({ url: '/admin/stats?by=service&format=csv', headers: auth })).body; // 'service,human,robot\r\nI2L,3,1\r\n'
 * await app.close();
 * await store.close();
 * ```
 */
export function registerAdminReports(app: FastifyInstance, store: Store, opts: AdminReportOptions = {}): void {
  const schedule = opts.schedule ?? DEFAULT_SCHEDULE;
  app.register(async (admin) => {
    requireAdminToken(admin, store, opts.auth);

    admin.get('/links', {
      schema: {
        summary: 'The health of the locations of the active names under a prefix, as the link checker found it',
        tags: ['reports'],
        security: [{ bearer: [] }],
        querystring: {
          type: 'object',
          properties: {
            prefix: { type: 'string', maxLength: 4096, description: 'names under this prefix (default: the token\'s authority)' },
            state: { type: 'string', maxLength: 100, pattern: `^(${STATES.join('|')})(,(${STATES.join('|')}))*$`, description: 'keep only these states, comma-separated; broken = failing so often the owner should be told' },
            after: { type: 'string', maxLength: 4096, description: 'the "next" of the page before' },
            limit: { type: 'integer', minimum: 1, maximum: 10000, default: 500, description: 'names per page (JSON)' },
            format: { type: 'string', enum: ['json', 'csv'], description: 'csv: every page at once, as text/csv' },
          },
        },
        response: {
          200: {
            description: 'one line per location',
            content: {
              'application/json': { schema: { type: 'object', additionalProperties: true, properties: { prefix: { type: 'string' }, lines: { type: 'array', items: linkLineSchema }, next: { type: 'string' } }, required: ['prefix', 'lines'] } },
              'text/csv': { schema: { type: 'string', description: `columns: ${LINK_COLUMNS.join(', ')}` } },
            },
          },
          '4xx': { description: 'a bad query, or a prefix outside the token\'s authority', content: { 'application/problem+json': { schema: problemSchema } } },
        },
      },
    }, async (request, reply) => {
      const q = request.query as { prefix?: string; state?: string; after?: string; limit: number; format?: 'json' | 'csv' };
      const prefix = scopedPrefix(request, reply, q.prefix);
      if (prefix === undefined) return reply;
      if (q.after !== undefined && !isKeyText(q.after)) return problem(reply, 400, 'Invalid cursor', { detail: '"after" is the "next" of the page before' });
      const asked = q.state === undefined ? undefined : new Set(q.state.split(','));
      const broken = asked?.has('broken') === true;
      const states = asked === undefined ? undefined : new Set<LinkState>([...asked].filter((s): s is LinkState => s !== 'broken'));
      if (broken) states!.add('failing');
      const keep = (l: LinkReportLine) => asked === undefined || asked.has(l.health.state) || (broken && isBroken(l.health, schedule));
      const page = (after: string | undefined, names: number) => store.linkHealth.report({ prefix, names, ...(states !== undefined ? { states } : {}), ...(after !== undefined ? { after } : {}) });
      if (wantsCsv(request, q.format)) {
        reply.type('text/csv; charset=utf-8; header=present');
        return reply.send(Readable.from((async function* () {
          yield toCsv(LINK_COLUMNS, []);
          let after = q.after;
          for (;;) {
            const p = await page(after, 1000);
            const rows = p.lines.filter(keep).map((l) => { const o = lineJson(l, schedule); return LINK_COLUMNS.map((c) => o[c] as string | number | undefined); });
            if (rows.length > 0) yield toCsv([], rows).slice(2);
            if (p.next === undefined) return;
            after = p.next;
          }
        })()));
      }
      const p = await page(q.after, q.limit);
      return { prefix, lines: p.lines.filter(keep).map((l) => lineJson(l, schedule)), ...(p.next !== undefined ? { next: p.next } : {}) };
    });

    admin.get('/stats', {
      preValidation: checkDays,
      schema: {
        summary: 'Resolution counts under a prefix (or of one name) over a range of UTC days, summed by name, day or service; robots apart',
        tags: ['reports'],
        security: [{ bearer: [] }],
        querystring: {
          type: 'object',
          properties: {
            prefix: { type: 'string', maxLength: 4096, description: 'names under this prefix (default: the token\'s authority)' },
            name: { type: 'string', maxLength: 4096, description: 'one name (a URN) instead of a prefix' },
            from: { type: 'string', format: 'date', pattern: DAY, description: `first UTC day, inclusive. ${DAY_FORM}` },
            until: { type: 'string', format: 'date', pattern: DAY, description: `last UTC day, inclusive. ${DAY_FORM}` },
            by: { type: 'string', enum: ['name', 'day', 'service'], default: 'name' },
            limit: { type: 'integer', minimum: 1, maximum: 100000, default: 1000, description: 'groups, largest first' },
            format: { type: 'string', enum: ['json', 'csv'] },
          },
        },
        response: {
          200: {
            description: 'the totals and one line per group',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  additionalProperties: true,
                  properties: {
                    prefix: { type: 'string' }, name: { type: 'string' }, from: { type: 'string' }, until: { type: 'string' },
                    by: { type: 'string', enum: ['name', 'day', 'service'] },
                    totals: { type: 'object', additionalProperties: true, properties: { human: { type: 'integer' }, robot: { type: 'integer' } }, required: ['human', 'robot'] },
                    groups: { type: 'array', items: statsGroupSchema },
                  },
                  required: ['by', 'totals', 'groups'],
                },
              },
              'text/csv': { schema: { type: 'string', description: 'columns: the group (name, day or service), human, robot' } },
            },
          },
          '4xx': { description: 'a bad query, or names outside the token\'s authority', content: { 'application/problem+json': { schema: problemSchema } } },
        },
      },
    }, async (request, reply) => {
      const q = request.query as { prefix?: string; name?: string; from?: string; until?: string; by: StatsGrouping; limit: number; format?: 'json' | 'csv' };
      if (q.from !== undefined && q.until !== undefined && q.from > q.until) return problem(reply, 400, 'Invalid range', { detail: '"from" is after "until"' });
      const scope: { prefix?: string; key?: string } = {};
      if (q.name !== undefined) {
        let key: string;
        try { key = nameKey(q.name).key; } catch (e) {
          if (e instanceof UriError) return problem(reply, 400, 'Invalid URN', { code: e.code, offset: e.offset, detail: e.message });
          throw e;
        }
        if (!inScope(request, reply, key)) return reply;
        scope.key = key;
      } else {
        const prefix = scopedPrefix(request, reply, q.prefix);
        if (prefix === undefined) return reply;
        scope.prefix = prefix;
      }
      await opts.stats?.flush();
      const report = await store.stats.report({ ...scope, limit: q.limit, ...(q.from !== undefined ? { from: q.from } : {}), ...(q.until !== undefined ? { until: q.until } : {}) }, q.by);
      if (wantsCsv(request, q.format)) return reply.type('text/csv; charset=utf-8; header=present').send(statsReportCsv(report));
      return { ...(scope.key !== undefined ? { name: scope.key } : { prefix: scope.prefix }), ...(q.from !== undefined ? { from: q.from } : {}), ...(q.until !== undefined ? { until: q.until } : {}), ...report };
    });
  }, { prefix: '/admin' });
}
