// Filled in by its issue; re-exported from ../index.ts.
export {};
