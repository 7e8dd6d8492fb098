/**
 * lint: each finding fires on its example of the 2003 draft §7 and stays
 * silent on clean URIs; unparsable input gives one finding; lint never
 * throws.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { lint, LINT_RULES, parse, isValid, scriptsOf, isWholeScriptConfusable } from 'urikit';
import data from './lint.json' with { type: 'json' };

describe(`lint (${data.source})`, () => {
  for (const c of data.cases) {
    it(`${c.uri} (${c.section})`, () => {
      const got = lint(c.uri, 'options' in c ? c.options : undefined);
      expect(got.map(({ code, start, end }) => ({ code, start, end }))).toEqual(c.findings);
      for (const g of got) {
        if (!(g.code in LINT_RULES)) continue; // the UriError of an input that does not parse
        const rule = LINT_RULES[g.code as keyof typeof LINT_RULES];
        expect(g.severity).toBe(rule[0]);
        expect(g.message.startsWith(rule[1])).toBe(true);
      }
    });
  }
  it('every rule fires on at least one example', () => {
    const fired = new Set(data.cases.flatMap((c) => c.findings.map((f) => f.code)));
    expect([...Object.keys(LINT_RULES)].filter((code) => !fired.has(code))).toEqual([]);
  });
  for (const uri of data.clean) {
    it(`is silent on ${JSON.stringify(uri)}, also with { differential: true }`, () => {
      expect(lint(uri)).toEqual([]);
      expect(lint(uri, { differential: true })).toEqual([]);
    });
  }
  it('says what the real host is in the semantic attack', () => {
    const f = lint('http://www.example.com&story=breaking_news@10.0.0.1/top_story.htm').find((x) => x.code === 'deceptive-userinfo')!;
    expect(f.severity).toBe('error');
    expect(f.message).toContain('"10.0.0.1"');
  });
  it('returns one finding with the UriError code and offset on unparsable input', () => {
    expect(lint('http://a b/')).toEqual([{ code: 'invalid-char', severity: 'error', message: expect.stringContaining('offset 8'), start: 8, end: 9 }]);
    expect(lint('http://[::1/')[0]).toMatchObject({ code: 'unclosed-ip-literal', severity: 'error' });
    expect(lint('http://a/%zz')[0]).toMatchObject({ code: 'bad-percent', start: 9 });
  });
  it('never throws, on any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('h', 't', 'p', ':', '/', '@', '%', '0', 'a', 'f', '.', '[', ']', 'x', '7', ' ', 'é', '\u0430') }), (s) => {
        const findings = lint(s);
        if (!isValid(s, 'iri-reference')) expect(findings).toHaveLength(1);
        for (const f of findings) {
          expect(f.start).toBeGreaterThanOrEqual(0);
          expect(f.end).toBeLessThanOrEqual(s.length);
          expect(f.start).toBeLessThanOrEqual(f.end);
        }
      }),
    );
  });
  it('never throws on parsable URIs built from the grammar, and spans are inside the input', () => {
    const part = fc.string({ unit: fc.constantFrom('a', 'b', '1', '0', 'x', '.', '-', '%41', '%0d', ':', '@', 'ω', 'а') });
    fc.assert(
      fc.property(part, part, fc.nat(70000), part, (user, host, port, path) => {
        const uri = `http://${user}@${host}:${port}/${path}`;
        if (!isValid(uri, 'iri')) return;
        parse(uri, 'iri');
        for (const f of lint(uri)) expect(uri.slice(f.start, f.end).length).toBe(f.end - f.start);
      }),
    );
  });
});

describe('UTS #39 helpers', () => {
  it('scriptsOf sees Latin, Cyrillic and Greek letters', () => {
    expect(scriptsOf('pаypal')).toEqual({ latin: true, cyrillic: true, greek: false });
    expect(scriptsOf('αβγ-1')).toEqual({ latin: false, cyrillic: false, greek: true });
    expect(scriptsOf('例え')).toEqual({ latin: false, cyrillic: false, greek: false });
  });
  it('isWholeScriptConfusable finds Cyrillic or Greek labels that read as Latin', () => {
    expect(isWholeScriptConfusable('аррӏе')).toBe(true);
    expect(isWholeScriptConfusable('ορα')).toBe(true);
    expect(isWholeScriptConfusable('пример')).toBe(false);
    expect(isWholeScriptConfusable('123')).toBe(false);
  });
});
