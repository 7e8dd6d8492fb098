/**
 * @urikit/cli: the `urikit` command. `main(argv)` runs one command line and
 * resolves to its exit status; bin.ts calls it with the process arguments.
 */
import { readFileSync } from 'node:fs';
import { EXIT_FAILURE, EXIT_USAGE, UsageError, helpText, parseCommandLine, type Command } from './command.js';
import { compareCommand, hostCommand, lintCommand, normalizeCommand, parseCommand, resolveCommand, validateCommand } from './commands/uri.js';
import { urnCommand } from './commands/urn.js';
import { extractCommand } from './commands/extract.js';
import { gatewayCommand, importCommand, resolveUrnCommand, serveCommand } from './commands/service.js';
import { tokenCommand } from './commands/token.js';
import { linksCommand } from './commands/links.js';
import { harvestCommand } from './commands/harvest.js';
import { handoverCommand } from './commands/handover.js';
import { COMMAND_TABLE } from './command-table.js';
import { crawlCommand } from './commands/crawl.js';

export { EXIT_FAILURE, EXIT_INVALID, EXIT_OK, EXIT_USAGE } from './command.js';
export type { Command } from './command.js';
export { COMMAND_TABLE, loadsFor, type OpName } from './command-table.js';

/**
 * Every command of the binary, in the order `urikit --help` lists them.
 *
 * @example
 * ```ts
 * COMMANDS.map((c) => c.name)
 * // ['parse', 'validate', 'resolve', 'normalize', 'compare', 'extract', 'lint', 'host', 'urn',
 * //  'serve', 'gateway', 'resolve-urn', 'crawl', 'import', 'token', 'links', 'harvest', 'handover']
 * ```
 */
export const COMMANDS: readonly Command[] = inTableOrder([
  parseCommand, validateCommand, resolveCommand, normalizeCommand, compareCommand,
  extractCommand, lintCommand, hostCommand, urnCommand,
  serveCommand, gatewayCommand, resolveUrnCommand, crawlCommand, importCommand, tokenCommand, linksCommand, harvestCommand, handoverCommand,
]);

/** The commands in the order of the command table (command-table.ts); each row must have its command and each command its row. */
function inTableOrder(commands: readonly Command[]): Command[] {
  const byName = new Map(commands.map((c) => [c.name, c]));
  const ordered = COMMAND_TABLE.map((row) => {
    const cmd = byName.get(row.name);
    if (cmd === undefined) throw new Error(`command-table.ts names "${row.name}", which no module defines`);
    return cmd;
  });
  if (ordered.length !== commands.length) throw new Error('a command is missing from command-table.ts');
  return ordered;
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

function overview(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length)) + 2;
  return [
    'urikit: URIs, URLs, IRIs and URNs exactly as the specifications say.',
    '',
    'Usage: urikit <command> [options] [arguments]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    'Per-URI commands read one input per line from standard input or --input files when no argument is',
    'given (bulk mode: streamed, --jobs N worker threads, invalid lines reported with their line numbers).',
    '',
    'Run "urikit <command> --help" for the options and examples of a command.',
    'Exit status: 0 all inputs valid, 1 some input invalid, 2 usage error, 3 operational failure.',
    '',
  ].join('\n');
}

/**
 * Runs one `urikit` command line (without the `node` and script names)
 * and resolves to the exit status: 0 all valid, 1 some input invalid,
 * 2 usage error, 3 operational failure.
 *
 * @example
 * ```ts
 * await main(['normalize', 'HTTP://Example.COM:80/']) // 0 (prints "http://example.com/")
 * await main(['normalize', 'http://a b/']) // 1 (the error goes to standard error)
 * await main(['frobnicate']) // 2 (unknown command)
 * ```
 */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? rest[0] : undefined;
    const cmd = topic ? COMMANDS.find((c) => c.name === topic) : undefined;
    if (topic && !cmd) return usage(new UsageError(`unknown command "${topic}"`));
    process.stdout.write(cmd ? helpText(cmd) : overview());
    return name === undefined ? EXIT_USAGE : 0;
  }
  if (name === '--version' || name === '-V') {
    process.stdout.write(`${version()}\n`);
    return 0;
  }
  const cmd = COMMANDS.find((c) => c.name === name);
  if (!cmd) return usage(new UsageError(`unknown command "${name}"`));
  try {
    const args = parseCommandLine(cmd, rest);
    if (args.values.help === true) {
      process.stdout.write(helpText(cmd));
      return 0;
    }
    return await cmd.run(args);
  } catch (e) {
    if (e instanceof UsageError) return usage(e, cmd.name);
    const err = e as NodeJS.ErrnoException;
    // A store's fault keeps the engine's own message (host, file) for the operator, never for a client.
    const cause = err?.cause instanceof Error ? `: ${err.cause.message}` : '';
    process.stderr.write(`urikit ${cmd.name}: ${err?.message ?? String(e)}${cause}\n`);
    return EXIT_FAILURE;
  }
}

function usage(e: UsageError, command = e.command): number {
  process.stderr.write(`urikit${command ? ` ${command}` : ''}: ${e.message}\n`);
  process.stderr.write(`Run "urikit ${command ? `${command} ` : ''}--help" for usage.\n`);
  return EXIT_USAGE;
}
