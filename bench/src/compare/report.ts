/**
 * Renders the comparison as Markdown: the versions, the summary by
 * feature, the rows where urikit itself is wrong, and the appendix with
 * every case's raw answers.
 */
import type { Case } from './case.js';

export type Mark = '✓' | '✗' | '—';

/** One library's answer to one case. */
export interface Cell {
  mark: Mark;
  answer: string;
  /** Why the cell is "—", when it is. */
  reason?: string;
}

export interface Result {
  c: Case;
  cells: Cell[];
}

/** Markdown-safe inline code for a table cell. */
function code(s: string): string {
  if (s === '') return '""';
  // Line breaks, controls, bidi formatting and private-use characters are shown escaped.
  const flat = s
    .replace(/\r?\n/g, '⏎')
    .replace(/[\u0000-\u001F\u007F-\u009F\u200E\u200F\u202A-\u202E\u2066-\u2069\uE000-\uF8FF\uFFF0-\uFFFF]/g,
      (ch) => `\\u{${ch.charCodeAt(0).toString(16).toUpperCase()}}`)
    .replace(/\|/g, '\\|');
  return flat.includes('`') ? `\`\` ${flat} \`\`` : `\`${flat}\``;
}

/** The summary cell of one library over the cases of one feature. */
export function rollUp(cells: Cell[]): string {
  const pass = cells.filter((c) => c.mark === '✓').length;
  const fail = cells.filter((c) => c.mark === '✗').length;
  const none = cells.length - pass - fail;
  if (fail > 0) return cells.length === 1 ? '✗' : `✗ ${pass}/${pass + fail}`;
  if (pass === 0) return '—';
  return none === 0 ? (cells.length === 1 ? '✓' : `✓ ${pass}/${pass}`) : `✓ ${pass}/${cells.length} (rest —)`;
}

/** The distinct documents and sections of a feature's cases, shortened. */
function sections(results: Result[]): string {
  const all = [...new Set(results.flatMap((r) => r.c.section.replace(/\s*\(.*\)$/, '').split('; ')))];
  return all.length > 3 ? `${all.slice(0, 3).join('; ')}; …` : all.join('; ');
}

/** Results grouped by feature, in first-seen order. */
export function byFeature(results: Result[]): Map<string, Result[]> {
  const m = new Map<string, Result[]>();
  for (const r of results) {
    const list = m.get(r.c.feature) ?? [];
    list.push(r);
    m.set(r.c.feature, list);
  }
  return m;
}

export function summaryTable(names: string[], results: Result[]): string {
  const head = `| Feature | Spec | Cases | ${names.join(' | ')} |\n|---|---|---|${names.map(() => '---').join('|')}|`;
  const rows = [...byFeature(results)].map(([feature, rs]) => {
    const cols = names.map((_, i) => rollUp(rs.map((r) => r.cells[i]!)));
    return `| ${feature} | ${sections(rs)} | ${rs.length} | ${cols.join(' | ')} |`;
  });
  return [head, ...rows].join('\n');
}

export function appendixTable(names: string[], results: Result[]): string {
  const head = `| # | Feature | Section | Input | Expected | ${names.join(' | ')} |\n|---|---|---|---|---|${names.map(() => '---').join('|')}|`;
  const rows = results.map((r, n) => {
    const cols = r.cells.map((cell) => {
      if (cell.reason !== undefined) return `— (${cell.reason})`;
      return `${cell.mark} ${code(cell.answer)}`;
    });
    const expected = r.c.expected.map(code).join(' or ');
    return `| ${n + 1} | ${r.c.feature} | ${r.c.section} | ${code(r.c.input)} | ${expected} | ${cols.join(' | ')} |`;
  });
  return [head, ...rows].join('\n');
}

/**
 * The block of docs/comparison.md: versions, the summary by feature, and the measured
 * bundle sizes. No timing: the block changes only when an answer does.
 */
export function summaryBlock(names: string[], versions: string[], results: Result[]): string {
  const bundle = results.find((r) => r.c.feature.startsWith('Packaging: browser bundle'));
  const sizes = bundle === undefined ? '' : `\n\nBrowser bundle of ${bundle.c.input} (esbuild, minified; gzip level 9):\n\n| ${names.join(' | ')} |\n|${names.map(() => '---').join('|')}|\n| ${bundle.cells.map((c) => c.answer.replace(/^ok: /, '')).join(' | ')} |`;
  return `${results.length} cases. Versions: ${versions.join(', ')}.\n\n${summaryTable(names, results)}${sizes}`;
}

export interface ReportInput {
  names: string[];
  versions: string[];
  results: Result[];
  /** Cases where Node's URL and whatwg-url (the same standard) answered differently. */
  nodeVsWhatwg: Result[];
  /** Sentences of docs/comparison.md whose backing cell changed (claims.ts). */
  stale: string[];
  elapsedMs: number;
}

export function renderReport(r: ReportInput): string {
  const urikitFails = r.results.filter((x) => x.cells[0]!.mark === '✗');
  const versions = r.names.map((n, i) => `| ${n} | ${r.versions[i]} |`).join('\n');
  const fails = urikitFails.length === 0
    ? 'None: urikit gives the specification\'s answer on every case it is judged on.'
    : urikitFails.map((x) => `- ${x.c.feature} (${x.c.section}): ${code(x.c.input)} gave ${code(x.cells[0]!.answer)}, expected ${x.c.expected.map(code).join(' or ')}`).join('\n');
  const agree = r.nodeVsWhatwg.length === 0
    ? 'Node\'s built-in `URL` and whatwg-url gave the same answer on every case both ran (both throwing counts as the same answer; their messages differ).'
    : `Node's built-in \`URL\` and whatwg-url differ on ${r.nodeVsWhatwg.length} case(s): ${r.nodeVsWhatwg.map((x) => code(x.c.input)).join(', ')}.`;
  return `# urikit compared with its peers

Generated by \`npm run compare\` (bench/src/compare/run.ts): every case below
was run against each library in one process; nothing in these tables is
typed by hand. ${r.results.length} cases, ${(r.elapsedMs / 1000).toFixed(1)} s.

| Library | Version |
|---|---|
${versions}

**Marks.** ✓ the library's answer is the one the cited specification
defines; ✗ a wrong answer, a throw on valid input, or acceptance of
invalid input; — the library has no such feature (when a "—" cell shows
an answer, it is the library's nearest operation, given for information,
not judged). A summary cell "✗ 20/23" means 20 of the 23 judged cases
were right.

## Summary by feature

${summaryTable(r.names, r.results)}

## Where urikit itself is wrong

${fails}

## Notes on the method

- urikit is the built package (\`import … from 'urikit'\`, packages/urikit/dist), like any user's.
- Each library is asked through its own public API (bench/src/compare/peers.ts):
  fast-uri and uri-js \`parse\`/\`serialize\`/\`resolve\`/\`normalize\`/\`equal\`
  (a result's \`error\` field counts as a rejection); whatwg-url's URL record
  (\`parseURL\`, \`serializeURL\`) and \`URL\` class; Node's global \`URL\` and
  \`url.fileURLToPath\`; URI.js \`URI()\`, \`.absoluteTo()\`, \`.normalize()\`,
  \`.equals()\`, \`.readable()\`, \`URI.withinString()\`.
- Normalization asks urikit for \`normalize(s, { level: 'scheme' })\`
  (RFC 3986 §6.2.2 and §6.2.3); the WHATWG libraries' nearest operation is
  the serialized \`href\`, which is their canonical form.
- The resolution and Appendix C tables are read in place from
  packages/urikit/test/data/ (RFC 3986 §5.4 and the drafts, verbatim).
- ${agree}
- The sentences of docs/comparison.md that name a peer's result are
  checked against this table on every run (bench/src/compare/claims.ts): ${r.stale.length === 0 ? 'all hold.' : `${r.stale.length} no longer hold:\n${r.stale.map((x) => `  - ${x}`).join('\n')}`}

## Appendix: every case, every answer

${appendixTable(r.names, r.results)}
`;
}
