/**
 * Which public exports lack TSDoc or an `@example` (STYLE §11): follows
 * the re-exports of a package's index.ts with the TypeScript checker and
 * looks at the doc comment of each exported function, class, variable,
 * enum, interface and type alias (STYLE §11: "every export").
 */
import ts from 'typescript';
import { join, relative } from 'node:path';
import { ROOT } from './harness.js';

/** One public export and what its documentation lacks, if anything. */
export interface ExportDoc {
  name: string;
  /** The file that declares it, relative to the repository root. */
  file: string;
  line: number;
  /** "no TSDoc" or "TSDoc without an @example"; undefined when it is fine. */
  problem?: string;
}

const DOCUMENTED = ts.SymbolFlags.Function | ts.SymbolFlags.Class | ts.SymbolFlags.Variable | ts.SymbolFlags.Enum | ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias;

/** Every export of `index` (relative to the root; a root of `program`) with its documentation checked. */
export function exportDocs(program: ts.Program, index: string): ExportDoc[] {
  const checker = program.getTypeChecker();
  const sf = program.getSourceFile(join(ROOT, index));
  const moduleSymbol = sf && checker.getSymbolAtLocation(sf);
  if (moduleSymbol === undefined) throw new Error(`cannot read the exports of ${index}`);
  const all: ExportDoc[] = [];
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    if ((symbol.flags & DOCUMENTED) === 0) continue;
    const decl = symbol.declarations?.[0];
    if (decl === undefined) continue;
    const declFile = decl.getSourceFile();
    const entry: ExportDoc = {
      name: exported.name,
      file: relative(ROOT, declFile.fileName),
      line: declFile.getLineAndCharacterOfPosition(decl.getStart()).line + 1,
    };
    // A function with overloads may carry its TSDoc on any of them.
    const docs = (symbol.declarations ?? []).flatMap((d) => ts.getJSDocCommentsAndTags(d)).filter(ts.isJSDoc);
    if (docs.length === 0) entry.problem = 'no TSDoc';
    else if (!docs.some((d) => (d.tags ?? []).some((t) => t.tagName.text === 'example'))) entry.problem = 'TSDoc without an @example';
    all.push(entry);
  }
  return all.sort((a, b) => (a.file + a.name < b.file + b.name ? -1 : 1));
}
