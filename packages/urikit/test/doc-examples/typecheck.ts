/**
 * Type-checks the doc examples: an example of an interface
 * (`const d: UrnDirective = {...}`) proves nothing when it runs, only when
 * the compiler reads it. Each example becomes a module beside its source
 * file (so its relative imports resolve), headed by one line that imports
 * the exports it names, and the TypeScript checker reads them all in one
 * program against the sources (`sourcesProgram`, reused).
 */
import ts from 'typescript';
import { basename, dirname, join } from 'node:path';
import { ROOT, type DocExample } from './harness.js';

/** Each package's index, by the name examples import it as. */
const PACKAGES: Record<string, string> = {
  urikit: 'packages/urikit/src/index.ts',
  '@urikit/html': 'packages/html/src/index.ts',
  '@urikit/resolver': 'packages/resolver/src/index.ts',
  '@urikit/cli': 'packages/cli/src/index.ts',
};

const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  types: ['node'],
  typeRoots: [join(ROOT, 'node_modules/@types')],
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  baseUrl: ROOT,
  paths: Object.fromEntries(Object.entries(PACKAGES).map(([k, v]) => [k, [v]])),
};

/**
 * One program over the packages' sources (their index files and `files`,
 * relative to the root): what the examples are checked against, and what
 * the TSDoc coverage reads.
 */
export function sourcesProgram(files: string[]): ts.Program {
  const roots = [...Object.values(PACKAGES), ...files].map((f) => join(ROOT, f));
  return ts.createProgram([...new Set(roots)], OPTIONS, ts.createCompilerHost(OPTIONS));
}

/** The names an example declares or imports itself at its top level. */
function ownNames(sf: ts.SourceFile): Set<string> {
  const out = new Set<string>();
  const bind = (n: ts.BindingName): void => {
    if (ts.isIdentifier(n)) out.add(n.text);
    else for (const e of n.elements) if (!ts.isOmittedExpression(e)) bind(e.name);
  };
  for (const s of sf.statements) {
    if (ts.isVariableStatement(s)) for (const d of s.declarationList.declarations) bind(d.name);
    else if ((ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s) || ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s) || ts.isEnumDeclaration(s)) && s.name) out.add(s.name.text);
    else if (ts.isImportDeclaration(s) && s.importClause) {
      const c = s.importClause;
      if (c.name) out.add(c.name.text);
      if (c.namedBindings && ts.isNamespaceImport(c.namedBindings)) out.add(c.namedBindings.name.text);
      if (c.namedBindings && ts.isNamedImports(c.namedBindings)) for (const e of c.namedBindings.elements) out.add(e.name.text);
    }
  }
  return out;
}

function identifiers(sf: ts.SourceFile): Set<string> {
  const out = new Set<string>();
  const visit = (n: ts.Node): void => {
    if (ts.isIdentifier(n)) out.add(n.text);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

/**
 * The type errors of each example (`<file>:<line>: <message>`), keyed by
 * the example; examples without errors are absent. `scopeOf` gives the
 * packages whose exports an example sees.
 */
export function typeErrors(examples: DocExample[], scopeOf: (ex: DocExample) => string[], base: ts.Program): Map<DocExample, string[]> {
  const host = ts.createCompilerHost(OPTIONS);
  const checker = base.getTypeChecker();
  const exportsOf = new Map<string, Set<string>>();
  const exportNames = (file: string): Set<string> => {
    let names = exportsOf.get(file);
    if (names === undefined) {
      const sf = base.getSourceFile(file);
      const sym = sf && checker.getSymbolAtLocation(sf);
      names = new Set(sym ? checker.getExportsOfModule(sym).map((s) => s.name) : []);
      exportsOf.set(file, names);
    }
    return names;
  };
  const virtual = new Map<string, { text: string; ex: DocExample }>();
  examples.forEach((ex, i) => {
    if (ex.problem !== undefined) return;
    const sf = ts.createSourceFile('x.ts', ex.code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const declared = ownNames(sf);
    const used = [...identifiers(sf)].filter((n) => !declared.has(n));
    const own = exportNames(join(ROOT, ex.file));
    const from = new Map<string, string[]>();
    for (const name of used) {
      let spec: string | undefined;
      // The public exports win over the names of the example's own module (as when it runs).
      for (const p of scopeOf(ex)) if (exportNames(join(ROOT, PACKAGES[p]!)).has(name)) spec = p;
      if (spec === undefined && own.has(name)) spec = `./${basename(ex.file).replace(/\.ts$/, '.js')}`;
      if (spec !== undefined) from.set(spec, [...(from.get(spec) ?? []), name]);
    }
    const header = [...from].map(([spec, names]) => `import { ${names.join(', ')} } from '${spec}';`).join(' ') || 'export {};';
    virtual.set(join(ROOT, dirname(ex.file), `__doc_example_${i}.ts`), { text: `${header}\n${ex.code}\n`, ex });
  });
  const getSourceFile = host.getSourceFile.bind(host);
  const vhost: ts.CompilerHost = {
    ...host,
    fileExists: (f) => virtual.has(f) || host.fileExists(f),
    readFile: (f) => virtual.get(f)?.text ?? host.readFile(f),
    getSourceFile: (f, lang, onError, create) => {
      const v = virtual.get(f);
      return v ? ts.createSourceFile(f, v.text, lang, true, ts.ScriptKind.TS) : getSourceFile(f, lang, onError, create);
    },
  };
  const program = ts.createProgram([...virtual.keys()], OPTIONS, vhost, base);
  const out = new Map<DocExample, string[]>();
  for (const [file, { ex }] of virtual) {
    const sf = program.getSourceFile(file)!;
    const diagnostics = [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)];
    for (const d of diagnostics) {
      const line = sf.getLineAndCharacterOfPosition(d.start ?? 0).line;
      const at = line === 0 ? `${ex.file}:${ex.line} (the imports)` : `${ex.file}:${ex.lineMap[line - 1] ?? ex.line}`;
      out.set(ex, [...(out.get(ex) ?? []), `${at}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`]);
    }
  }
  return out;
}
