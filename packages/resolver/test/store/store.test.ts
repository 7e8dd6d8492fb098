import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, importNames, openStore, verifyToken, type Store } from '../../src/store/index.js';
import { loadDemoData, DEMO_NAMES } from '../../src/demo/index.js';
import { testEngines } from '../helpers/engines.js';
import { startServer } from '../../src/server/index.js';

const engines = await testEngines('store.test');
afterAll(async () => { for (const e of engines) await e.cleanup(); });

for (const engine of engines) {
  const suite = engine.unavailable !== undefined ? describe.skip : describe;
  suite(`${engine.name}: store`, () => {
    let store: Store;
    let dbUrl: string;
    beforeAll(async () => { dbUrl = engine.freshDb(); store = await openStore(dbUrl); });
    afterAll(async () => { await store?.close(); });

    it('keeps every version in the history; an identical write adds none', async () => {
      const key = 'urn:example:h1';
      expect((await store.writer.put(key, { urn: key, locations: [{ url: 'http://a.example/1' }] })).op).toBe('create');
      expect((await store.writer.put(key, { urn: key, locations: [{ url: 'http://a.example/1' }] })).op).toBe('unchanged');
      expect((await store.writer.put(key, { urn: key, locations: [{ url: 'http://a.example/2' }] }, 'tok1')).op).toBe('update');
      const moved = await store.writer.move(key, { to: 'urn:example:h2' });
      expect(moved?.record).toMatchObject({ status: 'moved', version: 3 });
      const h = await store.history.versions(key);
      expect(h.map((e) => [e.version, e.op, e.actor ?? null])).toEqual([[1, 'create', null], [2, 'update', 'tok1'], [3, 'move', null]]);
      expect(h[0]!.record.locations).toEqual([{ url: 'http://a.example/1' }]);
      expect(await store.writer.withdraw('urn:example:none')).toBeUndefined();
    });

    it('names a withdrawal or a move in the history the same way whether it is written alone or imported', async () => {
      await store.writer.put('urn:example:op1', { urn: 'urn:example:op1', locations: [{ url: 'http://a.example/op1' }] });
      await store.writer.put('urn:example:op2', { urn: 'urn:example:op2', locations: [{ url: 'http://a.example/op2' }] });
      const lines = [
        { urn: 'urn:example:op1', status: 'withdrawn', reason: 'retracted' },
        { urn: 'urn:example:op2', movedTo: 'urn:example:op3' },
        { urn: 'urn:example:op4', status: 'withdrawn' },
      ].map((r) => JSON.stringify(r)).join('\n');
      expect(await importNames(store, lines, { format: 'ndjson' })).toMatchObject({ ok: true, created: 1, updated: 2 });
      const ops = async (key: string) => (await store.history.versions(key)).map((e) => e.op);
      expect(await ops('urn:example:op1')).toEqual(['create', 'withdraw']);
      expect(await ops('urn:example:op2')).toEqual(['create', 'move']);
      expect(await ops('urn:example:op4')).toEqual(['withdraw']);
      expect((await store.writer.put('urn:example:op5', { urn: 'urn:example:op5', status: 'withdrawn' })).op).toBe('withdraw');
    });

    it('reads its own writes at once, and another connection\'s writes by the next turn of the event loop', async () => {
      const key = 'urn:example:rw1';
      await Promise.all([store.names.get('urn:example:none'), store.names.get(key)]); // a read snapshot is open for this turn
      await store.writer.put(key, { urn: key, locations: [{ url: 'http://a.example/rw1' }] });
      expect((await store.names.get(key))?.locations[0]?.url).toBe('http://a.example/rw1');
      const other = await openStore(dbUrl);
      try {
        expect((await store.names.get(key))?.version).toBe(1);
        await other.writer.put(key, { urn: key, locations: [{ url: 'http://a.example/rw1-other' }] });
        await new Promise((r) => setImmediate(r));
        expect((await store.names.get(key))?.locations[0]?.url).toBe('http://a.example/rw1-other');
        expect((await other.names.get(key))?.version).toBe(2);
      } finally {
        await other.close();
      }
    });

    it('feeds changes in order, from a seq or a time', async () => {
      const all = await store.history.changes({ since: 0 });
      const seqs = all.items.map((e) => e.seq);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      const t = Date.now();
      await store.writer.put('urn:example:h3', { urn: 'urn:example:h3' });
      const later = await store.history.changes({ since: all.next });
      expect(later.items.map((e) => e.key)).toEqual(['urn:example:h3']);
      expect((await store.history.changes({ sinceTime: t })).items.map((e) => e.key)).toContain('urn:example:h3');
    });

    it('imports CSV all or nothing, and the same file again changes nothing', async () => {
      const csv = 'urn,url,preference\r\nurn:example:c1,http://a.example/c1,1\r\nurn:example:c1,http://b.example/c1,2\r\nurn:example:c2,http://a.example/c2,\r\n';
      const r1 = await importNames(store, csv, { format: 'csv' });
      expect(r1).toMatchObject({ ok: true, records: 2, created: 2 });
      expect((await store.names.get('urn:example:c1'))?.locations.map((l) => l.preference)).toEqual([1, 2]);
      expect(await importNames(store, csv, { format: 'csv' })).toMatchObject({ ok: true, created: 0, updated: 0, unchanged: 2 });
      const before = await store.listing.count();
      const bad = await importNames(store, `${csv}urn:example:c3,not a url,\r\n`, { format: 'csv' });
      expect(bad.ok).toBe(false);
      expect(bad.errors.map((e) => e.line)).toEqual([5]);
      expect(await store.listing.count()).toBe(before);
    });

    it('imports more than a full batch (1,200 names) with every record and history row right', async () => {
      let text = '';
      for (let i = 0; i < 1200; i++) text += `${JSON.stringify({ urn: `urn:example:bulk${i}`, locations: [{ url: `http://a.example/bulk/${i}`, charset: 'ISO-8859-1', meta: `caf\u00e9 ${i}` }], metadata: { n: i } })}\n`;
      const r = await importNames(store, text, { format: 'ndjson', actor: 'bulk' });
      expect(r).toMatchObject({ ok: true, records: 1200, created: 1200 });
      for (const i of [0, 499, 500, 999, 1000, 1199]) {
        const rec = await store.names.get(`urn:example:bulk${i}`);
        expect(rec).toMatchObject({ urn: `urn:example:bulk${i}`, status: 'active', version: 1, metadata: { n: i }, locations: [{ url: `http://a.example/bulk/${i}`, charset: 'ISO-8859-1', meta: `caf\u00e9 ${i}` }] });
        const h = await store.history.versions(`urn:example:bulk${i}`);
        expect(h.map((e) => [e.version, e.op, e.actor])).toEqual([[1, 'create', 'bulk']]);
        expect(h[0]!.record).toEqual(rec);
      }
      expect(await store.listing.count('urn:example:bulk')).toBe(1200);
    });

    it('lists by prefix in pages and exports everything', async () => {
      for (let i = 0; i < 7; i++) await store.writer.put(`urn:example:p${i}`, { urn: `urn:example:p${i}` });
      const keys: string[] = [];
      let after: string | undefined;
      do {
        const page = await store.listing.list({ prefix: 'urn:example:p', limit: 3, ...(after ? { after } : {}) });
        keys.push(...page.items.map((r) => r.key));
        after = page.next;
      } while (after);
      expect(keys).toEqual([0, 1, 2, 3, 4, 5, 6].map((i) => `urn:example:p${i}`));
      let n = 0;
      for await (const r of store.listing.exportAll('urn:example:p', 2)) { expect(r.key.startsWith('urn:example:p')).toBe(true); n++; }
      expect(n).toBe(7);
    });

    it('finds the longest prefix rule', async () => {
      await store.prefixRules.put('urn:nbn:de:', 'https://a.example/');
      await store.prefixRules.put('urn:nbn:de:101-', 'https://b.example/');
      expect((await store.prefixRules.match('urn:nbn:de:101-2020'))?.target).toBe('https://b.example/');
      expect((await store.prefixRules.match('urn:nbn:de:gbv:1'))?.target).toBe('https://a.example/');
      expect(await store.prefixRules.match('urn:nbn:ch:1')).toBeUndefined();
      expect(await store.prefixRules.delete('urn:nbn:de:101-')).toBe(true);
      expect((await store.prefixRules.match('urn:nbn:de:101-2020'))?.target).toBe('https://a.example/');
    });

    it('keeps tokens hashed and checks them', async () => {
      const t = await createToken(store, { authority: 'URN:Example' });
      expect(t.authority).toBe('urn:example');
      expect(await verifyToken(store, `Bearer ${t.token}`)).toEqual({ id: t.id, authority: 'urn:example' });
      expect(await verifyToken(store, `Bearer ${t.token.slice(0, -1)}${t.token.endsWith('A') ? 'B' : 'A'}`)).toBeUndefined();
      expect(await verifyToken(store, t.token)).toBeUndefined();
      // RFC 9110 §11.1: the scheme is case-insensitive; the token is not.
      expect(await verifyToken(store, `bearer  ${t.token}`)).toEqual({ id: t.id, authority: 'urn:example' });
      expect(await verifyToken(store, `Bearer ${t.token.toUpperCase()}`)).toBeUndefined();
      const row = await store.tokens.get(t.id);
      expect(row?.hash).toMatch(/^[0-9a-f]{64}$/);
      // The secret is base64url, which may itself hold '_': it is all that follows `uk_<id>_`.
      const secret = t.token.slice(`uk_${t.id}_`.length);
      expect(secret).toHaveLength(43);
      expect(row?.hash).not.toContain(secret);
    });

    it('loads the demo data, and loading it again changes nothing', async () => {
      await loadDemoData(store);
      const seq = (await store.history.changes({ since: 0, limit: 10_000 })).next;
      await loadDemoData(store);
      expect((await store.history.changes({ since: 0, limit: 10_000 })).next).toBe(seq);
      expect(await store.listing.count('urn:')).toBeGreaterThanOrEqual(DEMO_NAMES.length);
      // A demonstration name moved or withdrawn since is left as it is, never taken back by the demo.
      const [moved, withdrawn] = DEMO_NAMES.filter((n) => n.status === undefined).map((n) => n.urn);
      await store.writer.move(moved!, { to: 'urn:example:elsewhere' });
      await store.writer.withdraw(withdrawn!, { reason: 'retracted' });
      await loadDemoData(store);
      expect([(await store.names.get(moved!))?.status, (await store.names.get(withdrawn!))?.status]).toEqual(['moved', 'withdrawn']);
    });
  });
}

describe('sqlite: closing a store', () => {
  it('checkpoints the WAL into the database file and removes it, even when the store only wrote', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'urikit-close-'));
    try {
      const file = join(dir, 'names.sqlite');
      const store = await openStore(file);
      expect(await importNames(store, '{"urn":"urn:example:w1","locations":["http://a.example/w1"]}\n', { format: 'ndjson' })).toMatchObject({ ok: true, created: 1 });
      expect(existsSync(`${file}-wal`)).toBe(true);
      await store.close();
      expect(existsSync(`${file}-wal`)).toBe(false);
      const again = await openStore(file);
      expect((await again.names.get('urn:example:w1'))?.locations[0]?.url).toBe('http://a.example/w1');
      await again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('sqlite: the name cache (openStore nameCacheBytes)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'urikit-cache-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;
  const url = async (s: Store, key: string) => (await s.names.get(key))?.locations[0]?.url;
  const nextTurn = () => new Promise((r) => setImmediate(r));

  it('answers from memory and follows this store\'s writes as they commit', async () => {
    const store = await openStore(join(dir, `c${n++}.sqlite`), { nameCacheBytes: 1 << 20 });
    try {
      await store.writer.put('urn:example:k1', { urn: 'urn:example:k1', locations: [{ url: 'http://a.example/1' }] });
      expect(await url(store, 'urn:example:k1')).toBe('http://a.example/1');
      await store.writer.put('urn:example:k1', { urn: 'urn:example:k1', locations: [{ url: 'http://a.example/2' }] });
      expect(await url(store, 'urn:example:k1')).toBe('http://a.example/2');
      await store.writer.withdraw('urn:example:k1');
      expect((await store.names.get('urn:example:k1'))?.status).toBe('withdrawn');
      await store.writer.reinstate('urn:example:k1');
      expect(await url(store, 'urn:example:k1')).toBe('http://a.example/2');
      await importNames(store, '{"urn":"urn:example:k1","locations":["http://a.example/3"]}\n', { format: 'ndjson' });
      expect(await url(store, 'urn:example:k1')).toBe('http://a.example/3');
      // A failed import changes nothing, in the database or in memory.
      expect(await importNames(store, '{"urn":"urn:example:k1","locations":["http://a.example/4"]}\n{"urn":"bad"}\n', { format: 'ndjson' })).toMatchObject({ ok: false });
      expect(await url(store, 'urn:example:k1')).toBe('http://a.example/3');
    } finally {
      await store.close();
    }
  });

  it('is emptied by another process\'s commit before the next read', async () => {
    const file = join(dir, `c${n++}.sqlite`);
    const store = await openStore(file, { nameCacheBytes: 1 << 20 });
    const other = await openStore(file);
    try {
      await store.writer.put('urn:example:k2', { urn: 'urn:example:k2', locations: [{ url: 'http://a.example/1' }] });
      expect(await url(store, 'urn:example:k2')).toBe('http://a.example/1');
      await nextTurn();
      await other.writer.put('urn:example:k2', { urn: 'urn:example:k2', locations: [{ url: 'http://a.example/other' }] });
      await nextTurn();
      expect(await url(store, 'urn:example:k2')).toBe('http://a.example/other');
      await other.writer.put('urn:example:k3', { urn: 'urn:example:k3', locations: [{ url: 'http://a.example/k3' }] });
      await nextTurn();
      expect(await url(store, 'urn:example:k3')).toBe('http://a.example/k3');
    } finally {
      await other.close();
      await store.close();
    }
  });

  it('is kept through another process\'s commits of statistics and link health, and emptied by its next change of names', async () => {
    const file = join(dir, `c${n++}.sqlite`);
    const store = await openStore(file, { nameCacheBytes: 1 << 20 });
    const other = await openStore(file);
    try {
      for (let i = 0; i < 10; i++) await store.writer.put(`urn:example:g${i}`, { urn: `urn:example:g${i}`, locations: [{ url: `http://a.example/g${i}` }] });
      for (let i = 0; i < 10; i++) await url(store, `urn:example:g${i}`);
      expect(store.nameCache?.size).toBe(10);
      await nextTurn();
      await other.stats.add([{ day: '2026-11-24', key: 'urn:example:g1', service: 'I2L', human: 1, robot: 0 }]);
      await other.linkHealth.put({ url: 'http://a.example/g1', state: 'failing', lastCheck: 1, nextCheck: 2, consecutiveFailures: 1 });
      await nextTurn();
      expect(await url(store, 'urn:example:g1')).toBe('http://a.example/g1');
      expect(store.nameCache?.size).toBe(10);
      await other.writer.put('urn:example:g2', { urn: 'urn:example:g2', locations: [{ url: 'http://a.example/g2-other' }] });
      await nextTurn();
      expect(await url(store, 'urn:example:g2')).toBe('http://a.example/g2-other');
      expect(store.nameCache?.size).toBe(1);
    } finally {
      await other.close();
      await store.close();
    }
  });

  it('is filled from the table, a page at a time, and 0 turns it off', async () => {
    const file = join(dir, `c${n++}.sqlite`);
    const setup = await openStore(file);
    const lines = Array.from({ length: 30 }, (_, i) => JSON.stringify({ urn: `urn:example:w${i}`, locations: [`http://a.example/w${i}`] })).join('\n');
    await importNames(setup, lines, { format: 'ndjson' });
    await setup.close();
    const store = await openStore(file, { nameCacheBytes: 1 << 20 });
    try {
      expect(await store.nameCache?.warm(7)).toBe(30);
      for (let i = 0; i < 30; i++) expect(await url(store, `urn:example:w${i}`)).toBe(`http://a.example/w${i}`);
    } finally {
      await store.close();
    }
    const uncached = await openStore(file, { nameCacheBytes: 0 });
    try {
      expect(uncached.nameCache).toBeUndefined();
      expect(await url(uncached, 'urn:example:w29')).toBe('http://a.example/w29');
    } finally {
      await uncached.close();
    }
  });

  it('keeps a server\'s answers exact while another process writes the same file', async () => {
    const file = join(dir, `c${n++}.sqlite`);
    const writer = await openStore(file);
    await writer.writer.put('urn:example:s1', { urn: 'urn:example:s1', locations: [{ url: 'http://a.example/old' }] });
    const server = await startServer({ port: 0, db: file, rateLimit: false });
    try {
      const location = async () => (await fetch(`${server.url}/uri-res/I2L?urn:example:s1`, { redirect: 'manual' })).headers.get('location');
      expect(await location()).toBe('http://a.example/old');
      await writer.writer.put('urn:example:s1', { urn: 'urn:example:s1', locations: [{ url: 'http://a.example/new' }] });
      expect(await location()).toBe('http://a.example/new');
    } finally {
      await server.close();
      await writer.close();
    }
  });
});
