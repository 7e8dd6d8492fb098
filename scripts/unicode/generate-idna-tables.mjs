#!/usr/bin/env node
/**
 * Generates packages/urikit/src/host/idna-tables.ts from the Unicode
 * Character Database: the properties UTS #46 checks that JavaScript cannot
 * read (Bidi_Class for CheckBidi, RFC 5893 §2; Joining_Type and
 * Canonical_Combining_Class = Virama for CheckJoiners, RFC 5892 Appendix
 * A.1-A.2) and the code points assigned by the Unicode version of the
 * UTS #46 conformance data (a code point assigned later is "disallowed"
 * in that version's mapping table, whatever a newer platform says).
 *
 *   node scripts/unicode/generate-idna-tables.mjs [UCD directory]
 *
 * The UCD directory defaults to /usr/share/unicode (Debian's
 * `unicode-data` package: apt-get install unicode-data). Files read:
 * ReadMe.txt (the version), UnicodeData.txt (fields 3 and 4),
 * ArabicShaping.txt, DerivedAge.txt. The output names the UCD version it
 * came from; run again with a newer UCD to update it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ucd = process.argv[2] ?? '/usr/share/unicode';
const out = fileURLToPath(new URL('../../packages/urikit/src/host/idna-tables.ts', import.meta.url));
const read = (name) => readFileSync(join(ucd, name), 'utf8');

// The version: "# DerivedAge-15.0.0.txt" names it.
const version = /DerivedAge-(\d+\.\d+\.\d+)\.txt/.exec(read('DerivedAge.txt'))?.[1];
if (!version) throw new Error('DerivedAge.txt does not name its version');

/*
 * The conformance data of UTS #46 (../shared/conformance/IdnaTestV2.txt)
 * is version 15.1.0. Unicode 15.1 added 627 characters to 15.0, listed in
 * its release (https://www.unicode.org/versions/Unicode15.1.0/, "Character
 * Additions"): CJK Unified Ideographs Extension I U+2EBF0..U+2EE5D, the
 * ideographic description characters U+2FFC..U+2FFF and U+31EF CJK STROKE
 * HXG. They are added here when the UCD is 15.0, with their Bidi_Class (L
 * for the ideographs, ON for the others: UAX #9 defaults for their blocks
 * and General_Category So), Joining_Type U and combining class 0.
 */
const TARGET = '15.1.0';
const ADDED_IN_15_1 = version === '15.0.0' ? [[0x2ebf0, 0x2ee5d, 'L'], [0x2ffc, 0x2fff, 'ON'], [0x31ef, 0x31ef, 'ON']] : [];
if (version !== '15.0.0' && version !== TARGET) {
  throw new Error(`UCD ${version}: the tables must be of the conformance data's version, ${TARGET} (or 15.0.0 plus its additions)`);
}

/** Parses "XXXX..YYYY" or "XXXX". */
const range = (f) => {
  const [a, b] = f.trim().split('..');
  return [parseInt(a, 16), parseInt(b ?? a, 16)];
};
const lines = (text) => text.split('\n').map((l) => l.replace(/#.*/, '').trim()).filter(Boolean).map((l) => l.split(';').map((x) => x.trim()));

// UnicodeData.txt: field 3 Canonical_Combining_Class, field 4 Bidi_Class;
// "<..., First>" / "<..., Last>" pairs stand for whole ranges.
const bidi = new Map(); // code point -> Bidi_Class, for assigned code points
const virama = [];
const generalMark = new Set(); // Mn, Me (Joining_Type T by ArabicShaping.txt's rule)
let first;
for (const f of lines(read('UnicodeData.txt'))) {
  const cp = parseInt(f[0], 16);
  const set = (c) => {
    bidi.set(c, f[4]);
    if (f[3] === '9') virama.push(c);
    if (f[2] === 'Mn' || f[2] === 'Me' || f[2] === 'Cf') generalMark.add(c);
  };
  if (f[1].endsWith(', First>')) { first = cp; continue; }
  if (f[1].endsWith(', Last>')) { for (let c = first; c <= cp; c++) set(c); continue; }
  set(cp);
}
for (const [a, b, cls] of ADDED_IN_15_1) for (let c = a; c <= b; c++) bidi.set(c, cls);

/*
 * RFC 5893 §2 needs seven groups of Bidi_Class: L; R and AL; AN; EN;
 * ES, CS, ET, ON and BN (allowed inside a label of either direction);
 * NSM; and every other class (B, S, WS, LRE, LRO, RLE, RLO, PDF, LRI,
 * RLI, FSI, PDI), which no label may hold.
 */
const BIDI_GROUP = { L: 0, R: 1, AL: 1, AN: 2, EN: 3, ES: 4, CS: 4, ET: 4, ON: 4, BN: 4, NSM: 5 };
const bidiGroup = (c) => { const v = bidi.get(c); return v === undefined ? 0 : BIDI_GROUP[v] ?? 6; };

// ArabicShaping.txt: explicit Joining_Type; "Code points that are not
// explicitly listed ... those with General_Category Mn, Me, or Cf have
// joining type T; all others have joining type U."
const JOINING = { U: 0, T: 1, L: 2, R: 3, D: 4, C: 5 };
const joining = new Map();
for (const f of lines(read('ArabicShaping.txt'))) joining.set(parseInt(f[0], 16), JOINING[f[2]]);
const joiningType = (c) => joining.get(c) ?? (generalMark.has(c) ? JOINING.T : JOINING.U);

// DerivedAge.txt: every assigned code point (and noncharacters, surrogates, private use).
const assigned = new Uint8Array(0x110000);
for (const f of lines(read('DerivedAge.txt'))) { const [a, b] = range(f[0]); assigned.fill(1, a, b + 1); }
for (const [a, b] of ADDED_IN_15_1) assigned.fill(1, a, b + 1);

/**
 * Run-length encoding of a function over all code points: runs of equal
 * values as (length, value) pairs, each written as a base-64 varint
 * (5 bits of payload and a continuation bit per character) in a string.
 */
const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
function varint(n) {
  let s = '';
  do {
    let d = n & 31;
    n >>>= 5;
    if (n > 0) d |= 32;
    s += DIGITS[d];
  } while (n > 0);
  return s;
}
function encode(valueAt) {
  let s = '';
  let runs = 0;
  let start = 0;
  let v = valueAt(0);
  for (let c = 1; c <= 0x110000; c++) {
    const w = c < 0x110000 ? valueAt(c) : -1;
    if (w === v) continue;
    s += varint(c - start) + varint(v);
    runs++;
    start = c;
    v = w;
  }
  return { s, runs };
}

const tables = {
  BIDI: encode(bidiGroup),
  JOINING: encode(joiningType),
  VIRAMA: encode((c) => (virama.includes(c) ? 1 : 0)),
  ASSIGNED: encode((c) => assigned[c]),
};

const ts = `/**
 * GENERATED by scripts/unicode/generate-idna-tables.mjs from the Unicode
 * Character Database ${version}${ADDED_IN_15_1.length ? ` plus the ${TARGET} additions` : ''} (UnicodeData.txt,
 * ArabicShaping.txt, DerivedAge.txt); do not edit. The properties UTS #46
 * needs that JavaScript cannot read, for the Unicode version of the UTS #46
 * conformance data (${TARGET}): Bidi_Class (RFC 5893 §2), Joining_Type and
 * Canonical_Combining_Class = Virama (RFC 5892 Appendix A.1-A.2), and the
 * code points assigned in that version.
 *
 * Each table is a run-length encoding over U+0000..U+10FFFF: (length,
 * value) pairs as base-64 varints (5 payload bits, bit 6 continues).
 */

/** The Unicode version the tables describe. */
export const IDNA_TABLES_UNICODE_VERSION = '${TARGET}';
/** The UCD the tables were generated from. */
export const IDNA_TABLES_UCD_VERSION = '${version}';

/** RFC 5893 §2 groups: 0 L, 1 R or AL, 2 AN, 3 EN, 4 ES/CS/ET/ON/BN, 5 NSM, 6 any other class. ${tables.BIDI.runs} runs. */
export const BIDI_RUNS = '${tables.BIDI.s}';
/** Joining_Type: 0 U, 1 T, 2 L, 3 R, 4 D, 5 C. ${tables.JOINING.runs} runs. */
export const JOINING_RUNS = '${tables.JOINING.s}';
/** 1 where Canonical_Combining_Class is 9 (Virama). ${tables.VIRAMA.runs} runs. */
export const VIRAMA_RUNS = '${tables.VIRAMA.s}';
/** 1 where the code point is assigned (DerivedAge). ${tables.ASSIGNED.runs} runs. */
export const ASSIGNED_RUNS = '${tables.ASSIGNED.s}';
`;
writeFileSync(out, ts);
console.log(`UCD ${version} -> ${out}: ${Object.entries(tables).map(([k, t]) => `${k} ${t.runs} runs, ${t.s.length} chars`).join('; ')}`);
