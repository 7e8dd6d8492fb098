/**
 * What a resolver process does when PostgreSQL goes away underneath it:
 * a terminated backend (what every restart, minor upgrade and failover
 * sends, SQLSTATE 57P01), a restart of the primary, an outage longer than
 * the stale bound, a stopped replica, a promoted replica. Each runs on a
 * cluster of its own built from the machine's PostgreSQL binaries
 * (helpers/replica.ts), against resolver processes that can die
 * (helpers/child.ts): a fault that ended the process would show as the
 * child's exit, which every test checks.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { get } from '../helpers/http.js';
import { replicaProblem, startPgCluster, type PgCluster } from '../helpers/replica.js';
import { runMain, startChildServer, type Child } from '../helpers/child.js';

const problem = await replicaProblem();
if (problem !== undefined) {
  console.warn([
    '',
    '#'.repeat(78),
    '#  POSTGRESQL TEST CLUSTERS NOT BUILT',
    `#  (${problem})`,
    '#  database-away.test.ts is SKIPPED: restarts, outages and failover of PostgreSQL are not tested.',
    '#'.repeat(78),
    '',
  ].join('\n'));
}
const suite = problem === undefined ? describe : describe.skip;

type Server = Child & { url: string };

/** Polls `test` every 50 ms until it is true; the time it took, in ms. */
async function until(test: () => Promise<boolean>, ms: number, what: string): Promise<number> {
  const start = Date.now();
  while (!(await test().catch(() => false))) {
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return Date.now() - start;
}

/** The value of a metric line (`name{labels} value`) in a /metrics text. */
function metric(text: string, line: string): number | undefined {
  const at = text.split('\n').find((l) => l.startsWith(`${line} `));
  return at === undefined ? undefined : Number(at.slice(line.length + 1));
}

async function token(db: string): Promise<string> {
  const child = await runMain(['token', '--db', db, '--authority', '*']);
  expect(await child.exited).toBe(0);
  return (JSON.parse(child.stdout()) as { token: string }).token;
}

const put = (s: Server, t: string, urn: string, url: string) => get(s.url, `/admin/names/${urn}`,
  { authorization: `Bearer ${t}`, 'content-type': 'application/json' }, { method: 'PUT', body: JSON.stringify({ locations: [url] }) });
const health = async (s: Server) => { const r = await get(s.url, '/healthz'); return { http: r.status, ...(JSON.parse(r.text) as Record<string, unknown>) }; };

suite('the primary goes away (one PostgreSQL, no replica)', () => {
  let cluster: PgCluster;
  let db: string;
  let t: string;
  const servers: Server[] = [];
  const serve = async (args: string[]) => {
    const s = await startChildServer(['--db', db, '--no-rate-limit', ...args]);
    servers.push(s);
    return s;
  };

  beforeAll(async () => {
    cluster = await startPgCluster({ replica: false });
    db = `${cluster.primary.url}?schema=resolver`;
    t = await token(db);
  }, 120_000);
  afterEach(async () => {
    // Every process lived through the test: none exited on its own.
    for (const s of servers) expect(s.proc.exitCode, s.stderr()).toBeNull();
    for (const s of servers.splice(0)) { s.proc.kill('SIGTERM'); await s.exited; }
    await cluster.primary.start().catch(() => undefined);
  });
  afterAll(async () => { await cluster?.stop(); });

  it('a terminated backend (57P01) ends no process: the next resolution and write are answered on a new connection', async () => {
    const s = await serve([]);
    expect((await put(s, t, 'urn:example:term', 'https://a.example/1')).status).toBe(201);
    expect((await get(s.url, '/urn:example:term')).status).toBe(302);
    expect(await cluster.primary.terminateBackends()).toBeGreaterThan(0);
    // The pool's idle connections got the error while no request was in flight.
    await new Promise((r) => setTimeout(r, 200));
    expect(s.proc.exitCode).toBeNull();
    expect((await get(s.url, '/urn:example:term')).status).toBe(302);
    expect((await put(s, t, 'urn:example:term', 'https://a.example/2')).status).toBe(200);
    expect((await get(s.url, '/urn:example:term')).headers.get('location')).toBe('https://a.example/2');
    const m = (await get(s.url, '/metrics')).text;
    expect(metric(m, 'urikit_store_lost_connections_total')).toBeGreaterThan(0);
    expect(await health(s)).toMatchObject({ http: 200, primary: 'up', writes: 'ok' });
  });

  it('while the primary is stopped: cached names are answered marked stale, others and writes get 503 with Retry-After; all is back once it starts', async () => {
    const s = await serve([]);
    expect((await put(s, t, 'urn:example:kept', 'https://a.example/kept')).status).toBeLessThan(300);
    expect((await get(s.url, '/urn:example:kept')).status).toBe(302);
    await cluster.primary.stop('fast');
    const r = await get(s.url, '/urn:example:kept');
    expect([r.status, r.headers.get('location'), r.headers.get('warning')]).toEqual([302, 'https://a.example/kept', '110 - "Response is Stale"']);
    expect(r.headers.get('cache-status')).toMatch(/^urikit; hit; ttl=-\d+; detail="store-unavailable"$/);
    expect(r.headers.get('cache-control')).toBe('no-cache');
    // Not cached: no answer can be given honestly.
    const miss = await get(s.url, '/urn:example:never-asked');
    expect([miss.status, miss.headers.get('retry-after'), JSON.parse(miss.text).code]).toEqual([503, '5', 'store-unavailable']);
    const w = await put(s, t, 'urn:example:kept', 'https://a.example/lost');
    expect([w.status, w.headers.get('retry-after')], w.text).toEqual([503, '5']);
    expect(JSON.parse(w.text), w.text).toMatchObject({ code: 'store-unavailable', part: 'primary', outcome: 'not-committed' });
    expect((await get(s.url, '/admin/names', { authorization: `Bearer ${t}` })).status).toBe(503);
    expect(await health(s)).toMatchObject({ http: 200, primary: 'down', reads: 'cache', writes: 'store-unavailable', down: { part: 'primary' } });
    const during = (await get(s.url, '/metrics')).text;
    expect(metric(during, 'urikit_store_up{part="primary"}')).toBe(0);
    expect(metric(during, 'urikit_store_outages_total{part="primary"}')).toBe(1);
    expect(metric(during, 'urikit_stale_answers_total')).toBe(1);
    await cluster.primary.start();
    const back = await until(async () => (await get(s.url, '/urn:example:kept')).headers.get('warning') === null, 10_000, 'fresh answers');
    expect(back).toBeLessThan(10_000);
    expect((await put(s, t, 'urn:example:kept', 'https://a.example/after')).status).toBe(200);
    expect((await get(s.url, '/urn:example:kept')).headers.get('location')).toBe('https://a.example/after');
    expect(await health(s)).toMatchObject({ http: 200, primary: 'up', reads: 'primary', writes: 'ok' });
    expect(metric((await get(s.url, '/metrics')).text, 'urikit_store_outage_seconds_total{part="primary"}')).toBeGreaterThan(0);
  });

  it('past the stale bound (--stale-if-error) a cached name gets 503 too, and /healthz turns 503 for the balancer', async () => {
    const s = await serve(['--stale-if-error', '1']);
    expect((await put(s, t, 'urn:example:bound', 'https://a.example/bound')).status).toBeLessThan(300);
    expect((await get(s.url, '/urn:example:bound')).status).toBe(302);
    await cluster.primary.stop('fast');
    expect((await get(s.url, '/urn:example:bound')).status).toBe(302);
    await new Promise((r) => setTimeout(r, 1500));
    expect((await get(s.url, '/urn:example:bound')).status).toBe(503);
    expect(await health(s)).toMatchObject({ http: 503, reads: 'none', primary: 'down' });
  });

  it('a restart of the primary (pg_ctl restart -m fast) under load: every resolution of a cached name is answered', async () => {
    const s = await serve([]);
    for (let i = 0; i < 20; i++) expect((await put(s, t, `urn:example:load-${i}`, `https://a.example/${i}`)).status).toBeLessThan(300);
    for (let i = 0; i < 20; i++) expect((await get(s.url, `/urn:example:load-${i}`)).status).toBe(302);
    let stop = false;
    const statuses = new Map<number, number>();
    const load = (async () => {
      for (let i = 0; !stop; i++) {
        const r = await get(s.url, `/urn:example:load-${i % 20}`).catch(() => ({ status: 0 }));
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      }
    })();
    await new Promise((r) => setTimeout(r, 300));
    await cluster.primary.restart('fast');
    await new Promise((r) => setTimeout(r, 500));
    stop = true;
    await load;
    expect([...statuses.keys()]).toEqual([302]);
    expect(s.proc.exitCode).toBeNull();
  });
});

suite('the replica goes away, comes back, is promoted', () => {
  let cluster: PgCluster;
  let db: string;
  let t: string;
  let reader: Server;

  beforeAll(async () => {
    cluster = await startPgCluster({ replica: true });
    db = `${cluster.primary.url}?schema=resolver`;
    t = await token(db);
    reader = await startChildServer(['--db', db, '--db-replica', cluster.replica!.url, '--no-rate-limit']);
  }, 120_000);
  afterAll(async () => {
    reader?.proc.kill('SIGTERM');
    await reader?.exited;
    await cluster?.stop();
  });

  it('a stopped replica (pg_ctl stop -m fast) ends no process: reads go to the primary, and back to the replica once it has caught up', async () => {
    expect((await put(reader, t, 'urn:example:r', 'https://a.example/r1')).status).toBe(201);
    await until(async () => (await health(reader)).reads === 'replica', 10_000, 'reads on the replica');
    await cluster.replica!.stop('fast');
    // Uncached names too: the primary answers them.
    for (let i = 0; i < 5; i++) {
      const r = await get(reader.url, '/urn:example:r');
      expect([r.status, r.headers.get('warning')]).toEqual([302, null]);
      const absent = await get(reader.url, `/urn:example:absent-${i}`);
      expect(absent.status, absent.text).toBe(404);
    }
    expect(await health(reader)).toMatchObject({ http: 200, primary: 'up', replica: 'down', reads: 'primary', writes: 'ok' });
    // A write while the replica is away shows on the primary's reads at once.
    expect((await put(reader, t, 'urn:example:r', 'https://a.example/r2')).status).toBe(200);
    expect((await get(reader.url, '/urn:example:r')).headers.get('location')).toBe('https://a.example/r2');
    await cluster.replica!.start();
    const back = await until(async () => (await health(reader)).reads === 'replica', 15_000, 'reads back on the replica');
    expect(back).toBeLessThan(15_000);
    expect((await get(reader.url, '/urn:example:r')).headers.get('location')).toBe('https://a.example/r2');
    expect(reader.proc.exitCode).toBeNull();
    expect(metric((await get(reader.url, '/metrics')).text, 'urikit_store_outages_total{part="replica"}')).toBe(1);
  });

  it('the primary dies and the replica is promoted: the reader keeps answering from the promoted server', async () => {
    expect((await put(reader, t, 'urn:example:p', 'https://a.example/p')).status).toBeLessThan(300);
    await until(async () => (await get(reader.url, '/urn:example:p')).status === 302, 10_000, 'p on the reader');
    await cluster.primary.stop('immediate');
    await cluster.replica!.promote();
    for (let i = 0; i < 5; i++) expect((await get(reader.url, '/urn:example:p')).status).toBe(302);
    await until(async () => (await health(reader)).replica === 'up', 10_000, 'the promoted replica up');
    expect(await health(reader)).toMatchObject({ http: 200, primary: 'down', replica: 'up', reads: 'replica' });
    expect(reader.proc.exitCode).toBeNull();
  });
});
