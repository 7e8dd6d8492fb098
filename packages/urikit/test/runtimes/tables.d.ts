/** Types of tables.js (plain JavaScript, so that every runtime reads it as it is). */

/** The data files the tables read: paths under packages/urikit/test/, and `conformance/…` for ../shared/conformance/. */
export declare const TABLE_FILES: readonly string[];
/** The names of the tables, in the order they run. */
export declare const TABLE_NAMES: readonly string[];
/** The runtime this runs in, with its version: `Deno 2.9.6`, `Bun 1.4.5`, `Node v24.1.0`, `Chromium 140.0.0.0`. */
export declare function runtimeName(): string;

export interface TableResult {
  name: string;
  cases: number;
  failed: number;
  /** The first failures (at most 200 a table): the case, as the table names it, and what went wrong. */
  failures: Array<{ case: string; message: string }>;
}
export interface RunResult {
  runtime: string;
  tables: TableResult[];
}
/** Runs every table on `api` (the module namespace of the bundled core); `files` maps each path of TABLE_FILES to the file's text. */
export declare function runTables(api: Record<string, unknown>, files: Record<string, string>): RunResult;
