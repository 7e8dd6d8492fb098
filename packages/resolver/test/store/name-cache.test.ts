import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NameCache, packRow, unpackRow } from '../../src/store/name-cache.js';
import type { NamesTable } from '../../src/store/schema.js';

const row = (key: string, url = `http://a.example/${key}`, version = 1): NamesTable => ({
  key, urn: key.toUpperCase(), status: 'active', data: JSON.stringify({ locations: [{ url }], metadata: { title: 'Å ☃ 𝄞' } }), version, created: 1_700_000_000_000, updated: 1_700_000_000_000 + version,
});

describe('NameCache (rows outside the JavaScript heap)', () => {
  it('packs and unpacks a row, non-ASCII metadata included', () => {
    const r = row('urn:example:a');
    expect(unpackRow(r.key, packRow(r))).toEqual(r);
  });

  it('behaves as a Map of rows under any sequence of sets, deletes and clears', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), key: fc.integer({ min: 0, max: 300 }), version: fc.integer({ min: 1, max: 9 }) }),
      fc.record({ kind: fc.constant('delete' as const), key: fc.integer({ min: 0, max: 300 }) }),
      fc.record({ kind: fc.constant('clear' as const) }),
    );
    fc.assert(fc.property(fc.array(op, { maxLength: 2000 }), (ops) => {
      const cache = new NameCache(64 * 1024 * 1024);
      const model = new Map<string, NamesTable>();
      for (const o of ops) {
        if (o.kind === 'set') {
          const r = row(`urn:example:${o.key}`, `http://a.example/${o.key}/${o.version}`, o.version);
          expect(cache.set(r)).toBe(true);
          model.set(r.key, r);
        } else if (o.kind === 'delete') {
          cache.delete(`urn:example:${o.key}`);
          model.delete(`urn:example:${o.key}`);
        } else {
          cache.clear();
          model.clear();
        }
      }
      expect(cache.size).toBe(model.size);
      for (let k = 0; k <= 300; k++) expect(cache.get(`urn:example:${k}`)).toEqual(model.get(`urn:example:${k}`));
    }), { numRuns: 200 });
  });

  it('grows its index past many resizes and finds every name', () => {
    const cache = new NameCache(64 * 1024 * 1024);
    for (let i = 0; i < 50_000; i++) expect(cache.set(row(`urn:example:${i}`))).toBe(true);
    expect(cache.size).toBe(50_000);
    for (let i = 0; i < 50_000; i += 997) expect(cache.get(`urn:example:${i}`)?.data).toBe(row(`urn:example:${i}`).data);
    expect(cache.get('urn:example:50000')).toBeUndefined();
  });

  it('packs a URN that is its own key as nothing, and gives it back', () => {
    const r = { ...row('urn:example:a'), urn: 'urn:example:a' };
    expect(packRow(r).split('\0')[4]).toBe('');
    expect(unpackRow(r.key, packRow(r))).toEqual(r);
  });

  it('keeps entries over several chunks (each entry knows its chunk: the arena may pass 4 GiB)', () => {
    const cache = new NameCache(64 * 1024 * 1024);
    const big = (i: number) => ({ ...row(`urn:example:${i}`), data: JSON.stringify({ locations: [{ url: `http://a.example/${i}` }], metadata: { text: 'x'.repeat(1000) } }) });
    for (let i = 0; i < 40_000; i++) expect(cache.set(big(i))).toBe(true);
    for (let i = 0; i < 40_000; i += 101) expect(cache.get(`urn:example:${i}`)).toEqual(big(i));
    for (let i = 0; i < 40_000; i += 2) cache.delete(`urn:example:${i}`);
    expect(cache.size).toBe(20_000);
    for (let i = 1; i < 40_000; i += 202) expect(cache.get(`urn:example:${i}`)).toEqual(big(i));
  });

  it('finds both of two names with the same slot', () => {
    const cache = new NameCache(1 << 20);
    cache.set(row('urn:example:43812349'));
    cache.set(row('urn:example:82272186')); // the same 52-bit slot (slots.test.ts)
    expect(cache.get('urn:example:43812349')?.urn).toBe('URN:EXAMPLE:43812349');
    expect(cache.get('urn:example:82272186')?.urn).toBe('URN:EXAMPLE:82272186');
    cache.delete('urn:example:43812349');
    expect(cache.get('urn:example:43812349')).toBeUndefined();
    expect(cache.get('urn:example:82272186')?.urn).toBe('URN:EXAMPLE:82272186');
  });

  it('refuses names when full, and starts again once most of it is garbage', () => {
    const cache = new NameCache(64 * 1024);
    let i = 0;
    while (cache.set(row(`urn:example:${i}`))) i++;
    expect(cache.full).toBe(true);
    expect(cache.size).toBe(i);
    expect(cache.get('urn:example:0')).toBeDefined();
    // Rewrite most names: the old bytes become garbage, and the cache starts again rather than refuse.
    for (let k = 0; k < i; k++) cache.delete(`urn:example:${k}`);
    expect(cache.set(row('urn:example:new'))).toBe(true);
    expect(cache.full).toBe(false);
    expect(cache.get('urn:example:new')).toBeDefined();
    expect(new NameCache(0).set(row('urn:example:x'))).toBe(false);
  });

  it('keeps out keys beyond latin1 and rows larger than its chunks', () => {
    const cache = new NameCache(1 << 20);
    expect(cache.set(row('urn:example:☃'))).toBe(false);
    expect(cache.set({ ...row('urn:example:big'), data: 'x'.repeat(2 << 20) })).toBe(false);
    expect(cache.size).toBe(0);
  });
});
