/**
 * The core barrel: parse, serialize, resolve, normalize, percent-encoding
 * (issue 2). Re-exported from index.ts.
 */
export {};
