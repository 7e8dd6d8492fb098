/**
 * The `urn` codec delegates to the URN module: every URN printed in the
 * spec documents (the URN engineer's table, read in place) is read by the
 * codec of its document's generation, with the same parts.
 */
import { describe, expect, it } from 'vitest';
import { getScheme, normalize, parse, urnCodec, urnScheme, type UrnProfile } from 'urikit';
import table from '../urn/data/spec-urns.json' with { type: 'json' };

describe(`the urn codec on ${table.source.slice(0, 60)}…`, () => {
  for (const c of table.urns as Array<{ profile: UrnProfile; input: string; expect: Record<string, unknown>; section: string }>) {
    it(`${c.input} (${c.section}, ${c.profile})`, () => {
      // 1995 draft §2: the angle brackets delimit a URN in text; they are not part of it.
      const uri = c.input.replace(/^<|>$/g, '');
      const codec = urnCodec(c.profile);
      const urn = codec.parse(parse(uri, 'uri'));
      expect(urn).toMatchObject(c.expect);
      if (uri.startsWith('urn:')) expect(codec.build(urn)).toBe(uri);
    });
  }
  it('the registry holds the RFC 8141 codec', () => {
    expect(getScheme('urn')).toBe(urnScheme);
    expect(urnScheme.parse(parse('urn:example:a?+r?=q#f', 'uri'))).toMatchObject({ rComponent: 'r', qComponent: 'q', fComponent: 'f' });
    expect(() => urnScheme.validate(parse('urn:ex:a?+', 'uri'))).toThrow();
  });
  it('scheme-level normalization lowers the NID and applies the namespace (RFC 8141 §3.1; DESIGN.md ruling)', () => {
    expect(normalize('URN:ISBN:0-395-36341-1')).toBe('urn:isbn:0395363411');
    expect(normalize('URN:EXAMPLE:A%2c')).toBe('urn:example:A%2C');
  });
});
