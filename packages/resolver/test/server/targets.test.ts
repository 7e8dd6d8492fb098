import { describe, expect, it } from 'vitest';
import { classifyRequestLine, readTarget } from '../../src/server/index.js';
import table from './targets.json' with { type: 'json' };

describe('request targets', () => {
  for (const t of table.targets) {
    it(`${t.target}`, () => expect(readTarget(t.target) ?? null).toEqual(t.read));
  }
  it('throws the parser\'s error for a malformed directive list', () => {
    expect(() => readTarget('/urn:a:bc?s=I2L&=x')).toThrow(expect.objectContaining({ name: 'UriError' }));
  });
});

describe('the first line of a connection (1995 draft §3.3, RFC 1945 §4.1)', () => {
  for (const l of table.requestLines) {
    it(JSON.stringify(l.line), () => expect(classifyRequestLine(l.line)).toEqual(l.classified));
  }
});
