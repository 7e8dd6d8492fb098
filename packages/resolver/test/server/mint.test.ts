/**
 * Minting through the admin API: the next free name under a prefix,
 * reserved in the transaction that moves the prefix's counter. 10,000
 * mints in flight at once over several server processes on one store
 * give 10,000 distinct names, each with its right DNB check digit, the
 * counter's values without a gap; errors are problem+json.
 */
import http from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { mintNbn, parseUrn } from 'urikit';
import { createToken, openStore, startServer } from '../../src/index.js';
import { startChildServer, type Child } from '../helpers/child.js';
import { testEngines } from '../helpers/engines.js';

const MINTS = Number(process.env.URIKIT_TEST_MINTS ?? 10_000);

/** A POST of JSON through `agent`: all the mints are in flight at once, over a pool of connections per server. */
function post(agent: http.Agent, url: string, token: string, body: unknown): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => { text += d.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const engines = await testEngines('mint.test');
afterAll(async () => { for (const e of engines) await e.cleanup(); });

for (const engine of engines) {
  const suite = engine.unavailable !== undefined ? describe.skip : describe;
  const processes = 2;
  suite(`${engine.name}: minting`, () => {
    it(`${MINTS.toLocaleString('en')} concurrent mints over ${processes} server processes give ${MINTS.toLocaleString('en')} distinct valid names`, async () => {
      const db = engine.freshDb();
      const setup = await openStore(db);
      const { token } = await createToken(setup, { authority: 'urn:nbn:de' });
      await setup.close();
      const servers: Array<Child & { url: string }> = [];
      try {
        for (let i = 0; i < processes; i++) servers.push(await startChildServer(['--db', db, '--no-rate-limit']));
        const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
        const answers = await Promise.all(Array.from({ length: MINTS }, (_, i) => post(agent, `${servers[i % processes]!.url}/admin/mint`, token, { prefix: 'urn:nbn:de:101-' })))
          .finally(() => agent.destroy());
        expect(answers.filter((a) => a.status !== 201)).toEqual([]);
        const names = answers.map((a) => a.json.record.urn as string);
        expect(new Set(names).size).toBe(MINTS);
        // every one valid, check digit included; the counter's values 1..10,000, none twice, none skipped
        for (const urn of names) expect(parseUrn(urn, { checkNamespace: true }).nid).toBe('nbn');
        expect([...names].sort()).toEqual(Array.from({ length: MINTS }, (_, i) => mintNbn('urn:nbn:de:101-', { counter: i + 1 })).sort());
        const store = await openStore(db);
        try {
          expect(await store.listing.count('urn:nbn:de:101-')).toBe(MINTS);
          expect((await store.names.get(names[0]!))?.status).toBe('reserved');
        } finally {
          await store.close();
        }
      } finally {
        for (const s of servers) s.proc.kill('SIGTERM');
        await Promise.all(servers.map((s) => s.exited));
      }
    }, 300_000);
  });
}

describe('the mint endpoint', () => {
  it('mints at random or from a counter under any URN prefix, registers the record sent, and refuses what it cannot mint', async () => {
    const server = await startServer({ port: 0, db: ':memory:', rateLimit: false, adminRateLimit: false });
    try {
      const { token } = await createToken(server.store, { authority: 'urn:example' });
      const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
      const mint = (body: unknown) => post(agent, `${server.url}/admin/mint`, token, body);
      const random = await Promise.all(Array.from({ length: 300 }, () => mint({ prefix: 'urn:example:r-', mode: 'random', length: 3, alphabet: 'bcdfghjkmnpqrstvwxz' })));
      expect(random.map((a) => a.status).filter((s) => s !== 201)).toEqual([]);
      const urns = random.map((a) => a.json.record.urn as string);
      expect(new Set(urns).size).toBe(300);
      for (const u of urns) expect(u).toMatch(/^urn:example:r-[bcdfghjkmnpqrstvwxz]{3}$/);
      await server.store.writer.put('urn:example:item-0002', { urn: 'urn:example:item-0002' });
      const first = await mint({ prefix: 'URN:Example:item-', width: 4, record: { locations: ['https://example.org/item/1'] } });
      expect(first.status).toBe(201);
      expect(first.json).toMatchObject({ op: 'create', record: { urn: 'urn:example:item-0001', status: 'active', locations: [{ url: 'https://example.org/item/1' }] } });
      expect((await fetch(`${server.url}/urn:example:item-0001`, { redirect: 'manual' })).headers.get('location')).toBe('https://example.org/item/1');
      expect((await mint({ prefix: 'urn:example:item-', width: 4 })).json.record.urn).toBe('urn:example:item-0003');
      const refused = await Promise.all([
        mint({ prefix: 'urn:isbn:978' }),
        mint({ prefix: 'urn:example:a b' }),
        mint({ prefix: 'urn:example:x-', mode: 'sideways' }),
        mint({ prefix: 'urn:example:x-', record: { locations: ['not a url'] } }),
        mint({ prefix: 'urn:example:x-', mode: 'random', length: 1, alphabet: 'a' }).then(() => mint({ prefix: 'urn:example:x-', mode: 'random', length: 1, alphabet: 'a' })),
      ]);
      expect(refused.map((a) => a.status)).toEqual([403, 400, 400, 400, 400]);
      expect(refused[4]!.json).toMatchObject({ code: 'no-free-name' });
      agent.destroy();
    } finally {
      await server.close();
    }
  });
});
