/**
 * A small pool of worker threads for `--jobs N`. Each block goes to the
 * worker with the fewest blocks outstanding; answers come back as
 * promises, which the caller awaits in submission order so that the
 * output keeps the order of the input.
 */
import { Worker } from 'node:worker_threads';
import type { BlockJob, BlockResult } from './block.js';
import type { BlockRequest } from './worker.js';

interface Pending {
  resolve(r: BlockResult): void;
  reject(e: Error): void;
}

interface Slot {
  worker: Worker;
  outstanding: number;
}

/**
 * Thrown in the main thread when a worker failed on a block.
 *
 * @example
 * ```ts
 * const e = new WorkerFailure('TypeError', 'x is not a function');
 * [e instanceof Error, e.name, e.workerErrorName, e.message] // [true, 'WorkerFailure', 'TypeError', 'x is not a function']
 * ```
 */
export class WorkerFailure extends Error {
  constructor(readonly workerErrorName: string, message: string) {
    super(message);
    this.name = 'WorkerFailure';
  }
}

/**
 * A fixed set of worker threads running `processBytes` (block.ts) over blocks of bytes.
 *
 * @example
 * ```ts
 * // Workers run the built files (dist/worker.js), so this example takes the built pool.
 * import { WorkerPool as BuiltPool } from '../dist/pool.js';
 * const pool = new BuiltPool(2);
 * const job = { op: 'normalize', opts: {}, json: false, problemsTo: 'stderr', source: '-' } as const;
 * const results = await Promise.all([
 *   pool.run(job, new TextEncoder().encode('HTTP://A\n'), 1),
 *   pool.run(job, new TextEncoder().encode('HTTP://B:80/\n'), 2),
 * ]);
 * results.map((r) => Buffer.from(r.out).toString()) // ['http://a/\n', 'http://b/\n'] (the output comes back as bytes)
 * await pool.close();
 * ```
 */
export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  constructor(size: number) {
    const url = new URL('./worker.js', import.meta.url);
    for (let i = 0; i < size; i++) {
      const worker = new Worker(url);
      const slot: Slot = { worker, outstanding: 0 };
      worker.on('message', (m: { id: number; result?: BlockResult; fatal?: { name: string; message: string } }) => {
        const p = this.pending.get(m.id);
        if (!p) return;
        this.pending.delete(m.id);
        slot.outstanding--;
        if (m.result) p.resolve(m.result);
        else p.reject(new WorkerFailure(m.fatal?.name ?? 'Error', m.fatal?.message ?? 'worker failed'));
      });
      worker.on('error', (e) => this.failAll(e));
      this.slots.push(slot);
    }
  }

  /** Runs one block on the least busy worker; `bytes` is handed over (transferred), not copied. */
  run(job: BlockJob, bytes: Uint8Array, firstLine: number): Promise<BlockResult> {
    let slot = this.slots[0]!;
    for (const s of this.slots) if (s.outstanding < slot.outstanding) slot = s;
    const id = this.nextId++;
    slot.outstanding++;
    return new Promise<BlockResult>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      const req: BlockRequest = { id, job, bytes, firstLine };
      slot.worker.postMessage(req, [bytes.buffer as ArrayBuffer]);
    });
  }

  private failAll(e: Error): void {
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
  }

  /** Stops every worker. */
  async close(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
