/**
 * Lookups in the Unicode tables of ./idna-tables.ts (generated from the
 * Unicode Character Database by scripts/unicode/generate-idna-tables.mjs):
 * the RFC 5893 §2 group of a code point's Bidi_Class, its Joining_Type,
 * whether its Canonical_Combining_Class is Virama (RFC 5892 Appendix A),
 * whether it is assigned in the tables' Unicode version, and whether it is
 * new since 15.0 and inert (UTS #46 maps it to itself, NFC leaves it alone). Each table is
 * decoded on first use into sorted run starts, then read by binary search.
 */
import { ASSIGNED_RUNS, BIDI_RUNS, INERT_RUNS, JOINING_RUNS, VIRAMA_RUNS } from './idna-tables.js';

/**
 * The Bidi_Class groups RFC 5893 §2 tells apart.
 *
 * @example
 * ```ts
 * bidiGroup(0x5d0) === BidiGroup.RTL // true (HEBREW LETTER ALEF, R)
 * bidiGroup(0x10b90) === BidiGroup.RTL // true (PSALTER PAHLAVI LETTER ALEPH, R)
 * bidiGroup(0x2c7) === BidiGroup.Neutral // true (CARON, ON)
 * ```
 */
export const BidiGroup = {
  /** L */
  L: 0,
  /** R or AL */
  RTL: 1,
  /** AN */
  AN: 2,
  /** EN */
  EN: 3,
  /** ES, CS, ET, ON, BN: allowed inside a label of either direction */
  Neutral: 4,
  /** NSM */
  NSM: 5,
  /** B, S, WS and the explicit formatting classes: allowed in no label */
  Other: 6,
} as const;
/** One of the {@link BidiGroup} values. */
export type BidiGroup = (typeof BidiGroup)[keyof typeof BidiGroup];

/**
 * Joining_Type values (Unicode ArabicShaping.txt).
 *
 * @example
 * ```ts
 * joiningType(0x628) === JoiningType.D // true (ARABIC LETTER BEH, dual-joining)
 * ```
 */
export const JoiningType = { U: 0, T: 1, L: 2, R: 3, D: 4, C: 5 } as const;
/** One of the {@link JoiningType} values. */
export type JoiningType = (typeof JoiningType)[keyof typeof JoiningType];

interface Runs { starts: Uint32Array; values: Uint8Array }

const DIGIT: Int8Array = (() => {
  const t = new Int8Array(128).fill(-1);
  const digits = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < 64; i++) t[digits.charCodeAt(i)] = i;
  return t;
})();

/** Decodes (length, value) varint pairs into run starts and values. */
function decode(encoded: string): Runs {
  const starts: number[] = [];
  const values: number[] = [];
  let at = 0;
  let i = 0;
  const varint = (): number => {
    let n = 0;
    let shift = 0;
    for (;;) {
      const d = DIGIT[encoded.charCodeAt(i++)]!;
      n += (d & 31) * 2 ** shift;
      if ((d & 32) === 0) return n;
      shift += 5;
    }
  };
  while (i < encoded.length) {
    const length = varint();
    starts.push(at);
    values.push(varint());
    at += length;
  }
  return { starts: Uint32Array.from(starts), values: Uint8Array.from(values) };
}

/** A table decoded for lookups: the BMP as a direct array (64 KiB), the rest by binary search. */
interface Table extends Runs { bmp: Uint8Array }

function table(encoded: string): Table {
  const runs = decode(encoded);
  const bmp = new Uint8Array(0x10000);
  for (let r = 0; r < runs.starts.length && runs.starts[r]! < 0x10000; r++) {
    const end = r + 1 < runs.starts.length ? Math.min(runs.starts[r + 1]!, 0x10000) : 0x10000;
    bmp.fill(runs.values[r]!, runs.starts[r]!, end);
  }
  return { ...runs, bmp };
}

function lookup(runs: Table, cp: number): number {
  if (cp < 0x10000) return runs.bmp[cp]!;
  const { starts, values } = runs;
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (starts[mid]! <= cp) lo = mid;
    else hi = mid - 1;
  }
  return values[lo]!;
}

let bidi: Table | undefined;
let joining: Table | undefined;
let virama: Table | undefined;
let assigned: Table | undefined;
let inert: Table | undefined;

/**
 * The RFC 5893 §2 group of the Bidi_Class of `cp`.
 *
 * @example
 * ```ts
 * bidiGroup(0x661) === BidiGroup.AN // true (ARABIC-INDIC DIGIT ONE)
 * bidiGroup(0x41) === BidiGroup.L // true
 * ```
 */
export function bidiGroup(cp: number): BidiGroup {
  return lookup((bidi ??= table(BIDI_RUNS)), cp) as BidiGroup;
}

/**
 * The Joining_Type of `cp` (ArabicShaping.txt; Mn, Me and Cf not listed there are T, the rest U).
 *
 * @example
 * ```ts
 * joiningType(0x200d) === JoiningType.C // true (ZERO WIDTH JOINER)
 * joiningType(0x41) === JoiningType.U // true
 * ```
 */
export function joiningType(cp: number): JoiningType {
  return lookup((joining ??= table(JOINING_RUNS)), cp) as JoiningType;
}

/**
 * True if the Canonical_Combining_Class of `cp` is 9, Virama (RFC 5892 Appendix A.1).
 *
 * @example
 * ```ts
 * isVirama(0x94d) // true (DEVANAGARI SIGN VIRAMA)
 * isVirama(0x915) // false
 * ```
 */
export function isVirama(cp: number): boolean {
  return lookup((virama ??= table(VIRAMA_RUNS)), cp) === 1;
}

/**
 * True if `cp` is assigned in the tables' Unicode version (DerivedAge).
 *
 * @example
 * ```ts
 * isAssigned(0x61) // true
 * isAssigned(0x10d83) // true (GARAY, Unicode 16.0)
 * isAssigned(0x10d66) // false
 * ```
 */
export function isAssigned(cp: number): boolean {
  return lookup((assigned ??= table(ASSIGNED_RUNS)), cp) === 1;
}

/**
 * True if `cp` is inert and new since Unicode 15.0: a letter, number,
 * symbol or punctuation mark (combining class 0) assigned since, that
 * UTS #46 maps to itself (no decomposition, not changed by NFKC_Casefold,
 * not default-ignorable, not an ideographic description character) and
 * that no canonical composition takes in, in the tables' Unicode version.
 *
 * @example
 * ```ts
 * isInert(0x323b0) // true (CJK Extension J, Unicode 17.0)
 * isInert(0x13460) // true (EGYPTIAN HIEROGLYPH-13460, Unicode 16.0)
 * isInert(0x4e00) // false (assigned before 15.0)
 * isInert(0x2ffc) // false (an ideographic description character: UTS #46 disallows it)
 * ```
 */
export function isInert(cp: number): boolean {
  return lookup((inert ??= table(INERT_RUNS)), cp) === 1;
}
