/**
 * The store of the commands that open one (serve, import, token, links,
 * urn mint): the `--db` option, where it points by default, and closing
 * what a command opened.
 */
import type { Store } from '@urikit/resolver';
import type { OptionSpec } from '../command.js';

/**
 * The `--db` option of the commands that open a store.
 *
 * @example
 * ```ts
 * dbOpt.arg; // 'URL'
 * ```
 */
export const dbOpt: OptionSpec = { type: 'string', arg: 'URL', help: 'the store: a SQLite file name, or postgres://... (default: $URIKIT_DB, else the resolver\'s default file)' };

/**
 * The store a command opens: `--db`, else $URIKIT_DB, else the resolver's default (undefined).
 *
 * @example
 * ```ts
 * dbOf({ db: 'names.sqlite' }); // 'names.sqlite'
 * ```
 */
export function dbOf(values: Record<string, unknown>): string | undefined {
  return (values.db as string | undefined) ?? process.env.URIKIT_DB ?? undefined;
}

/**
 * Closes a store a command opened, if it did.
 *
 * @example
 * ```ts
 * await closeStore(undefined); // undefined
 * ```
 */
export async function closeStore(store: Store | undefined): Promise<void> {
  if (store) await store.close();
}
