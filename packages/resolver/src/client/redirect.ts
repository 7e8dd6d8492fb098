/**
 * What a 301 or 302 from a resolver means (1995 draft §4): "if a URN
 * resolver returns a Status-Line with Status-Codes 301 or 302, and that
 * line contains a URN, the client, proxy, or gateway should attempt to
 * resolve the original URN by substituting the new URN". The URN may be
 * the `Location` itself, the URN of an RFC 2169 request URL in `Location`
 * (`/uri-res/N2L?urn:...`), or named in the Reason-Phrase.
 */
import { parseUrn, schemeOf } from 'urikit';

/**
 * The meaning of one redirect.
 *
 * @example
 * ```ts
 * const same = (a: string, b: string) => a === b;
 * // The same URN at another resolver is a delegation; a URL that is no request for a URN, the resource's location.
 * const m: RedirectMeaning | undefined = interpretRedirect('http://r2.test/uri-res/I2L?urn:ex:a', 'Found', 'http://r/uri-res/I2L?urn:ex:a', 'urn:ex:a', same);
 * m // { kind: 'resolver', url: 'http://r2.test/uri-res/I2L?urn:ex:a' }
 * interpretRedirect('/docs/a.pdf', 'Found', 'http://r/uri-res/I2L?urn:ex:a', 'urn:ex:a', same) // { kind: 'location', url: 'http://r/docs/a.pdf' }
 * interpretRedirect(undefined, 'Moved to urn:ex:b', 'http://r/uri-res/I2L?urn:ex:a', 'urn:ex:a', same) // { kind: 'urn', urn: 'urn:ex:b' }
 * ```
 */
export type RedirectMeaning =
  /** Resolve this URN instead; `hint` is a resolver URL for it, tried after discovery. */
  | { kind: 'urn'; urn: string; hint?: string }
  /** Ask this resolver URL for the same URN (a delegation, RFC 2169 form). */
  | { kind: 'resolver'; url: string }
  /** The redirect names where the resource is (RFC 2169 §3.1: N2L answers 30X with the URL in Location). */
  | { kind: 'location'; url: string };

/** True if `text` is a URN by RFC 8141 (any profile the parser accepts by default). */
function isUrn(text: string): boolean {
  try {
    parseUrn(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The URN a Reason-Phrase names, if any: the first word beginning "urn:"
 * (any case), trailing sentence punctuation removed (2003 draft App. E).
 *
 * @example
 * ```ts
 * urnInReasonPhrase('Moved Permanently to urn:other:b') // 'urn:other:b'
 * ```
 */
export function urnInReasonPhrase(reason: string): string | undefined {
  const at = reason.toLowerCase().indexOf('urn:');
  if (at < 0 || (at > 0 && reason.charCodeAt(at - 1) > 0x20 && reason[at - 1] !== '<' && reason[at - 1] !== '(')) return undefined;
  let end = at;
  while (end < reason.length && reason.charCodeAt(end) > 0x20 && reason[end] !== '>' && reason[end] !== '"') end++;
  let word = reason.slice(at, end);
  while (word.length > 0 && '.,;:)'.includes(word[word.length - 1]!)) word = word.slice(0, -1);
  return isUrn(word) ? word : undefined;
}

/**
 * The URN of an RFC 2169 request URL (`<base>/uri-res/<service>?<urn>`,
 * RFC 2169 §2), or undefined.
 *
 * @example
 * ```ts
 * urnOfRfc2169Url('http://r.test/uri-res/N2L?urn:other:b') // 'urn:other:b'
 * ```
 */
export function urnOfRfc2169Url(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  if (!u.pathname.startsWith('/uri-res/') || u.search.length < 2) return undefined;
  const urn = u.search.slice(1);
  return isUrn(urn) ? urn : undefined;
}

/**
 * Reads a 301/302 answer to a request for `current` made at `requestUrl`.
 * `sameUrn` says whether two URNs name the same thing (RFC 8141 §3.1).
 *
 * @example
 * ```ts
 * interpretRedirect('urn:other:b', 'Moved', 'http://r/uri-res/I2L?urn:x:a', 'urn:x:a', (a, b) => a === b)
 * // { kind: 'urn', urn: 'urn:other:b' }
 * ```
 */
export function interpretRedirect(location: string | undefined, reason: string, requestUrl: string, current: string, sameUrn: (a: string, b: string) => boolean): RedirectMeaning | undefined {
  const target = location?.trim();
  if (target !== undefined && schemeOf(target) === 'urn') return { kind: 'urn', urn: target };
  let absolute: string | undefined;
  if (target !== undefined) {
    try {
      absolute = new URL(target, requestUrl).href;
    } catch {
      absolute = undefined;
    }
  }
  const fromUrl = absolute !== undefined ? urnOfRfc2169Url(absolute) : undefined;
  if (fromUrl !== undefined && absolute !== undefined) {
    // The same URN at another resolver is a delegation; another URN is a substitution.
    return sameUrn(fromUrl, current) ? { kind: 'resolver', url: absolute } : { kind: 'urn', urn: fromUrl, hint: absolute };
  }
  const named = urnInReasonPhrase(reason);
  if (named !== undefined && !sameUrn(named, current) && (absolute === undefined || absolute.includes(named))) {
    return absolute === undefined ? { kind: 'urn', urn: named } : { kind: 'urn', urn: named, hint: absolute };
  }
  return absolute === undefined ? undefined : { kind: 'location', url: absolute };
}
