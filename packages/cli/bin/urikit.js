#!/usr/bin/env node
// The `urikit` command. This launcher is committed (not built) so that
// `npm ci` can link it into node_modules/.bin before the first build; the
// program itself is dist/bin.js, built from src/bin.ts by `npm run build`.
await import('../dist/bin.js').catch((e) => {
  if (e && e.code === 'ERR_MODULE_NOT_FOUND' && String(e.message).includes('dist/bin.js')) {
    console.error('urikit: not built yet; run `npm run build` at the repository root first');
    process.exit(2);
  }
  throw e;
});
