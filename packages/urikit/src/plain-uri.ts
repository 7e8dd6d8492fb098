/**
 * The common shape of real URLs, read without the scanner's steps: a
 * scheme, "://", a reg-name, then path and query (RFC 3986 §3: scheme
 * "://" reg-name path-abempty [ "?" query ]) with no userinfo, port,
 * triplet, fragment or non-ASCII character. One regular expression,
 * written from the tables of chars.ts, tests the whole string; its
 * components are then found with a few searches. Each of the scanner's
 * steps has a fixed cost that outweighs reading the characters of a short
 * URL (bench/RESULTS.md).
 *
 * Not a charCodeAt loop over the same tables: that one, measured, made
 * isValid 1.5-1.9x slower on every corpus under Node 22 and 24
 * (bench/RESULTS.md); V8 reads a string one charCodeAt call at a time,
 * the expression engine in native code. Each expression is linear: every
 * class is disjoint from the token after it, so a failed match steps back
 * over each run at most once.
 */
import { ALPHA, LOWER_REG_NAME, PCHAR, QUERY, SCHEME, runSkipper } from './chars.js';
import { isIPv4Address } from './host/ipv4.js';
import { editHost, editScheme, lastPass } from './normalizing-pass.js';
import { schemeRulesAt } from './schemes/registry.js';
import { FILE_RULES } from './schemes/rules.js';
import type { Kind, UriReference } from './types.js';

/**
 * @internal The kinds (every one admits a string the shortcuts match).
 *
 * @example
 * ```ts
 * KINDS.includes('iri') // true
 * ```
 */
export const KINDS: readonly string[] = ['uri', 'uri-reference', 'absolute-uri', 'iri', 'iri-reference'];

/**
 * @internal True if `kind` is a kind: the two common ones by comparison,
 * before any call of `includes`.
 *
 * @example
 * ```ts
 * isKind('uri') // true
 * isKind('url') // false
 * ```
 */
export const isKind = (kind: string): boolean => kind === 'uri' || kind === 'uri-reference' || KINDS.includes(kind);

const SKIP_LOWER_REG_NAME = runSkipper(LOWER_REG_NAME).source;
const SKIP_QUERY = runSkipper(QUERY).source;

/**
 * @internal isValid's shortcut: ALPHA *( scheme characters ) "://"
 * lower-case reg-name characters, then "/" or "?" and path and query
 * characters. A string it matches whole is valid as every kind. Anchored
 * at both ends rather than sticky: test() then neither reads nor writes
 * lastIndex, and the caller compares no length (measured: 6 ns less per
 * call on the isaacs corpus).
 *
 * @example
 * ```ts
 * PLAIN_URI.test('HTTP://example.com?q') // true
 * PLAIN_URI.test('http://example.com/#f') // false
 * ```
 */
export const PLAIN_URI = /* @__PURE__ */ new RegExp(`^${runSkipper(ALPHA).source.slice(0, -1)}${runSkipper(SCHEME).source}://${SKIP_LOWER_REG_NAME}(?:[/?]${SKIP_QUERY})?$`);

/**
 * @internal The scan's shortcut, the shape of most URLs in real data: a
 * lower-case scheme, "://", a lower-case reg-name, then "/" and path and
 * query characters. A string it matches whole is valid as every kind, and
 * its normal form is itself but for dot segments (RFC 3986 §6.2.2.1-2
 * change nothing in it).
 *
 * @example
 * ```ts
 * PLAIN_NORMAL.test('http://example.com/a?q') // true
 * PLAIN_NORMAL.test('http://Example.com/') // false
 * ```
 */
export const PLAIN_NORMAL = /* @__PURE__ */ new RegExp(`^[a-z][a-z\\d+.-]*://${SKIP_LOWER_REG_NAME}/${SKIP_QUERY}$`);

// RFC 3986 §3.3 segment = *pchar, here one that is not "." or "..": empty,
// or beginning with a pchar other than ".".
const PCHAR_RUN = runSkipper(PCHAR).source.slice(0, -1) + '*';
const FIRST_NOT_DOT = runSkipper(PCHAR).source.slice(0, -1).replace('\\x2e', '');

/**
 * @internal normalize's shortcut: {@link PLAIN_NORMAL} where no segment of
 * the path begins with "." (so none is a dot segment, RFC 3986 §6.2.2.3).
 * A string it matches whole is its own normal form but for its scheme's
 * own step. Testing each segment's first character here cost less than
 * looking for dot segments after the match (measured, same process:
 * normalize 1.15x faster on the web corpus, 1.1x on node_files, the same
 * on isaacs).
 *
 * @example
 * ```ts
 * PLAIN_NORMAL_FORM.test('http://a/b.html?x=/./') // true
 * PLAIN_NORMAL_FORM.test('http://a/b/../c') // false
 * PLAIN_NORMAL_FORM.test('http://a/.well-known/x') // false (no dot segment, but the scanner decides)
 * ```
 */
export const PLAIN_NORMAL_FORM = /* @__PURE__ */ new RegExp(`^[a-z][a-z\\d+.-]*://${SKIP_LOWER_REG_NAME}(?:/(?:${FIRST_NOT_DOT}${PCHAR_RUN})?)+(?:\\?${SKIP_QUERY})?$`);

/**
 * @internal The components of `input` when {@link PLAIN_NORMAL} matches it
 * and `kind` is a kind (every kind admits it), as the scanner would return
 * them, from three searches; else `undefined`, and the scanner reads it.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-3
 * @example
 * ```ts
 * plainComponents('http://a/b?q', 'uri') // { scheme: 'http', host: 'a', hostKind: 'reg-name', path: '/b', query: 'q' }
 * plainComponents('http://a/b#f', 'uri') // undefined
 * ```
 */
export function plainComponents(input: string, kind: Kind): UriReference | undefined {
  if (!PLAIN_NORMAL.test(input) || !isKind(kind)) return undefined;
  const colon = input.indexOf(':');
  const pathStart = input.indexOf('/', colon + 3);
  const q = input.indexOf('?', pathStart);
  const scheme = input.slice(0, colon);
  const host = input.slice(colon + 3, pathStart);
  // RFC 3986 §3.2.2: a reg-name that is a strict dotted-decimal address is an IPv4address.
  // (The call only for a host that begins with a digit: most do not.)
  const h = input.charCodeAt(colon + 3);
  const hostKind = h <= 0x39 && isIPv4Address(input, colon + 3, pathStart) ? 'ipv4' : 'reg-name';
  // Built as the scanner's components() builds its results, one field at a
  // time in the same order, so that both have the same hidden classes:
  // with an object literal's own, code that reads parse results (resolve,
  // serialize) saw more shapes and ran 2-4% slower (measured: the resolve
  // rows of core-vs-node, Node 24).
  const ref = {} as UriReference;
  ref.scheme = scheme;
  ref.host = host;
  ref.hostKind = hostKind;
  if (q < 0) ref.path = input.slice(pathStart);
  else {
    ref.path = input.slice(pathStart, q);
    ref.query = input.slice(q + 1);
  }
  return ref;
}

/**
 * @internal What normalize can tell of `input` before any pass (RFC 3986
 * §6.2.2, at `schemeLevel` §6.2.3): `0` when {@link PLAIN_NORMAL_FORM}
 * matches it and its scheme has no step of its own, so that it is its own
 * normal form, returned with no pass at all (measured: normalize 1.13x
 * faster on the web corpus than through the pass); `1` when it matches but
 * the scheme's step is left to do (a codec's `normalize`, a URN, a `file`
 * host "localhost", RFC 8089 §2: the same test as editScheme's and
 * editHost's); `-1` when it does not match, and the scanner reads it.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-6.2.3
 * @example
 * ```ts
 * plainNormalForm('http://a/b', true) // 0
 * plainNormalForm('ftp://a/b', true) // 1
 * plainNormalForm('ftp://a/b', false) // 0
 * plainNormalForm('file://localhost/b', true) // 1
 * plainNormalForm('http://a/./b', true) // -1
 * ```
 */
export function plainNormalForm(input: string, schemeLevel: boolean): number {
  if (!PLAIN_NORMAL_FORM.test(input)) return -1;
  if (!schemeLevel) return 0;
  const colon = input.indexOf(':');
  const rules = schemeRulesAt(input, colon);
  if (rules?.normalize === undefined) return 0;
  if (rules !== FILE_RULES) return 1;
  const hostStart = colon + 3;
  return input.indexOf('/', hostStart) === hostStart + 9 && input.startsWith('localhost', hostStart) ? 1 : 0;
}

/**
 * @internal normalize's pass (begun and ended by the caller, normalizing-pass.ts)
 * over a string {@link plainNormalForm} found plain: its own normal form
 * but for the scheme's own step (RFC 3986 §6.2.2.1-3 change nothing in
 * it), so the edits only see its scheme (§6.2.3: the rules) and, for
 * `file`, its host (RFC 8089 §2: "localhost").
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-6.2.2
 * @example
 * ```ts
 * import { beginEdits, endEdits, lastPass } from './normalizing-pass.js';
 * beginEdits(true);
 * plainNormalPass('file://localhost/b');
 * endEdits('file://localhost/b') // "file://localhost/b"
 * lastPass.step // "codec"
 * ```
 */
export function plainNormalPass(input: string): void {
  const colon = input.indexOf(':');
  editScheme(input, colon, false);
  if (lastPass.rules === FILE_RULES) editHost(input, colon + 3, input.indexOf('/', colon + 3), false);
}
