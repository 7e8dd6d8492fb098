/**
 * The charset of the 1990s codecs (ftp, gopher, news): Latin-1 escapes
 * read as octets in the caller's charset, never a throw on a valid escape;
 * and what each codec builds back. Cases in charset.json.
 */
import { describe, expect, it } from 'vitest';
import { ftpCodec, ftpScheme, gopherCodec, gopherScheme, newsCodec, newsScheme, parse, type OctetCharset, type SchemeCodec } from 'urikit';
import table from './charset.json' with { type: 'json' };

type Codec = SchemeCodec<Record<string, unknown>>;
const codecs: Record<string, (charset?: OctetCharset) => Codec> = {
  ftp: (charset) => (charset ? ftpCodec({ charset }) : ftpScheme) as unknown as Codec,
  gopher: (charset) => (charset ? gopherCodec({ charset }) : gopherScheme) as unknown as Codec,
  news: (charset) => (charset ? newsCodec({ charset }) : newsScheme) as unknown as Codec,
};

describe(table.source, () => {
  for (const c of table.cases as Array<{ codec: string; uri: string; field: string; 'iso-8859-1': unknown; 'utf-8': unknown }>) {
    it(`${c.uri}: ${c.field}`, () => {
      const ref = parse(c.uri, 'uri');
      const latin1 = codecs[c.codec]!('iso-8859-1');
      expect(latin1.parse(ref)[c.field]).toEqual(c['iso-8859-1']);
      expect(codecs[c.codec]!('utf-8').parse(ref)[c.field]).toEqual(c['utf-8']);
      expect(codecs[c.codec]!().parse(ref)[c.field]).toEqual(c['utf-8']);
      expect(() => codecs[c.codec]!().validate(ref)).not.toThrow();
      // What the Latin-1 codec read, it writes back with the same octets.
      expect(latin1.build(latin1.parse(ref)).toUpperCase()).toBe(c.uri.toUpperCase());
    });
  }
  it('a malformed escape is still bad-percent, a character Latin-1 cannot hold is bad-component', () => {
    expect(() => ftpCodec({ charset: 'iso-8859-1' }).build({ host: 'h', directories: [], name: '€' })).toThrowError(expect.objectContaining({ code: 'bad-component' }) as Error);
    expect(() => gopherCodec({ charset: 'iso-8859-1' }).parse({ scheme: 'gopher', host: 'h', path: '/0a%E' })).toThrowError(expect.objectContaining({ code: 'bad-percent' }) as Error);
  });
});
