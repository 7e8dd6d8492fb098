// The OpenAPI 3.1 document at /admin/openapi.json (src/server/openapi.ts):
// valid against the OpenAPI 3.1 schema (the official JSON Schema of the
// specification, as @seriousme/openapi-schema-validator ships it), and
// generated from the routes: every admin route the server registered is
// in it, nothing else is, and the body schemas in it are those the
// server validates with.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { createToken } from '../../src/store/tokens.js';
import { MOVE_BODY_SCHEMA, NAME_BODY_SCHEMA, NAME_PATCH_SCHEMA } from '../../src/server/admin/schemas.js';

interface Operation { summary?: string; tags?: string[]; security?: unknown[]; parameters?: Array<{ in: string; name: string; required?: boolean }>; requestBody?: { content: Record<string, { schema: unknown }> }; responses: Record<string, unknown> }
type Doc = { openapi: string; paths: Record<string, Record<string, Operation>>; security: unknown[] };

let server: RunningServer;
let doc: Doc;
beforeAll(async () => {
  server = await startServer({ port: 0, db: ':memory:', rateLimit: false });
  const r = await fetch(`${server.url}/admin/openapi.json`);
  expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
  doc = await r.json() as Doc;
});
afterAll(async () => { await server?.close(); });

/** The operations of the document, as `METHOD /path` with the path's template as written. */
function operations(d: Doc): string[] {
  return Object.entries(d.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)).sort();
}

describe('the OpenAPI document of the admin API', () => {
  it('is valid against the OpenAPI 3.1 schema', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(doc.openapi).toBe('3.1.0');
  });

  it('has every admin route the server registered, and nothing else', () => {
    // HEAD is answered by every GET route (fastify); a trailing "*" is the path parameter it holds
    const registered = server.routes
      .filter((r) => r.url.startsWith('/admin') && r.method !== 'HEAD')
      .map((r) => `${r.method} ${r.url.endsWith('/*') ? `${r.url.slice(0, -1)}{${r.url.startsWith('/admin/prefix-rules/') ? 'prefix' : 'urn'}}` : r.url}`)
      .sort();
    expect(registered.length).toBeGreaterThan(20);
    expect(operations(doc)).toEqual(registered);
  });

  it('says what each operation is, how it authenticates and what it answers', () => {
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const what = `${method} ${path}`;
        expect(op.summary, what).toMatch(/\S/);
        expect(op.tags?.length, what).toBe(1);
        // the page and this document need no token; everything else the bearer token (the document's default)
        if (op.tags![0] === 'page') expect(op.security, what).toEqual([]);
        else expect(op.security ?? doc.security, what).toEqual([{ bearer: [] }]);
        if (path.includes('{')) expect(op.parameters?.find((p) => p.in === 'path'), what).toMatchObject({ required: true });
        expect(Object.keys(op.responses).length, what).toBeGreaterThan(0);
      }
    }
  });

  it('gives the request bodies the schemas the server validates with', () => {
    const body = (path: string, method: string) => doc.paths[path]![method]!.requestBody!.content['application/json']!.schema;
    expect(body('/admin/names/{urn}', 'put')).toEqual(JSON.parse(JSON.stringify(NAME_BODY_SCHEMA)));
    expect(body('/admin/move/{urn}', 'post')).toEqual(JSON.parse(JSON.stringify(MOVE_BODY_SCHEMA)));
    expect(body('/admin/mint', 'post')).toMatchObject({ required: ['prefix'] });
    expect(doc.paths['/admin/names/{urn}']!.patch!.requestBody!.content['application/merge-patch+json']!.schema).toEqual(JSON.parse(JSON.stringify(NAME_PATCH_SCHEMA)));
  });

  it('gives the import its body, NDJSON or CSV, and the example of each is one the server imports', async () => {
    const op = doc.paths['/admin/import']!.post! as Operation & { requestBody: { required: boolean; content: Record<string, { schema: { type: string; description: string }; example: string }> } };
    expect(op.requestBody.required).toBe(true);
    expect(Object.keys(op.requestBody.content)).toEqual(['application/x-ndjson', 'text/csv']);
    const store = server.store;
    const { token } = await createToken(store, { authority: 'urn:isbn' });
    for (const [type, media] of Object.entries(op.requestBody.content)) {
      expect(media.schema.type, type).toBe('string');
      expect(media.schema.description, type).toMatch(/urn/);
      const r = await fetch(`${server.url}/admin/import`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': type }, body: media.example });
      const report = await r.json() as { ok: boolean; errors: unknown[]; created: number; updated: number; unchanged: number };
      expect([type, r.status, report.errors]).toEqual([type, 200, []]);
      expect(report.created + report.updated + report.unchanged, type).toBeGreaterThan(0);
    }
    // the media types the document names are those the route reads; another is 415
    const other = await fetch(`${server.url}/admin/import`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' }, body: 'urn,url\r\n' });
    expect(other.status).toBe(415);
  });

  it('says that every write of a name takes If-Match', () => {
    for (const [path, method] of [['/admin/names/{urn}', 'put'], ['/admin/names/{urn}', 'patch'], ['/admin/move/{urn}', 'post'], ['/admin/withdraw/{urn}', 'post'], ['/admin/reinstate/{urn}', 'post']] as const) {
      expect(doc.paths[path]![method]!.parameters, `${method} ${path}`).toContainEqual(expect.objectContaining({ in: 'header', name: 'if-match', required: false }));
    }
  });
});
