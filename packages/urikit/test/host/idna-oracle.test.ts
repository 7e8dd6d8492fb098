/**
 * domainToASCII against an independent UTS #46 implementation: tr46 (the
 * one whatwg-url uses, with its own Unicode tables), same flags, on
 * generated names mixing scripts, digits, hyphens, joiners, combining
 * marks, RTL letters and label separators. The one difference allowed is
 * a trailing root label (a written trailing dot, or a last label the
 * mapping empties), which urikit allows (UTS #46 §4.2 step 4 measures the
 * name "excluding the root label and its dot", and IdnaTestV2.txt accepts
 * "a.b.c.d.") and tr46 refuses under VerifyDnsLength. Joiners (RFC 5892
 * Appendix A.1-A.2) and Bidi (RFC 5893 §2) are read from the Unicode
 * Character Database by both, so they must agree.
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
  'ｎ', '－', 'XN--', '!', '~', '\u00ad', '\u2011', 'Ω', 'K', 'İ', '\ufb01', '\u2488',
  // Not U+1E9E: Node 20's URL maps it to "ss" (UTS #46 before 15.1), tr46 6 to "ß" (Unicode 16).
];
const ours = (d: string): string | null => {
  try {
    return domainToASCII(d);
  } catch {
    return null;
  }
};

describe('domainToASCII agrees with tr46 (UTS #46, independent tables)', () => {
  it('on generated names', () => {
    const label = fc.array(fc.constantFrom(...PARTS), { minLength: 1, maxLength: 5 }).map((a) => a.join(''));
    fc.assert(
      fc.property(fc.array(label, { minLength: 1, maxLength: 3 }), fc.constantFrom('', '.', '\u3002'), (labels, end) => {
        const name = labels.join('.') + end;
        const a = ours(name);
        const b = tr46.toASCII(name, FLAGS);
        if (a === b) return;
        if (b === null && a !== null && a.endsWith('.')) {
          // A trailing root label (written, or a last label the mapping empties, such as U+00AD):
          // tr46 must accept the same name without it.
          expect(tr46.toASCII(a.slice(0, -1), FLAGS)).toBe(a.slice(0, -1));
          return;
        }
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
