/**
 * The library functions the command line calls, bound by name from the
 * `urikit`, `@urikit/html` and `@urikit/resolver` packages.
 *
 * The signatures are the public contract of DESIGN.md ("The public API").
 * The HTML and resolver packages are loaded only by the commands that use
 * them. A function that a build of the libraries does not provide yet is bound
 * to a stub that throws {@link MissingFeatureError}, so every other
 * command keeps working and the missing one fails with a clear message
 * (exit code 3) instead of the whole binary failing to load.
 */
import * as core from 'urikit';

/** The core package's module, for its exact types (erased at run time). */
type CoreModule = typeof import('urikit');

/**
 * The subset of the public API the command line uses (DESIGN.md), with
 * the library's own signatures.
 *
 * @example
 * ```ts
 * uri.normalize('HTTP://A/') // 'http://a/'
 * ```
 */
export type CoreApi = Pick<CoreModule,
  | 'parse' | 'isValid' | 'serialize' | 'resolve' | 'normalize' | 'equivalent'
  | 'parseHost' | 'classifyHost' | 'interpretLegacyIPv4' | 'domainToASCII' | 'domainToUnicode'
  | 'lint' | 'iriToUri' | 'uriToIri'
  | 'parseUrn' | 'isValidUrn' | 'normalizeUrn' | 'urnEquivalent' | 'displayUrn'
  | 'extractUris' | 'extractUrisFromStream'>;

/**
 * `@urikit/html`.
 *
 * @example
 * ```ts
 * (await loadHtml()).extractLinksFromHtml('<a href=x>', 'http://a/')
 * ```
 */
export type HtmlApi = Pick<typeof import('@urikit/html'), 'extractLinksFromHtml'>;

/** The resolver package's module, for its exact types (erased at run time). */
type ResolverModule = typeof import('@urikit/resolver');

/**
 * `@urikit/resolver`: the service, its store, the client and the gateway.
 *
 * @example
 * ```ts
 * const server = await (await loadService()).startServer({ port: 0, db: ':memory:' });
 * ```
 */
export type ResolverApi = Pick<ResolverModule, 'startServer' | 'startGateway' | 'openStore' | 'loadDemoData' | 'createToken' | 'importNames' | 'resolveUrn'>;

/**
 * Thrown when a command needs a library function this build does not have.
 *
 * @example
 * ```ts
 * throw new MissingFeatureError('extractUris', 'urikit');
 * ```
 */
export class MissingFeatureError extends Error {
  override readonly name = 'MissingFeatureError';
  constructor(readonly feature: string, readonly pkg: string) {
    super(`${pkg} does not provide "${feature}" in this build`);
  }
}

function bind<T>(from: object, pkg: string, names: ReadonlyArray<keyof T & string>): T {
  const table = from as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const f = table[name];
    out[name] = typeof f === 'function' ? f : () => { throw new MissingFeatureError(name, pkg); };
  }
  return out as T;
}

/**
 * The core functions.
 *
 * @example
 * ```ts
 * uri.parse('http://a/b').path // '/b'
 * ```
 */
export const uri: CoreApi = bind<CoreApi>(core, 'urikit', [
  'parse', 'isValid', 'serialize', 'resolve', 'normalize', 'equivalent',
  'parseHost', 'classifyHost', 'interpretLegacyIPv4', 'domainToASCII', 'domainToUnicode',
  'lint', 'iriToUri', 'uriToIri',
  'parseUrn', 'isValidUrn', 'normalizeUrn', 'urnEquivalent', 'displayUrn',
  'extractUris', 'extractUrisFromStream',
]);

/**
 * The HTML entry point, loaded on first use so that the per-URI commands
 * neither pay for nor depend on the HTML tokenizer.
 *
 * @example
 * ```ts
 * const { extractLinksFromHtml } = await loadHtml();
 * ```
 */
export async function loadHtml(): Promise<HtmlApi> {
  return bind<HtmlApi>(await import('@urikit/html'), '@urikit/html', ['extractLinksFromHtml']);
}

/**
 * The resolution service, client and gateway, loaded on first use (fastify, the database drivers).
 *
 * @example
 * ```ts
 * const { resolveUrn } = await loadService();
 * ```
 */
export async function loadService(): Promise<ResolverApi> {
  return bind<ResolverApi>(await import('@urikit/resolver'), '@urikit/resolver', [
    'startServer', 'startGateway', 'openStore', 'loadDemoData', 'createToken', 'importNames', 'resolveUrn',
  ]);
}

export { UriError } from 'urikit';
