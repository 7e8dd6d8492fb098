/**
 * The code blocks of the Markdown documentation (README.md, docs/** and
 * the README.md of each package, which its npm tarball carries),
 * read as doc examples (harness.ts) so that run.ts runs them and
 * typecheck.ts type-checks them with the same self-checking comments.
 *
 * Every fenced ```` ```ts ```` / ```` ```js ```` block (also `typescript`,
 * `javascript`, `mjs`) is one example; a block whose info string says
 * `no-run` (```` ```ts no-run ````), and every other language (`sh`,
 * `console`, `text`, no language), is prose. Unlike a TSDoc example, a
 * block sees no exports unless it imports them: README examples are
 * copied into programs, so they say where their names come from.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { filesUnder, ROOT, type DocExample } from './harness.js';

/** The Markdown files scanned, relative to the root: README.md, then docs/**\/*.md, then packages/*\/README.md, sorted. */
export function markdownFiles(): string[] {
  const out: string[] = [];
  if (existsSync(join(ROOT, 'README.md'))) out.push('README.md');
  if (existsSync(join(ROOT, 'docs'))) out.push(...filesUnder('docs', (name) => name.endsWith('.md')));
  for (const dir of readdirSync(join(ROOT, 'packages')).sort()) {
    if (existsSync(join(ROOT, 'packages', dir, 'README.md'))) out.push(`packages/${dir}/README.md`);
  }
  return out;
}

const RUNNABLE = new Set(['ts', 'typescript', 'js', 'javascript', 'mjs']);

// CommonMark §4.5: an opening code fence is 3+ backticks or tildes, indented at most 3 spaces.
const FENCE = /^( {0,3})(`{3,}|~{3,})(.*)$/;
const HEADING = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/;

/**
 * The runnable blocks of one Markdown file. `name` is the heading the block
 * stands under (`Parse and validate`), `index` counts the blocks under a
 * heading of that name in this file. `text` is the file's (read from the
 * root when not given).
 */
export function examplesOfMarkdown(file: string, text?: string): DocExample[] {
  const lines = (text ?? readFileSync(join(ROOT, file), 'utf8')).split('\n');
  const out: DocExample[] = [];
  const seen = new Map<string, number>();
  let heading = '(top)';
  for (let i = 0; i < lines.length; i++) {
    const h = HEADING.exec(lines[i]!);
    if (h) {
      heading = h[1]!.replace(/`/g, '');
      continue;
    }
    const open = FENCE.exec(lines[i]!);
    if (open === null) continue;
    const fence = open[2]!;
    const info = open[3]!.trim().split(/\s+/);
    const start = i;
    const code: string[] = [];
    const lineMap: number[] = [];
    for (i++; i < lines.length; i++) {
      const close = FENCE.exec(lines[i]!);
      if (close && close[2]![0] === fence[0] && close[2]!.length >= fence.length && close[3]!.trim() === '') break;
      code.push(lines[i]!.slice(Math.min(open[1]!.length, lines[i]!.length - lines[i]!.trimStart().length)));
      lineMap.push(i + 1);
    }
    if (!RUNNABLE.has(info[0]!.toLowerCase()) || info.includes('no-run')) continue;
    const index = (seen.get(heading) ?? 0) + 1;
    seen.set(heading, index);
    out.push({ file, line: start + 1, name: heading, index, code: code.join('\n'), lineMap });
  }
  return out;
}

/** The prefix of a Markdown block's key in expected-failures.txt. */
export const MD = 'md ';

/**
 * The key of a Markdown block in expected-failures.txt: `md <heading>[#n]`,
 * without the file, so that it survives a section moving between
 * README.md and a document under docs/.
 */
export const markdownKey = (ex: DocExample): string => `${MD}${ex.name}${ex.index > 1 ? `#${ex.index}` : ''}`;

/** The lines of a Markdown text outside its fenced code blocks, with their numbers (1-based). */
function proseLines(text: string): Array<{ line: number; text: string }> {
  const out: Array<{ line: number; text: string }> = [];
  let fence: string | undefined;
  text.split('\n').forEach((l, i) => {
    const f = FENCE.exec(l);
    if (fence === undefined) {
      if (f) fence = f[2]!;
      else out.push({ line: i + 1, text: l });
    } else if (f && f[2]![0] === fence[0] && f[2]!.length >= fence.length && f[3]!.trim() === '') fence = undefined;
  });
  return out;
}

// CommonMark §6.3: inline code spans hold no links.
const CODE_SPAN = /(`+)[^`]*?\1/g;
const LINK = /\]\(([^()\s]+)\)/g;

/** The links of a Markdown text that name a file of the repository or a heading (no scheme), outside code. */
export function relativeLinks(text: string): Array<{ href: string; line: number }> {
  const out: Array<{ href: string; line: number }> = [];
  for (const { line, text: l } of proseLines(text)) {
    for (const m of l.replace(CODE_SPAN, '').matchAll(LINK)) {
      if (!/^[a-z][a-z0-9+.-]*:/i.test(m[1]!)) out.push({ href: m[1]!, line });
    }
  }
  return out;
}

/**
 * The anchors GitHub gives the headings of a Markdown text: lower case,
 * punctuation dropped, spaces as hyphens, `-1`, `-2` ... after a repeat.
 */
export function headingSlugs(text: string): Set<string> {
  const out = new Set<string>();
  for (const { text: l } of proseLines(text)) {
    const h = HEADING.exec(l);
    if (h === null) continue;
    const slug = h[1]!.toLowerCase().replace(/[^\p{L}\p{N}\p{M} _-]/gu, '').replace(/ /g, '-');
    let unique = slug;
    for (let n = 1; out.has(unique); n++) unique = `${slug}-${n}`;
    out.add(unique);
  }
  return out;
}
