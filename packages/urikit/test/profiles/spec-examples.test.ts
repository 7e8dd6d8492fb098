/**
 * Every URL printed in the five documents of ../shared/spec/: each parses
 * under the profile of its document, and where the document gives its
 * parts, the generic parser and the scheme's codec return those parts.
 */
import { describe, expect, it } from 'vitest';
import { equivalent, getScheme, isValid, parse, resolve, type Profile } from 'urikit';
import examples from '../data/spec-url-examples.json' with { type: 'json' };

interface Example {
  document: string; section: string; uri: string; profile: Profile;
  parts?: Record<string, unknown>; codec?: Record<string, unknown>;
  equivalentTo?: string; notEquivalentTo?: string; level?: 'syntax' | 'scheme';
  resolve?: { ref: string; expected: string };
}

describe(examples.source, () => {
  for (const ex of examples.cases as Example[]) {
    it(`${ex.document} ${ex.section}: ${ex.uri}`, () => {
      const opts = { profile: ex.profile };
      expect(isValid(ex.uri, 'uri', opts)).toBe(true);
      const ref = parse(ex.uri, 'uri', opts);
      if (ex.parts) expect(ref).toStrictEqual(ex.parts);
      const codec = getScheme(ref.scheme!);
      if (ex.codec) {
        expect(codec, `a codec for ${ref.scheme}`).toBeDefined();
        const typed = codec!.parse(ref);
        if (ref.scheme === 'urn') expect(typed).toMatchObject(ex.codec);
        else expect(typed).toStrictEqual(ex.codec);
      }
      if (ex.equivalentTo) expect(equivalent(ex.uri, ex.equivalentTo, { level: ex.level ?? 'scheme' })).toBe(true);
      if (ex.notEquivalentTo) expect(equivalent(ex.uri, ex.notEquivalentTo)).toBe(false);
      if (ex.resolve) expect(resolve(ex.uri, ex.resolve.ref, opts)).toBe(ex.resolve.expected);
    });
  }
});
