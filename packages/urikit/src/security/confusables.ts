/**
 * The basics of UTS #39 (Unicode Security Mechanisms,
 * https://www.unicode.org/reports/tr39/) that a URI lint needs: which
 * scripts a domain label mixes (§5.1 mixed-script detection, restricted
 * to Latin with Cyrillic or Greek, the classic homograph) and whether a
 * label written wholly in Cyrillic or Greek could be read as Latin
 * (§4 whole-script confusables, for the letters that look alike).
 */

// Script tests are single-character classes: no backtracking.
const LATIN = /\p{Script=Latin}/u;
const CYRILLIC = /\p{Script=Cyrillic}/u;
const GREEK = /\p{Script=Greek}/u;

/**
 * The scripts among Latin, Cyrillic and Greek that `label` uses.
 *
 * @example
 * ```ts
 * const s: ScriptSet = scriptsOf('ΑΒΓ');
 * s // { latin: false, cyrillic: false, greek: true }
 * ```
 */
export type ScriptSet = { latin: boolean; cyrillic: boolean; greek: boolean };

/**
 * Which of Latin, Cyrillic and Greek the letters of `label` belong to
 * (UTS #39 §5.1; Common and Inherited characters count for none).
 *
 * @example
 * ```ts
 * scriptsOf('pаypal') // { latin: true, cyrillic: true, greek: false } (the "а" is Cyrillic)
 * ```
 */
export function scriptsOf(label: string): ScriptSet {
  const s: ScriptSet = { latin: false, cyrillic: false, greek: false };
  for (const ch of label) {
    if (ch < '\u0080') {
      const c = ch.charCodeAt(0) | 0x20;
      if (c >= 0x61 && c <= 0x7a) s.latin = true;
      continue;
    }
    if (LATIN.test(ch)) s.latin = true;
    else if (CYRILLIC.test(ch)) s.cyrillic = true;
    else if (GREEK.test(ch)) s.greek = true;
  }
  return s;
}

/*
 * Cyrillic and Greek letters whose glyphs are those of Latin letters
 * (a subset of UTS #39 confusables.txt, prototype in the comment).
 */
const LATIN_LOOKALIKES = new Set<string>([
  // Cyrillic
  '\u0430', // а a
  '\u0435', // е e
  '\u043e', // о o
  '\u0440', // р p
  '\u0441', // с c
  '\u0443', // у y
  '\u0445', // х x
  '\u0455', // ѕ s
  '\u0456', // і i
  '\u0458', // ј j
  '\u04bb', // һ h
  '\u04cf', // ӏ l
  '\u0501', // ԁ d
  '\u051b', // ԛ q
  '\u051d', // ԝ w
  '\u04af', // ү y
  // Greek
  '\u03bf', // ο o
  '\u03b1', // α a
  '\u03bd', // ν v
  '\u03c1', // ρ p
  '\u03b9', // ι i
  '\u03ba', // κ k
  '\u03c4', // τ t
  '\u03c5', // υ u
  '\u03c7', // χ x
]);

/**
 * True if `label` is written only in Cyrillic or only in Greek letters
 * that all look like Latin letters, such as "аррӏе" (UTS #39 §4,
 * whole-script confusable with a Latin label); digits and "-" may join them.
 *
 * @example
 * ```ts
 * isWholeScriptConfusable('аррӏе') // true (Cyrillic)
 * isWholeScriptConfusable('пример') // false
 * ```
 */
export function isWholeScriptConfusable(label: string): boolean {
  if (typeof label !== 'string') return false;
  let letters = 0;
  for (const ch of label) {
    if (ch === '-' || (ch >= '0' && ch <= '9')) continue;
    if (!LATIN_LOOKALIKES.has(ch)) return false;
    letters++;
  }
  return letters > 0;
}
