/**
 * UTS #46 conformance: every line of the Unicode Consortium's
 * IdnaTestV2.txt (version 15.1.0, read in place from
 * ../shared/conformance/), toAsciiN with domainToASCII and toUnicode with
 * domainToUnicode, default flags (CheckHyphens, CheckBidi, CheckJoiners,
 * UseSTD3ASCIIRules, VerifyDnsLength for toASCII). As the file's header
 * allows, an error is checked as "there is an error", not by its status
 * codes; where there is none the result must be the file's string.
 * Lines left out are listed with their reason in idna-expected-failures.txt.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { domainToASCII, domainToUnicode } from 'urikit';

const file = new URL('../../../../../shared/conformance/IdnaTestV2.txt', import.meta.url);
const text = readFileSync(file, 'utf8');
const version = /^# Version: (\S+)/m.exec(text)?.[1];

/** The file's escapes: \uXXXX and \x{XXXX}. */
const unescape = (s: string): string => s.replace(/\\u([0-9A-Fa-f]{4})|\\x\{([0-9A-Fa-f]+)\}/g, (_, a: string | undefined, b: string | undefined) => String.fromCodePoint(parseInt(a ?? b!, 16)));

interface Line { line: number; source: string; toUnicode: string; toUnicodeError: boolean; toAsciiN: string; toAsciiNError: boolean; raw: string }

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
  lines.push({ line: i + 1, source, toUnicode, toUnicodeError: uStatus !== '[]', toAsciiN, toAsciiNError: aStatus !== '[]', raw: raw.slice(0, 60) });
});

const expected = new Map<string, string>();
for (const l of readFileSync(new URL('./idna-expected-failures.txt', import.meta.url), 'utf8').split('\n')) {
  const m = /^(\d+)\s+(toAsciiN|toUnicode)\s+(.+)$/.exec(l.trim());
  if (m) expected.set(`${m[1]} ${m[2]}`, m[3]!);
}

function outcome(f: (d: string) => string, source: string): { value?: string; error?: unknown } {
  try {
    return { value: f(source) };
  } catch (error) {
    return { error };
  }
}

/** Does the operation give the file's answer? */
function passes(op: 'toAsciiN' | 'toUnicode', l: Line): boolean {
  const r = outcome(op === 'toAsciiN' ? domainToASCII : domainToUnicode, l.source);
  const wantError = op === 'toAsciiN' ? l.toAsciiNError : l.toUnicodeError;
  if (wantError) return r.error !== undefined;
  return r.value === (op === 'toAsciiN' ? l.toAsciiN : l.toUnicode);
}

describe(`UTS #46 conformance: IdnaTestV2.txt ${version}, every line`, () => {
  it('reads the whole file', () => {
    expect(version).toBe('15.1.0');
    expect(lines.length).toBe(6265);
  });
  for (const l of lines) {
    it(`line ${l.line}: ${l.raw}`, () => {
      for (const op of ['toAsciiN', 'toUnicode'] as const) {
        const why = expected.get(`${l.line} ${op}`);
        const ok = passes(op, l);
        if (why === undefined) expect(ok, `${op} of ${JSON.stringify(l.source)}`).toBe(true);
        else expect(ok, `listed as an expected failure (${why}) but passes: remove it`).toBe(false);
      }
    });
  }
});
