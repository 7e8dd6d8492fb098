// The handover of an authority from resolver A to resolver B (1995 draft
// §6A; docs/resolver.md, "Handing over an authority"), on loopback, on both
// engines: A holds 100,000 names (bulk import; every state), B mirrors
// them (its first harvest; the next would be in 10 minutes), clients resolve random names at A all along (following A's 301 to
// B once it comes), A changes names just before the switch, then handOver()
// stops A's writes, promotes B after a last harvest (which brings those
// changes) and makes A redirect.
// Asserted and printed: resolutions that failed = 0, names lost = 0, and
// A's export equal to B's, record for record; the history of every name
// equal (each version's kind, time and record) but for who made each
// change (the mirror's actor).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, handOver, importNames, startServer, type RunningServer } from '@urikit/resolver';
import { testEngines } from '../helpers/engines.js';

const engines = await testEngines('handover.test');
afterAll(async () => { for (const e of engines) await e.cleanup(); });

const AUTH = 'urn:example:h';
const N = Number(process.env.URIKIT_HANDOVER_NAMES ?? 100_000);
const CLIENTS = 6;
const urnOf = (i: number) => `${AUTH}:n${i}`;
/** Name i's state: 0-5 active, 6 moved (for good) to name i-1, 7 moved to a URL, 8 withdrawn, 9 reserved. */
function seed(i: number): Record<string, unknown> {
  const urn = urnOf(i);
  switch (i % 10) {
    case 6: return { urn, status: 'moved', movedTo: urnOf(i - 1), permanent: true };
    case 7: return { urn, status: 'moved', movedTo: `https://elsewhere.example/${i}` };
    case 8: return { urn, status: 'withdrawn', reason: 'retracted', locations: [{ url: `https://repo.example/${i}` }] };
    case 9: return { urn, status: 'reserved' };
    default: return { urn, locations: [{ url: `https://repo.example/${i}` }, ...(i % 2 === 0 ? [{ url: `https://fast.example/${i}`, preference: 3 }] : [])], ...(i % 3 === 0 ? { metadata: { title: `Name ${i}` } } : {}) };
  }
}
/** What resolving name i (I2L) must answer wherever it is resolved: the status and where Location points. */
function expected(i: number): { status: number; location?: RegExp } {
  switch (i % 10) {
    // in the request form: /<urn>, /uri-res/I2L?<urn>, /<urn>?s=I2L
    case 6: return { status: 301, location: new RegExp(`${urnOf(i - 1)}(\\?s=I2L)?$`) };
    case 7: return { status: 302, location: new RegExp(`^https://elsewhere\\.example/${i}$`) };
    case 8: return { status: 410 };
    case 9: return { status: 404 };
    default: return { status: 302, location: new RegExp(`^https://${i % 2 === 0 ? 'fast' : 'repo'}\\.example/${i}$`) };
  }
}
const FORMS = [(u: string) => `/${u}`, (u: string) => `/uri-res/I2L?${u}`, (u: string) => `/${u}?s=I2L`];

/** Clients resolving random names at A until stopped, following A's handover redirect to B. */
function load(a: () => string, b: () => string) {
  const counts = { resolutions: 0, failed: 0, viaRedirect: 0, direct: 0, failures: [] as string[] };
  let running = true;
  const client = async () => {
    while (running) {
      const i = Math.floor(Math.random() * N);
      const path = FORMS[i % FORMS.length]!(urnOf(i));
      try {
        let res = await fetch(`${a()}${path}`, { redirect: 'manual' });
        await res.arrayBuffer();
        let redirected = false;
        // A's handover: 301 to the same request at B
        if (res.status === 301 && res.headers.get('location') === `${b()}${path}`) {
          res = await fetch(res.headers.get('location')!, { redirect: 'manual' });
          await res.arrayBuffer();
          redirected = true;
        }
        const want = expected(i);
        const loc = res.headers.get('location') ?? '';
        counts.resolutions++;
        if (redirected) counts.viaRedirect++; else counts.direct++;
        if (res.status !== want.status || (want.location !== undefined && !want.location.test(loc))) {
          counts.failed++;
          if (counts.failures.length < 10) counts.failures.push(`${path}: ${res.status} ${loc} (wanted ${want.status} ${want.location ?? ''})${redirected ? ' via the redirect' : ''}`);
        }
      } catch (e) {
        counts.resolutions++;
        counts.failed++;
        if (counts.failures.length < 10) counts.failures.push(`${path}: ${(e as Error).message}`);
      }
    }
  };
  const clients = Array.from({ length: CLIENTS }, client);
  return { counts, stop: async () => { running = false; await Promise.all(clients); } };
}

/** Every history entry under the authority, as (key, version, kind, time, record), in key and version order; and the actors. */
async function historyOf(server: RunningServer): Promise<{ entries: string[]; actors: Set<string> }> {
  const rows: Array<{ key: string; version: number; line: string }> = [];
  const actors = new Set<string>();
  for (let since = 0; ;) {
    const page = await server.store.history.changes({ since, limit: 10_000 });
    for (const e of page.items) {
      if (!e.key.startsWith(`${AUTH}:`)) continue;
      rows.push({ key: e.key, version: e.version, line: JSON.stringify([e.key, e.version, e.op, e.at, e.record]) });
      actors.add(e.actor ?? '(none)');
    }
    if (page.items.length === 0) break;
    since = page.next;
  }
  rows.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : x.version - y.version));
  return { entries: rows.map((r) => r.line), actors };
}

const exportOf = async (base: string, token: string) => (await (await fetch(`${base}/admin/export?prefix=${AUTH}:`, { headers: { authorization: `Bearer ${token}` } })).text()).split('\n').filter((l) => l !== '');

for (const engine of engines) {
  const suite = engine.unavailable !== undefined ? describe.skip : describe;
  suite(`${engine.name}: handing ${N.toLocaleString('en')} names over from A to B under load`, () => {
    let a: RunningServer;
    let b: RunningServer;
    let ta: string;
    let tb: string;
    let dbB: string;
    const mirrorOfA = () => ({ sources: [{ source: a.url, authority: AUTH, everyMs: 600_000 }], harvest: { fetch: { allowAddresses: 'all' as const, timeoutMs: 60_000 } } });
    let t0 = 0;
    const timing: Record<string, number> = {};
    beforeAll(async () => {
      t0 = Date.now();
      a = await startServer({ port: 0, db: engine.freshDb(), rateLimit: false, adminRateLimit: false, stats: false, cacheControl: 'no-cache', oai: { pageSize: 2000 } });
      let t = Date.now();
      const lines = Array.from({ length: N }, (_, i) => JSON.stringify(seed(i))).join('\n');
      expect(await importNames(a.store, lines, { format: 'ndjson' })).toMatchObject({ ok: true, created: N });
      timing.import = Date.now() - t;
      t = Date.now();
      dbB = engine.freshDb();
      b = await startServer({ port: 0, db: dbB, rateLimit: false, adminRateLimit: false, stats: false, cacheControl: 'no-cache', oai: false, mirror: mirrorOfA() });
      while ((await b.store.listing.count(`${AUTH}:`)) < N) await new Promise((r) => setTimeout(r, 200));
      timing.mirror = Date.now() - t;
      ta = (await createToken(a.store, { authority: AUTH })).token;
      tb = (await createToken(b.store, { authority: AUTH })).token;
    }, 300_000);
    afterAll(async () => {
      await b?.close();
      await a?.close();
    });

    it('no resolution fails, no name is lost, A\'s export before is B\'s export after', async () => {
      const l = load(() => a.url, () => b.url);
      await new Promise((r) => setTimeout(r, 1000));
      // changes at A just before the switch: the last harvest must bring them
      const changed: string[] = [];
      for (let k = 0; k < 20; k++) {
        const u = `${AUTH}:late-${k}`;
        await a.store.writer.put(u, { urn: u, locations: [{ url: `https://late.example/${k}` }] });
        changed.push(u);
      }
      for (let k = 0; k < 20; k++) {
        const u = urnOf(10 * k + 1);
        await a.store.writer.put(u, { urn: u, locations: [{ url: `https://repo.example/${10 * k + 1}` }, { url: `https://late.example/n${k}` }] });
        changed.push(u);
      }
      let t = Date.now();
      const report = await handOver({ authority: AUTH, from: a.url, fromToken: ta, to: b.url, toToken: tb, settleMs: 1500 });
      timing.handover = Date.now() - t;
      expect(report.error).toBeUndefined();
      expect(report.ok).toBe(true);
      await new Promise((r) => setTimeout(r, 1500));
      await l.stop();

      t = Date.now();
      // A's names have not changed since its writes stopped: its export now is its export before the switch
      const [before, after] = [await exportOf(a.url, ta), await exportOf(b.url, tb)];
      timing.exports = Date.now() - t;
      const keysAfter = new Set(after.map((x) => (JSON.parse(x) as { key: string }).key));
      const lost = before.filter((x) => !keysAfter.has((JSON.parse(x) as { key: string }).key)).length;
      let differing = 0;
      for (let i = 0; i < Math.max(before.length, after.length); i++) if (before[i] !== after[i]) differing++;
      console.log(`${engine.name}: ${N} names; import ${timing.import} ms, first mirror ${timing.mirror} ms, handover ${timing.handover} ms (last harvest ${report.harvest?.applied} records), exports ${timing.exports} ms, total ${Date.now() - t0} ms`);
      console.log(`${engine.name}: resolutions ${l.counts.resolutions} (${l.counts.direct} at A, ${l.counts.viaRedirect} through A's 301 to B), failed ${l.counts.failed}; names lost ${lost}; export records ${before.length} at A, ${after.length} at B, differing ${differing}`);
      expect(l.counts.failures).toEqual([]);
      expect(l.counts.failed).toBe(0);
      expect(l.counts.direct).toBeGreaterThan(0);
      expect(l.counts.viaRedirect).toBeGreaterThan(0);
      expect(lost).toBe(0);
      expect(before.length).toBe(N + 20);
      expect(differing).toBe(0);
      // the mirror harvests every 10 minutes here: only the last harvest brings A's late changes
      expect(report.harvest?.applied).toBe(changed.length);
      for (const u of changed) expect(await b.store.names.get(u)).toEqual(await a.store.names.get(u));

      // the history of every name: every version with its kind, time and record, in both; the actor is the mirror's at B
      t = Date.now();
      const [ha, hb] = [await historyOf(a), await historyOf(b)];
      timing.history = Date.now() - t;
      const aligned = ha.entries.filter((x, i) => x === hb.entries[i]).length;
      console.log(`${engine.name}: history entries ${ha.entries.length} at A, ${hb.entries.length} at B, equal ${aligned} (in ${timing.history} ms); actors at B: ${[...hb.actors].join(', ')}`);
      expect(hb.entries.length).toBe(ha.entries.length);
      const firstDiff = ha.entries.findIndex((x, i) => x !== hb.entries[i]);
      if (firstDiff >= 0) console.log(`A: ${ha.entries[firstDiff]}\nB: ${hb.entries[firstDiff]}`);
      expect(aligned).toBe(ha.entries.length);
      expect(ha.entries.length).toBe(N + 40);
      expect([...hb.actors]).toEqual([`mirror ${a.url}/oai`]);
    }, 300_000);

    it('after: A redirects every name in its request form and refuses writes; B takes writes and no longer calls itself a mirror', async () => {
      for (const path of [`/${urnOf(5)}`, `/uri-res/I2Ls?${urnOf(5)}`, `/${urnOf(5)}?s=I2C`, `/${urnOf(8)}?info`, `/${AUTH}:never-${N}`]) {
        const res = await fetch(`${a.url}${path}`, { redirect: 'manual' });
        expect([path, res.status, res.headers.get('location')]).toEqual([path, 301, `${b.url}${path}`]);
      }
      const put = await fetch(`${a.url}/admin/names/${urnOf(1)}`, { method: 'PUT', headers: { authorization: `Bearer ${ta}`, 'content-type': 'application/json' }, body: JSON.stringify({ locations: ['https://x.example/'] }) });
      expect(put.status).toBe(409);
      expect(await put.json()).toMatchObject({ title: 'Authority handed over', handedOverTo: b.url });
      const atB = await fetch(`${b.url}/admin/names/${urnOf(1)}`, { method: 'PUT', headers: { authorization: `Bearer ${tb}`, 'content-type': 'application/json' }, body: JSON.stringify({ locations: ['https://x.example/'] }) });
      expect(atB.status).toBe(200);
      expect((await b.store.names.get(urnOf(1)))?.version).toBe(3);
      expect(await (await fetch(`${b.url}/${AUTH}:urn+m`, { headers: { accept: 'text/plain' } })).text()).not.toContain('mirror of');
      expect(await (await fetch(`${a.url}/${AUTH}:urn+m`, { headers: { accept: 'text/plain' } })).text()).toContain(`handed over to the resolver at ${b.url}, where every name under it is redirected`);
      // every step can be run again: a second handover changes nothing and succeeds
      const twice = await handOver({ authority: AUTH, from: a.url, fromToken: ta, to: b.url, toToken: tb, settleMs: 0 });
      expect([twice.ok, twice.steps.map((x) => x.status)]).toEqual([true, [200, 200, 200]]);
      expect(twice.steps[1]!.body).toMatchObject({ promoted: true, already: true });
      // the promotion is kept in B's store: started again with the same --mirror, B takes writes and harvests A no more
      await b.close();
      b = await startServer({ port: 0, db: dbB, rateLimit: false, adminRateLimit: false, stats: false, cacheControl: 'no-cache', oai: false, mirror: mirrorOfA() });
      const again = await fetch(`${b.url}/admin/names/${urnOf(1)}`, { method: 'PATCH', headers: { authorization: `Bearer ${tb}`, 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ metadata: { title: 'after the restart' } }) });
      expect(again.status).toBe(200);
      expect((await b.store.names.get(urnOf(1)))?.version).toBe(4);
    });
  });
}
