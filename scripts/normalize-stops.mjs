// How many times one call of `normalize` enters and leaves the core's
// modules: a worker thread steps through the call with the inspector
// (connected to the main thread) and records the module of every step in
// packages/urikit/dist. A stop is a run of steps in one module; the
// returns are the stops beyond the first in each module (stops - modules).
// A measure of how far a reader follows one call across files.
//
//   node scripts/normalize-stops.mjs [INPUT] [--list] [--root DIR]
//
// INPUT defaults to the example of normalize's documentation; --list
// prints every stop with the functions it ran; --root reads another
// checkout's build (DIR/packages/urikit/dist, after `tsc -b packages/urikit`).
import { Worker, isMainThread, workerData, parentPort } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

if (isMainThread) {
  const args = process.argv.slice(2);
  const rootAt = args.indexOf('--root');
  const root = rootAt >= 0 ? resolve(args[rootAt + 1]) : resolve(new URL('..', import.meta.url).pathname);
  const input = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--root') ?? 'HTTP://www.Example.COM:80/a/%7euser/./b/../c';
  const lib = await import(pathToFileURL(`${root}/packages/urikit/dist/index.js`).href);
  lib.normalize(input); // every module loaded before the stepping starts
  const ready = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(new URL(import.meta.url), { workerData: { ready, input, list: args.includes('--list') } });
  Atomics.wait(ready, 0, 0);
  const call = () => {
    debugger; // the worker steps in from here
    return lib.normalize(input);
  };
  call();
  worker.postMessage('done');
} else {
  const { Session } = await import('node:inspector');
  const session = new Session();
  session.connectToMainThread();
  const scripts = new Map();
  session.on('Debugger.scriptParsed', (m) => scripts.set(m.params.scriptId, m.params.url));
  const trail = [];
  session.on('Debugger.paused', (m) => {
    const top = m.params.callFrames[0];
    const url = scripts.get(top.location.scriptId) ?? '';
    const at = url.indexOf('/packages/urikit/dist/');
    if (at < 0) {
      // this script (step on into normalize) or Node's own code (step out of it)
      session.post(url === import.meta.url ? 'Debugger.stepInto' : 'Debugger.stepOut');
      return;
    }
    trail.push([url.slice(at + '/packages/urikit/dist/'.length), top.functionName]);
    session.post('Debugger.stepInto');
  });
  session.post('Debugger.enable', () => {
    Atomics.store(workerData.ready, 0, 1);
    Atomics.notify(workerData.ready, 0);
  });
  parentPort.on('message', () => {
    const stops = [];
    for (const [mod, fn] of trail) {
      if (stops.length === 0 || stops.at(-1).mod !== mod) stops.push({ mod, fns: new Set() });
      stops.at(-1).fns.add(fn);
    }
    const perModule = new Map();
    for (const s of stops) perModule.set(s.mod, (perModule.get(s.mod) ?? 0) + 1);
    console.log(`${JSON.stringify(workerData.input)}: ${stops.length} stops in ${perModule.size} modules, ${stops.length - perModule.size} returns`);
    console.log('  ' + [...perModule].sort((a, b) => b[1] - a[1]).map(([m, n]) => `${m} ${n}`).join(', '));
    if (workerData.list) for (const s of stops) console.log(`  ${s.mod} (${[...s.fns].join(', ')})`);
    session.disconnect();
    process.exit(0);
  });
}
