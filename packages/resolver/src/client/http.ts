/**
 * One HTTP GET to a resolver (1995 draft §3.3: "The Method is always
 * GET"), with a time limit and a size limit, through `node:http` so that
 * an address found by discovery can be used while the `Host` header keeps
 * the resolver's name (1995 draft §2.2.1: every address of the host is
 * an equivalent resolver).
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** What came back from a resolver. */
export interface HttpAnswer {
  status: number;
  /** The Reason-Phrase of the Status-Line (1995 draft §3.4.1: relevant for 301 and 302). */
  statusText: string;
  /** Header names in lower case; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
}

/** How one request is sent. */
export interface HttpGetOptions {
  headers: Record<string, string>;
  /** Milliseconds before the request is abandoned. */
  timeout: number;
  /** The largest body accepted, in bytes. */
  maxBody: number;
}

/**
 * Sends `GET url` and collects the answer; rejects with a message naming
 * the URL and the cause (connection refused, timeout, oversized body).
 *
 * @example
 * ```ts
 * const a = await httpGet('http://127.0.0.1:4500/urn+m', { headers: { accept: 'text/urc-0' }, timeout: 5000, maxBody: 1 << 20 });
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
    const req = send(target, { method: 'GET', headers: opts.headers, timeout: opts.timeout }, (res) => {
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
    req.on('timeout', () => req.destroy(new Error(`no answer within ${opts.timeout} ms`)));
    req.on('error', (e: NodeJS.ErrnoException) => reject(new Error(`${url}: ${e.code ? `${e.code} ` : ''}${e.message}`)));
    req.end();
  });
}
