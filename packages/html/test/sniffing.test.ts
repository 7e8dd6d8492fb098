/**
 * The encoding of an HTML document given as bytes: HTML Living Standard
 * §13.2.3.2, the encoding sniffing algorithm (byte order mark, the user's
 * override, the transport layer, the prescan of the first 1024 bytes and
 * "get an XML encoding", the optional UTF-8 detection, the default), the
 * document decoded in it (Encoding Standard, "decode"), and HTML "change
 * the encoding" for a `<meta>` after the prescanned bytes.
 */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { decodeHtml, encodingForLabel, extractLinksFromHtml, sniffHtmlEncoding, type SniffOptions } from '@urikit/html';

/** ASCII text as bytes, with `\xNN` escapes for single bytes. */
const bytes = (s: string): Uint8Array => Uint8Array.from(s, (c) => {
  const b = c.charCodeAt(0);
  if (b > 0xff) throw new Error(`not a byte: ${c}`);
  return b;
});
/** `s` in UTF-16LE or UTF-16BE, with its byte order mark. */
const utf16 = (s: string, le: boolean): Uint8Array => {
  const out = [le ? 0xff : 0xfe, le ? 0xfe : 0xff];
  for (let i = 0; i < s.length; i++) {
    const u = s.charCodeAt(i);
    out.push(...(le ? [u & 0xff, u >> 8] : [u >> 8, u & 0xff]));
  }
  return Uint8Array.from(out);
};
const FILLER = `<!--${'x'.repeat(1100)}-->`;

describe('the encoding sniffing algorithm', () => {
  test.each<[string, Uint8Array, SniffOptions | undefined, string, 'certain' | 'tentative', string]>([
    ['UTF-8 byte order mark', bytes('\xef\xbb\xbf<meta charset=koi8-r>'), undefined, 'utf-8', 'certain', 'bom'],
    ['UTF-16LE byte order mark', utf16('<p>', true), undefined, 'utf-16le', 'certain', 'bom'],
    ['UTF-16BE byte order mark', utf16('<p>', false), undefined, 'utf-16be', 'certain', 'bom'],
    ['a byte order mark wins over the override (step 1 before step 2)', bytes('\xef\xbb\xbf<p>'), { override: 'latin1' }, 'utf-8', 'certain', 'bom'],
    ['the override wins over the prescan', bytes('<meta charset=koi8-r>'), { override: 'Latin1' }, 'windows-1252', 'certain', 'override'],
    ['the transport layer, a Content-Type value', bytes('<meta charset=koi8-r>'), { transport: 'text/html; charset="ISO-8859-2"' }, 'iso-8859-2', 'certain', 'transport'],
    ['an unsupported transport charset is passed over', bytes('<meta charset=koi8-r>'), { transport: 'text/html; charset=utf-7' }, 'koi8-r', 'tentative', 'prescan'],
    ['<meta charset>', bytes('<!DOCTYPE html><html><head><meta charset="ISO-8859-7">'), undefined, 'iso-8859-7', 'tentative', 'prescan'],
    ['<meta charset> unquoted, upper case, after a slash', bytes('<META/CHARSET=KOI8-R>'), undefined, 'koi8-r', 'tentative', 'prescan'],
    ['<meta http-equiv=content-type content=...charset=...>', bytes('<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">'), undefined, 'windows-1251', 'tentative', 'prescan'],
    ['content before http-equiv counts too', bytes("<meta content='text/html;charset=koi8-u' http-equiv='content-type'>"), undefined, 'koi8-u', 'tentative', 'prescan'],
    ['content without http-equiv is no declaration (need pragma)', bytes('<meta content="text/html; charset=koi8-r"><p>'), undefined, 'windows-1252', 'tentative', 'default'],
    ['a repeated attribute is ignored', bytes('<meta charset=koi8-r charset=latin2>'), undefined, 'koi8-r', 'tentative', 'prescan'],
    ['an unknown label: the next <meta> decides', bytes('<meta charset=klingon><meta charset=latin2>'), undefined, 'iso-8859-2', 'tentative', 'prescan'],
    ['a declaration in a comment does not count', bytes('<!-- <meta charset=koi8-r> --><meta charset=latin2>'), undefined, 'iso-8859-2', 'tentative', 'prescan'],
    ['"<!-->" ends its comment', bytes('<!--><meta charset=latin2>'), undefined, 'iso-8859-2', 'tentative', 'prescan'],
    ['a declaration inside another tag\'s attribute does not count', bytes('<p title="<meta charset=koi8-r>"><meta charset=latin2>'), undefined, 'iso-8859-2', 'tentative', 'prescan'],
    ['a declared UTF-16 is UTF-8 (the bytes were read as ASCII)', bytes('<meta charset="utf-16le">'), undefined, 'utf-8', 'tentative', 'prescan'],
    ['a declared x-user-defined is windows-1252', bytes('<meta charset="x-user-defined">'), undefined, 'windows-1252', 'tentative', 'prescan'],
    ['an XML declaration', bytes('<?xml version="1.0" encoding="ISO-8859-5"?><html>'), undefined, 'iso-8859-5', 'tentative', 'prescan'],
    ['UTF-16LE "<?x" without a byte order mark', bytes('<\x00?\x00x\x00m\x00l\x00'), undefined, 'utf-16le', 'tentative', 'prescan'],
    ['a declaration after the first 1024 bytes is not prescanned', bytes(`${FILLER}<meta charset=koi8-r>`), undefined, 'windows-1252', 'tentative', 'default'],
    ['no declaration: windows-1252', bytes('<p>caf\xe9'), undefined, 'windows-1252', 'tentative', 'default'],
    ['no declaration, UTF-8 detection asked, UTF-8 bytes', bytes('<p>caf\xc3\xa9'), { detectUtf8: true }, 'utf-8', 'tentative', 'autodetect'],
    ['UTF-8 detection asked, bytes that are no UTF-8', bytes('<p>caf\xe9'), { detectUtf8: true }, 'windows-1252', 'tentative', 'default'],
    ['UTF-8 detection asked, ASCII only: the default', bytes('<p>cafe'), { detectUtf8: true }, 'windows-1252', 'tentative', 'default'],
    ['another default', bytes('<p>'), { fallback: 'shift_jis' }, 'shift_jis', 'tentative', 'default'],
  ])('%s', (_, input, opts, encoding, confidence, from) => {
    expect(sniffHtmlEncoding(input, opts)).toEqual({ encoding, confidence, from });
  });

  test('any bytes get an encoding of the Standard, without an error (the prescan of broken markup runs out of bytes and stops)', () => {
    const pieces = ['<meta', '<META ', ' charset=', 'http-equiv=content-type', ' content="text/html;charset=koi8-r"', '"', "'", '<!--', '-->', '<?xml encoding="latin2"', '</', '<p ', '/', '>', '=', ' ', 'latin2', '\xff\xfe', '\x00', '<\x00?\x00x\x00'];
    const input = fc.oneof(
      fc.array(fc.constantFrom(...pieces), { maxLength: 40 }).map((p) => bytes(p.join(''))),
      fc.uint8Array({ maxLength: 200 }),
    );
    const names = new Set(['utf-8', 'utf-16le', 'utf-16be', 'windows-1252', 'koi8-r', 'iso-8859-2', 'replacement']);
    fc.assert(fc.property(input, (b) => {
      const found = sniffHtmlEncoding(b);
      expect(encodingForLabel(found.encoding) ?? found.encoding).toBe(found.encoding);
      if (found.from !== 'prescan') expect(names.has(found.encoding)).toBe(true);
      expect(typeof decodeHtml(b).text).toBe('string');
    }), { numRuns: 3000 });
  });

  test('an unknown override or default is a RangeError that names it', () => {
    expect(() => sniffHtmlEncoding(bytes('<p>'), { override: 'klingon' })).toThrow(/"klingon" is no encoding label/);
    expect(() => sniffHtmlEncoding(bytes('<p>'), { fallback: 'utf-7' })).toThrow(RangeError);
  });
});

describe('decodeHtml', () => {
  test.each<[string, Uint8Array, SniffOptions | undefined, string, string]>([
    ['windows-1252 by default', bytes('<a href="caf\xe9">\x80'), undefined, '<a href="café">€', 'windows-1252'],
    ['UTF-8 with its byte order mark dropped', bytes('\xef\xbb\xbf<p>caf\xc3\xa9'), undefined, '<p>café', 'utf-8'],
    ['UTF-16LE with its byte order mark dropped', utf16('<a href="é">', true), undefined, '<a href="é">', 'utf-16le'],
    ['UTF-16BE with its byte order mark dropped', utf16('<p>€', false), undefined, '<p>€', 'utf-16be'],
    ['a declared koi8-r', bytes('<meta charset=koi8-r><p>\xc1'), undefined, '<meta charset=koi8-r><p>а', 'koi8-r'],
    ['iso-8859-16, which Node 22\'s TextDecoder lacks', bytes('<p>\xa1'), { override: 'iso-8859-16' }, '<p>Ą', 'iso-8859-16'],
    ['x-user-defined (Encoding Standard: 0x80-0xFF to U+F780-U+F7FF)', bytes('<p>\x80\xff'), { override: 'x-user-defined' }, '<p>\uf780\uf7ff', 'x-user-defined'],
    ['the replacement encoding: one U+FFFD', bytes('<p>a'), { override: 'iso-2022-kr' }, '\ufffd', 'replacement'],
    ['malformed bytes become U+FFFD', bytes('\xef\xbb\xbf<p>\xff'), undefined, '<p>\ufffd', 'utf-8'],
  ])('%s', (_, input, opts, text, encoding) => {
    expect(decodeHtml(input, opts)).toMatchObject({ text, encoding });
  });
});

describe('extractLinksFromHtml on bytes', () => {
  const links = (input: Uint8Array, context?: Parameters<typeof extractLinksFromHtml>[2], detectUtf8 = false) =>
    extractLinksFromHtml(input, 'http://example.com/dir/page.html', context, { detectUtf8 }).links.map((l) => l.uri ?? l.error);

  test.each<[string, Uint8Array, Parameters<typeof extractLinksFromHtml>[2], boolean, string[]]>([
    // Each path shows which encoding read the byte (the path is UTF-8, RFC 3987 §3.1); each query is the byte again, encoded in that encoding.
    ['windows-1252 by default', bytes('<a href="\xc1?q=\xc1">'), undefined, false, ['http://example.com/dir/Á?q=%C1']],
    ['a <meta charset> in the first 1024 bytes', bytes('<meta charset=koi8-r><a href="\xc1?q=\xc1">'), undefined, false, ['http://example.com/dir/а?q=%C1']],
    ['UTF-16LE with a byte order mark: the query in UTF-8', utf16('<a href="Á?q=Á">', true), undefined, false, ['http://example.com/dir/Á?q=Á']],
    ['the caller\'s encoding is the override', bytes('<meta charset=koi8-r><a href="\xc1?q=\xc1">'), { encoding: 'latin1' }, false, ['http://example.com/dir/Á?q=%C1']],
    ['the Content-Type charset is the transport layer\'s', bytes('<meta charset=koi8-r><a href="\xa1?q=\xa1">'), { headers: { 'Content-Type': 'text/html; charset=iso-8859-2' } }, false, ['http://example.com/dir/Ą?q=%A1']],
    ['UTF-8 detected when asked', bytes('<a href="\xc3\x81?q=\xc3\x81">'), undefined, true, ['http://example.com/dir/Á?q=Á']],
    ['without UTF-8 detection UTF-8 bytes are windows-1252', bytes('<a href="\xc3\xa9">'), undefined, false, ['http://example.com/dir/Ã©']],
    // HTML "change the encoding": the tree builder meets the <meta> while the sniffed encoding is tentative, and the page is read again in koi8-r.
    ['a <meta charset> after the first 1024 bytes changes the encoding', bytes(`${FILLER}<meta charset=koi8-r><a href="\xc1?q=\xc1">`), undefined, false, ['http://example.com/dir/а?q=%C1']],
    ['a late <meta> changes a detected UTF-8 too', bytes(`${FILLER}<meta charset=koi8-r><a href="\xc3\xa9">`), undefined, true, ['http://example.com/dir/ц╘']],
    ['a late <meta> does not change an encoding the override made certain', bytes(`${FILLER}<meta charset=koi8-r><a href="\xc1?q=\xc1">`), { encoding: 'windows-1252' }, false, ['http://example.com/dir/Á?q=%C1']],
  ])('%s', (_, input, context, detectUtf8, expected) => {
    expect(links(input, context, detectUtf8)).toEqual(expected);
  });

  test('a late <meta> reads the page again: the link of the second reading', () => {
    // In windows-1252 0xC1 is "Á", in koi8-r "а" (U+0430): the path shows which reading was kept.
    const [link] = extractLinksFromHtml(bytes(`${FILLER}<meta charset=koi8-r><a href="\xc1">`), 'http://example.com/').links;
    expect(link).toMatchObject({ value: 'а', uri: 'http://example.com/а' });
  });

  test('encodingForLabel is the Encoding Standard\'s "get an encoding"', () => {
    expect(encodingForLabel(' Latin1 ')).toBe('windows-1252');
    expect(encodingForLabel('klingon')).toBeUndefined();
  });
});
