/**
 * The raw-socket front of the service (1995 draft §3.3: Simple-Requests on
 * the same port): a failure of the listening socket is reported, not thrown.
 */
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { createFront } from '../../src/server/simple.js';

describe('the front', () => {
  it('reports an error of the listening socket (accept EMFILE) instead of ending the process', () => {
    const seen: Error[] = [];
    const front = createFront(http.createServer(), 1000, (e) => seen.push(e));
    const e = Object.assign(new Error('accept EMFILE'), { code: 'EMFILE' });
    expect(() => front.emit('error', e)).not.toThrow();
    expect(seen).toEqual([e]);
  });
});
