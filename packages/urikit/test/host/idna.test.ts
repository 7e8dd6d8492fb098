/**
 * IDNA (UTS #46 nontransitional) and Punycode (RFC 3492): the sample
 * strings, round trips (non-BMP included), invalid labels, and laws.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { domainToASCII, domainToUnicode, punycodeEncode, punycodeDecode, isUriError } from 'urikit';
import idna from './idna.json' with { type: 'json' };
import puny from './punycode.json' with { type: 'json' };
import { STAND_INS } from '../../src/host/idna.js';
import { BidiGroup, JoiningType, bidiGroup, isInert, joiningType } from '../../src/host/unicode-props.js';

describe(`Punycode (${puny.source})`, () => {
  for (const s of puny.samples) {
    it(`(${s.sample}) ${s.name}`, () => {
      expect(punycodeEncode(s.decoded)).toBe(s.encoded);
      expect(punycodeDecode(s.encoded)).toBe(s.decoded);
    });
  }
  for (const s of puny.extra) {
    it(`${JSON.stringify(s.decoded)} <-> ${JSON.stringify(s.encoded)}`, () => {
      expect(punycodeEncode(s.decoded)).toBe(s.encoded);
      expect(punycodeDecode(s.encoded)).toBe(s.decoded);
    });
  }
  for (const b of puny.bad) {
    it(`refuses ${JSON.stringify(b.encoded)}: ${b.comment}`, () => {
      expect(() => punycodeDecode(b.encoded)).toThrowError(expect.objectContaining({ code: 'bad-idna', offset: b.offset }));
    });
  }
  const codePoint = fc.integer({ min: 0, max: 0x10ffff }).filter((c) => c < 0xd800 || c > 0xdfff);
  it('decode(encode(s)) is s for any string of code points, non-BMP included', () => {
    fc.assert(
      fc.property(fc.array(codePoint, { maxLength: 40 }), (cps) => {
        const s = String.fromCodePoint(...cps);
        const e = punycodeEncode(s);
        expect(/^[\x00-\x7f]*$/.test(e)).toBe(true);
        expect(punycodeDecode(e)).toBe(s);
      }),
    );
  });
  it('refuses a lone surrogate and an over-long label', () => {
    expect(() => punycodeEncode('a\uD800')).toThrowError(expect.objectContaining({ code: 'bad-idna', offset: 1 }));
    expect(() => punycodeDecode('a'.repeat(5000))).toThrowError(expect.objectContaining({ code: 'bad-idna' }));
  });
  it('never throws anything but a UriError on arbitrary ASCII', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'z', '0', '9', '-', 'A', '!', 'k') }), (s) => {
        try {
          const d = punycodeDecode(s);
          expect(typeof d).toBe('string');
        } catch (e) {
          expect(isUriError(e, 'bad-idna')).toBe(true);
        }
      }),
    );
  });
});

describe(`domainToASCII / domainToUnicode (${idna.source})`, () => {
  for (const c of idna.valid) {
    it(`${JSON.stringify(c.input.length > 50 ? c.input.slice(0, 30) + '...' : c.input)} -> ${c.ascii.length > 50 ? '(long)' : c.ascii}: ${c.comment}`, () => {
      const opts = c.options ?? undefined;
      expect(domainToASCII(c.input, opts)).toBe(c.ascii);
      expect(domainToUnicode(c.input, opts)).toBe(c.unicode);
      // Round trips: the ASCII form and the Unicode form name the same domain.
      expect(domainToASCII(c.unicode, opts)).toBe(c.ascii);
      expect(domainToUnicode(c.ascii, opts)).toBe(c.unicode);
    });
  }
  for (const c of idna.invalid) {
    it(`refuses ${JSON.stringify(c.input.length > 50 ? c.input.slice(0, 30) + '...' : c.input)} at ${c.offset}: ${c.comment}`, () => {
      expect(() => domainToASCII(c.input)).toThrowError(expect.objectContaining({ code: 'bad-idna', offset: c.offset }));
      if ('toUnicode' in c) expect(domainToUnicode(c.input)).toBe(c.toUnicode);
      else expect(() => domainToUnicode(c.input)).toThrowError(expect.objectContaining({ code: 'bad-idna' }));
    });
  }
  it('refuses a lone surrogate (kept out of the JSON table: JSON parsers differ on it)', () => {
    expect(() => domainToASCII('\uD800.com')).toThrowError(expect.objectContaining({ code: 'bad-idna', offset: 0 }));
    expect(() => domainToASCII('a.\uDC00')).toThrowError(expect.objectContaining({ code: 'bad-idna', offset: 2 }));
  });
  it('ToASCII is idempotent and ToUnicode inverts it on labels of letters from several scripts', () => {
    const letters = [...'abcxyzäöüßéèñçøåæœπστλжщюяאבגابتकखगअ一丁七あいうアイウ가나다𐌀𐌁😀'];
    fc.assert(
      fc.property(fc.array(fc.array(fc.constantFrom(...letters), { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 3 }), (labels) => {
        const name = labels.map((l) => l.join('')).join('.');
        let ascii: string;
        try {
          ascii = domainToASCII(name, { checkHyphens: false });
        } catch (e) {
          // Bidi domain names mixing scripts may be refused; refused with a UriError only.
          expect(isUriError(e, 'bad-idna')).toBe(true);
          return;
        }
        expect(domainToASCII(ascii)).toBe(ascii);
        const unicode = domainToUnicode(ascii);
        expect(domainToASCII(unicode)).toBe(ascii);
        expect(unicode).toBe(name.normalize('NFC').toLowerCase());
      }),
    );
  });
});

describe('the stand-ins for an inert code point the platform does not know (host/idna.ts)', () => {
  const all = Object.values(STAND_INS).flat();
  it('are of their kind, their own decomposition and mapping, known to the platform, and no code point maps to one (NFKC and lower case, the base of the UTS #46 mapping)', () => {
    for (const [kind, list] of Object.entries(STAND_INS)) {
      for (const s of list) {
        const cp = s.codePointAt(0)!;
        expect([`${bidiGroup(cp)}/${joiningType(cp)}`, s.normalize('NFD'), s.normalize('NFKC').toLowerCase()], `U+${cp.toString(16)}`).toEqual([kind, s, s]);
        // Known: alone as a label (an AN digit cannot begin one: RFC 5893 rule 1), or after an Arabic letter.
        expect(domainToUnicode(`${bidiGroup(cp) === BidiGroup.AN ? '\u0628' : ''}${s}.example`)).toMatch(/\.example$/);
      }
    }
    const produced: string[] = [];
    for (let cp = 0; cp < 0x110000; cp++) {
      if (cp === 0xd800) cp = 0xe000;
      const ch = String.fromCodePoint(cp);
      if (all.includes(ch)) continue;
      const mapped = ch.normalize('NFKC').toLowerCase();
      if (mapped !== ch && all.some((s) => mapped.includes(s))) produced.push(`U+${cp.toString(16)}`);
    }
    expect(produced).toEqual([]);
  });
  it('stand for code points new since Unicode 15.0 only (an older one the platform refuses is disallowed)', () => {
    expect([isInert(0x323b0), isInert(0x13460), isInert(0x4e00), isInert(0xfffd), isInert(0x61)]).toEqual([true, true, false, false, false]);
  });
  it('leave a name holding one to the next stand-in', () => {
    // U+323B0 CJK Extension J (17.0), beside the first stand-in of its kind.
    const first = STAND_INS[`${BidiGroup.L}/${JoiningType.U}`]![0]!;
    expect(domainToASCII(`${first}\u{323b0}.example`)).toBe(`xn--${punycodeEncode(`${first}\u{323b0}`)}.example`);
  });
});
