/**
 * UTS #46 conformance: every line of the Unicode Consortium's
 * IdnaTestV2.txt version 17.0.0 (read in place from ../shared/conformance/),
 * toAsciiN with domainToASCII and toUnicode with domainToUnicode, default
 * flags (CheckHyphens, CheckBidi, CheckJoiners, UseSTD3ASCIIRules,
 * VerifyDnsLength for toASCII). As the file's header allows, an error is
 * checked as "there is an error", not by its status codes; where there is
 * none the result must be the file's string. Lines left out are listed
 * with their reason in idna-expected-failures.txt (none today).
 *
 * And the 15.1.0 file, every line whose expectation 17.0 did not change:
 * computed here by comparing the two files (the same source with another
 * answer in 17.0), and for a 15.1 source that the 17.0 file no longer
 * holds, a toAsciiN success ending in the empty root label, which the
 * 17.0 data refuses ("a.b.c.d." is an A4_2 error: UTS #46 §4.2 step 4,
 * "When VerifyDnsLength is true, the empty root label is disallowed").
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { domainToASCII, domainToUnicode } from 'urikit';

const conformance = (name: string): string => readFileSync(new URL(`../../../../../shared/conformance/${name}`, import.meta.url), 'utf8');

/** The file's escapes: \uXXXX and \x{XXXX}. */
const unescape = (s: string): string => s.replace(/\\u([0-9A-Fa-f]{4})|\\x\{([0-9A-Fa-f]+)\}/g, (_, a: string | undefined, b: string | undefined) => String.fromCodePoint(parseInt(a ?? b!, 16)));

type Op = 'toAsciiN' | 'toUnicode';
const OPS: readonly Op[] = ['toAsciiN', 'toUnicode'];
/** What an operation must give: a string, or an error (null). */
type Expected = Record<Op, string | null>;
interface Line { line: number; source: string; expected: Expected; raw: string }

function readIdnaTest(text: string): { version: string | undefined; lines: Line[] } {
  const lines: Line[] = [];
  text.split('\n').forEach((raw, i) => {
    const body = raw.replace(/#.*/, '');
    if (body.trim() === '') return;
    const c = body.split(';').map((x) => x.trim());
    const source = unescape(c[0]!);
    // Column 2 blank: the same as the source; column 3 blank: no error;
    // column 4 blank: the same as toUnicode; column 5 blank: toUnicode's status.
    const toUnicode = c[1] === '' ? source : unescape(c[1]!);
    const uStatus = c[2] === '' ? '[]' : c[2]!;
    const toAsciiN = c[3] === '' ? toUnicode : unescape(c[3]!);
    const aStatus = c[4] === '' ? uStatus : c[4]!;
    const expected = { toUnicode: uStatus === '[]' ? toUnicode : null, toAsciiN: aStatus === '[]' ? toAsciiN : null };
    lines.push({ line: i + 1, source, expected, raw: raw.slice(0, 60) });
  });
  return { version: /^# Version: (\S+)/m.exec(text)?.[1], lines };
}

const v17 = readIdnaTest(conformance('IdnaTestV2-17.0.txt'));
const v151 = readIdnaTest(conformance('IdnaTestV2.txt'));

const expectedFailures = new Map<string, string>();
for (const l of readFileSync(new URL('./idna-expected-failures.txt', import.meta.url), 'utf8').split('\n')) {
  const m = /^(\d+)\s+(toAsciiN|toUnicode)\s+(.+)$/.exec(l.trim());
  if (m) expectedFailures.set(`${m[1]} ${m[2]}`, m[3]!);
}

/** Does the operation give the file's answer? */
function passes(op: Op, l: Line): boolean {
  let value: string | null;
  try {
    value = (op === 'toAsciiN' ? domainToASCII : domainToUnicode)(l.source);
  } catch {
    value = null;
  }
  return value === l.expected[op];
}

/** The ops of a 15.1 line whose expectation 17.0 changed, and why. */
function changedIn17(l: Line, now: Map<string, Expected>): Map<Op, string> {
  const changed = new Map<Op, string>();
  const e17 = now.get(l.source);
  for (const op of OPS) {
    if (e17 !== undefined && e17[op] !== l.expected[op]) changed.set(op, `17.0 expects ${JSON.stringify(e17[op])}`);
    if (e17 === undefined && op === 'toAsciiN' && l.expected.toAsciiN?.endsWith('.')) changed.set(op, 'the empty root label');
  }
  return changed;
}

describe(`UTS #46 conformance: IdnaTestV2.txt ${v17.version}, every line`, () => {
  it('reads the whole file', () => {
    expect(v17.version).toBe('17.0.0');
    expect(v17.lines.length).toBe(6391);
  });
  for (const l of v17.lines) {
    it(`line ${l.line}: ${l.raw}`, () => {
      for (const op of OPS) {
        const why = expectedFailures.get(`${l.line} ${op}`);
        const ok = passes(op, l);
        if (why === undefined) expect(ok, `${op} of ${JSON.stringify(l.source)}`).toBe(true);
        else expect(ok, `listed as an expected failure (${why}) but passes: remove it`).toBe(false);
      }
    });
  }
});

describe(`UTS #46 conformance: IdnaTestV2.txt ${v151.version}, every line whose expectation ${v17.version} did not change`, () => {
  const now = new Map(v17.lines.map((l) => [l.source, l.expected]));
  const changed = new Map(v151.lines.map((l) => [l, changedIn17(l, now)]));
  it('reads the whole file and finds what changed', () => {
    expect(v151.version).toBe('15.1.0');
    expect(v151.lines.length).toBe(6265);
    const count = (why: RegExp): number => [...changed.values()].reduce((n, c) => n + [...c.values()].filter((w) => why.test(w)).length, 0);
    // 162 answers of 103 lines: the root label rule, and the code points 16.0 maps or ignores (U+10A0, U+2F868, ...).
    expect(count(/^17\.0 expects/)).toBe(162);
    expect(count(/root label/)).toBe(14);
  });
  for (const l of v151.lines) {
    const c = changed.get(l)!;
    if (c.size === OPS.length) continue;
    it(`line ${l.line}: ${l.raw}`, () => {
      for (const op of OPS) if (!c.has(op)) expect(passes(op, l), `${op} of ${JSON.stringify(l.source)}`).toBe(true);
    });
  }
});
