/**
 * The URN namespace registry (RFC 8141 §5, 2012 draft §3): NID (case-
 * insensitive) -> plug-in. Pre-filled with the namespaces urikit ships, so
 * that importing it has no side effect.
 */
import { UriError } from '../../errors.js';
import { CLASS } from '../../chars.js';
import { ALPHANUM } from '../chars.js';
import { informalNidError } from '../lexical.js';
import type { UrnNamespace } from '../types.js';
import { example } from './example.js';
import { ietf } from './ietf.js';
import { isbn } from './isbn.js';
import { issn } from './issn.js';
import { nbn } from './nbn.js';
import { oid } from './oid.js';
import { publicid } from './publicid.js';
import { uuid } from './uuid.js';
import { registeredUrnNamespaces } from './lexical.js';
import { URN_MESSAGES, registerMessages } from '../../messages.js';

// The messages of the URN codes this module throws (messages.ts).
registerMessages(URN_MESSAGES);

/** The namespaces urikit ships. */
const BUILT_IN = [example, ietf, isbn, issn, nbn, oid, publicid, uuid];
const builtIn = new Map<string, UrnNamespace>(BUILT_IN.map((ns) => [ns.nid, ns]));

/**
 * Registers (or replaces) a URN namespace plug-in; NIDs are case-insensitive
 * (RFC 8141 §2.1).
 *
 * @see https://www.rfc-editor.org/rfc/rfc8141#section-5
 * @example
 * ```ts
 * registerUrnNamespace({ nid: 'x-foo', reference: 'RFC 0000', normalizeNss: (nss) => nss.toLowerCase() });
 * urnEquivalent('urn:x-foo:ABC', 'URN:X-FOO:abc') // true
 * ```
 */
export function registerUrnNamespace(ns: UrnNamespace): void {
  const nid = ns.nid.toLowerCase();
  if (nid === 'urn') throw new UriError('reserved-nid', 0, ns.nid);
  // RFC 8141 §2: NID = (alphanum) 0*30(ldh) (alphanum); ldh = alphanum / "-"
  for (let i = 0; i < nid.length && i <= 32; i++) {
    const c = nid.charCodeAt(i);
    const alnum = c < 128 && (CLASS[c]! & ALPHANUM) !== 0;
    if (i === 32 || !(alnum || (c === 0x2d && i > 0))) throw new UriError('bad-nid', i, ns.nid);
  }
  if (nid.length < 2 || nid.charCodeAt(nid.length - 1) === 0x2d) throw new UriError('bad-nid', nid.length, ns.nid);
  const bad = informalNidError(nid);
  if (bad >= 0) throw new UriError('bad-nid', bad, ns.nid, 'RFC 8141 §5.2: "urn-" begins only an informal NID, "urn-" and a number');
  registeredUrnNamespaces.set(nid, { ...ns, nid });
}

/**
 * The namespace plug-in registered for an NID (any case), if any.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8141#section-2.1
 * @example
 * ```ts
 * getUrnNamespace('ISBN')?.reference; // "RFC 3187, RFC 8254"
 * ```
 */
export function getUrnNamespace(nid: string): UrnNamespace | undefined {
  const key = nid.toLowerCase();
  return registeredUrnNamespaces.get(key) ?? builtIn.get(key);
}

/**
 * Every registered namespace plug-in.
 *
 * @example
 * ```ts
 * listUrnNamespaces().map((ns) => ns.nid).slice(0, 3); // ["example", "ietf", "isbn"]
 * ```
 */
export function listUrnNamespaces(): UrnNamespace[] {
  const out = BUILT_IN.map((ns) => registeredUrnNamespaces.get(ns.nid) ?? ns);
  for (const [nid, ns] of registeredUrnNamespaces) if (!builtIn.has(nid)) out.push(ns);
  return out;
}
