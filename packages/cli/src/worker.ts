/**
 * The worker thread of `--jobs N`: receives blocks of whole lines as
 * bytes, runs the operation over them and sends back the output text.
 */
import { parentPort } from 'node:worker_threads';
import { processBlock, type BlockJob } from './block.js';

/**
 * A block sent to a worker.
 *
 * @example
 * ```ts
 * import { processBlock } from './block.js';
 * const req: BlockRequest = { id: 0, job: { op: 'normalize', opts: {}, json: false, problemsTo: 'stderr', source: '-' },
 *   bytes: new TextEncoder().encode('HTTP://A\n'), firstLine: 1 };
 * // The worker answers { id, result } with what processBlock makes of the decoded bytes:
 * processBlock(req.job, new TextDecoder().decode(req.bytes), req.firstLine).out // 'http://a/\n'
 * ```
 */
export interface BlockRequest {
  id: number;
  job: BlockJob;
  bytes: Uint8Array;
  firstLine: number;
}

const decoder = new TextDecoder('utf-8');
const port = parentPort;
if (port) {
  port.on('message', (m: BlockRequest) => {
    try {
      const r = processBlock(m.job, decoder.decode(m.bytes), m.firstLine);
      port.postMessage({ id: m.id, result: r });
    } catch (e) {
      const err = e as Error;
      port.postMessage({ id: m.id, fatal: { name: err?.name ?? 'Error', message: err?.message ?? String(e) } });
    }
  });
}
