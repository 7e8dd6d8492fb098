/**
 * `urikit crawl` and `urikit resolve-urn` over three `urikit serve`
 * processes on 127.0.0.1 that delegate to each other (1995 draft §3.5.3):
 * A holds urn:example:a and delegates urn:example:a:b to B and
 * urn:example:a:gone to a port where no one listens; B delegates
 * urn:example:a:b:c to C; C names urn:example:a, at A, as its child (a
 * cycle). Every process started here is stopped here.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuilt, run, services, startService, stop } from './run.js';

const dir = mkdtempSync(join(tmpdir(), 'urikit-crawl-'));
const urls: string[] = [];

/** PUTs each [path, body] through the admin API of the resolver at `url`. */
async function configure(url: string, token: string, puts: Array<[string, unknown]>): Promise<void> {
  for (const [path, body] of puts) {
    const r = await fetch(`${url}${path}`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (r.status >= 300) throw new Error(`${path}: ${r.status} ${await r.text()}`);
  }
}

beforeAll(async () => {
  requireBuilt();
  const tokens: string[] = [];
  for (const name of ['a', 'b', 'c']) {
    const db = join(dir, `${name}.sqlite`);
    urls.push((await startService(['serve', '--port', '0', '--db', db, '--no-rate-limit'])).info.url);
    tokens.push((await run(['token', 'create', '--authority', '*', '--db', db])).stdout.trim());
  }
  const [a, b, c] = urls as [string, string, string];
  await configure(a, tokens[0]!, [
    ['/admin/authorities', { name: 'urn:example:a', parents: [], children: ['urn:example:a:b', 'urn:example:a:gone'], resolvers: { 'urn:example:a:b': b, 'urn:example:a:gone': 'http://127.0.0.1:1' } }],
  ]);
  await configure(b, tokens[1]!, [
    ['/admin/authorities', { name: 'urn:example:a:b', parents: ['urn:example:a'], children: ['urn:example:a:b:c'], resolvers: { 'urn:example:a': a, 'urn:example:a:b:c': c } }],
  ]);
  await configure(c, tokens[2]!, [
    ['/admin/authorities', { name: 'urn:example:a:b:c', parents: ['urn:example:a:b'], children: ['urn:example:a'], resolvers: { 'urn:example:a:b': b, 'urn:example:a': a } }],
    ['/admin/names/urn:example:a:b:c:doc', { locations: ['http://example.org/c/doc'] }],
  ]);
  // Each server reads its registry's delegations at its next poll of the store (every second): wait until A and B redirect.
  for (const [url, urn] of [[a, 'urn:example:a:b:x'], [b, 'urn:example:a:b:c:x']] as const) {
    for (let i = 0; i < 100 && (await fetch(`${url}/uri-res/I2L?${urn}`, { redirect: 'manual' })).status !== 302; i++) await new Promise((r) => setTimeout(r, 100));
  }
}, 60_000);

afterAll(async () => {
  for (const c of services) await stop(c);
  rmSync(dir, { recursive: true, force: true });
});

describe('urikit crawl', () => {
  it('prints the tree of resolvers and authorities, the cycle shown and not followed, the unreachable child with its reason', async () => {
    const [a, b, c] = urls;
    const r = await run(['crawl', '--allow-private', '--timeout-ms', '2000', a!]);
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n').map((l) => l.replace(/\[error: .*\]/, '[error]'))).toEqual([
      a,
      '  urn:example:a',
      `    urn:example:a:b at ${b}  (parents: urn:example:a)`,
      `      urn:example:a:b:c at ${c}  (parents: urn:example:a:b)`,
      `        urn:example:a at ${a}  [cycle: not followed]`,
      '    urn:example:a:gone at http://127.0.0.1:1  [error]',
      '4 resolvers, 3 authorities, 1 error',
      '',
    ]);
    expect(r.stdout).toContain('ECONNREFUSED');
  });

  it('prints JSON, keeps to public addresses unless allowed, and refuses a bad command line', async () => {
    const j = await run(['crawl', '--allow-private', '--json', '--max-resolvers', '2', urls[0]!]);
    const tree = JSON.parse(j.stdout) as { resolvers: string[]; root: { children: Array<{ children: Array<{ children: Array<{ skipped?: string }> }> }> } };
    expect(tree.resolvers).toEqual([urls[0], urls[1]]);
    expect(tree.root.children[0]!.children[0]!.children[0]!.skipped).toBe('more than 2 resolvers');
    const guarded = await run(['crawl', urls[0]!]);
    expect(guarded.code).toBe(1);
    expect(guarded.stdout).toContain('loopback');
    expect((await run(['crawl'])).code).toBe(2);
    expect((await run(['crawl', '--max-depth', 'deep', urls[0]!])).code).toBe(2);
  });
});

describe('urikit resolve-urn across delegations', () => {
  it('asks the parent authority\'s resolver and follows it to the child\'s and the grandchild\'s', async () => {
    const r = await run(['resolve-urn', '--json', '--resolver', urls[0]!, 'urn:example:a:b:c:doc']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 302, locations: [{ url: 'http://example.org/c/doc' }], resolver: `${urls[2]}/uri-res/I2L?urn:example:a:b:c:doc` });
    const bounded = await run(['resolve-urn', '--max-redirects', '1', '--resolver', urls[0]!, 'urn:example:a:b:c:doc']);
    expect(bounded.code).toBe(3);
    expect(bounded.stderr).toContain('redirected this URN more times than allowed');
  });
});
