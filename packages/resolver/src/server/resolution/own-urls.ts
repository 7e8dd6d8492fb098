/**
 * This resolver's own URLs for names: a move to
 * `http://127.0.0.1:4500/urn:example:a` (or `/uri-res/N2L?urn:example:a`,
 * or `/a` under the bare form's authority) sends a client back here, to
 * `urn:example:a`, so the cycle check counts it as a move to that name
 * (store/lifecycle.ts `ChainReader.ownUrn`). The server knows its own
 * origins: the address it listens on (with the loopback names of it),
 * the public URL it is configured with, and, on the port it listens on,
 * the hosts whose `urn:dns:` authority it holds (the 1995 draft §2.2.1
 * rule sends their names there); never a request's `Host`, which a
 * client chooses.
 */
import { readTarget } from './target.js';

/** The origin of a URL as the WHATWG URL parser gives it (scheme and host lower case, no default port), or undefined. */
function originOf(url: string): string | undefined {
  try { return new URL(url).origin; } catch { return undefined; }
}

/**
 * The origins a server listening on `listenUrl` answers at: that one, its
 * loopback aliases when it listens on a loopback or wildcard address, and
 * `publicUrl`.
 *
 * @example
 * ```ts
 * ownOrigins('http://127.0.0.1:4500', 'https://URN.example.org/');
 * // ['http://127.0.0.1:4500', 'http://localhost:4500', 'http://[::1]:4500', 'https://urn.example.org']
 * ```
 */
export function ownOrigins(listenUrl: string, publicUrl?: string): string[] {
  const out = new Set<string>();
  const listen = new URL(listenUrl);
  out.add(listen.origin);
  if (['127.0.0.1', 'localhost', '[::1]', '0.0.0.0', '[::]'].includes(listen.hostname)) {
    for (const h of ['127.0.0.1', 'localhost', '[::1]']) out.add(`${listen.protocol}//${h}:${listen.port}`);
  }
  const pub = publicUrl !== undefined ? originOf(publicUrl) : undefined;
  if (pub !== undefined) out.add(pub);
  return [...out];
}

/**
 * The reader of this resolver's own URLs: the URN a URL at one of
 * `origins` asks for, in any resolution form (`/<urn>`, `/uri-res/<service>?<urn>`,
 * `/<ElementID>` for the authority `elementAuthority` gives the URL's
 * host), or undefined for any other URL.
 *
 * @example
 * ```ts
 * const own = ownUrnReader(['http://127.0.0.1:4500'], () => 'urn:dns:library.bigstate.edu');
 * own('http://127.0.0.1:4500/urn:example:cy-a'); // 'urn:example:cy-a'
 * own('http://127.0.0.1:4500/uri-res/N2L?urn:example:cy-a'); // 'urn:example:cy-a'
 * own('http://LOCALHOST:4500/aj17-mcc'); // undefined (not one of the origins given)
 * own('http://127.0.0.1:4500/aj17-mcc'); // 'urn:dns:library.bigstate.edu:aj17-mcc'
 * own('https://elsewhere.example/urn:example:cy-a'); // undefined
 * // A host whose urn:dns: authority this server holds, on its port (1995 draft §2.2.1).
 * const flix = ownUrnReader([], () => 'urn:dns:urn.flixco.com', { port: '4500', held: (h) => (h === 'urn.flixco.com' ? 'urn:dns:urn.flixco.com' : undefined) });
 * flix('http://urn.flixco.com:4500/casablanca'); // 'urn:dns:urn.flixco.com:casablanca'
 * flix('http://urn.flixco.com:8080/casablanca'); // undefined
 * ```
 */
export function ownUrnReader(origins: readonly string[], elementAuthority: (host: string) => string | undefined, heldHosts?: { port: string; held: (host: string) => string | undefined }): (url: string) => string | undefined {
  const mine = new Set(origins);
  return (url) => {
    let u: URL;
    try { u = new URL(url); } catch { return undefined; }
    const heldHere = heldHosts !== undefined && u.protocol === 'http:' && (u.port || '80') === heldHosts.port && heldHosts.held(u.hostname) !== undefined;
    if (!mine.has(u.origin) && !heldHere) return undefined;
    let t;
    try { t = readTarget(u.pathname + u.search); } catch { return undefined; }
    if (t === undefined || t.urn === '') return undefined;
    if (t.form !== 'element') return t.urn;
    // 1995 draft §3.3: the ElementID alone; its reserved requests (§3.5) are no name.
    if (t.urn.startsWith('urn+')) return undefined;
    const authority = elementAuthority(u.host);
    return authority === undefined ? undefined : `${authority}:${t.urn}`;
  };
}
