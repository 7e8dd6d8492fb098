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
 * worker.postMessage({ id: 0, job, bytes, firstLine: 1 } satisfies BlockRequest, [bytes.buffer]);
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
