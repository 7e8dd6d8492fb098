/**
 * The doc-example harness (STYLE §11: "Every export has TSDoc: one
 * sentence, the spec link, and an `@example` that a test runs").
 *
 * It reads the TSDoc of every exported declaration (and of the members of
 * exported classes and interfaces), takes the fenced ```ts / ```js code
 * blocks of each `@example`, turns the self-checking comments below into
 * assertions and strips the types with the TypeScript compiler; run.ts
 * runs the result with the package's public exports in scope, and
 * typecheck.ts type-checks the examples against the sources.
 *
 * The convention (README.md beside this file says it with examples):
 *
 * - `expr // value` or `expr // => value` after an expression statement:
 *   the expression (awaited) deep-equals `value` (vitest `toEqual`).
 *   `value` is a JavaScript expression, usually a literal (`"ipv6"`,
 *   `80`, `["a", "b"]`, `{ path: '../a' }`, `undefined`); a remark after
 *   it in parentheses, `false (no scheme)`, is ignored. A value too long
 *   for the line continues on the next comment lines (`//   port: ...`).
 *   The value may also stand alone on the comment line right after the
 *   statement.
 * - `expr // matches { ... }`: the result contains at least these
 *   properties (`toMatchObject`).
 * - `expr // throws <code>` (also `throws UriError <code>`, `throws
 *   UriError <code> at offset <n>`, `throws TypeError`): evaluating the
 *   expression throws (or rejects with) that error.
 * - Any other statement just has to run without throwing. A trailing
 *   comment after an expression statement that is none of the above is
 *   an error: prose goes on its own line, before the statement.
 *
 * `import` declarations in an example are honoured: `urikit`,
 * `@urikit/html` and `@urikit/resolver` name the sources, a relative
 * specifier a module beside the example's file, anything else
 * (`node:dns`) is imported for real.
 */
import ts from 'typescript';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, from which every file name below is relative. */
export const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** One `@example` of one exported declaration. */
export interface DocExample {
  /** The source file, relative to the repository root. */
  file: string;
  /** The line of the `@example` tag (1-based). */
  line: number;
  /** The export (`parse`) or member of an export (`MemoryCache.get`). */
  name: string;
  /** 1 for the first example of this name in this file, 2 for the next... */
  index: number;
  /** The code of the fenced blocks, with the comment's `*` prefix removed. */
  code: string;
  /** The source line of each line of `code`. */
  lineMap: number[];
  /** Why the example cannot run (no fenced ts/js block), if so. */
  problem?: string;
}

/** The name a test case has: `<file>:<line> <export name>`. */
export const caseName = (ex: DocExample): string => `${ex.file}:${ex.line} ${ex.name}`;

/** The key of the expected-failures list: `<file> <export name>[#n]` (no line: lines move). */
export const failureKey = (ex: DocExample): string => `${ex.file} ${ex.name}${ex.index > 1 ? `#${ex.index}` : ''}`;

/** Every file under `dir` (relative to the root) whose name `accept`s, sorted, relative to the root. */
export function filesUnder(dir: string, accept: (name: string) => boolean): string[] {
  const out: string[] = [];
  const walk = (abs: string): void => {
    for (const entry of readdirSync(abs).sort()) {
      const p = join(abs, entry);
      if (statSync(p).isDirectory()) walk(p);
      else if (accept(entry)) out.push(relative(ROOT, p));
    }
  };
  walk(join(ROOT, dir));
  return out;
}

/** Every `.ts` source file under `dir` (relative to the root), sorted, without tests or declarations. */
export const sourceFiles = (dir: string): string[] =>
  filesUnder(dir, (name) => name.endsWith('.ts') && !name.endsWith('.d.ts') && !name.endsWith('.test.ts'));

const isExported = (node: ts.Node): boolean =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** The `/** ... *\/` comment right before a node, with its start offset. */
function docComment(text: string, node: ts.Node): { start: number; text: string } | undefined {
  const ranges = ts.getLeadingCommentRanges(text, node.pos) ?? [];
  for (let i = ranges.length - 1; i >= 0; i--) {
    const r = ranges[i]!;
    if (r.kind === ts.SyntaxKind.MultiLineCommentTrivia && text.startsWith('/**', r.pos)) return { start: r.pos, text: text.slice(r.pos, r.end) };
  }
  return undefined;
}

const nameOf = (node: ts.Node): string | undefined => {
  if (ts.isVariableStatement(node)) return node.declarationList.declarations.map((d) => d.name.getText()).join(', ');
  const name = (node as { name?: ts.Node }).name;
  if (name !== undefined) return name.getText();
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  return undefined;
};

const RUNNABLE = new Set(['', 'ts', 'typescript', 'js', 'javascript', 'mjs']);

/** The `@example` blocks of one doc comment. */
function examplesOfComment(file: string, name: string, source: string, comment: { start: number; text: string }): Omit<DocExample, 'index'>[] {
  const firstLine = source.slice(0, comment.start).split('\n').length;
  const lines = comment.text.split('\n').map((l, i) => ({
    text: l.replace(/^\s*\/\*\*\s?/, '').replace(/\s*\*\/\s*$/, '').replace(/^\s*\*(?:\s|$)/, ''),
    line: firstLine + i,
  }));
  const out: Omit<DocExample, 'index'>[] = [];
  let i = 0;
  while (i < lines.length) {
    if (!/^\s*@example\b/.test(lines[i]!.text)) {
      i++;
      continue;
    }
    const tagLine = lines[i]!.line;
    const code: string[] = [];
    const lineMap: number[] = [];
    let fenced = false;
    let other = '';
    i++;
    for (; i < lines.length; i++) {
      const t = lines[i]!.text;
      if (/^\s*@\w/.test(t)) break;
      const fence = /^\s*```\s*(\w*)/.exec(t);
      if (fence === null) continue;
      const lang = fence[1]!.toLowerCase();
      const runnable = RUNNABLE.has(lang);
      if (!runnable) other = lang;
      for (i++; i < lines.length && !/^\s*```/.test(lines[i]!.text); i++) {
        if (!runnable) continue;
        code.push(lines[i]!.text);
        lineMap.push(lines[i]!.line);
      }
      if (runnable) fenced = true;
    }
    const ex: Omit<DocExample, 'index'> = { file, line: tagLine, name, code: code.join('\n'), lineMap };
    if (!fenced) ex.problem = other ? `the @example has only a \`\`\`${other} block, no \`\`\`ts block to run` : 'the @example has no ```ts fenced block';
    out.push(ex);
  }
  return out;
}

/** Every `@example` of the exported declarations of one file (and of their members). */
export function examplesOfFile(file: string): DocExample[] {
  const source = readFileSync(join(ROOT, file), 'utf8');
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: Omit<DocExample, 'index'>[] = [];
  for (const stmt of sf.statements) {
    if (!isExported(stmt)) continue;
    const name = nameOf(stmt) ?? 'default';
    const doc = docComment(source, stmt);
    if (doc) found.push(...examplesOfComment(file, name, source, doc));
    if (ts.isClassDeclaration(stmt) || ts.isInterfaceDeclaration(stmt)) {
      for (const member of stmt.members) {
        const m = nameOf(member);
        const mdoc = docComment(source, member);
        if (m !== undefined && mdoc) found.push(...examplesOfComment(file, `${name}.${m}`, source, mdoc));
      }
    }
  }
  const seen = new Map<string, number>();
  return found.map((ex) => {
    const index = (seen.get(ex.name) ?? 0) + 1;
    seen.set(ex.name, index);
    return { ...ex, index };
  });
}

/** What one self-checking comment asks. */
export type Assertion =
  | { kind: 'equal' | 'match'; line: number; text: string }
  | { kind: 'throw'; line: number; text: string; errorName?: string; code?: string; offset?: number };

/** True when `text` is one complete JavaScript/TypeScript expression. */
function isExpression(text: string): boolean {
  if (text.trim() === '') return false;
  const sf = ts.createSourceFile('value.ts', `(${text}\n)`, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const diagnostics = (sf as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics;
  if (diagnostics.length > 0 || sf.statements.length !== 1) return false;
  // `200, text/plain` parses (a comma and a division) but is prose.
  const stmt = sf.statements[0]!;
  const inner = ts.isExpressionStatement(stmt) && ts.isParenthesizedExpression(stmt.expression) ? stmt.expression.expression : undefined;
  return inner !== undefined && !(ts.isBinaryExpression(inner) && inner.operatorToken.kind === ts.SyntaxKind.CommaToken);
}

/** The expected value of a comment, with a trailing "(remark)" dropped when it is not part of the value. */
function valueText(text: string): string | undefined {
  const t = text.trim().replace(/;$/, '');
  const remark = /^(.*\S)\s+\([^()]*\)$/.exec(t);
  if (remark && isExpression(remark[1]!)) return remark[1]!;
  return isExpression(t) ? t : undefined;
}

const THROWS = /^throws\b\s*(?:([A-Z]\w*)\b)?\s*(?:[:(]\s*)?['"]?([a-z][a-z0-9-]*)?['"]?\s*(?:,\s*(\d+)\s*)?\)?\s*(?:at offset (\d+))?/;

/**
 * Reads an expectation from comment text (without the `//`); `complete`
 * false means "a value that is not finished yet, read the next line too".
 */
function readExpectation(raw: string, line: number): { assertion?: Assertion; complete: boolean } {
  let text = raw.trim();
  const arrow = text.startsWith('=>');
  if (arrow) text = text.slice(2).trim();
  const thrown = THROWS.exec(text);
  if (thrown) {
    const a: Assertion = { kind: 'throw', line, text };
    if (thrown[1] !== undefined) a.errorName = thrown[1];
    if (thrown[2] !== undefined) a.code = thrown[2];
    const offset = thrown[3] ?? thrown[4];
    if (offset !== undefined) a.offset = Number(offset);
    return { assertion: a, complete: true };
  }
  const match = /^matches\s+(.*)$/s.exec(text);
  const body = match ? match[1]! : text;
  const value = valueText(body);
  if (value === undefined) return { complete: false };
  return { assertion: { kind: match ? 'match' : 'equal', line, text: value }, complete: true };
}

/** The example, compiled to JavaScript with its assertions. */
export interface Compiled {
  js: string;
  assertions: Assertion[];
}

/** Turns an example's TypeScript into a JavaScript function body that calls `__check` for each assertion. */
export function compile(ex: DocExample): Compiled {
  const code = ex.code;
  const sf = ts.createSourceFile('example.ts', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const syntax = (sf as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics;
  if (syntax.length > 0) {
    const d = syntax[0]!;
    const at = sf.getLineAndCharacterOfPosition(d.start ?? 0).line;
    throw new Error(`${ex.file}:${ex.lineMap[at] ?? ex.line}: syntax error in the example: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
  }
  const lines = code.split('\n');
  const edits: { start: number; end: number; text: string }[] = [];
  const assertions: Assertion[] = [];
  const fileLine = (codeLine: number): number => ex.lineMap[codeLine] ?? ex.line;
  for (const stmt of sf.statements) {
    if (ts.isImportDeclaration(stmt)) {
      edits.push({ start: stmt.getStart(), end: stmt.end, text: importAsConst(stmt) });
      continue;
    }
    if (!ts.isExpressionStatement(stmt)) continue;
    const endLine = sf.getLineAndCharacterOfPosition(stmt.end).line;
    const endCol = stmt.end - sf.getLineStarts()[endLine]!;
    const rest = lines[endLine]!.slice(endCol).trim();
    let assertion: Assertion | undefined;
    const sameLine = rest.startsWith('//');
    let comment = sameLine ? rest.slice(2) : '';
    let next = endLine + 1;
    if (!sameLine) {
      // A value standing alone on the comment line right after the statement
      // (only after the last statement of its line).
      if (rest.replace(/^;/, '').trim() === '' && next < lines.length && /^\s*\/\//.test(lines[next]!)) comment = lines[next++]!.replace(/^\s*\/\//, '');
      else continue;
    }
    for (;;) {
      const r = readExpectation(comment, fileLine(endLine));
      if (r.complete) {
        assertion = r.assertion;
        break;
      }
      if (next < lines.length && /^\s*\/\//.test(lines[next]!)) comment += ' ' + lines[next++]!.replace(/^\s*\/\//, '');
      else break;
    }
    if (assertion === undefined) {
      if (!sameLine) continue; // prose on its own line
      throw new Error(`${ex.file}:${fileLine(endLine)}: cannot read the expected value in "//${rest.slice(2)}" (see the convention in test/doc-examples/README.md)`);
    }
    const id = assertions.push(assertion) - 1;
    const expr = stmt.expression.getText(sf);
    const expected = assertion.kind === 'throw' ? '' : `, () => (${assertion.text})`;
    edits.push({ start: stmt.getStart(sf), end: stmt.end, text: `await __check(${id}, async () => (${expr})${expected});` });
  }
  let out = code;
  for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  const js = ts.transpileModule(out, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, isolatedModules: true },
  }).outputText.replace(/^export \{\};?\s*$/m, '');
  return { js, assertions };
}

function importAsConst(stmt: ts.ImportDeclaration): string {
  const spec = (stmt.moduleSpecifier as ts.StringLiteral).text;
  const clause = stmt.importClause;
  if (clause === undefined) return `await __import(${JSON.stringify(spec)});`;
  if (clause.isTypeOnly) return '';
  const parts: string[] = [];
  const m = `(await __import(${JSON.stringify(spec)}))`;
  if (clause.name) parts.push(`const ${clause.name.text} = ${m}.default;`);
  const b = clause.namedBindings;
  if (b && ts.isNamespaceImport(b)) parts.push(`const ${b.name.text} = ${m};`);
  if (b && ts.isNamedImports(b)) {
    const names = b.elements.filter((e) => !e.isTypeOnly).map((e) => (e.propertyName ? `${e.propertyName.text}: ${e.name.text}` : e.name.text));
    if (names.length > 0) parts.push(`const { ${names.join(', ')} } = ${m};`);
  }
  return parts.join(' ');
}
