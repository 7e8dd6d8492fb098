// Run by allocation.test.ts in a child process with a young generation
// large enough that no garbage collection happens while it measures:
// node --expose-gc --min-semi-space-size=256 --max-semi-space-size=256 allocation-probe.mjs
// Prints one JSON line: bytes of heap allocated per call, per operation.
import { isValid, normalize } from 'urikit';

const inputs = JSON.parse(process.argv[2]);
const control = JSON.parse(process.argv[3]);
const N = 1_000_000;
const ops = {
  'isValid': (s) => isValid(s),
  'isValid uri': (s) => isValid(s, 'uri'),
  'normalize': (s) => normalize(s),
  'normalize syntax': (s) => normalize(s, { level: 'syntax' }),
};

function bytesPerCall(f, list) {
  globalThis.gc();
  globalThis.gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < N; i++) f(list[i % list.length]);
  return (process.memoryUsage().heapUsed - before) / N;
}

// Warm up every operation first, so that the compiler's own allocations
// (optimized code) are done before anything is measured.
for (let round = 0; round < 3; round++) {
  for (const f of Object.values(ops)) for (let i = 0; i < 200_000; i++) f(inputs[i % inputs.length]);
}
const result = {};
for (const [name, f] of Object.entries(ops)) result[name] = bytesPerCall(f, inputs);
// The positive control: inputs that are not in normal form must show their allocations.
result['normalize (control: not normal)'] = bytesPerCall(ops.normalize, control);
console.log(JSON.stringify(result));
