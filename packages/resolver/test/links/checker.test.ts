import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLinks, DEFAULT_PROBE, DEFAULT_SCHEDULE, MemoryLinkHealthStore, probeError, probeLocation, type LinkState, type ProbeOptions } from '@urikit/resolver';
import { closedPort, startOrigin, type Origin } from './origin.js';

// Loopback is allowed in these tests only: the origins listen on 127.0.0.1.
const PROBE: Partial<ProbeOptions> = { allowAddresses: 'all', timeoutMs: 400, maxRedirects: 5 };
const FAST = { perHostConcurrency: 4, perHostDelayMs: 0, globalRate: 0, concurrency: 8 };

let origin: Origin;
let refused: number;
beforeAll(async () => {
  origin = await startOrigin();
  refused = await closedPort();
});
afterAll(() => origin.close());

// Each origin behaviour, the state it ends in, and what the server saw (method per request).
const CASES: Array<{ path: string; state: LinkState; status?: number; error?: string; failures: number; methods: string; final?: string }> = [
  { path: '/ok', state: 'ok', status: 200, failures: 0, methods: 'HEAD' },
  { path: '/missing', state: 'failing', status: 404, error: 'http-404', failures: 1, methods: 'HEAD GET' },
  { path: '/error', state: 'failing', status: 500, error: 'http-500', failures: 1, methods: 'HEAD GET' },
  { path: '/busy-then-ok', state: 'retry', status: 503, failures: 0, methods: 'HEAD' },
  { path: '/too-many', state: 'retry', status: 429, failures: 0, methods: 'HEAD' },
  { path: '/no-head', state: 'ok', status: 200, failures: 0, methods: 'HEAD GET' },
  { path: '/chain-1', state: 'ok', status: 200, failures: 0, methods: 'HEAD', final: '/ok' },
  { path: '/loop-a', state: 'failing', status: 302, error: 'redirect-loop', failures: 1, methods: 'HEAD', final: '/loop-b' },
  { path: '/slow', state: 'retry', error: 'timeout', failures: 0, methods: 'HEAD' },
];

describe('link checking against real servers', () => {
  it.each(CASES)('$path -> $state', async (c) => {
    const store = new MemoryLinkHealthStore();
    const url = origin.url(c.path);
    const before = origin.seen.length;
    const summary = await checkLinks([{ url }], store, { probe: PROBE, politeness: FAST });
    expect(summary.checked).toBe(1);
    const h = (await store.get(url))!;
    expect(h.state).toBe(c.state);
    expect(h.consecutiveFailures).toBe(c.failures);
    expect(h.status).toBe(c.status);
    expect(h.error).toBe(c.error);
    expect(h.finalUrl).toBe(origin.url(c.final ?? c.path));
    const seen = origin.seen.slice(before);
    // the chain and the loop are followed hop by hop, each hop a HEAD
    const mine = seen.filter((s) => s.path === c.path);
    expect(mine.map((s) => s.method).join(' ')).toBe(c.methods);
    expect(seen.every((s) => s.userAgent?.startsWith('urikit-link-checker/'))).toBe(true);
  });

  it('a redirect chain is followed to its end; more hops than allowed is broken', async () => {
    const ok = await probeLocation(origin.url('/chain-1'), { ...DEFAULT_PROBE, ...PROBE });
    expect([ok.outcome, ok.redirects]).toEqual(['ok', 3]);
    const short = await probeLocation(origin.url('/chain-1'), { ...DEFAULT_PROBE, ...PROBE, maxRedirects: 2 });
    expect([short.outcome, short.error]).toEqual(['broken', 'too-many-redirects']);
  });

  it('a refused connection is broken', async () => {
    const store = new MemoryLinkHealthStore();
    const url = `http://127.0.0.1:${refused}/x`;
    await checkLinks([{ url }], store, { probe: PROBE, politeness: FAST });
    expect(await store.get(url)).toMatchObject({ state: 'failing', error: 'refused', consecutiveFailures: 1 });
  });

  it('a location the checker cannot speak to (ftp:), or a redirect to one, is not asked and not a failure', async () => {
    const store = new MemoryLinkHealthStore();
    const before = origin.seen.length;
    const ftp = 'ftp://127.0.0.1/pub/x';
    const s = await checkLinks([{ url: ftp }, { url: origin.url('/to-ftp') }], store, { probe: PROBE, politeness: FAST });
    expect([s.checked, s.blocked, s.broken]).toEqual([2, 2, 0]);
    expect(await store.get(ftp)).toMatchObject({ state: 'blocked', error: 'unsupported-scheme', consecutiveFailures: 0 });
    expect(await store.get(origin.url('/to-ftp'))).toMatchObject({ state: 'blocked', error: 'unsupported-scheme', finalUrl: ftp, consecutiveFailures: 0 });
    // only the HTTP hop reached a server
    expect(origin.seen.slice(before).map((x) => `${x.method} ${x.path}`)).toEqual(['HEAD /to-ftp']);
  });

  // What a failed connection means: conclusive (a refused connection, a name that does not
  // exist) or "later" (a name server that did not answer, RFC 2308 §7; a timeout), as Node reports them.
  it.each([
    ['ECONNREFUSED', 'refused', 'broken'],
    ['ENOTFOUND', 'dns', 'broken'],
    ['EAI_AGAIN', 'dns-temporary', 'retry'],
    ['ETIMEDOUT', 'timeout', 'retry'],
    ['ECONNRESET', 'network', 'broken'],
  ])('a connection that failed with %s is %s, %s', (code, error, outcome) => {
    expect(probeError(Object.assign(new Error(code), { code }))).toEqual({ error, outcome });
  });

  it('503 then 200: "later" first, then ok, and the failure count never moved', async () => {
    const fresh = await startOrigin();
    try {
      const store = new MemoryLinkHealthStore();
      const url = fresh.url('/busy-then-ok');
      let t = 1_000_000;
      await checkLinks([{ url }], store, { probe: PROBE, politeness: FAST, now: () => t });
      const first = (await store.get(url))!;
      // Retry-After: 120 s is shorter than the schedule's retry delay, which wins
      expect([first.state, first.nextCheck - t]).toEqual(['retry', DEFAULT_SCHEDULE.retryIntervalMs]);
      t = first.nextCheck;
      await checkLinks([{ url }], store, { probe: PROBE, politeness: FAST, now: () => t });
      expect(await store.get(url)).toMatchObject({ state: 'ok', status: 200, consecutiveFailures: 0 });
      expect(fresh.seen.map((s) => s.method)).toEqual(['HEAD', 'HEAD']);
    } finally {
      await fresh.close();
    }
  });

  it('reads only the head of a body', async () => {
    const fresh = await startOrigin();
    try {
      const r = await probeLocation(fresh.url('/big'), { ...DEFAULT_PROBE, ...PROBE, maxBodyBytes: 4096, timeoutMs: 5000 });
      expect([r.outcome, r.method]).toEqual(['ok', 'GET']);
      await new Promise((done) => setTimeout(done, 50));
      expect(fresh.bodyAborted).toBe(true);
      expect(fresh.bodyBytesSent).toBeLessThan(64 * 1024 * 1024);
    } finally {
      await fresh.close();
    }
  });
});

describe('the schedule', () => {
  it('rechecks failing links sooner than healthy ones, and nothing before it is due (counted on the server)', async () => {
    const fresh = await startOrigin();
    try {
      const store = new MemoryLinkHealthStore();
      const targets = ['/ok', '/missing', '/no-head'].map((p) => ({ url: fresh.url(p) }));
      let t = 5_000_000;
      const opts = () => ({ probe: PROBE, politeness: FAST, now: () => t });
      const count = (path: string) => fresh.seen.filter((s) => s.path === path).length;
      const first = await checkLinks(targets, store, opts());
      expect([first.checked, first.ok, first.broken]).toEqual([3, 2, 1]);
      const after1 = ['/ok', '/missing', '/no-head'].map(count);
      // at once: nothing is due
      const again = await checkLinks(targets, store, opts());
      expect([again.checked, again.notDue]).toEqual([0, 3]);
      // 52 hours later: only the failing one
      t += DEFAULT_SCHEDULE.failingIntervalMs;
      const later = await checkLinks(targets, store, opts());
      expect([later.checked, later.notDue]).toEqual([1, 2]);
      expect(['/ok', '/missing', '/no-head'].map(count)).toEqual([after1[0], after1[1]! + 2, after1[2]]);
      expect((await store.get(fresh.url('/missing')))!.consecutiveFailures).toBe(2);
      // 30 days after the first run: the healthy ones too
      t = 5_000_000 + DEFAULT_SCHEDULE.okIntervalMs;
      const month = await checkLinks(targets, store, opts());
      expect(month.checked).toBe(3);
      // force ignores the schedule
      expect((await checkLinks(targets, store, { ...opts(), force: true })).checked).toBe(3);
    } finally {
      await fresh.close();
    }
  });
});

describe('politeness (counted on the servers)', () => {
  it('holds per-host concurrency and delay, and does not hold one host behind another', async () => {
    const [a, b] = [await startOrigin(), await startOrigin()];
    try {
      const targets = [
        ...Array.from({ length: 12 }, (_, i) => ({ url: a.url(`/held?${i}`) })),
        ...Array.from({ length: 3 }, (_, i) => ({ url: b.url(`/held?${i}`) })),
      ];
      const delay = 40;
      const started = performance.now();
      await checkLinks(targets, new MemoryLinkHealthStore(), { probe: PROBE, politeness: { perHostConcurrency: 2, perHostDelayMs: delay, globalRate: 0, concurrency: 8 } });
      const elapsed = performance.now() - started;
      expect([a.seen.length, b.seen.length]).toEqual([12, 3]);
      expect(a.maxInFlight).toBeLessThanOrEqual(2);
      expect(b.maxInFlight).toBeLessThanOrEqual(2);
      // a lower bound no load can break: 12 starts on one host, each the delay after the last
      // (server-side arrival gaps are not used: connection set-up jitter compresses them)
      expect(elapsed).toBeGreaterThanOrEqual(11 * delay - 1);
      // round-robin: the small host is served between the big one's requests, not after them
      const order = [...a.seen.map((s) => ({ o: 'a', at: s.at })), ...b.seen.map((s) => ({ o: 'b', at: s.at }))].sort((x, y) => x.at - y.at).map((x) => x.o).join('');
      expect(order.lastIndexOf('b')).toBeLessThan(order.lastIndexOf('a'));
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('keeps the delay between two requests to one host, counted by the server\'s clock', async () => {
    // One request at a time: request i+1 starts after request i was answered, so after the server
    // saw request i; and request i+2 starts the delay after request i+1 started. So the server sees
    // request i+2 at least the delay after request i, however long connections take to set up.
    const fresh = await startOrigin();
    try {
      const delay = 30;
      const n = 8;
      await checkLinks(Array.from({ length: n }, (_, i) => ({ url: fresh.url(`/ok?${i}`) })), new MemoryLinkHealthStore(), { probe: PROBE, politeness: { perHostConcurrency: 1, perHostDelayMs: delay, globalRate: 0, concurrency: 8 } });
      const at = fresh.seen.map((s) => s.at);
      expect([at.length, fresh.maxInFlight]).toEqual([n, 1]);
      const gaps = at.slice(2).map((t, i) => t - at[i]!);
      expect(gaps.filter((g) => g < delay - 1)).toEqual([]);
      expect(at[n - 1]! - at[0]!).toBeGreaterThanOrEqual((n - 2) * delay - 1);
    } finally {
      await fresh.close();
    }
  });

  it('holds the global rate over all hosts', async () => {
    const [a, b] = [await startOrigin(), await startOrigin()];
    try {
      const targets = Array.from({ length: 10 }, (_, i) => ({ url: (i % 2 ? a : b).url(`/ok?${i}`) }));
      const rate = 50; // one start per 20 ms
      const started = performance.now();
      await checkLinks(targets, new MemoryLinkHealthStore(), { probe: PROBE, politeness: { perHostConcurrency: 4, perHostDelayMs: 0, globalRate: rate, concurrency: 8 } });
      expect(a.seen.length + b.seen.length).toBe(10);
      expect(performance.now() - started).toBeGreaterThanOrEqual(9 * (1000 / rate) - 1);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('skips excluded hosts and paused authorities without a request', async () => {
    const fresh = await startOrigin();
    try {
      const store = new MemoryLinkHealthStore();
      const s = await checkLinks([
        { url: fresh.url('/ok?1'), authority: 'urn:nbn:de:101' },
        { url: fresh.url('/ok?2').replace('127.0.0.1', 'localhost'), authority: 'urn:ex' },
        { url: fresh.url('/ok?3'), authority: 'urn:ex' },
      ], store, { probe: PROBE, politeness: FAST, pausedAuthorities: ['urn:nbn:de:101'], excludeHosts: ['localhost'] });
      expect([s.paused, s.excluded, s.checked]).toEqual([1, 1, 1]);
      expect(fresh.seen.map((x) => x.path)).toEqual(['/ok']);
    } finally {
      await fresh.close();
    }
  });
});

describe('the address guard', () => {
  it('does not fetch a location on 127.0.0.1, by address or by name, unless private addresses are allowed', async () => {
    const fresh = await startOrigin();
    try {
      const store = new MemoryLinkHealthStore();
      const urls = [fresh.url('/ok'), fresh.url('/ok').replace('127.0.0.1', 'localhost'), fresh.url('/ok').replace('127.0.0.1', '[::ffff:127.0.0.1]'), fresh.url('/ok').replace('127.0.0.1', '0x7f.1')];
      const s = await checkLinks(urls.map((url) => ({ url })), store, { politeness: FAST });
      expect([s.checked, s.blocked]).toEqual([4, 4]);
      expect(fresh.seen).toEqual([]);
      for (const url of urls) expect((await store.get(url))?.state).toBe('blocked');
      expect(await Promise.all(urls.map(async (u) => (await store.get(u))?.error))).toEqual(Array(4).fill('blocked-address (loopback)'));
    } finally {
      await fresh.close();
    }
  });

  it('refuses a redirect from an allowed address into a refused one, without connecting to it', async () => {
    const fresh = await startOrigin();
    try {
      // loopback allowed, private not: the first hop is fetched, its redirect to 10.255.255.1 is not
      const r = await probeLocation(fresh.url('/to-private'), { ...DEFAULT_PROBE, timeoutMs: 400, allowAddresses: new Set(['loopback']) });
      expect([r.outcome, r.error, r.finalUrl]).toEqual(['blocked', 'blocked-address (private)', 'http://10.255.255.1/x']);
      expect(fresh.seen.map((s) => s.path)).toEqual(['/to-private']);
    } finally {
      await fresh.close();
    }
  });
});
