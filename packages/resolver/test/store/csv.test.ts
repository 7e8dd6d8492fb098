import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CsvReader } from '../../src/store/csv.js';
import table from './csv-cases.json' with { type: 'json' };

function readAll(text: string, pieces: number[] = []): { records: string[][]; lines: number[] } {
  const r = new CsvReader();
  let at = 0;
  for (const p of pieces) { r.push(text.slice(at, at + p)); at += p; }
  r.push(text.slice(at));
  r.end();
  const recs = r.take();
  return { records: recs.map((x) => x.fields), lines: recs.map((x) => x.line) };
}

describe('CSV records (RFC 4180 §2)', () => {
  for (const c of table.cases) {
    it(c.name, () => expect(readAll(c.text)).toEqual({ records: c.records, lines: c.lines }));
    it(`${c.name}, fed in pieces`, () => {
      fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 10 }), (pieces) => {
        expect(readAll(c.text, pieces)).toEqual({ records: c.records, lines: c.lines });
      }));
    });
  }
  for (const e of table.errors) {
    it(`refuses ${e.name}, naming line ${e.line}`, () => expect(() => readAll(e.text)).toThrow(new RegExp(`^line ${e.line}:`)));
  }
});
