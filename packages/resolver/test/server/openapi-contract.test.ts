// The OpenAPI document against the server it describes, on both engines:
// every operation of the document (read from the document, so that a route
// added without a case here fails) is sent real requests, with a token,
// answering and refusing; each answer's status must be one the document
// lists for the operation, its media type one the document lists for that
// status, and its body must validate against that response's schema
// (Ajv, JSON Schema 2020-12 as OpenAPI 3.1 §4.8.24 uses it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { createToken, dateTimeError, fullDateError, startServer, type RunningServer } from '@urikit/resolver';
import { testEngines } from '../helpers/engines.js';

const engines = await testEngines('openapi-contract.test');
afterAll(async () => { for (const e of engines) await e.cleanup(); });

interface Media { schema?: object }
interface Operation { responses: Record<string, { content?: Record<string, Media> }> }
type Doc = { paths: Record<string, Record<string, Operation>> };

/** One request: the operation it exercises (`METHOD /template` as the document writes it), what is sent, and the status it must get. */
interface Case {
  op: string;
  /** The path sent (the template's parameters filled in, percent-encoded as a client sends them). */
  path: string;
  body?: string | object;
  type?: string;
  headers?: Record<string, string>;
  /** Which token: the one for every authority (default), one for urn:example only, or none. */
  as?: 'all' | 'example' | 'none';
  status: number;
}

const NDJSON = '{"urn":"urn:example:imp-1","locations":["https://example.org/imp-1"]}\n{"urn":"urn:example:imp-2","status":"reserved"}\n';
const CSV = 'urn,url,mediatype\r\nurn:example:imp-3,https://example.org/imp-3,text/html\r\nurn:example:imp-3,https://mirror.example/imp-3.pdf,application/pdf\r\n';
const PAGE_FILES = ['/admin/', '/admin/app.js', '/admin/api.js', '/admin/dom.js', '/admin/views.js', '/admin/name-view.js', '/admin/name-form.js', '/admin/merge-patch.js', '/admin/app.css', '/admin/icon.svg'];

// In order: each case may lean on the ones before it (a name put, then read, moved, withdrawn...).
const CASES: Case[] = [
  { op: 'GET /admin/openapi.json', path: '/admin/openapi.json', as: 'none', status: 200 },
  ...PAGE_FILES.map((f): Case => ({ op: `GET ${f}`, path: f, as: 'none', status: 200 })),
  { op: 'PUT /admin/names/{urn}', path: '/admin/names/urn:example:a', body: { locations: [{ url: 'https://example.org/a', mediaType: 'text/html', preference: 1 }], metadata: { title: 'A' } }, status: 201 },
  { op: 'PUT /admin/names/{urn}', path: '/admin/names/urn:example:a', body: { locations: ['https://example.org/a2'], metadata: { title: 'A' } }, status: 200 },
  { op: 'PUT /admin/names/{urn}', path: '/admin/names/urn:example:b', body: { locations: ['https://example.org/b'] }, as: 'example', status: 201 },
  { op: 'PUT /admin/names/{urn}', path: '/admin/names/urn:example:c', body: { locations: ['https://example.org/c'], locatons: [] }, status: 400 },
  { op: 'PUT /admin/names/{urn}', path: '/admin/names/urn:isbn:0451450523', body: { locations: ['https://example.org/isbn'] }, as: 'example', status: 403 },
  { op: 'PUT /admin/names/{urn}', path: '/admin/names/urn:example:c', body: { locations: ['https://example.org/c'] }, as: 'none', status: 401 },
  { op: 'PUT /admin/names/{urn}', path: '/admin/names/urn:example:a', body: { locations: ['https://example.org/a3'] }, headers: { 'if-match': '"1"' }, status: 412 },
  { op: 'PATCH /admin/names/{urn}', path: '/admin/names/urn:example:a', body: JSON.stringify({ metadata: { title: 'A, again' } }), type: 'application/merge-patch+json', status: 200 },
  { op: 'PATCH /admin/names/{urn}', path: '/admin/names/urn:example:nothing', body: JSON.stringify({ metadata: null }), type: 'application/merge-patch+json', status: 404 },
  { op: 'GET /admin/names/{urn}', path: '/admin/names/urn:example:a', status: 200 },
  { op: 'GET /admin/names/{urn}', path: '/admin/names/urn:example:nothing', status: 404 },
  { op: 'GET /admin/names/{urn}', path: '/admin/names/urn:x:a', status: 400 },
  { op: 'POST /admin/move/{urn}', path: '/admin/move/urn:example:b', body: { to: 'urn:example:a', permanent: true }, status: 200 },
  { op: 'POST /admin/move/{urn}', path: '/admin/move/urn:example:a', body: { to: 'urn:example:a' }, status: 409 },
  { op: 'POST /admin/withdraw/{urn}', path: '/admin/withdraw/urn:example:b', body: { reason: 'a duplicate' }, status: 200 },
  { op: 'POST /admin/withdraw/{urn}', path: '/admin/withdraw/urn:example:nothing', body: { reason: 'none' }, status: 404 },
  { op: 'POST /admin/reinstate/{urn}', path: '/admin/reinstate/urn:example:b', body: {}, status: 200 },
  { op: 'POST /admin/reinstate/{urn}', path: '/admin/reinstate/urn:example:a', body: {}, status: 409 },
  { op: 'GET /admin/history/{urn}', path: '/admin/history/urn:example:b', status: 200 },
  { op: 'GET /admin/history/{urn}', path: '/admin/history/urn:isbn:0451450523', as: 'example', status: 403 },
  { op: 'POST /admin/import', path: '/admin/import', body: NDJSON, type: 'application/x-ndjson', status: 200 },
  { op: 'POST /admin/import', path: '/admin/import', body: CSV, type: 'text/csv', status: 200 },
  { op: 'POST /admin/import', path: '/admin/import?format=csv', body: 'urn,url\r\nurn:example:imp-4,https://example.org/4\r\nurn:x:y,https://example.org/5\r\n', type: 'application/x-ndjson', status: 422 },
  { op: 'POST /admin/import', path: '/admin/import', body: 'urn,url\r\n', type: 'text/plain', status: 415 },
  { op: 'GET /admin/names', path: '/admin/names?prefix=urn:example:&limit=2', status: 200 },
  { op: 'GET /admin/names', path: '/admin/names?links=unchecked', as: 'example', status: 200 },
  { op: 'GET /admin/names', path: '/admin/names?limit=0', status: 400 },
  { op: 'GET /admin/export', path: '/admin/export?prefix=urn:example:', status: 200 },
  { op: 'GET /admin/export', path: '/admin/export?prefix=urn:isbn:', as: 'example', status: 403 },
  { op: 'GET /admin/changes', path: '/admin/changes?limit=3', status: 200 },
  { op: 'GET /admin/changes', path: '/admin/changes?since=2026-01-01T00:00:00Z', as: 'example', status: 200 },
  { op: 'GET /admin/changes', path: '/admin/changes?since=yesterday', status: 400 },
  { op: 'PUT /admin/prefix-rules', path: '/admin/prefix-rules', body: { prefix: 'urn:example:old-', target: 'https://old.example/' }, status: 200 },
  { op: 'PUT /admin/prefix-rules', path: '/admin/prefix-rules', body: { prefix: 'urn:isbn:', target: 'https://books.example/' }, as: 'example', status: 403 },
  { op: 'GET /admin/prefix-rules', path: '/admin/prefix-rules', status: 200 },
  { op: 'DELETE /admin/prefix-rules/{prefix}', path: '/admin/prefix-rules/urn:example:old-', status: 200 },
  { op: 'DELETE /admin/prefix-rules/{prefix}', path: '/admin/prefix-rules/urn:example:old-', status: 404 },
  { op: 'PUT /admin/authorities', path: '/admin/authorities', body: { name: 'urn:dns:library.example', contact: 'mailto:a@library.example', meta: 'a library', children: ['urn:dns:music.library.example'], parents: [], resolvers: { 'urn:dns:music.library.example': 'https://music.example/' } }, status: 200 },
  { op: 'PUT /admin/authorities', path: '/admin/authorities', body: { name: 'urn:dns:other.example', children: [] }, as: 'example', status: 403 },
  { op: 'GET /admin/authorities', path: '/admin/authorities', status: 200 },
  { op: 'GET /admin/links', path: '/admin/links?prefix=urn:example:', status: 200 },
  { op: 'GET /admin/links', path: '/admin/links?prefix=urn:example:&format=csv', status: 200 },
  { op: 'GET /admin/links', path: '/admin/links?state=sick', status: 400 },
  { op: 'GET /admin/stats', path: '/admin/stats?prefix=urn:example:&from=2026-11-01&until=2026-11-30', status: 200 },
  { op: 'GET /admin/stats', path: '/admin/stats?name=urn:example:a&by=day', as: 'example', status: 200 },
  { op: 'GET /admin/stats', path: '/admin/stats?by=service&format=csv', status: 200 },
  { op: 'GET /admin/stats', path: '/admin/stats?from=2026-02-30', status: 400 },
  { op: 'POST /admin/mint', path: '/admin/mint', body: { prefix: 'urn:example:m-', start: 7 }, as: 'example', status: 201 },
  { op: 'POST /admin/mint', path: '/admin/mint', body: { prefix: 'urn:example:r-', mode: 'random', length: 6, record: { locations: ['https://example.org/r'] } }, status: 201 },
  { op: 'POST /admin/mint', path: '/admin/mint', body: { prefix: 'urn:isbn:978-' }, as: 'example', status: 403 },
  { op: 'POST /admin/mint', path: '/admin/mint', body: { prefix: 'urn:example:m-', mode: 'sequential' }, status: 400 },
  { op: 'POST /admin/mint', path: '/admin/mint', body: { prefix: 'urn:example:m-' }, as: 'none', status: 401 },
  { op: 'POST /admin/mint', path: '/admin/mint', body: 'prefix=urn:example:m-', type: 'application/x-www-form-urlencoded', status: 415 },
  { op: 'PUT /admin/names/{urn}', path: '/admin/names/urn:example:big', body: { locations: ['https://example.org/big'], metadata: { text: 'x'.repeat(1 << 20) } }, status: 413 },
  { op: 'GET /admin/harvests', path: '/admin/harvests', status: 200 },
  { op: 'GET /admin/harvests', path: '/admin/harvests', as: 'none', status: 401 },
  // Last: a handover changes how the names under it are answered.
  { op: 'PUT /admin/handover', path: '/admin/handover', body: { authority: 'urn:example:ho', to: 'https://b.example', redirect: false }, status: 200 },
  { op: 'PUT /admin/handover', path: '/admin/handover', body: { authority: 'urn:example:ho', to: 'https://b.example', redirect: true }, as: 'example', status: 200 },
  { op: 'PUT /admin/handover', path: '/admin/handover', body: { authority: 'urn:isbn', to: 'https://b.example' }, as: 'example', status: 403 },
  { op: 'PUT /admin/handover', path: '/admin/handover', body: { authority: 'urn:example:ho', to: 'ftp://b.example' }, status: 400 },
  { op: 'PUT /admin/handover', path: '/admin/handover', body: { authority: 'urn:example:ho', to: null, since: 0 }, status: 400 },
  { op: 'PUT /admin/handover', path: '/admin/handover', body: { authority: 'urn:example:ho', to: null }, status: 200 },
  { op: 'POST /admin/mirror/promote', path: '/admin/mirror/promote', body: { authority: 'urn:example' }, status: 404 },
  { op: 'POST /admin/mirror/promote', path: '/admin/mirror/promote', body: { authority: 'no urn' }, status: 400 },
  { op: 'POST /admin/mirror/promote', path: '/admin/mirror/promote', body: { authority: 'urn:isbn' }, as: 'example', status: 403 },
];

/** The response object the document gives for `status`: the code itself, else its range (OpenAPI 3.1 §4.8.16.2, `4XX`), else `default`. */
function documented(op: Operation, status: number): { key: string; content?: Record<string, Media> } | undefined {
  for (const key of [String(status), `${String(status)[0]}XX`, 'default']) {
    const r = op.responses[key];
    if (r !== undefined) return { key, ...r };
  }
  return undefined;
}

/** Ajv for the document's schemas, with the formats they use checked (an unknown format fails the compile: strict). */
function documentAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  // OpenAPI 3.1 §4.8.24.2: a JSON Schema keyword it adds, for documentation only
  ajv.addKeyword({ keyword: 'example' });
  // RFC 3339 §5.6 full-date and date-time
  ajv.addFormat('date', (s: string) => fullDateError(s) === undefined);
  ajv.addFormat('date-time', (s: string) => dateTimeError(s) === undefined);
  return ajv;
}

/**
 * `schema` with every object schema that lists its properties closed to
 * others (`additionalProperties: false`): a body member the document does
 * not describe fails. A schema that lists none (free-form metadata, this
 * document itself) stays open.
 */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) out[k] = k === 'examples' || k === 'example' || k === 'enum' || k === 'const' ? v : closed(v);
  if (out.properties !== undefined && (out.additionalProperties === undefined || out.additionalProperties === true)) out.additionalProperties = false;
  return out;
}

/**
 * The object schemas under `schema` that do not let other members through
 * (`additionalProperties` absent or false), by their JSON Pointer: the
 * server serializes a JSON answer by its schema (fast-json-stringify),
 * which drops a member the schema does not allow, so such a schema could
 * hide what the handler sent. With every object open, the body is what
 * the handler sent, and {@link closed} checks that the document describes
 * all of it.
 */
function dropping(schema: unknown, at = ''): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  if (Array.isArray(schema)) return schema.flatMap((s, i) => dropping(s, `${at}/${i}`));
  const o = schema as Record<string, unknown>;
  const isObject = o.type === 'object' || (Array.isArray(o.type) && o.type.includes('object')) || o.properties !== undefined;
  const own = isObject && (o.additionalProperties === undefined || o.additionalProperties === false) ? [at === '' ? '/' : at] : [];
  return [...own, ...Object.entries(o).filter(([k]) => k !== 'examples' && k !== 'example' && k !== 'enum').flatMap(([k, v]) => dropping(v, `${at}/${k}`))];
}

for (const engine of engines) {
  const suite = engine.unavailable !== undefined ? describe.skip : describe;
  suite(`${engine.name}: every operation of the OpenAPI document answers as the document says`, () => {
    let server: RunningServer;
    let doc: Doc;
    const tokens: Record<'all' | 'example', string> = { all: '', example: '' };
    beforeAll(async () => {
      server = await startServer({ port: 0, db: engine.freshDb(), rateLimit: false });
      doc = await (await fetch(`${server.url}/admin/openapi.json`)).json() as Doc;
      tokens.all = (await createToken(server.store, { authority: '*' })).token;
      tokens.example = (await createToken(server.store, { authority: 'urn:example' })).token;
      // what the reports report: counts, and a harvested repository with a finished harvest, one under way and refusals
      await server.store.stats.add([{ day: '2026-11-24', key: 'urn:example:a', service: 'I2L', human: 3, robot: 1 }, { day: '2026-11-25', key: 'urn:example:a', service: 'I2R', human: 1, robot: 0 }]);
      const repo = 'https://repo.example/oai epicur';
      await server.store.harvestLog.save({
        repo, baseUrl: 'https://repo.example/oai', metadataPrefix: 'epicur', set: 'urn:example', authority: 'urn:example', granularity: 'second', nextFrom: '2026-11-28T10:00:00Z',
        run: { from: '2026-11-28T10:00:00Z', start: '2026-11-29T10:00:00Z', token: 'abc', began: Date.UTC(2026, 10, 29, 10), pages: 1, applied: 5, unchanged: 1, refused: 1 },
        last: { status: 'failed', finished: Date.UTC(2026, 10, 28, 10), from: '2026-11-27T10:00:00Z', pages: 3, applied: 10, unchanged: 2, refused: 1, error: { code: 'http-status', message: 'the repository answered 503' } },
        totals: { harvests: 2, applied: 15, refused: 2 },
      });
      await server.store.harvestLog.refuse(repo, [{ at: Date.UTC(2026, 10, 29, 10), identifier: 'oai:repo.example:7', urn: 'urn:example:bad', code: 'forbidden', reason: 'outside the authority' }]);
    }, 60_000);
    afterAll(async () => { await server?.close(); });

    it('every operation of the document has a case here, and each case is of an operation of the document', () => {
      const ops = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`));
      const covered = new Set(CASES.map((c) => c.op));
      expect(ops.filter((op) => !covered.has(op)), 'operations without a case').toEqual([]);
      expect([...covered].filter((op) => !ops.includes(op)), 'cases of no operation').toEqual([]);
    });

    it('every JSON answer\'s schema lets every member through, so the serializer drops none', () => {
      const faults: string[] = [];
      for (const [path, methods] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(methods)) {
          for (const [status, response] of Object.entries(op.responses)) {
            for (const [type, media] of Object.entries(response.content ?? {})) {
              if (type === 'application/json' || type.endsWith('+json')) faults.push(...dropping(media.schema).map((at) => `${method.toUpperCase()} ${path} ${status} ${type}: ${at}`));
            }
          }
        }
      }
      expect(faults).toEqual([]);
    });

    it('every answer has a status, a media type and a body the document gives for its operation', async () => {
      const ajv = documentAjv();
      const compiled = new Map<object, ValidateFunction>();
      const faults: string[] = [];
      for (const c of CASES) {
        const [method, template] = c.op.split(' ') as [string, string];
        const op = doc.paths[template]?.[method.toLowerCase()];
        if (op === undefined) continue;
        const headers: Record<string, string> = { ...c.headers };
        const who = c.as ?? 'all';
        if (who !== 'none') headers.authorization = `Bearer ${tokens[who]}`;
        let body: string | undefined;
        if (c.body !== undefined) {
          body = typeof c.body === 'string' ? c.body : JSON.stringify(c.body);
          headers['content-type'] = c.type ?? 'application/json';
        }
        const r = await fetch(`${server.url}${c.path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
        const text = await r.text();
        const what = `${c.op} (${method} ${c.path}) → ${r.status}`;
        if (r.status !== c.status) faults.push(`${what}: the case expects ${c.status}: ${text.slice(0, 300)}`);
        const response = documented(op, r.status);
        if (response === undefined) { faults.push(`${what}: the document lists no such status (${Object.keys(op.responses).join(', ')})`); continue; }
        const type = (r.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
        const media = response.content?.[type];
        if (media === undefined) { faults.push(`${what}: ${type} is not a media type the document gives for ${response.key} (${Object.keys(response.content ?? {}).join(', ')})`); continue; }
        if (media.schema === undefined) { faults.push(`${what}: the document gives no schema for ${type}`); continue; }
        let validate = compiled.get(media.schema);
        if (validate === undefined) compiled.set(media.schema, (validate = ajv.compile(closed(media.schema) as object)));
        const isJson = type === 'application/json' || type.endsWith('+json');
        let value: unknown = text;
        if (isJson) {
          try { value = JSON.parse(text); } catch { faults.push(`${what}: not JSON: ${text.slice(0, 200)}`); continue; }
        }
        if (!validate(value)) faults.push(`${what}: the body is not of the document's schema: ${ajv.errorsText(validate.errors)}: ${text.slice(0, 300)}`);
      }
      expect(faults).toEqual([]);
    }, 120_000);
  });
}
