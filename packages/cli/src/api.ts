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
import type { Kind, Profile, UriReference, UrnProfile } from 'urikit';

/** A finding of `lint` (2003 draft §7): never thrown, always listed. */
export interface LintFinding {
  code: string;
  severity: string;
  message: string;
  start: number;
  end: number;
}

/** A URI found in text, with its offsets in the original text (App. E). */
export interface FoundUri {
  uri: string;
  start: number;
  end: number;
  [more: string]: unknown;
}

/** The subset of the public API the command line uses (DESIGN.md). */
export interface CoreApi {
  parse(input: string, kind?: Kind, opts?: { profile?: Profile }): UriReference;
  isValid(input: string, kind?: Kind, opts?: { profile?: Profile }): boolean;
  serialize(ref: UriReference): string;
  resolve(base: string, ref: string, opts?: { strict?: boolean; profile?: Profile }): string;
  normalize(input: string, opts?: { level?: 'syntax' | 'scheme' }): string;
  equivalent(a: string, b: string, opts?: { level?: 'simple' | 'syntax' | 'scheme'; ignoreFragment?: boolean }): boolean;
  parseHost(text: string): unknown;
  classifyHost(host: string): unknown;
  interpretLegacyIPv4(text: string): unknown;
  domainToASCII(domain: string): string;
  domainToUnicode(domain: string): string;
  lint(uri: string): LintFinding[];
  iriToUri(iri: string): string;
  uriToIri(uri: string): string;
  parseUrn(input: string, opts?: { profile?: UrnProfile }): object;
  isValidUrn(input: string, opts?: { profile?: UrnProfile }): boolean;
  normalizeUrn(input: string, opts?: { profile?: UrnProfile }): string;
  urnEquivalent(a: string, b: string, opts?: { profile?: UrnProfile; purpose?: 'name' | 'cache' }): boolean;
  displayUrn(urn: string, opts?: { profile?: UrnProfile }): string;
  extractUris(text: string, opts?: Record<string, unknown>): FoundUri[];
  extractUrisFromStream(source: AsyncIterable<string> | NodeJS.ReadableStream, opts?: Record<string, unknown>): AsyncIterable<FoundUri>;
}

/** `@urikit/html`. */
export interface HtmlApi {
  extractLinksFromHtml(html: string, documentUri?: string): Array<Record<string, unknown>>;
}

/** The resolver package's module, for its exact types (erased at run time). */
type ResolverModule = typeof import('@urikit/resolver');

/** `@urikit/resolver`: the service, its store, the client and the gateway. */
export type ResolverApi = Pick<ResolverModule, 'startServer' | 'startGateway' | 'openStore' | 'loadDemoData' | 'createToken' | 'importNames' | 'resolveUrn'>;

/** Thrown when a command needs a library function this build does not have. */
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

/** The core functions. */
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
 */
export async function loadHtml(): Promise<HtmlApi> {
  return bind<HtmlApi>(await import('@urikit/html'), '@urikit/html', ['extractLinksFromHtml']);
}

/** The resolution service, client and gateway, loaded on first use (fastify, the database drivers). */
export async function loadService(): Promise<ResolverApi> {
  return bind<ResolverApi>(await import('@urikit/resolver'), '@urikit/resolver', [
    'startServer', 'startGateway', 'openStore', 'loadDemoData', 'createToken', 'importNames', 'resolveUrn',
  ]);
}

export { UriError } from 'urikit';
