/**
 * Each scheme codec: valid and invalid cases, `build(parse(x))` round
 * trips, scheme-based normalization and equivalence, from the table in
 * codecs.json (each case names its source).
 */
import { describe, expect, it } from 'vitest';
import { equivalent, getScheme, isUriError, normalize, parse } from 'urikit';
import table from './codecs.json' with { type: 'json' };

const codecOf = (uri: string) => {
  const ref = parse(uri, 'uri');
  const codec = getScheme(ref.scheme!);
  if (codec === undefined) throw new Error(`no codec for ${ref.scheme}`);
  return { ref, codec };
};

describe(table.source, () => {
  describe('valid', () => {
    for (const c of table.valid) {
      it(`${c.uri} (${c.source})`, () => {
        const { ref, codec } = codecOf(c.uri);
        expect(() => codec.validate(ref)).not.toThrow();
        const typed = codec.parse(ref) as Record<string, unknown>;
        if (ref.scheme === 'urn') expect(typed).toMatchObject(c.fields);
        else if (ref.scheme === 'data') {
          // the payload is checked as text: data: "null" in the table stands for the octets of the text after ","
          const text = c.uri.slice(c.uri.indexOf(',') + 1);
          expect({ ...typed, data: null }).toStrictEqual(c.fields);
          expect(new TextDecoder().decode(typed.data as Uint8Array)).toBe(decodeURIComponent(text));
        } else expect(typed).toStrictEqual(c.fields);
      });
    }
  });
  describe('invalid', () => {
    for (const c of table.invalid) {
      it(`${c.uri} -> ${c.code} (${c.source})`, () => {
        const ref = parse(c.uri, 'uri');
        const codec = getScheme(ref.scheme!)!;
        let err: unknown;
        try { codec.validate(ref); } catch (e) { err = e; }
        expect(isUriError(err), String(err)).toBe(true);
        expect((err as { code: string }).code).toBe(c.code);
        expect(() => codec.parse(ref)).toThrow();
      });
    }
  });
  describe('build(parse(x)) === x', () => {
    for (const uri of table.roundTrip) {
      it(uri, () => {
        const { ref, codec } = codecOf(uri);
        expect(codec.build(codec.parse(ref))).toBe(uri);
      });
    }
  });
  describe("normalize(x, { level: 'scheme' })", () => {
    for (const c of table.normalize) {
      it(`${c.uri} -> ${c.expected} (${c.source})`, () => {
        expect(normalize(c.uri, { level: 'scheme' })).toBe(c.expected);
        // idempotent
        expect(normalize(c.expected, { level: 'scheme' })).toBe(c.expected);
      });
    }
  });
  describe('equivalent', () => {
    for (const c of table.equivalent) {
      it(`${c.a} ${c.expected ? '==' : '!='} ${c.b} (${c.source})`, () => {
        expect(equivalent(c.a, c.b)).toBe(c.expected);
        expect(equivalent(c.b, c.a)).toBe(c.expected);
      });
    }
  });
});

describe('data: payloads (RFC 2397 §4)', () => {
  const data = getScheme('data')!;
  it('decodes percent-encoded and base64 payloads into octets', () => {
    const note = data.parse(parse('data:,A%20brief%20note', 'uri')) as { data: Uint8Array; mediaType: string; mediaTypeOmitted: boolean };
    expect(new TextDecoder().decode(note.data)).toBe('A brief note');
    expect(note.mediaType).toBe('text/plain');
    expect(note.mediaTypeOmitted).toBe(true);
    const greek = data.parse(parse('data:text/plain;charset=iso-8859-7,%be%fe%be', 'uri')) as { data: Uint8Array; parameters: string[][] };
    expect([...greek.data]).toEqual([0xbe, 0xfe, 0xbe]);
    expect(greek.parameters).toEqual([['charset', 'iso-8859-7']]);
    const hello = data.parse(parse('data:;base64,SGVsbG8=', 'uri')) as { data: Uint8Array; base64: boolean };
    expect(hello.base64).toBe(true);
    expect(new TextDecoder().decode(hello.data)).toBe('Hello');
  });
});
