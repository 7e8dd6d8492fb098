import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatUrc0, formatUrc0Text, parseUrc0, Urc0SyntaxError, type Urc0Part } from '../../src/formats/urc0.js';
import examples from './urc0-examples.json' with { type: 'json' };
import malformed from './urc0-malformed.json' with { type: 'json' };

const latin1 = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
/** 1995 draft §3.4.2: a header that names no charset means "US-ASCII", no language "x-unspecified". */
const withDefaults = (parts: readonly Urc0Part[]): Urc0Part[] => parts.map((p) => ({ charset: 'US-ASCII', language: 'x-unspecified', ...p }));

describe('text/urc-0 examples (1995 draft §3.4.2.1, §3.5)', () => {
  for (const c of examples.cases) {
    it(`formats ${c.name} byte for byte`, () => {
      const opts = 'maxLineLength' in c ? { maxLineLength: c.maxLineLength } : {};
      expect(formatUrc0Text(c.parts as Urc0Part[], opts)).toBe(c.body);
      expect(formatUrc0(c.parts as Urc0Part[], opts)).toEqual(latin1(c.body));
    });
    it(`parses ${c.name}, with the draft's defaults filled in`, () => {
      expect(parseUrc0(c.body)).toEqual(withDefaults(c.parts as Urc0Part[]));
      expect(parseUrc0(latin1(c.body))).toEqual(withDefaults(c.parts as Urc0Part[]));
    });
  }
});

describe('the defaults of 1995 draft §3.4.2', () => {
  it('a bare header means US-ASCII and x-unspecified; a charset alone means x-unspecified', () => {
    expect(parseUrc0('=====\r\nhttp://a/\r\n')).toEqual([{ charset: 'US-ASCII', language: 'x-unspecified', url: 'http://a/' }]);
    expect(parseUrc0('=====ISO-8859-1\r\nhttp://a/\r\n')).toEqual([{ charset: 'ISO-8859-1', language: 'x-unspecified', url: 'http://a/' }]);
  });
  it('the default language is left out of a written header', () => {
    expect(formatUrc0Text([{ charset: 'US-ASCII', language: 'x-unspecified', url: 'http://a/' }])).toBe('=====US-ASCII\r\nhttp://a/\r\n');
    expect(formatUrc0Text([{ language: 'x-unspecified', url: 'http://a/' }])).toBe('=====\r\nhttp://a/\r\n');
  });
});

describe('malformed text/urc-0 (1995 draft §3.4.2)', () => {
  for (const c of malformed.cases) {
    it(`rejects ${c.name} at line ${c.line}`, () => {
      let err: unknown;
      try { parseUrc0(c.body); } catch (e) { err = e; }
      expect(err).toBeInstanceOf(Urc0SyntaxError);
      expect((err as Urc0SyntaxError).code).toBe('bad-urc0');
      expect((err as Urc0SyntaxError).line).toBe(c.line);
    });
  }
});

describe('charsets of the metainformation (1995 draft §3.4.2: US-ASCII, ISO-8859-1..9)', () => {
  const table: Array<[string, number[], string]> = [
    ['ISO-8859-1', [0x63, 0x61, 0x66, 0xe9], 'café'],
    ['ISO-8859-2', [0xb1, 0xe6], 'ąć'],
    ['ISO-8859-5', [0xb0, 0xb1], 'АБ'],
    ['ISO-8859-7', [0xe1, 0xe2], 'αβ'],
    ['ISO-8859-9', [0xd0, 0xdd, 0xfe], 'Ğİş'],
  ];
  for (const [charset, bytes, text] of table) {
    it(`decodes and encodes ${charset}`, () => {
      const head = latin1(`=====${charset}/tr\r\nhttp://a/\r\n`);
      const body = Uint8Array.from([...head, ...bytes, 0x0d, 0x0a]);
      const parts = parseUrc0(body);
      expect(parts[0]!.meta).toBe(text);
      expect(formatUrc0(parts)).toEqual(body);
    });
  }
  it('refuses a byte above 0x7F in US-ASCII metainformation, naming the line', () => {
    const body = Uint8Array.from([...latin1('=====\r\nhttp://a/\r\nok\r\n'), 0xe9, 0x0d, 0x0a]);
    expect(() => parseUrc0(body)).toThrow(/line 4/);
  });
  it('refuses a byte ISO-8859-3 leaves undefined', () => {
    const body = Uint8Array.from([...latin1('=====ISO-8859-3\r\nhttp://a/\r\n'), 0xa5, 0x0d, 0x0a]);
    expect(() => parseUrc0(body)).toThrow(Urc0SyntaxError);
  });
  it('refuses to format metainformation that begins with "=====" or leaves its charset', () => {
    expect(() => formatUrc0Text([{ url: 'http://a/', meta: 'ok\n=====x' }])).toThrow(/=====/);
    expect(() => formatUrc0Text([{ url: 'http://a/', meta: 'café' }])).toThrow(/US-ASCII/);
    expect(() => formatUrc0Text([{ url: 'http://a/ b' }])).toThrow(/RFC 1738/);
  });
});

describe('laws', () => {
  const urlChar = fc.constantFrom(...'abcxyz019/:._-~?=&%'.split(''));
  const url = fc.string({ unit: urlChar, minLength: 1, maxLength: 200 }).map((s) => `http://h/${s}`);
  const metaLine = fc.string({ unit: fc.constantFrom(...'ab =:.-éß'.split('')), maxLength: 30 }).filter((l) => !l.startsWith('====='));
  const part: fc.Arbitrary<Urc0Part> = fc.record({
    charset: fc.constantFrom('ISO-8859-1' as const, 'ISO-8859-9' as const),
    language: fc.constantFrom('x-unspecified', 'en', 'de-CH'),
    url,
    meta: fc.option(fc.array(metaLine, { minLength: 1, maxLength: 4 }).map((ls) => ls.join('\n')), { nil: undefined }),
  }).map((p) => (p.meta === undefined ? { charset: p.charset, language: p.language, url: p.url } : p));
  it('parse(format(parts)) = parts, at every line length', () => {
    fc.assert(fc.property(fc.array(part, { maxLength: 5 }), fc.integer({ min: 8, max: 120 }), (parts, max) => {
      expect(parseUrc0(formatUrc0(parts, { maxLineLength: max }))).toEqual(parts);
      expect(parseUrc0(formatUrc0Text(parts, { maxLineLength: max }))).toEqual(parts);
    }));
  });
  it('any bytes either parse or throw Urc0SyntaxError, nothing else', () => {
    const unit = fc.constantFrom(0x3d, 0x0d, 0x0a, 0x3c, 0x3e, 0x55, 0x52, 0x4c, 0x3a, 0x20, 0x61, 0x2f, 0xe9, 0x00, 0x49, 0x53, 0x4f, 0x2d, 0x38, 0x35, 0x39);
    fc.assert(fc.property(fc.array(unit, { maxLength: 200 }), fc.boolean(), (bytes, strict) => {
      try {
        const parts = parseUrc0(Uint8Array.from(bytes), { strictCrlf: strict });
        for (const p of parts) expect(p.url.length).toBeGreaterThan(0);
      } catch (e) {
        expect(e).toBeInstanceOf(Urc0SyntaxError);
      }
    }), { numRuns: 2000 });
  });
  it('wrapped lines never exceed the line length', () => {
    fc.assert(fc.property(url, fc.integer({ min: 8, max: 80 }), (u, max) => {
      for (const line of formatUrc0Text([{ url: u }], { maxLineLength: max }).split('\r\n')) expect(line.length).toBeLessThanOrEqual(max);
    }));
  });
});
