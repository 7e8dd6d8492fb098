/**
 * The command set of `urikit`, once: every command in the order
 * `urikit --help` lists them, what it needs loaded, and the per-input
 * operation behind it. The launcher (bin/urikit.js) reads it to choose the
 * program, index.ts to list and find the commands, ops/index.ts to name
 * the operations, and commands/urn.ts for its actions. Plain data with no
 * imports, so that the launcher loads nothing else to read it.
 */

/**
 * What a command (or one action of it) needs loaded: the core alone, which
 * the start-up bundle dist/urikit.js holds, or `@urikit/resolver` too
 * (which brings its own copy of the core, so such commands run from
 * dist/bin.js, which shares it).
 *
 * @example
 * ```ts
 * const l: Loads = 'resolver';
 * l // 'resolver'
 * ```
 */
export type Loads = 'core' | 'resolver';

/**
 * One row of {@link COMMAND_TABLE}: a command, what it loads, the
 * operation it runs on each input (`op`), or its actions, each with its
 * own operation or its own needs.
 *
 * @example
 * ```ts
 * const row: CommandRow = { name: 'host', loads: 'core', op: 'host' };
 * row.op // 'host'
 * ```
 */
export interface CommandRow {
  readonly name: string;
  readonly loads: Loads;
  readonly op?: string;
  readonly actions?: Readonly<Record<string, { readonly op?: string; readonly loads?: Loads }>>;
}

/**
 * Every command, in the order `urikit --help` lists them.
 *
 * @example
 * ```ts
 * COMMAND_TABLE.map((c) => c.name)
 * // ['parse', 'validate', 'resolve', 'normalize', 'compare', 'extract', 'lint', 'host', 'urn',
 * //  'serve', 'gateway', 'resolve-urn', 'crawl', 'import', 'token', 'links', 'harvest', 'handover']
 * ```
 */
export const COMMAND_TABLE = [
  { name: 'parse', loads: 'core', op: 'parse' },
  { name: 'validate', loads: 'core', op: 'validate' },
  { name: 'resolve', loads: 'core', op: 'resolve' },
  { name: 'normalize', loads: 'core', op: 'normalize' },
  { name: 'compare', loads: 'core', op: 'compare' },
  { name: 'extract', loads: 'core' },
  { name: 'lint', loads: 'core', op: 'lint' },
  { name: 'host', loads: 'core', op: 'host' },
  {
    name: 'urn',
    loads: 'core',
    actions: {
      parse: { op: 'urn parse' },
      validate: { op: 'urn validate' },
      normalize: { op: 'urn normalize' },
      equivalent: { op: 'urn equivalent' },
      display: { op: 'urn display' },
      mint: { loads: 'resolver' },
    },
  },
  { name: 'serve', loads: 'resolver' },
  { name: 'gateway', loads: 'resolver' },
  { name: 'resolve-urn', loads: 'resolver' },
  { name: 'crawl', loads: 'resolver' },
  { name: 'import', loads: 'resolver' },
  { name: 'token', loads: 'resolver' },
  { name: 'links', loads: 'resolver' },
  { name: 'harvest', loads: 'resolver' },
  { name: 'handover', loads: 'resolver' },
] as const satisfies readonly CommandRow[];

type Row = (typeof COMMAND_TABLE)[number];
type ActionOps<R> = R extends { actions: infer A } ? { [K in keyof A]: A[K] extends { op: infer O } ? O : never }[keyof A] : never;

/**
 * The name of every per-input operation the table names (the keys of
 * `OPS`, ops/index.ts).
 *
 * @example
 * ```ts
 * const op: OpName = 'urn normalize';
 * op // 'urn normalize'
 * ```
 */
export type OpName = Extract<Row, { op: string }>['op'] | ActionOps<Row>;

/**
 * The actions of a command in table order (`urn`'s: parse, validate, ...),
 * or an empty list.
 *
 * @example
 * ```ts
 * actionsOf('urn') // ['parse', 'validate', 'normalize', 'equivalent', 'display', 'mint']
 * actionsOf('parse') // []
 * ```
 */
export function actionsOf(command: string): string[] {
  const row: CommandRow | undefined = COMMAND_TABLE.find((c) => c.name === command);
  return Object.keys(row?.actions ?? {});
}

/**
 * What the command line `argv` (without `node` and the script) needs
 * loaded: the command's own needs, or its action's where the action says.
 * Anything else (no command, help, version, an unknown name) runs in the
 * whole program, as a command that loads the resolver does.
 *
 * @example
 * ```ts
 * loadsFor(['normalize', 'HTTP://A/']) // 'core'
 * loadsFor(['urn', 'mint', '--prefix', 'urn:example:']) // 'resolver'
 * loadsFor(['serve']) // 'resolver'
 * loadsFor(['--help']) // 'resolver'
 * ```
 */
export function loadsFor(argv: readonly string[]): Loads {
  const row: CommandRow | undefined = COMMAND_TABLE.find((c) => c.name === argv[0]);
  if (row === undefined) return 'resolver';
  return row.actions?.[argv[1] ?? '']?.loads ?? row.loads;
}

/**
 * The per-input operation of a command, or of one of its actions.
 *
 * @example
 * ```ts
 * opOf('normalize') // 'normalize'
 * opOf('urn', 'display') // 'urn display'
 * opOf('urn', 'mint') // undefined
 * ```
 */
export function opOf(command: string, action?: string): OpName | undefined {
  const row: CommandRow | undefined = COMMAND_TABLE.find((c) => c.name === command);
  return (action === undefined ? row?.op : row?.actions?.[action]?.op) as OpName | undefined;
}
