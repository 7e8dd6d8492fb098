/**
 * The worker thread of `--jobs N`: receives blocks of whole lines as
 * bytes, runs the operation over them and sends back the output as bytes.
 */
import { parentPort } from 'node:worker_threads';
import { processBytes, type BlockJob, type BlockResult } from './block.js';
import { ByteSink } from './out.js';

/**
 * A block sent to a worker.
 *
 * @example
 * ```ts
 * const req: BlockRequest = { id: 0, job: { op: 'normalize', opts: {}, json: false, problemsTo: 'stderr', source: '-' },
 *   bytes: new TextEncoder().encode('HTTP://A\n'), firstLine: 1 };
 * // The worker answers { id, result } with what processBytes makes of the bytes, its output as bytes:
 * Buffer.from(answer(req).out).toString() // 'http://a/\n'
 * ```
 */
export interface BlockRequest {
  id: number;
  job: BlockJob;
  bytes: Uint8Array;
  firstLine: number;
}

/**
 * What a worker answers to a block: {@link processBytes}'s result, with
 * standard output's bytes in a buffer of their own (transferred back, not
 * copied).
 *
 * @example
 * ```ts
 * const job = { op: 'validate', opts: {}, json: false, problemsTo: 'stdout', source: '-', silentValid: true } as const;
 * const r = answer({ id: 1, job, bytes: new TextEncoder().encode('http://a/\nhttp://a b/\n'), firstLine: 1 });
 * [Buffer.from(r.out).toString(), r.lines, r.failed] // ['-:2:9: invalid-char: this character is not allowed here at offset 8: U+0020\n', 2, 1]
 * ```
 */
export function answer(m: BlockRequest): BlockResult & { out: Uint8Array } {
  const parts: Buffer[] = [];
  // Never idle: every buffer written is kept, none filled again.
  const sink = new ByteSink((b) => { parts.push(b); }, () => false, m.bytes.length + (m.bytes.length >> 2) + 64);
  const r = processBytes(m.job, Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength), m.firstLine, sink);
  sink.flush();
  let size = 0;
  for (const p of parts) size += p.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return { ...r, out };
}

const port = parentPort;
if (port) {
  port.on('message', (m: BlockRequest) => {
    try {
      const r = answer(m);
      port.postMessage({ id: m.id, result: r }, [r.out.buffer as ArrayBuffer]);
    } catch (e) {
      const err = e as Error;
      port.postMessage({ id: m.id, fatal: { name: err?.name ?? 'Error', message: err?.message ?? String(e) } });
    }
  });
}
