#!/usr/bin/env node
// The `urikit` command. This launcher is committed (not built) so that
// `npm ci` can link it into node_modules/.bin before the first build; the
// program itself is dist/bin.js, built from src/bin.ts by `npm run build`.
// The commands that need only the core run from dist/urikit.js, the same
// program bundled into one file (scripts/bundle-cli.mjs): it starts 0.10 s
// or more sooner. The others (the service, links, token, urn mint: the
// table says which) load @urikit/resolver, which brings its own copy of the
// core, so they run from dist/bin.js, which shares it. A bundle older than the last build of
// the CLI or of the core (a `tsc -b` without the bundling step) is not used.
import { statSync } from 'node:fs';

function bundleIsFresh() {
  let made;
  try {
    made = statSync(new URL('../dist/urikit.js', import.meta.url)).mtimeMs;
  } catch {
    return false;
  }
  for (const info of ['../tsconfig.tsbuildinfo', '../../urikit/tsconfig.tsbuildinfo']) {
    try {
      if (statSync(new URL(info, import.meta.url)).mtimeMs > made) return false;
    } catch {
      // An installed package has no build information: its bundle was made with it.
    }
  }
  return true;
}

// What the command needs loaded comes from the CLI's one command table
// (src/command-table.ts); before the first build there is none.
const loads = await import('../dist/command-table.js').then((t) => t.loadsFor(process.argv.slice(2)), () => 'resolver');
const program = loads === 'core' && bundleIsFresh() ? '../dist/urikit.js' : '../dist/bin.js';
await import(program).catch((e) => {
  if (e && e.code === 'ERR_MODULE_NOT_FOUND' && String(e.message).includes('dist/bin.js')) {
    console.error('urikit: not built yet; run `npm run build` at the repository root first');
    process.exit(2);
  }
  throw e;
});
