/**
 * Registered names, the 2003 draft §3.2.2 `hostname` rule, parseHost's
 * other kinds, and the JSON-Schema-Test-Suite ipv4 / ipv6 / hostname /
 * idn-hostname rows (read in place) with rulings where they disagree.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseHost, tryParseHost, checkHostname, isHostname, domainToASCII, findRegNameError, findIRegNameError, formatHost } from 'urikit';
import rulings from './jsts-rulings.json' with { type: 'json' };
import data from './hostname.json' with { type: 'json' };

describe(`isHostname / checkHostname (${data.source})`, () => {
  for (const c of data.hostnames) {
    it(`${JSON.stringify(c.input.length > 60 ? c.input.slice(0, 40) + '...' : c.input)} ${c.valid ? 'is' : `is not (at ${c.offset})`} a host name: ${c.comment}`, () => {
      expect(isHostname(c.input)).toBe(c.valid);
      if (c.valid) expect(() => checkHostname(c.input)).not.toThrow();
      else expect(() => checkHostname(c.input)).toThrowError(expect.objectContaining({ code: 'bad-hostname', offset: c.offset }));
    });
  }
});

describe(`parseHost (${data.source})`, () => {
  for (const c of data.hosts) {
    it(`${JSON.stringify(c.input)} -> ${c.expect ? JSON.stringify(c.expect) : c.error}`, () => {
      if (c.expect) {
        const h = parseHost(c.input, c.options);
        expect(h).toEqual(c.expect);
        expect(formatHost(h)).toBe(c.formatted ?? c.input);
      } else {
        expect(() => parseHost(c.input, c.options)).toThrowError(expect.objectContaining({ code: c.error, offset: c.offset }));
      }
    });
  }
  it('finds the first character outside reg-name and ireg-name', () => {
    expect(findRegNameError('ex%41mple.com')).toBe(-1);
    expect(findRegNameError('ex%4')).toBe(2);
    expect(findRegNameError('bücher')).toBe(1);
    expect(findIRegNameError('bücher')).toBe(-1);
    expect(findIRegNameError('b\uFFFEx')).toBe(1);
    expect(findIRegNameError('\u{10000}a')).toBe(-1);
    expect(findIRegNameError('a\uD800')).toBe(1);
  });
});

type Row = { format: string; input: string; valid: boolean; description: string };
const rows = (JSON.parse(readFileSync(new URL('../../../../../shared/conformance/jsts-format.json', import.meta.url), 'utf8')) as Row[]).filter((r) =>
  ['ipv4', 'ipv6', 'hostname', 'idn-hostname'].includes(r.format),
);
const ok = (f: () => unknown): boolean => {
  try {
    f();
    return true;
  } catch {
    return false;
  }
};
/** What urikit answers for a JSON Schema format row. */
function ours(format: string, input: string): boolean {
  switch (format) {
    case 'ipv4':
      return tryParseHost(input)?.kind === 'ipv4';
    case 'ipv6':
      return tryParseHost(`[${input}]`)?.kind === 'ipv6';
    case 'hostname':
      return isHostname(input) && ok(() => domainToASCII(input));
    default:
      return ok(() => domainToASCII(input));
  }
}

describe(`JSON-Schema-Test-Suite formats (../shared/conformance/jsts-format.json; ${rulings.source.slice(0, 80)}...)`, () => {
  for (const r of rows) {
    const ruling = rulings.rulings.find((x) => x.format === r.format && x.input === r.input);
    const gap = rulings.expectedFailures.find((x) => x.format === r.format && x.input === r.input);
    const label = `${r.format} ${JSON.stringify(r.input.length > 50 ? r.input.slice(0, 40) + '...' : r.input)}: ${r.description}`;
    if (gap) {
      it(`EXPECTED FAILURE ${label} (${gap.reason})`, () => {
        expect(ours(r.format, r.input), 'fixed? remove it from expectedFailures').not.toBe(r.valid);
      });
    } else if (ruling) {
      it(`RULING ${label}: ${ruling.ruling}`, () => {
        expect(ruling.ours).not.toBe(r.valid);
        expect(ours(r.format, r.input)).toBe(ruling.ours);
      });
    } else {
      it(label, () => {
        expect(ours(r.format, r.input)).toBe(r.valid);
      });
    }
  }
  it('every ruling and expected failure names a row of the suite', () => {
    for (const x of [...rulings.rulings, ...rulings.expectedFailures]) {
      expect(rows.some((r) => r.format === x.format && r.input === x.input), x.input).toBe(true);
    }
  });
});
