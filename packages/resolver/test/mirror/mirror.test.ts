// A urikit resolver mirroring another (server/mirror.ts) on loopback, on
// both engines: names in every state (active with ordered locations and
// their metainformation, moved to a URN for good, moved to a URL, with a
// successor, withdrawn, reserved) answer at the mirror as at the source
// (status, Location and Link, in each request form), changes at the source
// (new, move, withdraw, location change) reach the mirror within the
// measured lag (a harvest every second), the mirror refuses writes of the
// mirrored names with 409 and urn+m says whose mirror it is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, startServer, type RunningServer } from '@urikit/resolver';
import { testEngines } from '../helpers/engines.js';

const engines = await testEngines('mirror.test');
afterAll(async () => { for (const e of engines) await e.cleanup(); });

const AUTH = 'urn:example:m';
const N = 60;
const urnOf = (i: number) => `${AUTH}:item-${i}`;
/** The request forms each name is asked in. */
const FORMS = [(u: string) => `/${u}`, (u: string) => `/${u}?info`, (u: string) => `/uri-res/N2Ls?${u}`, (u: string) => `/${u}?s=I2C`, (u: string) => `/${u}?history`];

/** What a client sees of an answer: status, Location, Link, ETag and Last-Modified, the resolver's own URL written BASE. */
async function seen(base: string, path: string, accept = 'text/plain'): Promise<string> {
  const res = await fetch(`${base}${path}`, { redirect: 'manual', headers: { accept } });
  await res.arrayBuffer();
  const own = (v: string | null) => (v ?? '').replaceAll(base, 'BASE');
  return `${res.status} ${own(res.headers.get('location'))} ${own(res.headers.get('link'))} ${res.headers.get('etag')} ${res.headers.get('last-modified')}`;
}

/** The names whose answers differ between the two resolvers, in any form. */
async function differing(a: string, b: string, names: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const u of names) {
    for (const f of FORMS) {
      const [x, y] = await Promise.all([seen(a, f(u)), seen(b, f(u))]);
      if (x !== y) { out.push(`${f(u)}: source ${x} / mirror ${y}`); break; }
    }
  }
  return out;
}

/** Waits until the mirror answers `names` as the source does; the time it took (ms). */
async function converge(a: string, b: string, names: readonly string[], since: number, limitMs = 20_000): Promise<number> {
  for (;;) {
    const diff = await differing(a, b, names);
    if (diff.length === 0) return Date.now() - since;
    if (Date.now() - since > limitMs) throw new Error(`the mirror still differs after ${limitMs} ms: ${diff.slice(0, 5).join('; ')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Name i's record at the source, a state per i mod 6. */
function seed(i: number): Record<string, unknown> {
  const urn = urnOf(i);
  const locations = [
    { url: `https://repo.example/${i}`, mediaType: 'application/pdf', meta: `copy ${i}\nsecond line`, charset: 'ISO-8859-1', language: 'de' },
    { url: `https://mirror.example/${i}`, preference: 5 },
    { url: `https://archive.example/${i}`, preservation: true },
  ];
  switch (i % 6) {
    case 0: return { urn, locations, metadata: { title: `Item ${i}`, creator: ['A', 'B'] } };
    case 1: return { urn, locations: locations.slice(0, 1), successor: urnOf(i - 1) };
    case 2: return { urn, status: 'moved', movedTo: urnOf(i - 2), permanent: true, reason: 'merged' };
    case 3: return { urn, status: 'moved', movedTo: `https://elsewhere.example/${i}`, reason: 'left' };
    case 4: return { urn, locations: locations.slice(1) };
    default: return { urn, status: 'reserved' };
  }
}

for (const engine of engines) {
  const suite = engine.unavailable !== undefined ? describe.skip : describe;
  suite(`${engine.name}: a mirror of a urikit resolver`, () => {
    let source: RunningServer;
    let mirror: RunningServer;
    const names = Array.from({ length: N }, (_, i) => urnOf(i));
    const lags: number[] = [];
    beforeAll(async () => {
      source = await startServer({ port: 0, db: engine.freshDb(), rateLimit: false, adminRateLimit: false, stats: false, cacheControl: 'no-cache', oai: { pageSize: 25 }, mirrors: ['https://mirror.example'] });
      for (let i = 0; i < N; i++) await source.store.writer.put(urnOf(i), seed(i) as never);
      for (let i = 4; i < N; i += 12) await source.store.writer.withdraw(urnOf(i), { reason: `retracted ${i}` });
      // names of other authorities: one in the same OAI set (urn:example), one in another
      await source.store.writer.put('urn:example:other:1', { urn: 'urn:example:other:1', locations: [{ url: 'https://other.example/' }] });
      await source.store.writer.put('urn:isbn:0451450523', { urn: 'urn:isbn:0451450523', locations: [{ url: 'https://other.example/' }] });
      // the authority as an operator may write it: another case, a trailing ":" (the mirror makes it canonical)
      mirror = await startServer({ port: 0, db: engine.freshDb(), rateLimit: false, adminRateLimit: false, stats: false, cacheControl: 'no-cache', oai: false,
        mirror: { sources: [{ source: source.url, authority: 'URN:Example:m:', everyMs: 1000 }], harvest: { fetch: { allowAddresses: 'all' } } } });
    }, 60_000);
    afterAll(async () => {
      await mirror?.close();
      await source?.close();
    });

    it('answers every name in every state as the source does', async () => {
      const t = await converge(source.url, mirror.url, names, Date.now(), 30_000);
      console.log(`${engine.name}: first mirror of ${N} names: ${t} ms`);
      expect(await mirror.store.names.get('urn:example:other:1')).toBeUndefined();
      expect(await mirror.store.names.get('urn:isbn:0451450523')).toBeUndefined();
      expect(await mirror.store.harvestLog.refusals(`${source.url}/oai urn_locations urn:example`, 10)).toEqual([]);
      const states = new Set((await Promise.all(names.map((u) => source.store.names.get(u)))).map((r) => r?.status));
      expect([...states].sort()).toEqual(['active', 'moved', 'reserved', 'withdrawn']);
      // the records are the source's: version, times, locations in order and metadata
      for (const u of names) {
        const [a, b] = [await source.store.names.get(u), await mirror.store.names.get(u)];
        expect(b).toEqual(a);
      }
    });

    it('changes at the source reach the mirror (new, move, withdraw, location change); the lag is measured', async () => {
      const rounds: Array<(k: number) => Promise<string[]>> = [
        async (k) => { const u = `${AUTH}:new-${k}`; await source.store.writer.put(u, { urn: u, locations: [{ url: `https://new.example/${k}` }] }); return [u]; },
        async (k) => { await source.store.writer.move(urnOf(6 * k + 1), { to: urnOf(6 * k), permanent: true }); return [urnOf(6 * k + 1), urnOf(6 * k)]; },
        async (k) => { await source.store.writer.withdraw(urnOf(6 * k + 6), { reason: 'gone' }); return [urnOf(6 * k + 6)]; },
        async (k) => { await source.store.writer.put(urnOf(6 * k + 12), { urn: urnOf(6 * k + 12), status: 'active', locations: [{ url: `https://moved.example/${k}` }, { url: 'https://b.example/', preference: 9 }] }); return [urnOf(6 * k + 12)]; },
      ];
      for (let k = 0; k < 3; k++) {
        for (const change of rounds) {
          const at = Date.now();
          const touched = await change(k);
          lags.push(await converge(source.url, mirror.url, touched, at));
        }
      }
      expect(await differing(source.url, mirror.url, [...names, `${AUTH}:new-0`, `${AUTH}:new-1`, `${AUTH}:new-2`])).toEqual([]);
      const sorted = [...lags].sort((a, b) => a - b);
      console.log(`${engine.name}: mirror lag over ${lags.length} changes (harvest every 1 s): median ${sorted[sorted.length >> 1]} ms, max ${sorted[sorted.length - 1]} ms`);
      expect(sorted[sorted.length - 1]).toBeLessThan(5000);
    }, 120_000);

    it('refuses writes of the mirrored names with 409; urn+m says whose mirror it is', async () => {
      const { token } = await createToken(mirror.store, { authority: '' });
      const put = await fetch(`${mirror.url}/admin/names/${urnOf(0)}`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ locations: ['https://x.example/'] }) });
      expect(put.status).toBe(409);
      expect(put.headers.get('content-type')).toContain('application/problem+json');
      expect(await put.json()).toMatchObject({ title: 'Mirrored authority', authority: AUTH, mirrorOf: source.url });
      const withdraw = await fetch(`${mirror.url}/admin/withdraw/${urnOf(0)}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' });
      expect(withdraw.status).toBe(409);
      // a name outside the mirrored authority is written as ever
      const other = await fetch(`${mirror.url}/admin/names/urn:example:own:1`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ locations: ['https://x.example/'] }) });
      expect(other.status).toBe(201);
      const m = await (await fetch(`${mirror.url}/${AUTH}:urn+m`, { headers: { accept: 'text/plain' } })).text();
      expect(m).toContain(source.url);
      expect(m).toContain(`mirror of ${AUTH}`);
      const s = await (await fetch(`${source.url}/${AUTH}:urn+m`, { headers: { accept: 'text/plain' } })).text();
      expect(s).toContain('https://mirror.example');
    });
  });
}
