/**
 * domainToASCII against an independent UTS #46 implementation: tr46 (the
 * one whatwg-url uses, with its own tables of UTS #46 17.0), same flags:
 * on every assigned code point, and on generated names mixing scripts,
 * digits, hyphens, joiners, combining marks, RTL letters and label
 * separators. Joiners (RFC 5892 Appendix A.1-A.2) and Bidi (RFC 5893 §2)
 * are read from the Unicode Character Database by both, so they must agree.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createRequire } from 'node:module';
import { domainToASCII, domainToUnicode } from 'urikit';

const require = createRequire(import.meta.url);
const tr46 = require('tr46') as {
  toASCII(d: string, o: Record<string, boolean>): string | null;
  toUnicode(d: string, o: Record<string, boolean>): { domain: string; error: boolean };
};
const FLAGS = { checkBidi: true, checkHyphens: true, checkJoiners: true, useSTD3ASCIIRules: true, transitionalProcessing: false, verifyDNSLength: true };

const PARTS = [
  'a', 'b', 'z', 'l', '0', '9', '-', '_', 'xn--', 'ß', 'ü', 'é', 'ｘ', 'Ⅸ', 'а', 'о', 'α', 'ς', '\u0375', '\u00b7', '一', 'あ', '😀',
  'ا', 'ب', 'ي', '\u0640', '٠', '١', '۰', '۱', 'א', 'ב', 'ג', '\u05f3', '\u07fa', '\u0300', '\u094d', 'क', 'ष', '\u200c', '\u200d',
  'ｎ', '－', 'XN--', '!', '~', '\u00ad', '\u2011', 'Ω', 'K', 'İ', '\ufb01', '\u2488', '\u1e9e', '\u10a0', '\u3164',
];
const ours = (d: string): string | null => {
  try {
    return domainToASCII(d);
  } catch {
    return null;
  }
};

/** Does the platform's URL (whose UTS #46 table the mapping uses) refuse this host? */
const platformRefuses = (host: string): boolean => {
  try {
    new URL(`http://${host}/`);
    return false;
  } catch {
    return true;
  }
};

describe('domainToASCII agrees with tr46 (UTS #46, independent tables)', () => {
  /*
   * Each assigned code point (not private use) after "a": its UTS #46 17.0
   * status, mapping, NFC, and the Bidi and joiner rules on a one-letter
   * context. A platform whose URL has an older table (Node 22's: before
   * 15.1) refuses the characters 16.0 and 17.0 added or made valid, other
   * than the inert ones urikit stands in for (idna.ts): those alone may
   * differ, as a refusal, and are counted in the test's name (Node 22: 111,
   * Node 24: none).
   */
  const differences: Array<{ cp: number; ours: string | null; tr46: string | null }> = [];
  const unassignedOrPrivate = /[\p{Cn}\p{Co}]/u;
  for (let cp = 0x80; cp < 0x110000; cp++) {
    if (cp === 0xd800) cp = 0xe000;
    const name = `a${String.fromCodePoint(cp)}`;
    if (unassignedOrPrivate.test(name)) continue;
    const b = tr46.toASCII(name, FLAGS);
    const a = ours(name);
    if (a !== b) differences.push({ cp, ours: a, tr46: b });
  }
  const unknownToPlatform = differences.filter((d) => d.ours === null && platformRefuses(`a${String.fromCodePoint(d.cp)}.a`));
  it(`on every assigned code point (${unknownToPlatform.length} that this platform's URL does not know refused)`, () => {
    const others = differences.filter((d) => !unknownToPlatform.includes(d));
    expect(others.map((d) => `U+${d.cp.toString(16).toUpperCase()}: urikit ${d.ours}, tr46 ${d.tr46}`)).toEqual([]);
  });
  it('on generated names', () => {
    const label = fc.array(fc.constantFrom(...PARTS), { minLength: 1, maxLength: 5 }).map((a) => a.join(''));
    fc.assert(
      fc.property(fc.array(label, { minLength: 1, maxLength: 3 }), fc.constantFrom('', '.', '\u3002'), (labels, end) => {
        const name = labels.join('.') + end;
        const a = ours(name);
        const b = tr46.toASCII(name, FLAGS);
        expect(a, `${JSON.stringify(name)}: urikit ${a}, tr46 ${b}`).toBe(b);
      }),
      { numRuns: 3000 },
    );
  });
  it('with the WHATWG URL flags (no CheckHyphens, no STD3 rules, no DNS length), and ToUnicode', () => {
    const lenient = { checkHyphens: false, useSTD3ASCIIRules: false, verifyDnsLength: false };
    const trLenient = { ...FLAGS, checkHyphens: false, useSTD3ASCIIRules: false, verifyDNSLength: false };
    const name = fc.array(fc.constantFrom(...PARTS, '.'), { minLength: 1, maxLength: 8 }).map((a) => a.join(''));
    fc.assert(
      fc.property(name, (d) => {
        let a: string | null;
        try {
          a = domainToASCII(d, lenient);
        } catch {
          a = null;
        }
        const b = tr46.toASCII(d, trLenient);
        expect(a, `${JSON.stringify(d)}: urikit ${a}, tr46 ${b}`).toBe(b);
        if (a !== null) expect(domainToUnicode(d, lenient)).toBe(tr46.toUnicode(d, trLenient).domain);
      }),
      { numRuns: 3000 },
    );
  });
  it('on the names of the table tests', () => {
    for (const name of ['Bücher.example', 'faß.de', '例え.テスト', 'xn--bcher-kva.example', '0a.\u05d0', 'a\u05d0', '\u0915\u094d\u200c\u0937x\u200cy', 'ab--c.example', 'xn--a.com']) {
      expect(ours(name), name).toBe(tr46.toASCII(name, FLAGS));
    }
  });
});
