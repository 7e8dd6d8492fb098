/**
 * The URL corpus of the benchmarks: ../shared/corpus (see its README),
 * read in place, never copied into the repository.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The URL corpus of ../shared/corpus (see its README). */
export interface Corpus {
  /** kasztp.txt: real website URLs, all https (BOM stripped). */
  kasztp: string[];
  /** node_files.txt: file:// URLs of a Node.js source tree. */
  nodeFiles: string[];
  /** isaacs_files.txt: long file:// URLs with queries, node: and tapmock: URLs. */
  isaacs: string[];
  /** The three files together, in file order. */
  all: string[];
  /** 10,000 URLs taken evenly from `all`: the default workload of one call. */
  sample: string[];
}

// URIKIT_CORPUS points elsewhere (a worktree outside the checkout's parent
// directory has no ../shared beside it).
const corpusDir = process.env.URIKIT_CORPUS ?? fileURLToPath(new URL('../../../shared/corpus/', import.meta.url));

function loadLines(file: string): string[] {
  let text = readFileSync(corpusDir + file, 'utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); // kasztp.txt starts with a BOM
  // Each line is copied into a flat string of its own (as JSON.parse or a
  // socket would hand it over) instead of a slice that keeps the whole file
  // alive; every contender gets the same strings.
  return text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l)).filter((l) => l.length > 0).map(flat);
}

/** A sequential (flat) copy of `s`: V8 reads it without following a slice. */
function flat(s: string): string {
  return JSON.parse(JSON.stringify(s)) as string;
}

/** Loads ../shared/corpus: strip the BOM, split lines, drop empty ones. */
export function loadCorpus(): Corpus {
  const kasztp = loadLines('kasztp.txt');
  const nodeFiles = loadLines('node_files.txt');
  const isaacs = loadLines('isaacs_files.txt');
  const all = [...kasztp, ...nodeFiles, ...isaacs];
  const n = Math.min(10_000, all.length);
  const sample: string[] = [];
  for (let i = 0; i < n; i++) sample.push(all[Math.floor((i * all.length) / n)]!);
  return { kasztp, nodeFiles, isaacs, all, sample };
}

