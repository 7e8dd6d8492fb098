/**
 * Small HTTP helpers for the integration tests: requests over real
 * sockets on 127.0.0.1, raw when the test needs the exact bytes.
 */
import net from 'node:net';

/** An answer: status, reason phrase, headers (lower-case), body bytes. */
export interface RawAnswer {
  status: number;
  reason: string;
  headers: Record<string, string>;
  body: Buffer;
  text: string;
}

/**
 * Sends `request` (bytes as given) on a fresh connection and reads until
 * the server closes it; parses an HTTP/1.x answer if there is a status line.
 */
export function rawExchange(port: number, request: string | Buffer, opts: { timeoutMs?: number; halfClose?: boolean } = {}): Promise<{ bytes: Buffer; answer?: RawAnswer }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(request);
    });
    const timer = setTimeout(() => { socket.destroy(); resolve(done()); }, opts.timeoutMs ?? 5000);
    const done = () => {
      clearTimeout(timer);
      const bytes = Buffer.concat(chunks);
      return { bytes, ...(bytes.subarray(0, 5).toString() === 'HTTP/' ? { answer: parseAnswer(bytes) } : {}) };
    };
    socket.on('data', (c) => chunks.push(c));
    socket.on('end', () => resolve(done()));
    socket.on('close', () => resolve(done()));
    socket.on('error', (e) => { if (chunks.length) resolve(done()); else reject(e); });
  });
}

/** Parses one HTTP/1.x answer (Content-Length or to the end). */
export function parseAnswer(bytes: Buffer): RawAnswer {
  const headEnd = bytes.indexOf('\r\n\r\n');
  const head = bytes.subarray(0, headEnd < 0 ? bytes.length : headEnd).toString('latin1').split('\r\n');
  const status = head[0]!.split(' ');
  const headers: Record<string, string> = {};
  for (const line of head.slice(1)) {
    const c = line.indexOf(':');
    if (c > 0) headers[line.slice(0, c).toLowerCase()] = line.slice(c + 1).trim();
  }
  let body = headEnd < 0 ? Buffer.alloc(0) : bytes.subarray(headEnd + 4);
  if (headers['content-length'] !== undefined) body = body.subarray(0, Number(headers['content-length']));
  return { status: Number(status[1]), reason: status.slice(2).join(' '), headers, body, text: body.toString('utf8') };
}

/** GET (or another method) with fetch, never following redirects. */
export async function get(base: string, path: string, headers: Record<string, string> = {}, init: RequestInit = {}): Promise<{ status: number; reason: string; headers: Headers; text: string; bytes: Buffer }> {
  const res = await fetch(base + path, { redirect: 'manual', headers, ...init });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, reason: res.statusText, headers: res.headers, text: bytes.toString('utf8'), bytes };
}
