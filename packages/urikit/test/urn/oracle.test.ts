/**
 * STYLE §9: a slow, literal transcription of the ABNF (regular expressions,
 * test-only) as an oracle for the one-pass scanner, on generated inputs.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isValidUrn, parseUrn } from 'urikit';

// RFC 3986 §3.3: pchar = unreserved / pct-encoded / sub-delims / ":" / "@"  (2012 draft §2.5.3: never %00)
const P = "(?:[A-Za-z0-9\\-._~!$&'()*+,;=:@]|%(?!00)[0-9A-Fa-f]{2})";
// RFC 8141 §2: NID = (alphanum) 0*30(ldh) (alphanum)
const NID = '([A-Za-z0-9][A-Za-z0-9-]{0,30}[A-Za-z0-9])';
// RFC 8141 §2: namestring = assigned-name [ rq-components ] [ "#" f-component ];
// r-component = pchar *( pchar / "/" / "?" ), ending at "?="; q-component likewise; f-component = fragment
const RFC8141 = new RegExp(
  `^[uU][rR][nN]:${NID}:(${P}(?:${P}|/)*)(?:\\?\\+(${P}(?:${P}|/|\\?(?!=))*))?(?:\\?=(${P}(?:${P}|/|\\?)*))?(?:#((?:${P}|/|\\?)*))?$`,
);
// 2012 draft §2.3: keywd = ALPHA *( ["-"] (ALPHA / DIGIT) ); value = *v-pchar
const D = "[A-Za-z](?:-?[A-Za-z0-9])*=(?:[A-Za-z0-9\\-._~!$'()*+,;=:@/?]|%(?!00)[0-9A-Fa-f]{2})*";
const URN2012 = new RegExp(`^[uU][rR][nN]:${NID}:(${P}+)(?:\\?(${D}(?:&${D})*))?(?:#((?:${P}|/|\\?)*))?$`);

function oracle(re: RegExp, s: string): RegExpExecArray | null {
  const m = re.exec(s);
  // 2012 draft §2.1: the NID "urn" is reserved
  return m && m[1]!.toLowerCase() !== 'urn' ? m : null;
}

const alphabet = fc.constantFrom('u', 'r', 'n', 'U', ':', 'a', 'Z', '0', '-', '/', '?', '+', '=', '&', '#', '%', '2', 'c', '0', ' ', '\u00e9', '[', '.', '~', 'k');
const tail = fc.array(alphabet, { maxLength: 14 }).map((a) => a.join(''));
const input = fc.oneof(
  tail.map((t) => `urn:ex:${t}`),
  tail.map((t) => `urn:${t}`),
  fc.tuple(tail, tail).map(([a, b]) => `urn:ex:a${a}?+${b}`),
  fc.tuple(tail, tail).map(([a, b]) => `urn:ex:a${a}?${b}`),
  tail,
);

describe('the scanner agrees with the ABNF transcribed as regular expressions', () => {
  it('rfc8141: validity and every component', () => {
    fc.assert(
      fc.property(input, (s) => {
        const m = oracle(RFC8141, s);
        expect(isValidUrn(s), s).toBe(m !== null);
        if (m) {
          const u = parseUrn(s);
          expect([u.nid, u.nss, u.rComponent, u.qComponent, u.fComponent], s).toEqual([m[1], m[2], m[3], m[4], m[5]]);
        }
      }),
      { numRuns: 5000 },
    );
  });
  it('urn-2012: validity and every component', () => {
    fc.assert(
      fc.property(input, (s) => {
        const m = oracle(URN2012, s);
        expect(isValidUrn(s, { profile: 'urn-2012' }), s).toBe(m !== null);
        if (m) {
          const u = parseUrn(s, { profile: 'urn-2012' });
          expect([u.nid, u.nss, u.qComponent, u.fComponent], s).toEqual([m[1], m[2], m[3], m[4]]);
        }
      }),
      { numRuns: 5000 },
    );
  });
});

describe('bad input never crashes: a result or a UriError, for every entry point and profile', () => {
  it('holds on arbitrary strings', async () => {
    const { UriError, normalizeUrn, displayUrn, urnEquivalent, parseDirectives, identifierToNss } = await import('urikit');
    const anyText = fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), tail.map((t) => `urn:ex:${t}`), tail.map((t) => `<urn:dns:a.b.c:${t}>`));
    fc.assert(
      fc.property(anyText, fc.constantFrom('rfc8141', 'urn-2012', 'yaurn-1995'), fc.boolean(), (s, profile, checkNamespace) => {
        for (const f of [
          () => parseUrn(s, { profile: profile as 'rfc8141', checkNamespace }),
          () => normalizeUrn(s, { profile: profile as 'rfc8141', purpose: checkNamespace ? 'cache' : 'name' }),
          () => displayUrn(s, { profile: profile as 'rfc8141' }),
          () => urnEquivalent(s, s, { profile: profile as 'rfc8141' }),
          () => parseDirectives(s),
          () => identifierToNss(s),
        ]) {
          try { f(); } catch (e) { expect(e).toBeInstanceOf(UriError); }
        }
      }),
      { numRuns: 3000 },
    );
  });
});
