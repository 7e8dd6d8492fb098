/**
 * `urikit crawl`: walks "the web of URN resolvers" from one resolver
 * (1995 draft §3.5.3 urn+c, §3.5.4 urn+p) and prints the tree of
 * resolvers and authorities it reaches; the walk itself is the
 * resolver package's `crawl`.
 */
import type { CrawlOptions } from '@urikit/resolver';
import { COMMON, EXIT_INVALID, EXIT_OK, UsageError, intOption, type Command } from '../command.js';
import { writeOut } from '../inputs.js';

/**
 * The `urikit crawl` command: its options, help text and what it runs.
 *
 * @example
 * ```ts
 * import { parseCommandLine } from '../command.js';
 * import { startServer } from '@urikit/resolver';
 * const server = await startServer({ port: 0, db: ':memory:', demo: true });
 * await crawlCommand.run(parseCommandLine(crawlCommand, ['--allow-private', server.url])) // 0 (prints the tree)
 * await crawlCommand.run(parseCommandLine(crawlCommand, [server.url])) // 1 (a loopback address, refused without --allow-private)
 * await server.close();
 * ```
 */
export const crawlCommand: Command = {
  name: 'crawl',
  summary: 'walk urn+c and urn+p from a resolver and list the resolvers and authorities reached (1995 draft §3.5.3)',
  usage: ['crawl [options] RESOLVER-URL'],
  details: 'Asks the resolver for urn+c (the authorities it holds), then each authority for urn+c (its children,\n'
    + 'with the resolver a delegated child is held by) and urn+p (its parents), and goes on to the resolvers\n'
    + 'of delegated children. A cycle is shown, not followed; a resolver that cannot be read (unreachable,\n'
    + 'slow, garbage, too large, a redirect loop) is listed with the reason, and the walk goes on.\n'
    + 'Only public addresses are reached unless --allow-private.',
  options: {
    ...COMMON,
    json: { type: 'boolean', help: 'print the tree as JSON: {root, resolvers, authorities, errors}' },
    'allow-private': { type: 'boolean', help: 'also reach loopback, private and link-local addresses (default: public only)' },
    'max-resolvers': { type: 'string', arg: 'N', help: 'ask at most N resolvers (default 50)' },
    'max-authorities': { type: 'string', arg: 'N', help: 'read at most N authorities (default 1000)' },
    'max-depth': { type: 'string', arg: 'N', help: 'go at most N levels below the first resolver (default 8)' },
    'timeout-ms': { type: 'string', arg: 'MS', help: 'time for each request to answer (default 10000)' },
    'max-bytes': { type: 'string', arg: 'N', help: 'the largest answer read (default 1048576)' },
  },
  examples: [
    'urikit crawl https://urn.example.org/                  # the tree of resolvers and authorities reached',
    'urikit crawl --allow-private --json http://127.0.0.1:4500/   # a resolver on this host, as JSON',
  ],
  exitStatus: '0 every resolver reached answered, 1 some could not be read (listed with the reason), 2 usage error.',
  run: async (args) => {
    const [start, ...extra] = args.positionals;
    if (start === undefined) throw new UsageError('missing RESOLVER-URL', 'crawl');
    if (extra.length > 0) throw new UsageError('crawl takes one resolver URL', 'crawl');
    const opts: CrawlOptions = {
      maxResolvers: intOption(args, 'max-resolvers', 50, 1, 100_000),
      maxAuthorities: intOption(args, 'max-authorities', 1000, 1, 1_000_000),
      maxDepth: intOption(args, 'max-depth', 8, 0, 1000),
      timeoutMs: intOption(args, 'timeout-ms', 10_000, 1, 600_000),
      maxBytes: intOption(args, 'max-bytes', 1 << 20, 1024, 1 << 30),
      allowPrivate: args.values['allow-private'] === true,
    };
    const { crawl, crawlText } = await import('@urikit/resolver');
    const result = await crawl(start, opts);
    await writeOut(args.values.json === true ? `${JSON.stringify(result)}\n` : crawlText(result));
    return result.errors === 0 ? EXIT_OK : EXIT_INVALID;
  },
};
