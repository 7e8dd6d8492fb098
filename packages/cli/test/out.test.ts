/**
 * The output buffer of bulk mode (packages/cli/src/out.ts): a buffer the
 * stream still holds is never written into again, whatever the sizes of
 * the pieces; the bytes come out whole and in order.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ByteSink } from '../src/out.js';

describe('ByteSink', () => {
  it('never touches a buffer the stream still holds; everything comes out in order', () => {
    fc.assert(fc.property(
      fc.array(fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 10 }), fc.constant('\n')), { maxLength: 80 }),
      fc.array(fc.boolean(), { maxLength: 80 }),
      fc.integer({ min: 4, max: 64 }),
      (pieces, drains, size) => {
        // A stream that holds what it is handed until it drains: snapshots of each buffer at hand-over.
        let held: Array<{ view: Buffer; copy: Buffer }> = [];
        const sent: Buffer[] = [];
        let holding = false;
        const sink = new ByteSink((b) => {
          held.push({ view: b, copy: Buffer.from(b) });
          sent.push(Buffer.from(b));
          holding = true;
        }, () => !holding, size);
        pieces.forEach((p, i) => {
          if (p.length % 2 === 0) sink.text(p);
          else sink.copy(Buffer.from(`[${p}]`), 1, Buffer.byteLength(p) + 1);
          if (drains[i]) {
            // Drained: every buffer written so far has been sent; check none was changed meanwhile.
            for (const h of held) expect(h.view.equals(h.copy)).toBe(true);
            held = []; // sent: the sink may fill these again
            holding = false;
          }
        });
        sink.flush();
        for (const h of held) expect(h.view.equals(h.copy)).toBe(true);
        expect(Buffer.concat(sent).toString()).toBe(pieces.join(''));
      },
    ), { numRuns: 300 });
  });
});
