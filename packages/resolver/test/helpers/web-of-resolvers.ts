/**
 * Three resolvers on 127.0.0.1 that delegate to each other (1995 draft
 * §3.5.3): A holds urn:example:a and delegates its child urn:example:a:b
 * to B (and urn:example:a:gone to a port where no one listens); B holds
 * urn:example:a:b and delegates urn:example:a:b:c to C; C holds
 * urn:example:a:b:c and delegates urn:example:a:b:c:loop back to A (a
 * loop of name delegations) and names urn:example:a, at A, as its child
 * (a cycle of authorities).
 */
import { startServer, type RunningServer } from '../../src/server/index.js';
import { createToken } from '../../src/store/index.js';
import { get } from './http.js';

export interface WebOfResolvers {
  a: RunningServer;
  b: RunningServer;
  c: RunningServer;
  /** A URL where nothing answers. */
  unreachable: string;
  /** PUTs a JSON body to an admin route of `server`. */
  put(server: RunningServer, path: string, body: unknown): Promise<{ status: number; text: string }>;
  close(): Promise<void>;
}

export async function startWebOfResolvers(): Promise<WebOfResolvers> {
  const [a, b, c] = await Promise.all([0, 1, 2].map(() => startServer({ port: 0, db: ':memory:', rateLimit: false, changePollMs: 20 })));
  const tokens = new Map<RunningServer, string>();
  for (const s of [a!, b!, c!]) tokens.set(s, (await createToken(s.store, { authority: '' })).token);
  const put = async (server: RunningServer, path: string, body: unknown) => {
    const r = await get(server.url, path, { authorization: `Bearer ${tokens.get(server)}`, 'content-type': 'application/json' }, { method: 'PUT', body: JSON.stringify(body) });
    return { status: r.status, text: r.text };
  };
  const unreachable = 'http://127.0.0.1:1';
  const must = async (server: RunningServer, path: string, body: unknown) => {
    const r = await put(server, path, body);
    if (r.status >= 300) throw new Error(`${path}: ${r.status} ${r.text}`);
  };
  await must(a!, '/admin/authorities', {
    name: 'urn:example:a', contact: 'mailto:a@example.org', parents: [],
    children: ['urn:example:a:b', 'urn:example:a:gone'], resolvers: { 'urn:example:a:b': b!.url, 'urn:example:a:gone': unreachable },
  });
  await must(b!, '/admin/authorities', {
    name: 'urn:example:a:b', parents: ['urn:example:a'], children: ['urn:example:a:b:c'],
    resolvers: { 'urn:example:a': a!.url, 'urn:example:a:b:c': c!.url },
  });
  await must(c!, '/admin/authorities', {
    name: 'urn:example:a:b:c', parents: ['urn:example:a:b'], children: ['urn:example:a:b:c:loop', 'urn:example:a'],
    resolvers: { 'urn:example:a:b': b!.url, 'urn:example:a:b:c:loop': a!.url, 'urn:example:a': a!.url },
  });
  await must(a!, '/admin/names/urn:example:a:doc', { locations: ['http://example.org/a/doc'] });
  await must(c!, '/admin/names/urn:example:a:b:c:doc', { locations: ['http://example.org/c/doc'] });
  // Each server reads its registry's delegations at its next poll of the store's changes: wait for each to redirect.
  for (const [s, urn] of [[a!, 'urn:example:a:b:x'], [b!, 'urn:example:a:b:c:x'], [c!, 'urn:example:a:b:c:loop:x']] as const) {
    for (let i = 0; i < 250 && (await get(s.url, `/uri-res/I2L?${urn}`)).status !== 302; i++) await new Promise((r) => setTimeout(r, 20));
  }
  return { a: a!, b: b!, c: c!, unreachable, put, close: async () => { await Promise.all([a!.close(), b!.close(), c!.close()]); } };
}
