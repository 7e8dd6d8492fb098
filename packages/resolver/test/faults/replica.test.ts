/**
 * Beyond one machine: resolver servers reading from a real PostgreSQL
 * streaming replica (`--db-replica`), writes going to the primary. A
 * write made through one server shows on another that reads from the
 * replica within the replication lag, which that server reports in
 * /metrics; while the replica stops replaying, the reading server keeps
 * the replica's answers (its reads do go there) and its lag grows, but
 * a client that writes through it reads its own write back at once. The
 * primary and the replica are built for the test from the PostgreSQL
 * binaries on the machine (helpers/replica.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index.js';
import pg from 'pg';
import { createToken } from '../../src/store/index.js';
import { get } from '../helpers/http.js';
import { replicaProblem, startPgCluster, type PgCluster } from '../helpers/replica.js';
import { runMain, startChildServer, type Child } from '../helpers/child.js';
import { PG_URL, postgresProblem } from '../helpers/engines.js';

const problem = await replicaProblem();
if (problem !== undefined) {
  console.warn([
    '',
    '#'.repeat(78),
    '#  POSTGRESQL STREAMING REPLICA NOT BUILT',
    `#  (${problem})`,
    '#  replica.test.ts is SKIPPED: servers reading from a replica are not tested.',
    '#'.repeat(78),
    '',
  ].join('\n'));
}
const suite = problem === undefined ? describe : describe.skip;

/** The value of a gauge in a /metrics text. */
function gauge(text: string, name: string): number | undefined {
  const m = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
  return m ? Number(m[1]) : undefined;
}

/** Polls `test` every 20 ms until it is true; the time it took, in ms. */
async function until(test: () => Promise<boolean>, ms: number, what: string): Promise<number> {
  const start = Date.now();
  while (!(await test())) {
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return Date.now() - start;
}

suite('a streaming replica (--db-replica)', () => {
  let pair: PgCluster;
  let writer: RunningServer;
  let reader: Child & { url: string };
  let token: string;
  let db: string;
  const location = async (base: string, urn: string) => {
    const r = await get(base, `/${urn}`);
    return r.status === 302 ? r.headers.get('location') : `${r.status}`;
  };
  const put = (base: string, urn: string, url: string) => get(base, `/admin/names/${urn}`, { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, { method: 'PUT', body: JSON.stringify({ locations: [url] }) });

  beforeAll(async () => {
    pair = await startPgCluster({ replica: true });
    db = `${pair.primary.url}?schema=resolver`;
    writer = await startServer({ port: 0, db, rateLimit: false });
    ({ token } = await createToken(writer.store, { authority: 'urn:example' }));
    await put(writer.url, 'urn:example:a', 'http://a.example/0');
    // The reader is a process of its own, as behind a load balancer.
    reader = await startChildServer(['--db', db, '--db-replica', pair.replica!.url, '--no-rate-limit']);
  }, 180_000);
  afterAll(async () => {
    reader?.proc.kill('SIGTERM');
    await reader?.exited;
    await writer?.close();
    await pair?.stop();
  });

  it('a write through one server shows on a server reading the replica within the lag it reports', async () => {
    for (let i = 1; i <= 5; i++) {
      const w = await put(writer.url, 'urn:example:a', `http://a.example/${i}`);
      expect(w.status).toBe(200);
      const took = await until(async () => (await location(reader.url, 'urn:example:a')) === `http://a.example/${i}`, 10_000, `version ${i} on the reader`);
      expect(took).toBeLessThan(10_000);
    }
    const metrics = (await get(reader.url, '/metrics')).text;
    const lag = gauge(metrics, 'urikit_replica_lag_seconds');
    expect(lag).toBeGreaterThanOrEqual(0);
    expect(lag).toBeLessThan(5);
    expect(gauge(metrics, 'urikit_replica_lag_bytes')).toBeGreaterThanOrEqual(0);
    // A server that reads the primary has no replica to report.
    expect(gauge((await get(writer.url, '/metrics')).text, 'urikit_replica_lag_seconds')).toBeUndefined();
    expect(JSON.parse((await get(reader.url, '/healthz')).text)).toEqual({ status: 'ok', engine: 'postgres', primary: 'up', replica: 'up', reads: 'replica', writes: 'ok' });
  });

  it('while the replica stops replaying: the reader answers what the replica holds, its lag grows, and its own writes read back at once', async () => {
    await pair.pauseReplay();
    try {
      expect((await put(writer.url, 'urn:example:a', 'http://a.example/paused')).status).toBe(200);
      // The reader's resolutions come from the replica, which has not replayed that write.
      for (let i = 0; i < 10; i++) {
        expect(await location(reader.url, 'urn:example:a')).toBe('http://a.example/5');
        await new Promise((r) => setTimeout(r, 100));
      }
      await until(async () => (gauge((await get(reader.url, '/metrics')).text, 'urikit_replica_lag_seconds') ?? 0) >= 1, 10_000, 'the lag to show');
      // A client writing through the reader sees its write there at once (read from the primary until replayed) ...
      expect((await put(reader.url, 'urn:example:own', 'http://a.example/own')).status).toBe(201);
      expect(await location(reader.url, 'urn:example:own')).toBe('http://a.example/own');
      expect((await put(reader.url, 'urn:example:a', 'http://a.example/own-a')).status).toBe(200);
      expect(await location(reader.url, 'urn:example:a')).toBe('http://a.example/own-a');
      // ... though the replica itself does not hold it yet.
      const c = new pg.Client({ connectionString: pair.replica!.url });
      await c.connect();
      try {
        expect((await c.query('select key from resolver.names where key = $1', ['urn:example:own'])).rows).toEqual([]);
      } finally { await c.end(); }
    } finally {
      await pair.resumeReplay();
    }
    await until(async () => (await location(reader.url, 'urn:example:own')) === 'http://a.example/own', 10_000, 'the own write after replay');
    await until(async () => (gauge((await get(reader.url, '/metrics')).text, 'urikit_replica_lag_seconds') ?? 99) < 1, 10_000, 'the lag to fall once the replica replays');
    expect(await location(writer.url, 'urn:example:a')).toBe('http://a.example/own-a');
    expect(await location(reader.url, 'urn:example:a')).toBe('http://a.example/own-a');
  });

  it('refuses a --db-replica that is not a copy of the primary; reads from one out of recovery (promoted) with a warning', async () => {
    const other = await postgresProblem() === undefined;
    if (other) {
      const child = await runMain(['serve', '--port', '0', '--db', db, '--db-replica', PG_URL]);
      expect(await child.exited).not.toBe(0);
      expect(child.stderr()).toContain('--db-replica is not a copy of --db');
    }
    // The primary itself, as a replica is after a failover: not a standby, the same cluster.
    const self = await startChildServer(['--db', db, '--db-replica', pair.primary.url]);
    try {
      expect(self.stderr()).toContain('--db-replica is not a standby in recovery');
      expect(await location(self.url, 'urn:example:a')).toBe('http://a.example/own-a');
    } finally {
      self.proc.kill('SIGTERM');
      await self.exited;
    }
  });
});
