/**
 * The shape of a command and the machinery every command shares: argument
 * parsing with node:util `parseArgs`, `--help` text, usage errors, and the
 * exit codes scripts rely on.
 */
import { parseArgs } from 'node:util';

/**
 * Every input valid (or: the check passed).
 *
 * @example
 * ```ts
 * import { main } from './index.js';
 * await main(['validate', 'http://example.com/']) === EXIT_OK // true (prints "valid")
 * ```
 */
export const EXIT_OK = 0;
/**
 * Some input invalid (or: the check failed: different, lint findings).
 *
 * @example
 * ```ts
 * import { main } from './index.js';
 * await main(['compare', 'http://a/x', 'http://a/y']) === EXIT_INVALID // true (prints "different")
 * ```
 */
export const EXIT_INVALID = 1;
/**
 * Usage error: unknown command or option, missing or bad argument.
 *
 * @example
 * ```ts
 * import { main } from './index.js';
 * await main(['normalize', '--level', 'loose', 'http://a/']) === EXIT_USAGE // true (the message goes to standard error)
 * ```
 */
export const EXIT_USAGE = 2;
/**
 * Operational failure: a file that cannot be read, a server that cannot start, a feature missing from the build.
 *
 * @example
 * ```ts
 * import { main } from './index.js';
 * // The store cannot be opened: its directory does not exist.
 * await main(['token', 'create', '--authority', 'urn:example:', '--db', 'no-such-dir/names.sqlite']) === EXIT_FAILURE // true
 * ```
 */
export const EXIT_FAILURE = 3;

/**
 * One option of a command.
 *
 * @example
 * ```ts
 * const level: OptionSpec = { type: 'string', choices: ['syntax', 'scheme'], help: 'the rung of the ladder' };
 * const cmd: Command = { name: 'norm', summary: '', usage: [], options: { level }, examples: [], run: async () => EXIT_OK };
 * parseCommandLine(cmd, ['--level', 'syntax']).values // { level: 'syntax' }
 * parseCommandLine(cmd, ['--level', 'loose']) // throws UsageError
 * ```
 */
export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
  /** The name of the value in the help text (`--level LEVEL`). */
  arg?: string;
  /** The values allowed, checked before the command runs. */
  choices?: readonly string[];
  default?: string;
  help: string;
}

/**
 * The parsed command line of one command.
 *
 * @example
 * ```ts
 * const args: Args = { values: { jobs: '2' }, positionals: ['http://a/'] };
 * intOption(args, 'jobs', 1) // 2
 * ```
 */
export interface Args {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
}

/**
 * A command of the `urikit` binary.
 *
 * @example
 * ```ts
 * const hello: Command = { name: 'hello', summary: 'greets', usage: ['hello'], options: COMMON, examples: ['urikit hello'], run: async () => EXIT_OK };
 * await hello.run(parseCommandLine(hello, ['--json'])) // 0
 * helpText(hello).split('\n').slice(0, 3) // ['urikit hello: greets', '', 'Usage:']
 * ```
 */
export interface Command {
  name: string;
  summary: string;
  /** Usage lines, without the leading `urikit`. */
  usage: string[];
  /** Paragraphs of explanation, with the spec sections the command follows. */
  details?: string;
  options: Record<string, OptionSpec>;
  /** Example command lines with a `# comment` each. */
  examples: string[];
  /** What the exit statuses mean for this command, when not the per-input meaning. */
  exitStatus?: string;
  run(args: Args): Promise<number>;
}

/**
 * A problem with the command line itself: exit code 2.
 *
 * @example
 * ```ts
 * import { parseCommand } from './commands/uri.js';
 * const e = new UsageError('missing BASE', 'resolve');
 * [e.name, e.message, e.command] // ['UsageError', 'missing BASE', 'resolve']
 * parseCommandLine(parseCommand, ['--no-such-option']) // throws UsageError
 * ```
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  constructor(message: string, readonly command?: string) {
    super(message);
  }
}

/**
 * `--help` and `--json`, which every command has.
 *
 * @example
 * ```ts
 * Object.keys(COMMON) // ['help', 'json']
 * ```
 */
export const COMMON: Record<string, OptionSpec> = {
  help: { type: 'boolean', short: 'h', help: 'show this help' },
  json: { type: 'boolean', help: 'write JSON: one object per input, one per line (NDJSON)' },
};

/**
 * The options of bulk mode, for every command that takes one URI at a time.
 *
 * @example
 * ```ts
 * const options = { ...COMMON, ...BULK };
 * Object.keys(options) // ['help', 'json', 'input', 'jobs', 'no-progress', 'stats', 'max-line']
 * ```
 */
export const BULK: Record<string, OptionSpec> = {
  input: { type: 'string', short: 'i', multiple: true, arg: 'FILE', help: 'read one input per line from FILE ("-" is standard input); repeatable' },
  jobs: { type: 'string', short: 'j', arg: 'N', help: 'process lines in N worker threads, "auto" for one per core (output order is kept); default 1' },
  'no-progress': { type: 'boolean', help: 'never draw the progress line (it is drawn only when standard error is a terminal)' },
  stats: { type: 'boolean', help: 'at the end, print a JSON summary on standard error: lines, invalid, seconds, lines/s, peak memory' },
  'max-line': { type: 'string', arg: 'BYTES', help: 'report lines longer than BYTES as invalid and skip them; default 16777216' },
};

/**
 * Parses `argv` for `cmd`, checking the choices; throws {@link UsageError}.
 *
 * @example
 * ```ts
 * import { normalizeCommand } from './commands/uri.js';
 * parseCommandLine(normalizeCommand, ['--level', 'syntax', 'HTTP://A/']).values.level // 'syntax'
 * ```
 */
export function parseCommandLine(cmd: Command, argv: string[]): Args {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = {};
  for (const [name, spec] of Object.entries(cmd.options)) {
    options[name] = { type: spec.type, ...(spec.short ? { short: spec.short } : {}), ...(spec.multiple ? { multiple: true } : {}) };
  }
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message.replace(/\. To specify a positional argument[^]*$/, ''), cmd.name);
  }
  const values = parsed.values as Args['values'];
  for (const [name, spec] of Object.entries(cmd.options)) {
    const v = values[name];
    if (v === undefined && spec.default !== undefined) values[name] = spec.default;
    if (spec.choices && typeof v === 'string' && !spec.choices.includes(v)) {
      throw new UsageError(`--${name} must be one of ${spec.choices.join(', ')} (got "${v}")`, cmd.name);
    }
  }
  return { values, positionals: parsed.positionals };
}

/**
 * A positive integer option, or the default; throws {@link UsageError}.
 *
 * @example
 * ```ts
 * import { normalizeCommand } from './commands/uri.js';
 * const args = parseCommandLine(normalizeCommand, ['--jobs', '2']);
 * intOption(args, 'jobs', 1) // 2
 * intOption(args, 'max-line', 16_777_216) // 16777216 (not given: the default)
 * intOption(parseCommandLine(normalizeCommand, ['--jobs', 'x']), 'jobs', 1) // throws UsageError
 * ```
 */
export function intOption(args: Args, name: string, dflt: number, min = 1, max = Number.MAX_SAFE_INTEGER): number {
  const v = args.values[name];
  if (v === undefined) return dflt;
  const s = String(v);
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9 || s.length > 15) throw new UsageError(`--${name} must be a whole number (got "${s}")`);
    n = n * 10 + c;
  }
  if (s.length === 0 || n < min) throw new UsageError(`--${name} must be at least ${min} (got "${s}")`);
  if (n > max) throw new UsageError(`--${name} must be at most ${max} (got "${s}")`);
  return n;
}

/**
 * The `--help` text of a command.
 *
 * @example
 * ```ts
 * import { parseCommand } from './commands/uri.js';
 * helpText(parseCommand).startsWith('urikit parse: ') // true
 * helpText(parseCommand).includes('  -h, --help ') // true
 * ```
 */
export function helpText(cmd: Command): string {
  const lines: string[] = [];
  lines.push(`urikit ${cmd.name}: ${cmd.summary}`, '', 'Usage:');
  for (const u of cmd.usage) lines.push(`  urikit ${u}`);
  if (cmd.details) lines.push('', ...cmd.details.split('\n').map((l) => (l ? `  ${l}` : '')));
  lines.push('', 'Options:');
  const rows = Object.entries(cmd.options).map(([name, s]) => {
    const flag = `${s.short ? `-${s.short}, ` : '    '}--${name}${s.arg ? ` ${s.arg}` : ''}`;
    const choices = s.choices ? ` (${s.choices.join(' | ')}${s.default ? `; default ${s.default}` : ''})` : s.default ? ` (default ${s.default})` : '';
    return [flag, s.help + choices] as const;
  });
  const width = Math.min(Math.max(...rows.map(([f]) => f.length)) + 2, 34);
  // a flag too long for the column has its help on the next line
  for (const [flag, help] of rows) lines.push(...(flag.length + 2 > width ? [`  ${flag}`, `  ${' '.repeat(width)}${help}`] : [`  ${flag.padEnd(width)}${help}`]));
  lines.push('', 'Examples:');
  for (const e of cmd.examples) lines.push(`  ${e}`);
  lines.push('', `Exit status: ${cmd.exitStatus ?? '0 all inputs valid, 1 some input invalid (or the check failed), 2 usage error, 3 operational failure.'}`);
  return lines.join('\n') + '\n';
}
