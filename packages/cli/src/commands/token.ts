/**
 * The `urikit token` command: admin API bearer tokens scoped to a
 * naming-authority prefix (DESIGN.md: "bearer tokens, stored hashed"):
 * create one, list them, revoke one.
 */
import { COMMON, EXIT_INVALID, EXIT_OK, UsageError, type Command } from '../command.js';
import { writeOut } from '../inputs.js';
import { closeStore, dbOf, dbOpt } from './store-options.js';

/** A token's id: the 12 hex digits of `uk_<id>_<secret>`, or the id alone. */
function tokenId(text: string): string | undefined {
  const m = /^(?:uk_)?([0-9a-f]{12})(?:_[A-Za-z0-9_-]{43})?$/.exec(text);
  return m ? m[1] : undefined;
}

/**
 * The `urikit token` command: its options, help text and what it runs.
 *
 * @example
 * ```ts
 * import { parseCommandLine } from '../command.js';
 * await tokenCommand.run(parseCommandLine(tokenCommand, ['create', '--authority', 'urn:example:', '--db', ':memory:'])) // 0 (prints the token)
 * await tokenCommand.run(parseCommandLine(tokenCommand, ['list', '--db', ':memory:'])) // 0 (prints nothing: an empty store has no token)
 * await tokenCommand.run(parseCommandLine(tokenCommand, ['revoke', '000000000000', '--db', ':memory:'])) // 1 (no such token)
 * await tokenCommand.run(parseCommandLine(tokenCommand, ['create'])) // throws UsageError
 * ```
 */
export const tokenCommand: Command = {
  name: 'token',
  summary: 'create, list or revoke admin API bearer tokens scoped to a naming-authority prefix (stored hashed)',
  usage: ['token create --authority PREFIX [options]', 'token list [options]', 'token revoke ID|TOKEN [options]'],
  details: 'create prints the token once; only its hash is stored. Send it as "Authorization: Bearer <token>" to /admin/.\nlist prints one token a line: id, authority ("*" for every name), created, and revoked if it is.\nrevoke refuses the token from then on (every server process reads the store on each request);\nit stays listed, since the history names tokens as the authors of changes.',
  options: {
    ...COMMON,
    json: { type: 'boolean', help: 'create: print {id, authority, token}; list: one JSON object a line; revoke: {id, revoked}' },
    authority: { type: 'string', short: 'a', arg: 'PREFIX', help: 'create: the names the token may change, e.g. urn:example: or urn:dns:library.bigstate.edu:' },
    db: dbOpt,
  },
  examples: [
    'urikit token create --authority urn:example:',
    'TOKEN=$(urikit token create --authority urn:nbn:fi: --db names.sqlite)',
    'urikit token list --db names.sqlite',
    'urikit token revoke 3f9a0c1d2b4e --db names.sqlite',
  ],
  exitStatus: '0 done, 1 revoke: no such valid token, 2 usage error, 3 the store could not be opened.',
  run: async (args) => {
    const [action, ...extra] = args.positionals;
    if (action !== 'create' && action !== 'list' && action !== 'revoke') {
      throw new UsageError(action === undefined ? 'missing action: create, list or revoke' : `unknown action "${action}": create, list or revoke`, 'token');
    }
    let id: string | undefined;
    if (action === 'revoke') {
      if (extra.length !== 1) throw new UsageError('token revoke takes one token id (or the token itself)', 'token');
      id = tokenId(extra[0]!);
      if (id === undefined) throw new UsageError(`"${extra[0]}" is not a token id (12 hex digits) nor a token (uk_<id>_<secret>)`, 'token');
    } else if (extra.length > 0) {
      throw new UsageError(`token ${action} takes no other argument`, 'token');
    }
    const authority = args.values.authority;
    if (action === 'create' && (typeof authority !== 'string' || authority === '')) throw new UsageError('missing --authority PREFIX', 'token');
    const service = await import('@urikit/resolver');
    const store = await service.openStore(dbOf(args.values));
    try {
      if (action === 'create') {
        const created = await service.createToken(store, { authority: authority as string });
        await writeOut(args.values.json === true ? JSON.stringify(created) + '\n' : created.token + '\n');
        return EXIT_OK;
      }
      if (action === 'list') {
        for (const t of await store.tokens.list()) {
          const created = new Date(t.created).toISOString();
          const revoked = t.revoked !== undefined ? new Date(t.revoked).toISOString() : undefined;
          await writeOut(args.values.json === true
            ? JSON.stringify({ id: t.id, authority: t.authority, created, ...(revoked !== undefined ? { revoked } : {}) }) + '\n'
            : `${t.id}  ${t.authority === '' ? '*' : t.authority}  created ${created}${revoked !== undefined ? `  revoked ${revoked}` : ''}\n`);
        }
        return EXIT_OK;
      }
      const revoked = await store.tokens.revoke(id!);
      if (args.values.json === true) await writeOut(JSON.stringify({ id, revoked }) + '\n');
      else if (revoked) await writeOut(`revoked ${id}\n`);
      else process.stderr.write(`urikit token revoke: no valid token ${id}\n`);
      return revoked ? EXIT_OK : EXIT_INVALID;
    } finally {
      await closeStore(store);
    }
  },
};
