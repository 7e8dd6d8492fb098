// The harvester's XML scanner: the table of xml-cases.json (well-formed
// documents and what is reported of them; documents refused and the
// code), the same report whatever the chunks a document arrives in
// (fast-check), and its bounds: depth, markup, attributes, whatever the chunks.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { XmlError, XmlScanner, type XmlLimits } from '@urikit/resolver';

const cases = JSON.parse(readFileSync(new URL('./xml-cases.json', import.meta.url), 'utf8')) as { wellFormed: Array<[string, string, string]>; refused: Array<[string, string, string]> };

/** What the scanner reports of `doc` fed in `chunks` pieces of these sizes. */
function scan(doc: string, sizes: number[] = [doc.length], limits?: XmlLimits): string {
  let out = '';
  const s = new XmlScanner({
    open: (n, attrs) => { out += `<${n.ns}|${n.local}${[...attrs].map(([k, v]) => ` ${k}=${v}`).join('')}>`; },
    text: (t) => { out += t; },
    close: (n) => { out += `</${n.local}>`; },
  }, limits);
  let at = 0;
  for (const size of sizes) { s.write(doc.slice(at, at + size)); at += size; }
  s.write(doc.slice(at));
  s.end();
  return out;
}

function refusal(doc: string, sizes?: number[], limits?: XmlLimits): string {
  try {
    scan(doc, sizes, limits);
    return 'accepted';
  } catch (e) {
    if (e instanceof XmlError) return e.code;
    throw e;
  }
}

describe('xml-cases.json', () => {
  it.each(cases.wellFormed)('%s', (_name, doc, expected) => {
    expect(scan(doc)).toBe(expected);
  });
  it.each(cases.refused)('refused: %s', (_name, doc, code) => {
    expect(refusal(doc)).toBe(code);
  });
});

describe('chunks', () => {
  it('any split of a document gives the same report, or the same refusal', () => {
    const docs = [...cases.wellFormed.map((c) => c[1]), ...cases.refused.map((c) => c[1])];
    fc.assert(fc.property(fc.constantFrom(...docs), fc.array(fc.integer({ min: 0, max: 12 }), { maxLength: 20 }), (doc, sizes) => {
      let whole: string;
      try { whole = scan(doc); } catch (e) { whole = (e as XmlError).code; }
      let split: string;
      try { split = scan(doc, sizes); } catch (e) { split = (e as XmlError).code; }
      expect(split).toBe(whole);
    }), { numRuns: 2000 });
  });
});

describe('bounds', () => {
  const small: XmlLimits = { maxDepth: 8, maxTokenLength: 1000, maxAttributes: 4 };
  it('depth, markup and text runs, attributes', () => {
    expect(refusal(`${'<a>'.repeat(9)}${'</a>'.repeat(9)}`, undefined, small)).toBe('xml-too-deep');
    expect(refusal(`${'<a>'.repeat(8)}${'</a>'.repeat(8)}`, undefined, small)).toBe('accepted');
    expect(refusal(`<a k="${'x'.repeat(2000)}"/>`, [100, 100, 100], small)).toBe('xml-too-long');
    expect(refusal(`<a k="${'x'.repeat(2000)}"/>`, undefined, small)).toBe('xml-too-long');
    // text is passed on as it comes, never held: no bound
    expect(refusal(`<a>${'x'.repeat(2000)}</a>`, [1500], small)).toBe('accepted');
    expect(refusal('<a a="1" b="2" c="3" d="4" e="5"/>', undefined, small)).toBe('xml-too-long');
  });
  it('an error names where it was found', () => {
    try { scan('<a>\n  <b></c></a>'); } catch (e) { expect([(e as XmlError).code, (e as XmlError).offset]).toEqual(['xml-malformed', 9]); }
    expect.assertions(1);
  });
});
