/**
 * `urikit urn mint`: new names under a prefix, from a counter or at random,
 * with the DNB check digit of `urn:nbn:de` and `urn:nbn:ch` names; with
 * `--db`, minted in the store (the prefix's counter moved and the name
 * reserved in one transaction, as `POST /admin/mint` does), else printed
 * only.
 */
import { mintNbn, parseUrn, UriError } from 'urikit';
import { EXIT_INVALID, EXIT_OK, UsageError, intOption, type Args, type OptionSpec } from '../command.js';
import { writeOut } from '../inputs.js';

/**
 * The options of `urikit urn mint`, added to those of `urikit urn`.
 *
 * @example
 * ```ts
 * Object.keys(MINT_OPTIONS).slice(0, 3); // ['prefix', 'count', 'start']
 * ```
 */
export const MINT_OPTIONS: Record<string, OptionSpec> = {
  prefix: { type: 'string', arg: 'PREFIX', help: 'mint: everything before the local part, e.g. urn:nbn:de:101-' },
  count: { type: 'string', arg: 'N', help: 'mint: how many names (default 1)' },
  start: { type: 'string', arg: 'N', help: 'mint: the counter\'s first value (without --db; with --db, for a prefix that has no counter yet; default 1)' },
  width: { type: 'string', arg: 'N', help: 'mint: zero-pad the counter to N digits' },
  random: { type: 'boolean', help: 'mint: random local parts instead of a counter' },
  length: { type: 'string', arg: 'N', help: 'mint --random: how many characters (default 8)' },
  alphabet: { type: 'string', arg: 'CHARS', help: 'mint --random: the characters to draw from (default the digits)' },
  db: { type: 'string', arg: 'URL', help: 'mint: reserve the names in this store (SQLite file or postgres://...), its counter moved in the same transaction' },
};

function randomLocal(length: number, alphabet: string): string {
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) for (const b of globalThis.crypto.getRandomValues(new Uint8Array(length))) if (b < limit && out.length < length) out += alphabet[b % alphabet.length];
  return out;
}

/**
 * Runs `urikit urn mint`: prints one new name per line (with `--json`, one
 * object per line); exit status 1 when the prefix cannot make a valid name.
 *
 * @example
 * ```ts
 * import { parseCommandLine } from '../command.js';
 * import { urnCommand } from './urn.js';
 * await mintCommandRun(parseCommandLine(urnCommand, ['mint', '--prefix', 'urn:nbn:de:101-', '--start', '202007140'])) // 0 (prints "urn:nbn:de:101-2020071401")
 * await mintCommandRun(parseCommandLine(urnCommand, ['mint', '--prefix', 'urn:isbn:', '--count', '0'])) // throws UsageError
 * ```
 */
export async function mintCommandRun(args: Args): Promise<number> {
  const prefix = args.values.prefix;
  if (typeof prefix !== 'string' || prefix === '') throw new UsageError('mint needs --prefix PREFIX', 'urn');
  if (args.positionals.length > 1) throw new UsageError('mint takes no URN arguments', 'urn');
  const count = intOption(args, 'count', 1, 1, 1_000_000);
  const start = intOption(args, 'start', 1, 0);
  const random = args.values.random === true;
  const length = intOption(args, 'length', 8, 1, 64);
  const alphabet = typeof args.values.alphabet === 'string' ? args.values.alphabet : '0123456789';
  if (alphabet.length === 0 || alphabet.length > 256) throw new UsageError('--alphabet has 1 to 256 characters', 'urn');
  const width = args.values.width !== undefined ? intOption(args, 'width', 0, 0, 40) : undefined;
  const json = args.values.json === true;
  const print = (urn: string, status?: string) => writeOut(json ? `${JSON.stringify({ urn, ...(status !== undefined ? { status } : {}) })}\n` : `${urn}\n`);
  const fail = (e: unknown): number => {
    if (!(e instanceof UriError) && !(e instanceof Error && e.name === 'MintError')) throw e;
    process.stderr.write(`urikit urn mint: ${JSON.stringify(prefix)}: ${(e as Error).message}\n`);
    return EXIT_INVALID;
  };
  if (typeof args.values.db === 'string') {
    const service = await import('@urikit/resolver');
    const store = await service.openStore(args.values.db);
    try {
      const req = { prefix, mode: random ? 'random' as const : 'counter' as const, start, length, alphabet, ...(width !== undefined ? { width } : {}) };
      // One at a time: the names come out in the counter's order.
      for (let i = 0; i < count; i++) {
        const r = await store.minter.mint(req, 'cli');
        await print(r.record.urn, r.record.status);
      }
      return EXIT_OK;
    } catch (e) {
      return fail(e);
    } finally {
      await store.close();
    }
  }
  try {
    const nbn = prefix.slice(0, 8).toLowerCase() === 'urn:nbn:';
    for (let i = 0; i < count; i++) {
      let urn: string;
      if (nbn) urn = random ? mintNbn(prefix, { random: true, length, alphabet }) : mintNbn(prefix, { counter: start + i, ...(width !== undefined ? { width } : {}) });
      else urn = prefix + (random ? randomLocal(length, alphabet) : String(start + i).padStart(width ?? 0, '0'));
      parseUrn(urn);
      await print(urn);
    }
    return EXIT_OK;
  } catch (e) {
    return fail(e);
  }
}
