import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mintNbn, nbnCheckDigit, nbnHasCheckDigit, parseUrn, UriError } from 'urikit';
import data from './data/nbn-check-digit.json' with { type: 'json' };

// A slow, literal transcription of the DNB description, as a test oracle:
// "Zunächst wird der URN-String in eine Ziffernfolge konvertiert [...] Jede
// Zahl der Ziffernfolge wird einzeln von links nach rechts aufsteigend,
// beginnend mit 1 multipliziert, anschließend wird die Summe gebildet. Diese
// Produktsumme wird durch die letzte Zahl der URN-Ziffernfolge dividiert.
// Die letzte Zahl vor dem Komma des Quotienten ist die Prüfziffer."
const KONKORDANZ: Record<string, string> = {
  '0': '1', '1': '2', '2': '3', '3': '4', '4': '5', '5': '6', '6': '7', '7': '8', '8': '9', '9': '41',
  A: '18', B: '14', C: '19', D: '15', E: '16', F: '21', G: '22', H: '23', I: '24', J: '25', K: '42', L: '26', M: '27',
  N: '13', O: '28', P: '29', Q: '31', R: '12', S: '32', T: '33', U: '11', V: '34', W: '35', X: '36', Y: '37', Z: '38',
  '+': '49', ':': '17', '_': '43', '-': '39', '.': '47', '/': '45',
};
function oracle(urn: string): { digits: string; productSum: number; divisor: number; checkDigit: string } {
  const digits = [...urn.toUpperCase()].map((c) => KONKORDANZ[c]).join('');
  let productSum = 0;
  [...digits].forEach((d, i) => { productSum += (i + 1) * Number(d); });
  const divisor = Number(digits[digits.length - 1]);
  const quotient = String(Math.floor(productSum / divisor));
  return { digits, productSum, divisor, checkDigit: quotient[quotient.length - 1]! };
}

const ALPHABET = Object.keys(KONKORDANZ).join('') + 'abcdefghijklmnopqrstuvwxyz';
const tableString = fc.string({ unit: fc.constantFrom(...ALPHABET), minLength: 1, maxLength: 80 });
const snid = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'), minLength: 1, maxLength: 6 });
const prefixArb = fc.tuple(fc.constantFrom('de', 'ch', 'DE'), fc.array(snid, { minLength: 1, maxLength: 2 })).map(([cc, s]) => `urn:nbn:${cc}:${s.join(':')}-`);

describe('the DNB check digit (urn:nbn:de, urn:nbn:ch)', () => {
  it('the oracle reproduces the worked example of the DNB description, step by step', () => {
    const w = data.worked;
    expect(oracle(w.urn)).toEqual({ digits: w.digits, productSum: w.productSum, divisor: w.divisor, checkDigit: w.checkDigit });
    expect(nbnCheckDigit(w.urn)).toBe(w.checkDigit);
  });

  it('agrees with the oracle on any string of the table', () => {
    fc.assert(fc.property(tableString, (s) => nbnCheckDigit(s) === oracle(s).checkDigit));
  });

  it.each(data.valid)('valid: $urn ($from)', ({ urn }) => {
    expect(parseUrn(urn, { checkNamespace: true }).nss).toBe(urn.slice(8));
  });

  it.each(data.invalid)('invalid: $urn -> $code at $offset', ({ urn, code, offset }) => {
    let err: unknown;
    try { parseUrn(urn, { checkNamespace: true }); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(UriError);
    expect((err as UriError).code).toBe(code);
    expect((err as UriError).offset).toBe(offset);
    // the generic syntax alone (no namespace rules) accepts all but the empty NBN string
    if (code === 'bad-check-digit') expect(parseUrn(urn).nss).toBe(urn.slice(8));
  });

  it('the message of a wrong check digit names the right one', () => {
    expect(() => parseUrn('urn:nbn:de:101-2020071409', { checkNamespace: true })).toThrow('the DNB check digit of this name is 1');
  });

  it('any other digit in the place of the check digit is refused there', () => {
    fc.assert(fc.property(prefixArb, fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.integer({ min: 1, max: 9 }), (prefix, counter, delta) => {
      const urn = mintNbn(prefix, { counter });
      const last = urn.length - 1;
      const wrong = urn.slice(0, last) + String((Number(urn[last]) + delta) % 10);
      try {
        parseUrn(wrong, { checkNamespace: true });
        return false;
      } catch (e) {
        return e instanceof UriError && e.code === 'bad-check-digit' && e.offset === last;
      }
    }));
  });

  it('applies to the countries whose registrations define it, in either case', () => {
    expect(['de', 'DE', 'ch'].map(nbnHasCheckDigit)).toEqual([true, true, true]);
    expect(['fi', 'se', 'nl', 'at', 'cz'].map(nbnHasCheckDigit)).toEqual([false, false, false, false, false]);
  });
});

describe('mintNbn', () => {
  it.each(data.mint)('$prefix + $counter -> $urn', ({ prefix, counter, width, urn }) => {
    expect(mintNbn(prefix, { counter, ...(width !== undefined ? { width } : {}) })).toBe(urn);
  });

  it('mints valid names, by counter and at random', () => {
    fc.assert(fc.property(prefixArb, fc.nat(), fc.integer({ min: 1, max: 20 }), (prefix, counter, length) => {
      const a = mintNbn(prefix, { counter });
      const b = mintNbn(prefix, { random: true, length });
      return [a, b].every((u) => u.startsWith(prefix) && parseUrn(u, { checkNamespace: true }).nid === 'nbn');
    }));
  });

  it('random local parts use the whole alphabet without bias from the byte range', () => {
    // 3 letters: bytes 255 is at the limit (255 = 3 * 85) and must be drawn again
    const bytes = [255, 0, 1, 2];
    let k = 0;
    const name = mintNbn('urn:nbn:fi-x', { random: true, length: 3, alphabet: 'abc', randomBytes: (n) => new Uint8Array(Array.from({ length: n }, () => bytes[k++ % bytes.length]!)) });
    expect(name).toBe('urn:nbn:fi-xabc');
  });

  it('refuses what cannot make an NBN, with the offset', () => {
    expect(() => mintNbn('urn:isbn:', { counter: 1 })).toThrow(expect.objectContaining({ code: 'bad-nid', offset: 4 }));
    expect(() => mintNbn('urn:nbn:xx-', { counter: 1 })).toThrow(expect.objectContaining({ code: 'bad-namespace-nss', offset: 8 }));
    expect(() => mintNbn('urn:nbn:de:101-', { random: true, alphabet: '~' })).toThrow(expect.objectContaining({ code: 'bad-namespace-nss', offset: 15 }));
    expect(() => mintNbn('urn:nbn:de:101-', { counter: -1 })).toThrow(RangeError);
  });
});
