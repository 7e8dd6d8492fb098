/**
 * The 1995 draft's request form on every request of a connection, not
 * only its first: `GET alb002 HTTP/1.1` (§3.3: the ElementID alone, no
 * "/") as the second request on a keep-alive connection, or pipelined
 * after another, is given its "/" before the HTTP parser reads it, which
 * would refuse it. The stream of requests is followed by its framing
 * (RFC 9112 §6: Content-Length, chunked Transfer-Encoding) so that only
 * request lines are ever touched, never a body.
 */

/** The longest request line or header line looked at; past it the connection is handed on unread (the parser answers 414/431). */
const MAX_LINE = 8192;

type State = 'line' | 'headers' | 'body' | 'chunk-size' | 'chunk-data' | 'chunk-end' | 'trailers' | 'off';

/**
 * A request line in the draft's form given its "/": `GET alb002 HTTP/1.1`
 * becomes `GET /alb002 HTTP/1.1`; undefined when the line needs nothing
 * (a target that begins with "/", `*`, an absolute URI, or no version).
 *
 * @example
 * ```ts
 * draftLine('GET alb002 HTTP/1.1'); // 'GET /alb002 HTTP/1.1'
 * draftLine('GET /alb002 HTTP/1.1'); // undefined
 * draftLine('OPTIONS * HTTP/1.1'); // undefined
 * draftLine('CONNECT a.example:443 HTTP/1.1'); // undefined
 * ```
 */
export function draftLine(line: string): string | undefined {
  const sp1 = line.indexOf(' ');
  if (sp1 <= 0) return undefined;
  const sp2 = line.indexOf(' ', sp1 + 1);
  if (sp2 < 0) return undefined;
  const target = line.slice(sp1 + 1, sp2);
  // CONNECT's target is an authority (RFC 9110 §9.3.6), never an ElementID.
  if (target.length === 0 || target.charCodeAt(0) === 0x2f || target === '*' || target.includes('://') || line.slice(0, sp1) === 'CONNECT') return undefined;
  return `${line.slice(0, sp1)} /${target}${line.slice(sp2)}`;
}

/**
 * Follows the requests of one connection through its bytes, chunk by
 * chunk, and gives each request line in the draft's form its "/"
 * ({@link draftLine}). An incomplete request line is held back until the
 * rest of it comes; everything else passes as it came (the same buffer
 * when nothing changed). Anything it cannot follow (an upgrade, a
 * malformed length) ends its work: the rest passes untouched.
 *
 * @example
 * ```ts
 * const r = new RequestLines();
 * r.push(Buffer.from('GET /aj17-mcc HTTP/1.1\r\nHost: a\r\n\r\nGET alb')).toString(); // 'GET /aj17-mcc HTTP/1.1\r\nHost: a\r\n\r\n'
 * r.push(Buffer.from('002 HTTP/1.1\r\nHost: a\r\n\r\n')).toString(); // 'GET /alb002 HTTP/1.1\r\nHost: a\r\n\r\n'
 * ```
 */
export class RequestLines {
  #state: State = 'line';
  #held: Buffer | undefined;
  /** The part of a header or chunk-size line seen in an earlier chunk (only the lines looked at). */
  #carry = '';
  #remaining = 0;
  #contentLength = 0;
  #chunked = false;
  #upgrade = false;

  /** Hands on what of `chunk` can go on now, request lines rewritten. */
  push(chunk: Buffer): Buffer {
    if (this.#state === 'off') return chunk;
    let buf = chunk;
    if (this.#held !== undefined) {
      buf = Buffer.concat([this.#held, chunk]);
      this.#held = undefined;
    }
    const out: Buffer[] = [];
    let start = 0;
    let i = 0;
    while (i < buf.length && this.#state !== 'off') {
      if (this.#state === 'body' || this.#state === 'chunk-data') {
        const n = Math.min(this.#remaining, buf.length - i);
        i += n;
        this.#remaining -= n;
        if (this.#remaining === 0) this.#state = this.#state === 'body' ? 'line' : 'chunk-end';
        continue;
      }
      const nl = buf.indexOf(0x0a, i);
      if (this.#state === 'line') {
        if (nl < 0) {
          if (buf.length - i > MAX_LINE) { this.#state = 'off'; break; }
          // Held back until the line is whole: its target decides whether it changes.
          out.push(buf.subarray(start, i));
          this.#held = buf.subarray(i);
          return out.length === 1 ? out[0]! : Buffer.concat(out);
        }
        const end = nl > i && buf[nl - 1] === 0x0d ? nl - 1 : nl;
        // RFC 9112 §2.2: empty lines before a request line are ignored.
        if (end > i) {
          const sp = buf.indexOf(0x20, i);
          // The common case, "METHOD /...": nothing to read further.
          if (sp < 0 || sp >= end || buf[sp + 1] !== 0x2f) {
            const line = buf.toString('latin1', i, end);
            const rewritten = draftLine(line);
            if (rewritten !== undefined) {
              out.push(buf.subarray(start, i), Buffer.from(rewritten, 'latin1'));
              start = end;
            }
            if (line.startsWith('CONNECT ')) this.#upgrade = true;
          }
          this.#state = 'headers';
          this.#contentLength = 0;
          this.#chunked = false;
        }
        i = nl + 1;
        continue;
      }
      // A line of the headers, of a chunk size or of the trailers.
      if (nl < 0) {
        if (this.#carry.length + buf.length - i > MAX_LINE) { this.#state = 'off'; break; }
        this.#carry += buf.toString('latin1', i);
        i = buf.length;
        continue;
      }
      const end = nl > i && buf[nl - 1] === 0x0d ? nl - 1 : nl;
      const empty = end === i && this.#carry === '' || (end === i && this.#carry === '\r');
      const first = this.#carry !== '' ? this.#carry.charCodeAt(0) : buf[i]!;
      // Only the lines that frame a message are read as text.
      const wanted = this.#state !== 'headers' || first === 0x43 || first === 0x63 || first === 0x54 || first === 0x74 || first === 0x55 || first === 0x75;
      const text = empty || !wanted ? '' : (this.#carry + buf.toString('latin1', i, end)).replace(/\r$/, '');
      this.#carry = '';
      i = nl + 1;
      if (this.#state === 'headers') {
        if (empty) this.#endOfHeaders();
        else if (wanted) this.#header(text);
      } else if (this.#state === 'chunk-size') {
        // RFC 9112 §7.1: chunk-size [ chunk-ext ] CRLF
        const semi = text.indexOf(';');
        const hex = (semi < 0 ? text : text.slice(0, semi)).trim();
        if (!/^[0-9a-fA-F]{1,12}$/.test(hex)) { this.#state = 'off'; break; }
        this.#remaining = parseInt(hex, 16);
        this.#state = this.#remaining === 0 ? 'trailers' : 'chunk-data';
      } else if (this.#state === 'chunk-end') {
        this.#state = empty ? 'chunk-size' : 'off';
      } else if (this.#state === 'trailers' && empty) {
        this.#state = 'line';
      }
    }
    if (start === 0 && out.length === 0) return buf;
    out.push(buf.subarray(start));
    return Buffer.concat(out);
  }

  /** One header field that frames the message (RFC 9112 §6.1-§6.3). */
  #header(text: string): void {
    const colon = text.indexOf(':');
    if (colon <= 0) return;
    const name = text.slice(0, colon).trim().toLowerCase();
    const value = text.slice(colon + 1).trim();
    if (name === 'content-length') {
      if (!/^\d{1,15}$/.test(value)) { this.#state = 'off'; return; }
      this.#contentLength = Number(value);
    } else if (name === 'transfer-encoding') {
      this.#chunked = value.toLowerCase().split(',').map((v) => v.trim()).pop() === 'chunked';
      if (!this.#chunked) this.#state = 'off';
    } else if (name === 'upgrade') {
      this.#upgrade = true;
    }
  }

  #endOfHeaders(): void {
    if (this.#upgrade) this.#state = 'off';
    else if (this.#chunked) this.#state = 'chunk-size';
    else if (this.#contentLength > 0) { this.#state = 'body'; this.#remaining = this.#contentLength; }
    else this.#state = 'line';
  }
}
