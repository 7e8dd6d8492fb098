// Cache-Control reading (RFC 9111 §5.2), storability (1995 draft §5), and
// the reading of answers in every format of §3.4.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { DEFAULT_ACCEPT, MemoryCache, isFresh, isStorable, maxAge, mediaType, readAnswer } from '@urikit/resolver';

describe('max-age (RFC 9111 §5.2.2.1)', () => {
  it.each([
    ['max-age=60', 60],
    ['public, max-age=3600', 3600],
    ['max-age="5"', 5],
    ['no-cache', 0],
    ['max-age=60, no-store', 0],
    ['max-age=-1', undefined],
    ['max-age=1e3', undefined],
    ['private', undefined],
    [undefined, undefined],
  ] as const)('%s', (header, seconds) => {
    expect(maxAge(header)).toBe(seconds);
  });

  it('freshness follows max-age from the time the answer was stored', () => {
    const entry = { status: 200, headers: { 'cache-control': 'max-age=10' }, body: '', storedAt: 5000 };
    expect(isFresh(entry, 5000 + 9_999)).toBe(true);
    expect(isFresh(entry, 5000 + 10_000)).toBe(false);
  });

  it.each([
    [{ 'last-modified': 'Tue, 21 Mar 1995 08:32:49 GMT' }, true],
    [{ etag: '"x"' }, true],
    [{ etag: '"x"', 'cache-control': 'no-store' }, false],
    [{ 'cache-control': 'max-age=60' }, false],
  ])('storable(%j) is %s (1995 draft §5: only with a validator)', (headers, yes) => {
    expect(isStorable(headers)).toBe(yes);
  });

  it('a memory cache drops the least recently used entry beyond its limit', async () => {
    const c = new MemoryCache({ limit: 2 });
    const e = { status: 200, headers: {}, body: '', storedAt: 0 };
    await c.set('a', e);
    await c.set('b', e);
    await c.get('a');
    await c.set('c', e);
    expect(await c.get('b')).toBeUndefined();
    expect(await c.get('a')).toBeDefined();
    expect(c.size).toBe(2);
  });
});

const examples = JSON.parse(readFileSync(new URL('../formats/urc0-examples.json', import.meta.url), 'utf8')) as {
  cases: { name: string; body: string; parts: { url: string; meta?: string; charset?: string; language?: string }[] }[];
};

describe('reading answers (1995 draft §3.4)', () => {
  it.each(examples.cases)('text/urc-0, $name (the 1995 draft §3.4.2 defaults filled in)', ({ body, parts }) => {
    const read = readAnswer('text/urc-0', Buffer.from(body, 'latin1'));
    expect(read.locations).toEqual(parts.map((p) => ({ charset: 'US-ASCII', language: 'x-unspecified', ...p })));
  });

  it.each([
    ['text/urc-0; charset=US-ASCII', 'text/urc-0'],
    ['Application/JSON', 'application/json'],
    [undefined, ''],
  ])('mediaType(%s)', (header, type) => {
    expect(mediaType(header)).toBe(type);
  });

  it('ISO-8859-1 metainformation is decoded (1995 draft §3.4.2)', () => {
    const body = Buffer.concat([Buffer.from('=====ISO-8859-1/fr\r\nhttp://a.test/\r\nCaf'), Buffer.from([0xe9]), Buffer.from('\r\n')]);
    expect(readAnswer('text/urc-0', body).locations).toEqual([{ charset: 'ISO-8859-1', language: 'fr', url: 'http://a.test/', meta: 'Café' }]);
  });

  it.each([
    ['application/json', '{"locations":["http://a.test/1",{"href":"http://a.test/2","type":"text/html"}],"metadata":{"title":"x"}}', ['http://a.test/1', 'http://a.test/2']],
    ['application/json', '["http://a.test/1"]', ['http://a.test/1']],
    ['text/uri-list', '# urn:x:y\r\nhttp://a.test/1\r\n\r\nhttp://a.test/2\r\n', ['http://a.test/1', 'http://a.test/2']],
    ['text/plain', 'See http://a.test/1 or <URL:ftp://a.test/2>, or urn:x:y.', ['http://a.test/1', 'ftp://a.test/2']],
    ['text/html', '<p><A HREF="http://a.test/1?x=1&amp;y=2">one</A> <a class=x href=\'ftp://a.test/2\'>two</a> <a href="#top">top</a>', ['http://a.test/1?x=1&y=2', 'ftp://a.test/2']],
    ['application/octet-stream', 'whatever', []],
  ])('%s', (type, body, urls) => {
    expect(readAnswer(type, Buffer.from(body)).locations.map((l) => l.url)).toEqual(urls);
  });

  it('the default Accept prefers urc-0 (§3.4.2: servers should prefer it)', () => {
    expect(DEFAULT_ACCEPT.split(',')[0]).toBe('text/urc-0');
  });

  it('reading any bytes as any type never crashes with anything but an Error', () => {
    fc.assert(fc.property(fc.constantFrom('text/urc-0', 'application/json', 'text/plain', 'text/html', 'text/uri-list'), fc.uint8Array({ maxLength: 200 }), (type, bytes) => {
      try {
        const r = readAnswer(type, bytes);
        expect(Array.isArray(r.locations)).toBe(true);
      } catch (e) {
        expect(e).toBeInstanceOf(Error);
      }
    }));
  });
});
