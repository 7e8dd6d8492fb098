/** The security barrel: the lint of the 2003 draft §7 and its UTS #39 helpers. Re-exported from ../index.ts. */
export { lint, LINT_RULES } from './lint.js';
export type { LintFinding, LintSeverity, LintCode } from './lint.js';
export { scriptsOf, isWholeScriptConfusable } from './confusables.js';
export type { ScriptSet } from './confusables.js';
export { parserDifferentials } from './differential.js';
export type { ParserDifferential, DifferentialKind } from './differential.js';
