/**
 * The per-URI commands: parse, validate, resolve, normalize, compare, lint
 * and host. Each takes its inputs as arguments, or one per line from files
 * or standard input (bulk mode).
 */
import type { Kind, Profile } from 'urikit';
import { BULK, COMMON, UsageError, type Command, type OptionSpec } from '../command.js';
import { runPerInput } from '../inputs.js';
import type { OpOptions } from '../ops/index.js';

const KINDS = ['uri', 'uri-reference', 'absolute-uri', 'iri', 'iri-reference'] as const;
const PROFILES = ['rfc3986', 'draft-2003', 'draft-1997', 'url-1993'] as const;

const kindOpt: OptionSpec = { type: 'string', short: 'k', arg: 'KIND', choices: KINDS, default: 'uri-reference', help: 'the grammar rule the input must match' };
const profileOpt: OptionSpec = { type: 'string', short: 'p', arg: 'PROFILE', choices: PROFILES, default: 'rfc3986', help: 'the generation of the rules to read the input under' };

function uriOpts(values: Record<string, unknown>): OpOptions {
  const o: OpOptions = {};
  if (typeof values.kind === 'string') o.kind = values.kind as Kind;
  if (typeof values.profile === 'string' && values.profile !== 'rfc3986') o.profile = values.profile as Profile;
  return o;
}

/**
 * The `urikit parse` command: its options, help text and what it runs.
 *
 * @example
 * ```ts
 * import { parseCommandLine } from '../command.js';
 * await parseCommand.run(parseCommandLine(parseCommand, ['http://a/b?q'])) // 0 (prints "scheme=http\thost=a\thostKind=reg-name\tpath=/b\tquery=q")
 * await parseCommand.run(parseCommandLine(parseCommand, ['--kind', 'absolute-uri', 'http://a/b#c'])) // 1 (an absolute URI has no fragment)
 * ```
 */
export const parseCommand: Command = {
  name: 'parse',
  summary: 'split URI references into their components, exactly as written (RFC 3986 §3)',
  usage: ['parse [options] URI...', 'parse [options] [--input FILE]...   (one URI per line; standard input when no FILE)'],
  details: 'Prints the components present as key=value pairs separated by tabs; an absent component is left out,\nan empty one is printed as "key=". With --json, one object per input: {input, valid, components} or\n{input, valid: false, error: {code, offset, message}}; in bulk mode each object also has "line".',
  options: { ...COMMON, kind: kindOpt, profile: profileOpt, ...BULK },
  examples: [
    'urikit parse "foo://user@example.com:8042/over/there?name=ferret#nose"',
    'urikit parse --json "http://[fe80::1%25eth0]/"',
    'urikit parse --kind absolute-uri "http://a/b#c"        # exit 1: an absolute URI has no fragment',
    'urikit parse --jobs 2 < urls.txt > components.tsv',
  ],
  run: (args) => runPerInput({ command: 'parse', op: 'parse', opts: uriOpts(args.values) }, args, args.positionals),
};

/**
 * The `urikit validate` command: its options, help text and what it runs.
 *
 * @example
 * ```ts
 * import { parseCommandLine } from '../command.js';
 * await validateCommand.run(parseCommandLine(validateCommand, ['http://a/', 'http://a b/'])) // 1 (one of the two is invalid)
 * ```
 */
export const validateCommand: Command = {
  name: 'validate',
  summary: 'check URI references against the grammar, with the position of the first error',
  usage: ['validate [options] URI...', 'validate [options] [--input FILE]...'],
  details: 'With arguments, prints "valid" or the error for each. In bulk mode, prints nothing for a valid line and\n"file:line:column: code: message" for an invalid one (standard input is "-"); the run never stops at an\ninvalid line. Exit status 1 when any input is invalid.',
  options: { ...COMMON, kind: kindOpt, profile: profileOpt, ...BULK },
  examples: [
    'urikit validate "http://example.com/a b"            # invalid-char at offset 20',
    'urikit validate --kind iri "http://例え.jp/"',
    'urikit validate --profile url-1993 "wais://host/db?search"',
    'urikit validate --json < urls.txt | grep \'"valid":false\'',
  ],
  run: (args) => runPerInput({ command: 'validate', op: 'validate', opts: uriOpts(args.values), problemsTo: 'stdout', silentValid: true }, args, args.positionals),
};

/**
 * The `urikit resolve` command: its options, help text and what it runs.
 *
 * @example
 * ```ts
 * import { parseCommandLine } from '../command.js';
 * await resolveCommand.run(parseCommandLine(resolveCommand, ['http://a/b/c/d;p?q', '../../g'])) // 0 (prints "http://a/g")
 * await resolveCommand.run(parseCommandLine(resolveCommand, [])) // throws UsageError
 * ```
 */
export const resolveCommand: Command = {
  name: 'resolve',
  summary: 'resolve references against a base URI (RFC 3986 §5.2)',
  usage: ['resolve [options] BASE REF...', 'resolve [options] BASE [--input FILE]...   (one reference per line)'],
  details: 'Resolution never normalizes the base (RFC 3986 §5.2.2). The parser is strict by default: "http:g" against\nan http base stays "http:g"; --non-strict is the backward-compatible reading of RFC 3986 §5.2.2 and\n§5.4.2 ("http://a/b/c/g"). --profile reads the reference under an older generation: draft-1997 drops\nthe base query for "?y" and keeps above-root "..".',
  options: { ...COMMON, 'non-strict': { type: 'boolean', help: 'ignore a reference\'s scheme when it is the base\'s (RFC 3986 §5.2.2, for backward compatibility)' }, profile: profileOpt, ...BULK },
  examples: [
    'urikit resolve http://a/b/c/d;p?q ../../g              # http://a/g',
    'urikit resolve --profile draft-2003 http://a/b/c/d;p?q ../../../g   # http://a/../g',
    'urikit resolve --non-strict http://a/b/c/d;p?q http:g  # http://a/b/c/g (strict: http:g)',
    'urikit resolve https://example.com/docs/ < hrefs.txt',
  ],
  run: (args) => {
    const [base, ...refs] = args.positionals;
    if (base === undefined) throw new UsageError('missing BASE', 'resolve');
    const opts: OpOptions = { ...uriOpts(args.values), base };
    if (args.values['non-strict'] === true) opts.strict = false;
    return runPerInput({ command: 'resolve', op: 'resolve', opts }, args, refs);
  },
};

/**
 * The `urikit normalize` command: its options, help text and what it runs.
 *
 * @example
 * ```ts
 * import { parseCommandLine } from '../command.js';
 * await normalizeCommand.run(parseCommandLine(normalizeCommand, ['HTTP://Example.COM:80/%7euser'])) // 0 (prints "http://example.com/~user")
 * await normalizeCommand.run(parseCommandLine(normalizeCommand, ['http://bücher.example/'])) // 1 (not a URI: validate refuses it too)
 * await normalizeCommand.run(parseCommandLine(normalizeCommand, ['--kind', 'iri', 'http://bücher.example/'])) // 0 (prints "http://bücher.example/")
 * ```
 */
export const normalizeCommand: Command = {
  name: 'normalize',
  summary: 'normalize URIs for comparison and de-duplication (RFC 3986 §6.2.2, §6.2.3)',
  usage: ['normalize [options] URI...', 'normalize [options] [--input FILE]...'],
  details: 'syntax: scheme and host to lower case, %hh to %HH, percent-encoded unreserved characters decoded,\ndot segments removed. scheme (the default): also the scheme\'s rules, such as the default port removed\nand an empty http path made "/". The result is idempotent. An input must match --kind (a URI reference\nby default, as for validate): pass --kind iri-reference to normalize IRIs.',
  options: { ...COMMON, level: { type: 'string', short: 'l', arg: 'LEVEL', choices: ['syntax', 'scheme'], default: 'scheme', help: 'how far up the comparison ladder to go' }, kind: kindOpt, ...BULK },
  examples: [
    'urikit normalize "HTTP://Example.COM:80/%7euser/./a/../b"   # http://example.com/~user/b',
    'urikit normalize --level syntax "HTTP://Example.COM:80"   # http://example.com:80',
    'urikit normalize --kind iri-reference "http://Bücher.example/"   # IRIs only when asked',
    'urikit normalize --jobs 2 < urls.txt | sort -u > unique.txt',
  ],
  run: (args) => runPerInput({ command: 'normalize', op: 'normalize', opts: { ...uriOpts(args.values), level: args.values.level as 'syntax' | 'scheme' } }, args, args.positionals),
};

/**
 * The `urikit compare` command: its options, help text and what it runs.
 *
 * @example
 * ```ts
 * import { parseCommandLine } from '../command.js';
 * await compareCommand.run(parseCommandLine(compareCommand, ['http://example.com', 'HTTP://EXAMPLE.com:80/', '--level', 'scheme'])) // 0 (prints "equivalent")
 * ```
 */
export const compareCommand: Command = {
  name: 'compare',
  summary: 'say whether two URIs are equivalent (RFC 3986 §6)',
  usage: ['compare [options] A B', 'compare [options] [--input FILE]...   (lines of "A<TAB>B")'],
  details: 'Prints "equivalent" or "different"; exit status 0 when equivalent, 1 when different or invalid.\nLevels: simple (string comparison, §6.2.1), syntax (§6.2.2), scheme (§6.2.3).',
  options: {
    ...COMMON,
    level: { type: 'string', short: 'l', arg: 'LEVEL', choices: ['simple', 'syntax', 'scheme'], default: 'scheme', help: 'the rung of the comparison ladder' },
    'ignore-fragment': { type: 'boolean', help: 'compare without the fragments' },
    ...BULK,
  },
  examples: [
    'urikit compare "http://example.com" "HTTP://EXAMPLE.com:80/"            # equivalent',
    'urikit compare --level syntax "http://example.com" "http://example.com:80/"   # different',
    'urikit compare --ignore-fragment "http://a/b#x" "http://a/b#y"',
    'paste old.txt new.txt | urikit compare --json',
  ],
  exitStatus: '0 every pair equivalent, 1 some pair different or invalid, 2 usage error, 3 operational failure.',
  run: (args) => {
    const opts: OpOptions = { level: args.values.level as 'simple' | 'syntax' | 'scheme' };
    if (args.values['ignore-fragment'] === true) opts.ignoreFragment = true;
    const p = args.positionals;
    if (p.length !== 0 && p.length !== 2) throw new UsageError('compare takes two URIs (or none, to read pairs)', 'compare');
    return runPerInput({ command: 'compare', op: 'compare', opts }, args, p.length === 2 ? [`${p[0]}\t${p[1]}`] : []);
  },
};

const SEVERITIES = ['info', 'warning', 'error'] as const;

/**
 * The `urikit lint` command: its options, help text and what it runs.
 *
 * @example
 * ```ts
 * import { parseCommandLine } from '../command.js';
 * await lintCommand.run(parseCommandLine(lintCommand, ['https://example.com/'])) // 0 (no finding)
 * await lintCommand.run(parseCommandLine(lintCommand, ['ftp://user:secret@ftp.example.com/'])) // 1 (a password: an error)
 * await lintCommand.run(parseCommandLine(lintCommand, ['--differential', '--fail-on', 'error', 'http://a/%2e%2e/b'])) // 0 (a path differential is a warning)
 * ```
 */
export const lintCommand: Command = {
  name: 'lint',
  summary: 'warn about the security risks of the 2003 draft §7 (userinfo, passwords, rare IP forms, ports, controls, confusables)',
  usage: ['lint [options] URI...', 'lint [options] [--input FILE]...'],
  details: 'Prints one finding per line: "severity code [start-end]: message" (in bulk mode prefixed "file:line: ").\nExit status 1 when a finding is at --fail-on severity or above, or an input is invalid. With --differential,\nthe input is also read by the platform\'s WHATWG URL parser (what browsers and fetch() do) and every difference\nin scheme, host, port or path is a parser-differential finding, also for an input RFC 3986 refuses.',
  options: {
    ...COMMON,
    'fail-on': { type: 'string', arg: 'SEVERITY', choices: SEVERITIES, default: 'warning', help: 'the lowest severity that makes the exit status 1' },
    differential: { type: 'boolean', help: 'compare with a WHATWG URL parser (browsers, fetch): report where the two read the URI differently' },
    kind: kindOpt,
    profile: profileOpt,
    ...BULK,
  },
  examples: [
    'urikit lint "http://www.example.com&story=breaking_news@10.0.0.1/top_story.htm"   # §7.5 semantic attack',
    'urikit lint "ftp://user:secret@ftp.example.com/"      # a password in the userinfo (§7.4)',
    'urikit lint --differential "http:/127.0.0.1/"       # no host for RFC 3986, the loopback host for fetch()',
    'urikit lint --json --input crawl.txt',
  ],
  run: (args) => {
    const failOn = SEVERITIES.indexOf(args.values['fail-on'] as (typeof SEVERITIES)[number]);
    const opts: OpOptions = { ...uriOpts(args.values), quiet: SEVERITIES.slice(0, failOn) };
    if (args.values.differential === true) opts.differential = true;
    return runPerInput({ command: 'lint', op: 'lint', opts, prefix: true }, args, args.positionals);
  },
};

/**
 * The `urikit host` command: its options, help text and what it runs.
 *
 * @example
 * ```ts
 * import { parseCommandLine } from '../command.js';
 * await hostCommand.run(parseCommandLine(hostCommand, ['--json', '0177.0.0.1'])) // 0 (prints the kind, the legacy IPv4 address and its class)
 * ```
 */
export const hostCommand: Command = {
  name: 'host',
  summary: 'classify a host: kind, the address a rare IPv4 form really names, loopback/private/public..., IDNA',
  usage: ['host [options] HOST|URI...', 'host [options] [--input FILE]...'],
  details: 'For a URI with an authority, looks at its host. Shows the parsed host (reg-name, IPv4, IPv6, IPvFuture),\nthe address an inet_aton-style form names (2003 draft §7.3: 0x7f.1, 2130706433, 0177.0.0.1),\nits class (loopback, private, link-local, ..., public) and, for a name, its IDNA A-label and U-label forms.',
  options: { ...COMMON, ...BULK },
  examples: [
    'urikit host 0x7f.1                   # legacy IPv4 127.0.0.1, loopback',
    'urikit host "http://[::ffff:127.0.0.1]/"',
    'urikit host bücher.example           # ascii: xn--bcher-kva.example',
    'urikit host --json --input hosts.txt',
  ],
  run: (args) => runPerInput({ command: 'host', op: 'host', opts: {}, prefix: true }, args, args.positionals),
};
