/**
 * Laws of the codecs on generated fields (fast-check): what `build` writes
 * is a valid URI, and `parse` of it gives the same fields back; the
 * scheme-level normal form is a fixed point.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { getScheme, isValid, normalize, parse } from 'urikit';

// Any text without lone surrogates (which no URI can carry, RFC 3987 §3.1).
const text = (min = 0) => fc.string({ unit: 'grapheme', minLength: min, maxLength: 10 });
const host = fc.constantFrom('example.com', 'a.b', '127.0.0.1', 'h');
const port = fc.option(fc.integer({ min: 0, max: 65535 }), { nil: undefined });

function roundTrip<T>(scheme: string, fields: fc.Arbitrary<T>, view: (f: unknown) => unknown = (f) => JSON.parse(JSON.stringify(f))): void {
  it(`${scheme}: parse(build(f)) equals f`, () => {
    const codec = getScheme(scheme)!;
    fc.assert(fc.property(fields, (f) => {
      const uri = codec.build(f);
      expect(isValid(uri, 'uri'), uri).toBe(true);
      expect(view(codec.parse(parse(uri, 'uri')))).toStrictEqual(view(f));
      // and the normal form is stable
      const n = normalize(uri, { level: 'scheme' });
      expect(normalize(n, { level: 'scheme' })).toBe(n);
    }));
  });
}

const defined = <T extends object>(o: T): T => JSON.parse(JSON.stringify(o)) as T;

describe('codec laws', () => {
  roundTrip('ftp', fc.record({
    user: fc.option(text(), { nil: undefined }), host, port,
    directories: fc.array(text(), { maxLength: 3 }), name: fc.option(text(), { nil: undefined }),
    typecode: fc.option(fc.constantFrom('a', 'i', 'd'), { nil: undefined }),
  }).map((f) => defined(f.name === undefined && f.directories.length === 0 && f.typecode === undefined ? f : { ...f, name: f.name ?? '' })));
  roundTrip('mailto', fc.record({
    to: fc.array(fc.tuple(text(1), fc.constantFrom('example.com', 'b.org')).map(([l, d]) => `${l}@${d}`), { maxLength: 3 }),
    headers: fc.array(fc.tuple(text(1), text()), { maxLength: 3 }),
  }));
  roundTrip('gopher', fc.record({
    host, port, type: fc.constantFrom('0', '1', '7', 'h', 'I'), selector: text(),
    search: fc.option(text(), { nil: undefined }), gopherPlus: fc.option(text(), { nil: undefined }),
  }).map((f) => defined(f.gopherPlus !== undefined ? { ...f, search: f.search ?? '' } : f)));
  roundTrip('news', fc.oneof(
    fc.record({ kind: fc.constant('group' as const), group: text(1).filter((g) => !g.includes('@') && g !== '*') }),
    fc.record({ kind: fc.constant('article' as const), messageId: fc.tuple(text(1), text(1)).map(([a, b]) => `${a}@${b}`) }),
  ));
  roundTrip('wais', fc.oneof(
    fc.record({ host, database: text(1), search: fc.option(text(), { nil: undefined }) }).map(defined),
    fc.record({ host, database: text(1), wtype: text(1), wpath: text() }),
  ));
  roundTrip('prospero', fc.record({
    host, hsoname: text(1), version: fc.option(fc.stringMatching(/^[0-9]{0,3}$/), { nil: undefined }),
    fields: fc.option(fc.array(fc.tuple(text(1), text()), { minLength: 1, maxLength: 2 }), { nil: undefined }),
  }).map(defined));
  roundTrip('data', fc.record({
    mediaType: fc.constantFrom('text/plain', 'image/png', 'application/octet-stream'),
    parameters: fc.array(fc.tuple(fc.constantFrom('charset', 'name'), text()), { maxLength: 2 }),
    base64: fc.boolean(),
    data: fc.uint8Array({ maxLength: 20 }),
  }), (f) => { const d = f as { data: Uint8Array }; return { ...d, data: [...d.data] }; });
});
