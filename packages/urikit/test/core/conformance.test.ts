import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { isValid, type Kind } from 'urikit';

// JSON-Schema-Test-Suite format rows, read in place (../shared/conformance, see its README).
const rows = JSON.parse(readFileSync(new URL('../../../../../shared/conformance/jsts-format.json', import.meta.url), 'utf8')) as Array<{
  format: string; input: string; valid: boolean; description: string; source: string;
}>;

// Rulings where the suite and the RFC disagree (the RFC wins), keyed by format + input.
// None so far: every uri/uri-reference/iri/iri-reference row agrees with
// RFC 3986 Appendix A and RFC 3987 §2.2 as urikit reads them.
const RULINGS = new Map<string, { valid: boolean; why: string }>();

const KINDS: Record<string, Kind> = { 'uri': 'uri', 'uri-reference': 'uri-reference', 'iri': 'iri', 'iri-reference': 'iri-reference' };

describe('JSON-Schema-Test-Suite uri / uri-reference / iri / iri-reference formats', () => {
  const mine = rows.filter((r) => r.format in KINDS);
  it('reads the rows', () => expect(mine.length).toBe(40 + 22 + 18 + 7));
  for (const row of mine) {
    const ruling = RULINGS.get(`${row.format} ${row.input}`);
    const expected = ruling ? ruling.valid : row.valid;
    it(`${row.format} ${JSON.stringify(row.input)}: ${row.description}`, () => {
      expect(isValid(row.input, KINDS[row.format])).toBe(expected);
    });
  }
});
