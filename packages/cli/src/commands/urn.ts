/**
 * `urikit urn`: parse, validate, normalize, compare and display URNs under
 * RFC 8141 (the default), the 2012 draft or the 1995 draft.
 */
import type { UrnProfile } from 'urikit';
import { BULK, COMMON, UsageError, type Command } from '../command.js';
import { runPerInput } from '../inputs.js';
import type { OpOptions } from '../ops/index.js';
import { MINT_OPTIONS, mintCommandRun } from './urn-mint.js';
import { actionsOf, opOf } from '../command-table.js';

// The actions, from the command table (command-table.ts).
const ACTIONS = actionsOf('urn');

/**
 * The `urikit urn` command: its options, help text and what it runs.
 *
 * @example
 * ```ts
 * import { parseCommandLine } from '../command.js';
 * await urnCommand.run(parseCommandLine(urnCommand, ['equivalent', 'urn:example:a123', 'URN:EXAMPLE:a123?+r#f'])) // 0 (prints "equivalent")
 * await urnCommand.run(parseCommandLine(urnCommand, ['frobnicate', 'urn:example:a'])) // throws UsageError
 * ```
 */
export const urnCommand: Command = {
  name: 'urn',
  summary: 'URNs: parse, validate, normalize, equivalent, display, mint (RFC 8141, 2012 and 1995 drafts)',
  usage: [
    'urn parse|validate|normalize|display [options] URN...',
    'urn equivalent [options] A B',
    'urn ACTION [options] [--input FILE]...   (one URN per line; for equivalent, "A<TAB>B")',
    'urn mint --prefix PREFIX [--count N] [--start N | --random] [--db URL]',
  ],
  details: 'parse: NID, NSS and the r-, q- and f-components (RFC 8141 §2), or the directives of the 2012 draft §2.3.\nvalidate: the syntax and the namespace\'s own rules (RFC 8141 §5): ISBN and ISSN check digits, the DNB check digit of urn:nbn:de and urn:nbn:ch.\nnormalize: the canonical form used as a key (2012 draft §5, RFC 8141 §3).\nequivalent: lexical equivalence; --purpose name drops the query (§5 step 5a), cache keeps it in order (5b).\ndisplay: the form for people, decoding only what the namespace says is safe (§2.2, §4).\nmint: new names under a prefix, from a counter or at random, the DNB check digit appended to urn:nbn:de and\nurn:nbn:ch names; with --db, reserved in the store in the transaction that moves the prefix\'s counter.',
  options: {
    ...COMMON,
    profile: { type: 'string', short: 'p', arg: 'PROFILE', choices: ['rfc8141', 'urn-2012', 'yaurn-1995'], default: 'rfc8141', help: 'the generation of the URN rules' },
    purpose: { type: 'string', arg: 'PURPOSE', choices: ['name', 'cache'], help: 'equivalent: what the comparison is for (2012 draft §5)' },
    ...BULK,
    ...MINT_OPTIONS,
  },
  examples: [
    'urikit urn parse "urn:example:a123?+res?=q#frag"',
    'urikit urn normalize "URN:EXAMPLE:a%2c"              # urn:example:a%2C',
    'urikit urn equivalent "urn:isbn:0-395-36341-1" "URN:ISBN:0-395-36341-1"',
    'urikit urn parse --profile yaurn-1995 urn:dns:library.bigstate.edu:aj17-mcc',
    'urikit urn validate --json < names.txt',
    'urikit urn mint --prefix urn:nbn:de:101- --count 3 --start 202007140',
    'urikit urn mint --prefix urn:nbn:de:101- --db names.sqlite   # the next free name, reserved',
  ],
  run: (args) => {
    const [action, ...rest] = args.positionals;
    if (action === undefined) throw new UsageError(`missing action: one of ${ACTIONS.join(', ')}`, 'urn');
    if (!ACTIONS.includes(action)) throw new UsageError(`unknown action "${action}": one of ${ACTIONS.join(', ')}`, 'urn');
    if (action === 'mint') return mintCommandRun(args);
    if (Object.keys(MINT_OPTIONS).some((o) => args.values[o] !== undefined)) throw new UsageError(`--${Object.keys(MINT_OPTIONS).find((o) => args.values[o] !== undefined)} is an option of urn mint`, 'urn');
    const opts: OpOptions = {};
    if (typeof args.values.profile === 'string' && args.values.profile !== 'rfc8141') opts.urnProfile = args.values.profile as UrnProfile;
    if (typeof args.values.purpose === 'string') opts.purpose = args.values.purpose as 'name' | 'cache';
    let inputs = rest;
    if (action === 'equivalent') {
      if (rest.length !== 0 && rest.length !== 2) throw new UsageError('urn equivalent takes two URNs (or none, to read pairs)', 'urn');
      inputs = rest.length === 2 ? [`${rest[0]}\t${rest[1]}`] : [];
    }
    return runPerInput({
      command: 'urn',
      op: opOf('urn', action)!,
      opts,
      ...(action === 'validate' ? { problemsTo: 'stdout' as const, silentValid: true } : {}),
    }, args, inputs);
  },
};
