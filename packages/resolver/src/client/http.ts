/**
 * One HTTP GET to a resolver (1995 draft §3.3: "The Method is always
 * GET"), with a time limit and a size limit, through `node:http` so that
 * an address found by discovery can be used while the `Host` header keeps
 * the resolver's name (1995 draft §2.2.1: every address of the host is
 * an equivalent resolver).
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { classifyHost, type HostClass } from 'urikit';
import { addressClass, guardedLookup, isAllowedAddress } from '../links/guard.js';

/**
 * What came back from a resolver.
 *
 * @example
 * ```ts
 * const server = await startServer({ port: 0, db: ':memory:', demo: true });
 * const a: HttpAnswer = await httpGet(`${server.url}/uri-res/I2L?urn:foo:unknown`, { headers: { accept: 'text/plain' }, timeout: 5000, maxBody: 1 << 20 });
 * a.status // 404
 * a.statusText // 'Not Found'
 * a.headers['content-type'] // 'text/plain; charset=utf-8'
 * a.body.length > 0 // true
 * await server.close();
 * ```
 */
export interface HttpAnswer {
  status: number;
  /** The Reason-Phrase of the Status-Line (1995 draft §3.4.1: relevant for 301 and 302). */
  statusText: string;
  /** Header names in lower case; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * How one request is sent.
 *
 * @example
 * ```ts
 * const o: HttpGetOptions = { headers: { accept: 'text/urc-0' }, timeout: 5000, maxBody: 1 << 20, publicOnly: true };
 * // publicOnly refuses a loopback, private or link-local address before connecting.
 * await httpGet('http://127.0.0.1:1/uri-res/I2L?urn:x:y', o) // throws Error
 * await httpGet('http://[::1]:1/', o).catch((e: Error) => e.message) // 'http://[::1]:1/: ::1 is not a public address (loopback)'
 * ```
 */
export interface HttpGetOptions {
  headers: Record<string, string>;
  /** Milliseconds before the request is abandoned. */
  timeout: number;
  /** The largest body accepted, in bytes. */
  maxBody: number;
  /**
   * Connect only to globally routable addresses (RFC 6890 classes, 2003
   * draft §7.3): a gateway open to the public must not be made to reach
   * loopback, private or link-local hosts (server-side request forgery).
   */
  publicOnly?: boolean;
  /**
   * The address classes it may connect to, decided by the link checker's
   * guard on every address a name resolves to (links/guard.ts); a crawler
   * passes PUBLIC_ONLY unless told to reach private networks.
   */
  allowAddresses?: ReadonlySet<HostClass> | 'all';
}

/** Why an address may not be used, or undefined when it is public. */
function refusal(address: string): string | undefined {
  const cls = classifyHost(isIP(address) === 6 ? `[${address}]` : address);
  return cls === 'public' ? undefined : `${address} is not a public address (${cls})`;
}

/** A DNS lookup for node:http that refuses every address that is not public. */
const publicLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err, '', 0);
    const bad = addresses.map((a) => refusal(a.address)).find((r) => r !== undefined);
    if (bad !== undefined) return callback(Object.assign(new Error(bad), { code: 'EPUBLICONLY' }), '', 0);
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    const first = addresses[0];
    return first ? callback(null, first.address, first.family) : callback(Object.assign(new Error(`${hostname}: no address`), { code: 'ENOTFOUND' }), '', 0);
  });
};

/**
 * Sends `GET url` and collects the answer; rejects with a message naming
 * the URL and the cause (connection refused, timeout, oversized body).
 *
 * @example
 * ```ts
 * const server = await startServer({ port: 0, db: ':memory:', demo: true });
 * const a = await httpGet(`${server.url}/uri-res/I2L?urn:foo:a123,456`, { headers: { accept: 'text/uri-list' }, timeout: 5000, maxBody: 1 << 20 });
 * a.status // 302
 * a.headers.location // 'http://example.org/foo/a123,456'
 * await server.close();
 * ```
 */
export function httpGet(url: string, opts: HttpGetOptions): Promise<HttpAnswer> {
  return new Promise((resolvePromise, reject) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      reject(new Error(`${url}: not an http URL`));
      return;
    }
    const send = target.protocol === 'https:' ? httpsRequest : target.protocol === 'http:' ? httpRequest : undefined;
    if (!send) {
      reject(new Error(`${url}: only http and https resolvers are supported`));
      return;
    }
    if (opts.publicOnly) {
      // An address written in the URL is never looked up; check it here.
      const literal = target.hostname.startsWith('[') ? target.hostname.slice(1, -1) : target.hostname;
      const bad = isIP(literal) ? refusal(literal) : undefined;
      if (bad !== undefined) {
        reject(new Error(`${url}: ${bad}`));
        return;
      }
    }
    const allowed = opts.allowAddresses;
    if (allowed !== undefined) {
      const literal = target.hostname.startsWith('[') ? target.hostname.slice(1, -1) : target.hostname;
      if (isIP(literal) && !isAllowedAddress(literal, allowed)) {
        reject(new Error(`${url}: ${literal} is ${addressClass(literal)}, not an address allowed here`));
        return;
      }
    }
    const lookup = opts.publicOnly ? publicLookup : allowed !== undefined ? (guardedLookup(allowed) as unknown as LookupFunction) : undefined;
    const req = send(target, { method: 'GET', headers: opts.headers, timeout: opts.timeout, ...(lookup !== undefined ? { lookup } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > opts.maxBody) {
          res.destroy();
          reject(new Error(`${url}: the answer is larger than ${opts.maxBody} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      res.on('error', (e) => reject(new Error(`${url}: ${e.message}`)));
      res.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) {
          if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
        }
        resolvePromise({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', headers, body: Buffer.concat(chunks) });
      });
    });
    // The whole exchange has one deadline, so a resolver that sends a byte
    // now and then cannot hold the client (the socket timeout alone would).
    const deadline = setTimeout(() => req.destroy(new Error(`no answer within ${opts.timeout} ms`)), opts.timeout);
    req.on('close', () => clearTimeout(deadline));
    req.on('timeout', () => req.destroy(new Error(`no answer within ${opts.timeout} ms`)));
    req.on('error', (e: NodeJS.ErrnoException) => reject(new Error(`${url}: ${e.code ? `${e.code} ` : ''}${e.message}`)));
    req.end();
  });
}
