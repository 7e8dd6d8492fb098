/**
 * The document's encoding and the query encoded in it (HTML "encoding-parse
 * a URL", URL Standard "percent-encode after encoding", Encoding Standard
 * labels and single-byte encoders), checked against the platform's
 * TextDecoder (Node's implements the Encoding Standard) and on documents.
 */
import { describe, expect, test } from 'vitest';
import { extractLinksFromHtml, baseFromHtml } from '@urikit/html';
import { ENCODING_LABELS, encodingForLabel } from '../src/encoding-labels.js';
import { SINGLE_BYTE_INDEXES } from '../src/single-byte-indexes.js';
import { encodeQueryIn, canEncodeQuery } from '../src/query-encoding.js';

const uris = (html: string, context?: Parameters<typeof extractLinksFromHtml>[2], repair = false): (string | undefined)[] =>
  extractLinksFromHtml(html, 'http://example.com/dir/page.html', context, { repair }).links.map((l) => l.uri ?? l.error);

/*
 * The platform's decoder of an encoding, or undefined where it has none:
 * Node 22's TextDecoder has no iso-8859-16 and no x-user-defined (a
 * RangeError; Node 24 has every encoding). urikit's encoders do not depend
 * on it (the indexes are generated data), so only the cross-check skips
 * them there, and no other encoding may be missing.
 */
const MAY_LACK = new Set(['iso-8859-16', 'x-user-defined']);
function platformDecoder(label: string, name: string): TextDecoder | undefined {
  try {
    return new TextDecoder(label);
  } catch (e) {
    if (!(e instanceof RangeError) || !MAY_LACK.has(name)) throw e;
    return undefined;
  }
}

describe('Encoding Standard labels', () => {
  test('every label names the encoding the platform TextDecoder gives it (replacement: refused)', () => {
    for (const [label, name] of ENCODING_LABELS) {
      if (name === 'replacement') expect(() => new TextDecoder(label), label).toThrow(RangeError);
      else expect(platformDecoder(label, name)?.encoding ?? name, label).toBe(name);
    }
  });
  test('labels are matched without ASCII white space and case', () => {
    expect(encodingForLabel('\t Latin1\n')).toBe('windows-1252');
    expect(encodingForLabel('latin\u00a01')).toBeUndefined();
    expect(encodingForLabel('utf-7')).toBeUndefined();
  });
});

/*
 * Bytes of the Encoding Standard's index files (index-<name>.txt) that
 * changed between its revisions, where older decoders differ: 0xFFFD here
 * is a byte the index leaves without a code point.
 */
const PINNED: ReadonlyArray<readonly [string, number, number]> = [
  ['windows-1252', 0x80, 0x20ac], ['windows-1252', 0x81, 0x0081], ['windows-1255', 0xca, 0x05ba], ['windows-1253', 0xaa, 0xfffd],
  ['windows-874', 0xdb, 0xfffd], ['windows-874', 0xff, 0xfffd], ['x-mac-cyrillic', 0xff, 0x20ac], ['koi8-u', 0xae, 0x045e],
  ['koi8-u', 0xbe, 0x040e], ['iso-8859-16', 0xa4, 0x20ac],
];
/*
 * Where a platform's TextDecoder may still read an older mapping. Node 22's
 * (its ICU tables, not the Standard's indexes) reads koi8-u as RFC 2319's
 * KOI8-U (0xAE U+255D, 0xBE U+256C), the unassigned bytes of windows-874
 * as private-use characters, windows-1253 0xAA as U+00AA and
 * windows-1255 0xCA as nothing; Node 24's agree with the Standard (and
 * with Chromium 156's) on every byte. The generator refuses a platform
 * that reads the pinned bytes otherwise.
 */
const PLATFORM_MAY_DIFFER: ReadonlyMap<string, readonly number[]> = new Map([
  ['koi8-u', [0xae, 0xbe]], ['windows-874', [0xdb, 0xdc, 0xdd, 0xde, 0xfc, 0xfd, 0xfe, 0xff]], ['windows-1253', [0xaa]], ['windows-1255', [0xca]],
]);

describe('single-byte indexes', () => {
  test('the bytes the Standard changed are as its index files have them now', () => {
    for (const [name, byte, cp] of PINNED) expect(SINGLE_BYTE_INDEXES.get(name)?.codePointAt(byte - 0x80), `${name} ${byte}`).toBe(cp);
  });
  test('each is what the platform decoder reads for the bytes 0x80-0xFF (the data the generator wrote)', () => {
    const high = Uint8Array.from({ length: 128 }, (_, i) => 0x80 + i);
    for (const [name, index] of SINGLE_BYTE_INDEXES) {
      const decoded = [...(platformDecoder(name, name)?.decode(high) ?? index)];
      for (const byte of PLATFORM_MAY_DIFFER.get(name) ?? []) decoded[byte - 0x80] = index[byte - 0x80]!;
      expect(index, name).toBe(decoded.join(''));
    }
    expect(SINGLE_BYTE_INDEXES.size).toBe(28);
  });
  test('every code point of an index encodes to its byte in a query, and ASCII stays', () => {
    for (const [name, index] of SINGLE_BYTE_INDEXES) {
      for (let i = 0; i < 128; i++) {
        const c = index[i]!;
        if (c === '\ufffd') continue;
        // The first byte of a code point in the index (the Encoding Standard's "index pointer").
        const byte = 0x80 + index.indexOf(c);
        expect(encodeQueryIn(`?a=${c}&b=~`, name, 'http'), `${name} ${c}`).toBe(`?a=%${byte.toString(16).toUpperCase()}&b=~`);
      }
    }
  });
  test('x-user-defined: U+F780..U+F7FF are the bytes 0x80..0xFF, nothing else above ASCII', () => {
    expect(encodeQueryIn('?\uf780\uf7ff\u00e9', 'x-user-defined', 'http')).toBe('?%80%FF%26%23233%3B');
  });
});

describe('encodeQueryIn (URL Standard, query state)', () => {
  test.each([
    ['?q=é', 'windows-1252', 'http', '?q=%E9'],
    ['/é/?q=é#é', 'windows-1252', 'http', '/é/?q=%E9#é'],
    ['#a?é', 'windows-1252', 'http', '#a?é'],
    ['?q=€', 'windows-1252', 'https', '?q=%80'],
    ['?q=€', 'iso-8859-2', 'http', '?q=%26%238364%3B'],
    ['?q=😀', 'koi8-r', 'http', '?q=%26%23128512%3B'],
    ['?q=\ud800', 'windows-1252', 'http', '?q=%26%2365533%3B'],
    ['?q=%E9é', 'windows-1252', 'http', '?q=%E9%E9'],
    ['HTTP://a/?q=é', 'windows-1252', 'ws', 'HTTP://a/?q=%E9'],
    ['FILE:///p?é', 'windows-1252', 'http', 'FILE:///p?%E9'],
    ['?q=é', 'windows-1252', 'wss', '?q=é'],
    ['?q=é', 'windows-1252', 'urn', '?q=é'],
    ['//h/?q=é', 'windows-1252', 'mailto', '//h/?q=é'],
    ['?q=é', 'utf-8', 'http', '?q=é'],
    ['?q=ascii', 'shift_jis', 'http', '?q=ascii'],
    ['?q=é', 'shift_jis', 'http', undefined],
  ] as [string, string, string, string | undefined][])('%s in %s (base scheme %s)', (ref, enc, scheme, out) => {
    expect(encodeQueryIn(ref, enc, scheme)).toBe(out);
  });
  test('which encodings have an encoder', () => {
    expect(['utf-8', 'windows-1252', 'x-user-defined', 'x-mac-cyrillic'].map(canEncodeQuery)).toEqual([true, true, true, true]);
    expect(['gbk', 'gb18030', 'big5', 'euc-jp', 'iso-2022-jp', 'shift_jis', 'euc-kr'].map(canEncodeQuery).some(Boolean)).toBe(false);
  });
});

describe('the document encoding in extractLinksFromHtml', () => {
  test('the caller encoding wins over the Content-Type, which wins over the meta; the default is UTF-8', () => {
    const html = '<meta charset=koi8-r><a href="?q=é">';
    expect(uris(html, { encoding: 'latin1', headers: { 'content-type': 'text/html; charset=iso-8859-2' } })).toEqual(['http://example.com/dir/page.html?q=%E9']);
    expect(uris('<meta charset=koi8-r><a href="?q=ё">', { headers: [['Content-Type', 'text/html;charset="windows-1251"']] })).toEqual(['http://example.com/dir/page.html?q=%B8']);
    expect(uris('<meta charset=koi8-r><a href="?q=ё">')).toEqual(['http://example.com/dir/page.html?q=%A3']);
    expect(uris('<a href="?q=é">')).toEqual(['http://example.com/dir/page.html?q=é']);
  });
  test('a Content-Type without a known charset leaves the meta to decide; a meta with an unknown label is skipped', () => {
    expect(uris('<meta charset=bogus><meta http-equiv=content-type content="text/html; charset=latin2"><a href="?q=ł">', { headers: { 'Content-Type': 'text/html; charset=bogus' } })).toEqual(['http://example.com/dir/page.html?q=%B3']);
  });
  test('a byte order mark at the start of the text is UTF-8 or UTF-16: UTF-8 URLs, whatever the meta says', () => {
    expect(uris('\ufeff<meta charset=latin1><a href="?q=é">')).toEqual(['http://example.com/dir/page.html?q=é']);
  });
  test('a meta in <template> contents declares nothing', () => {
    expect(uris('<template><meta charset=latin1></template><a href="?q=é">')).toEqual(['http://example.com/dir/page.html?q=é']);
  });
  test('an unknown encoding label from the caller throws a RangeError', () => {
    expect(() => extractLinksFromHtml('<a href=x>', 'http://a/', { encoding: 'utf-7' })).toThrow(RangeError);
  });
  test('a multi-byte encoding: an ASCII query resolves, a non-ASCII one is unsupported-encoding', () => {
    expect(uris('<a href="?q=x">a</a><a href="?q=日本">j</a><a href="/日本">p</a>', { encoding: 'shift_jis' })).toEqual([
      'http://example.com/dir/page.html?q=x', 'unsupported-encoding', 'http://example.com/日本',
    ]);
  });
  test('repair encodes the query in the document encoding before mapping the rest as an IRI', () => {
    expect(uris('<a href="/é?q=é x">', { encoding: 'windows-1252' }, true)).toEqual(['http://example.com/%C3%A9?q=%E9%20x']);
  });
  test('baseFromHtml encodes the query of the <base href> in the document encoding too', () => {
    expect(baseFromHtml('<meta charset=latin1><base href="/b?q=é">', 'http://a/doc')).toBe('http://a/b?q=%E9');
  });
});
