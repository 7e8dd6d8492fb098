import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const src = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// Tests run against the TypeScript sources; the packaging test checks the
// built output separately by spawning plain `node`.
export default defineConfig({
  resolve: {
    alias: [
      { find: /^urikit$/, replacement: src('./packages/urikit/src/index.ts') },
      { find: /^@urikit\/html$/, replacement: src('./packages/html/src/index.ts') },
      { find: /^@urikit\/resolver$/, replacement: src('./packages/resolver/src/index.ts') },
      { find: /^@urikit\/cli$/, replacement: src('./packages/cli/src/index.ts') },
    ],
  },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'bench/test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default', './scripts/summary-reporter.ts'],
  },
});
